#!/usr/bin/env python3
"""Checks examples/android-style/expectations.json against the example sources: every @Test
method is listed once; a flaky test's racing_line is the line marked // RACING inside that
method, and a twin has no such marker; every line named lies inside its method. Exit 1 and a
message per problem when they disagree (after editing a test, update the JSON)."""
import json
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
example = root / "examples" / "android-style"
spec = json.loads((example / "expectations.json").read_text())
problems = []

methods = {}  # "Class#method" -> (first line, last line, lines)
for src in sorted((example / "src" / "test" / "java" / "demo" / "android").glob("*Test.java")):
    lines = src.read_text().splitlines()
    cls = "demo.android." + src.stem
    i = 0
    while i < len(lines):
        if lines[i].strip() == "@Test":
            m = re.search(r"public void (\w+)\(", lines[i + 1])
            start = i + 2  # 1-based line of the declaration
            depth, j = 0, i + 1
            while True:
                depth += lines[j].count("{") - lines[j].count("}")
                if depth == 0 and "}" in lines[j]:
                    break
                j += 1
            methods[f"{cls}#{m.group(1)}"] = (start, j + 1, lines)
            i = j
        i += 1

listed = [t["id"] for t in spec["tests"]]
for test_id in methods:
    if listed.count(test_id) != 1:
        problems.append(f"{test_id}: listed {listed.count(test_id)} times")
for t in spec["tests"]:
    if t["id"] not in methods:
        problems.append(f"{t['id']}: no such @Test method")
        continue
    start, end, lines = methods[t["id"]]
    marked = [n for n in range(start, end + 1) if "// RACING" in lines[n - 1]]
    if t["flaky"]:
        if marked != [t["racing_line"]]:
            problems.append(f"{t['id']}: racing_line {t['racing_line']} but // RACING on {marked}")
        if t["twin"] not in methods:
            problems.append(f"{t['id']}: twin {t['twin']} missing")
    elif marked:
        problems.append(f"{t['id']}: a twin with a // RACING marker on {marked}")
    named = [t["work_starts_line"], t.get("upper_bound_line")]
    named += t.get("fails_when_delayed_to", []) + t.get("passes_when_delayed_to", [])
    for n in named:
        if isinstance(n, int) and not start <= n <= end:
            problems.append(f"{t['id']}: line {n} outside the method ({start}-{end})")

for p in problems:
    print("expectations:", p)
print(f"checked {len(spec['tests'])} tests, {len(problems)} problems")
sys.exit(1 if problems else 0)
