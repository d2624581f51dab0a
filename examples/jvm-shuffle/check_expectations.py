#!/usr/bin/env python3
"""Checks expectations.json against the sources of examples/jvm-shuffle (python3, stdlib only).

- every test id names a @Test method of its class, whose JUnit version matches "junit";
- every implementation-dependent (flaky) entry has a site "path:line" (under src/main/java for
  code "main", src/test/java for code "test") whose line carries the marker // shuffle-site;
  a test-code site lies inside the test method itself;
- every marker in the sources is the site of exactly one entry;
- fix kinds are known, every flaky test has a not-flaky twin that points back, and every @Test
  method of the sources has an entry;
- the coverage the example promises: at least 16 flaky tests, at least 5 per JUnit version,
  every API family, every fix kind, at least two tests that no small fix repairs.

Run from anywhere: python3 examples/jvm-shuffle/check_expectations.py
"""
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
MAIN = HERE / "src" / "main" / "java"
TEST = HERE / "src" / "test" / "java"
MARKER = "// shuffle-site"
FIXES = {"linked", "sorted", "as_collection", "none"}
FAMILIES = {
    "HashMap", "HashSet", "Hashtable", "Properties", "IdentityHashMap", "WeakHashMap",
    "ConcurrentHashMap", "PriorityQueue", "PriorityBlockingQueue", "Class.getDeclaredMethods",
    "Class.getMethods", "Class.getDeclaredFields", "Class.getFields",
    "Class.getDeclaredConstructors", "Class.getAnnotations", "File.list", "File.listFiles",
}
TEST_ANNOTATION = re.compile(r"^\s*@Test\b")
METHOD = re.compile(r"^\s*(?:public\s+)?void\s+(\w+)\s*\(")

errors = []


def error(message):
    errors.append(message)


def test_methods(path):
    """{method name: (first line, last line)} of the @Test methods of a test class (1-based).

    A method spans from its @Test line to the line before the next @Test, or to the end."""
    lines = path.read_text().splitlines()
    starts = [n for n, line in enumerate(lines, 1) if TEST_ANNOTATION.match(line)]
    methods = {}
    for i, start in enumerate(starts):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(lines)
        for n in range(start + 1, min(start + 4, end + 1)):
            m = METHOD.match(lines[n - 1])
            if m:
                methods[m.group(1)] = (start, end)
                break
        else:
            error(f"{path.relative_to(HERE)}:{start}: @Test without a method after it")
    return methods


def junit_version(path):
    text = path.read_text()
    four = "import org.junit.Test;" in text
    five = "import org.junit.jupiter.api.Test;" in text
    return 4 if four and not five else 5 if five and not four else None


def class_file(test_id):
    cls = test_id.split("#", 1)[0]
    return TEST / (cls.replace(".", "/") + ".java")


def main():
    entries = json.loads((HERE / "expectations.json").read_text())
    if not isinstance(entries, list):
        sys.exit("expectations.json: not an array")
    by_id = {}
    for e in entries:
        if e.get("test") in by_id:
            error(f"{e.get('test')}: listed twice")
        by_id[e.get("test")] = e

    # Every test id exists, as a @Test method of the JUnit version given.
    method_cache = {}
    for test_id, e in by_id.items():
        if not isinstance(test_id, str) or "#" not in test_id:
            error(f"bad test id {test_id!r}")
            continue
        path = class_file(test_id)
        if not path.is_file():
            error(f"{test_id}: no source file {path.relative_to(HERE)}")
            continue
        methods = method_cache.setdefault(path, test_methods(path))
        if test_id.split("#", 1)[1] not in methods:
            error(f"{test_id}: no @Test method of that name in {path.relative_to(HERE)}")
        if junit_version(path) != e.get("junit"):
            error(f"{test_id}: junit {e.get('junit')} but {path.name} imports JUnit {junit_version(path)}'s @Test")
        if e.get("family") not in FAMILIES:
            error(f"{test_id}: unknown family {e.get('family')!r}")

    # Flaky entries: site, fix, twin.
    sites = {}
    for test_id, e in by_id.items():
        if e.get("flaky") is True:
            code = e.get("code")
            root = MAIN if code == "main" else TEST if code == "test" else None
            site = e.get("site", "")
            m = re.fullmatch(r"(.+\.java):(\d+)", site)
            if root is None or not m:
                error(f"{test_id}: bad code {code!r} or site {site!r}")
                continue
            path, line = root / m.group(1), int(m.group(2))
            if not path.is_file():
                error(f"{test_id}: site file {path.relative_to(HERE)} does not exist")
                continue
            lines = path.read_text().splitlines()
            if not 1 <= line <= len(lines) or MARKER not in lines[line - 1]:
                error(f"{test_id}: {site} ({code}) does not carry {MARKER}")
            sites.setdefault((path, line), []).append(test_id)
            if code == "test":
                if path != class_file(test_id):
                    error(f"{test_id}: test-code site {site} is not in the test's own class")
                else:
                    span = method_cache.get(path, {}).get(test_id.split("#", 1)[1])
                    if span and not span[0] <= line <= span[1]:
                        error(f"{test_id}: test-code site {site} is outside the test method (lines {span[0]}-{span[1]})")
            if e.get("fix") not in FIXES:
                error(f"{test_id}: unknown fix {e.get('fix')!r}")
            for key in ("also_fixed_by", "not_fixed_by"):
                for kind in e.get(key, []):
                    if kind not in FIXES - {"none"}:
                        error(f"{test_id}: unknown fix kind {kind!r} in {key}")
            if e.get("fix") in e.get("not_fixed_by", []) or e.get("fix") in e.get("also_fixed_by", []):
                error(f"{test_id}: fix {e.get('fix')} listed again in also_fixed_by/not_fixed_by")
            if e.get("fix") == "none" and e.get("also_fixed_by"):
                error(f"{test_id}: fix none but also_fixed_by {e.get('also_fixed_by')}")
            if e.get("reads") not in (1, 2):
                error(f"{test_id}: reads must be 1 or 2")
            twin = by_id.get(e.get("twin"))
            if twin is None:
                error(f"{test_id}: twin {e.get('twin')!r} has no entry")
            elif twin.get("flaky") is not False or twin.get("twin_of") != test_id:
                error(f"{test_id}: twin {e.get('twin')} is not a not-flaky entry pointing back (twin_of)")
            elif twin.get("family") != e.get("family") or twin.get("junit") != e.get("junit"):
                error(f"{test_id}: twin {e.get('twin')} differs in family or junit")
        elif e.get("flaky") is False:
            if "site" in e or "fix" in e:
                error(f"{test_id}: a twin has no site or fix")
            origin = by_id.get(e.get("twin_of"))
            if origin is None or origin.get("twin") != test_id:
                error(f"{test_id}: twin_of {e.get('twin_of')!r} is not a flaky entry naming it as twin")
        else:
            error(f"{test_id}: flaky must be true or false")

    # Every marker is the site of exactly one entry; every @Test method has an entry.
    for root in (MAIN, TEST):
        for path in sorted(root.rglob("*.java")):
            for n, text in enumerate(path.read_text().splitlines(), 1):
                if MARKER in text and len(sites.get((path, n), [])) != 1:
                    error(f"{path.relative_to(HERE)}:{n}: marker is the site of {sites.get((path, n), [])}")
    for path in sorted(TEST.rglob("*Test.java")):
        cls = ".".join(path.relative_to(TEST).with_suffix("").parts)
        for name in method_cache.get(path) or test_methods(path):
            if f"{cls}#{name}" not in by_id:
                error(f"{cls}#{name}: @Test method without an entry")

    # Coverage.
    flaky = [e for e in by_id.values() if e.get("flaky") is True]
    if len(flaky) < 16:
        error(f"only {len(flaky)} implementation-dependent tests (want 16)")
    for version in (4, 5):
        count = sum(1 for e in flaky if e.get("junit") == version)
        if count < 5:
            error(f"only {count} JUnit {version} implementation-dependent tests (want 5)")
    missing = FAMILIES - {e.get("family") for e in flaky}
    if missing:
        error(f"families without an implementation-dependent test: {sorted(missing)}")
    kinds = {e.get("fix") for e in flaky}
    if kinds != FIXES:
        error(f"fix kinds used: {sorted(kinds)} (want all of {sorted(FIXES)})")
    if sum(1 for e in flaky if e.get("fix") == "none") < 2:
        error("fewer than two tests that no small fix repairs")
    for code in ("main", "test"):
        if not any(e.get("code") == code for e in flaky):
            error(f"no implementation-dependent test consumes the order in {code} code")

    if errors:
        for message in errors:
            print("error:", message)
        sys.exit(1)
    per_fix = {kind: sum(1 for e in flaky if e.get("fix") == kind) for kind in sorted(FIXES)}
    print(f"ok: {len(flaky)} implementation-dependent tests "
          f"(JUnit 4: {sum(1 for e in flaky if e['junit'] == 4)}, JUnit 5: {sum(1 for e in flaky if e['junit'] == 5)}; "
          f"code main: {sum(1 for e in flaky if e['code'] == 'main')}, test: {sum(1 for e in flaky if e['code'] == 'test')}), "
          f"{len(by_id) - len(flaky)} twins, {len(FAMILIES)} families, fixes {per_fix}")


if __name__ == "__main__":
    main()
