#!/usr/bin/env python3
"""examples/jvm-threads against its expectations.json (python3, standard library only).

Sources (always):
  - every entry names a @Test method of its class, written for the JUnit it says;
  - every racy entry has a twin that points back, of the same kind and JUnit;
  - every racing line (path:line) carries the marker // RACE, and every marker in src/main is
    a racing line of some entry;
  - every @Test method of the sources has an entry;
  - each of the six kinds has a racy test in JUnit 4 and one in JUnit 5, and only the
    lock-order kind expects a deadlock.
Twins (with --classpath and --runner): each correct twin runs 10 times in one JVM through
flakescan's runner and passes every time. The racy tests are not run here: they are flaky.

  check_example.py SOURCE_DIR [--classpath CP --runner JAR --work DIR]
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

KINDS = {"lost_update", "check_then_act", "lock_order_deadlock", "missed_notify", "sleep_as_wait", "pool_task_outlives_test"}
PLATFORM = ["junit-platform-launcher.jar", "junit-platform-engine.jar", "junit-platform-commons.jar", "junit-jupiter-engine.jar",
            "junit-jupiter-api.jar", "junit-vintage-engine.jar", "junit4.jar", "hamcrest-core.jar", "opentest4j.jar",
            "apiguardian-api.jar"]
errors = []


def error(message):
    errors.append(message)


def test_methods(test_root):
    """{test id: "junit4" | "junit5"} of every @Test method under test_root."""
    out = {}
    for path in sorted(test_root.rglob("*Test.java")):
        text = path.read_text()
        junit = "junit5" if "org.junit.jupiter.api.Test" in text else "junit4"
        cls = ".".join(path.relative_to(test_root).with_suffix("").parts)
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if re.match(r"^\s*@Test\b", line):
                m = re.search(r"void\s+(\w+)\s*\(", lines[i + 1])
                if m:
                    out[cls + "#" + m.group(1)] = junit
    return out


def check_sources(example):
    doc = json.loads((example / "expectations.json").read_text())
    tests = {t["id"]: t for t in doc["tests"]}
    methods = test_methods(example / "src/test/java")
    for tid, t in tests.items():
        if methods.get(tid) != t["junit"]:
            error(f"{tid}: no {t['junit']} @Test method of that name (found: {methods.get(tid)})")
        if t["kind"] not in KINDS:
            error(f"{tid}: unknown kind {t['kind']}")
        if t["flaky"]:
            twin = tests.get(t.get("twin"), {})
            if twin.get("twin_of") != tid or twin.get("flaky") or twin.get("kind") != t["kind"] or twin.get("junit") != t["junit"]:
                error(f"{tid}: its twin {t.get('twin')} does not point back (same kind and JUnit, not flaky)")
            if t.get("category") != "concurrency":
                error(f"{tid}: expected category {t.get('category')}, not concurrency")
            if t["deadlock"] != (t["kind"] == "lock_order_deadlock"):
                error(f"{tid}: deadlock {t['deadlock']} for kind {t['kind']}")
            if len(t.get("racing_lines", [])) != 2:
                error(f"{tid}: {len(t.get('racing_lines', []))} racing lines, not 2")
    for tid in methods:
        if tid not in tests:
            error(f"{tid}: a @Test method without an entry")
    marked = set()
    for path in sorted((example / "src/main/java").rglob("*.java")):
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if "// RACE" in line:
                marked.add(f"{path.relative_to(example)}:{i}")
    named = set()
    for t in tests.values():
        for site in [r["site"] for r in t.get("racing_lines", [])] + ([t["test_line"]] if "test_line" in t else []):
            path, line = site.rsplit(":", 1)
            lines = (example / path).read_text().splitlines()
            if not (0 < int(line) <= len(lines)) or "// RACE" not in lines[int(line) - 1]:
                error(f"{t['id']}: {site} carries no // RACE marker")
            named.add(site)
    for site in sorted(marked - named):
        error(f"{site}: a // RACE marker no entry names")
    for kind in KINDS:
        for junit in ("junit4", "junit5"):
            if not any(t["flaky"] and t["kind"] == kind and t["junit"] == junit for t in tests.values()):
                error(f"no racy {kind} test in {junit}")
    return tests


def check_twins(tests, classpath, runner, work):
    twins = [tid for tid, t in tests.items() if not t["flaky"]]
    work.mkdir(parents=True, exist_ok=True)
    (work / "twins.tests").write_text("".join(tid + "\n" for tid in twins for _ in range(10)))
    results = work / "twins.results"
    cp = ":".join([classpath, runner] + ["/usr/share/java/" + j for j in PLATFORM])
    subprocess.run(["java", "-cp", cp, "io.flakescan.runner.Main", "run", "--tests-file", str(work / "twins.tests"),
                    "--results", str(results)], check=True, timeout=600)
    outcomes = {}
    for line in results.read_text().splitlines():
        row = json.loads(line)
        if row.get("event") == "finished":
            outcomes.setdefault(row["test"], []).append(row.get("outcome"))
    for tid in twins:
        got = outcomes.get(tid, [])
        if got != ["pass"] * 10:
            error(f"{tid}: the twin did not pass 10 runs out of 10: {got}")
    print(f"{len(twins)} twins, 10 runs each in one JVM")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_dir")
    ap.add_argument("--classpath")
    ap.add_argument("--runner")
    ap.add_argument("--work")
    a = ap.parse_args()
    tests = check_sources(pathlib.Path(a.source_dir) / "examples" / "jvm-threads")
    print(f"{len(tests)} entries checked against the sources")
    if a.classpath:
        check_twins(tests, pathlib.Path(a.classpath).read_text().strip(), a.runner, pathlib.Path(a.work))
    for e in errors:
        print("FAIL - " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
