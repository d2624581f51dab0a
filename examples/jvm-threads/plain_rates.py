#!/usr/bin/env python3
"""Plain failure rates of examples/jvm-threads: each test of expectations.json run N times,
each run in a fresh JVM through flakescan's runner (as technique `rerun` runs it: no agent, no
scheduler), two JVMs at a time. Prints one line per test and the machine's load; README.md
quotes its output.

  python3 examples/jvm-threads/plain_rates.py --build BUILD [--runs 50] [--twins] [--jobs 2]

BUILD is a build tree holding lib/flakescan-runner.jar and examples/jvm-threads.classpath
(cmake --build BUILD --target flakescan_runner example_jvm_threads). Without --twins only the
racy tests run. Python's standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
JAVA_LIB = pathlib.Path("/usr/share/java")
PLATFORM = ["junit-platform-launcher.jar", "junit-platform-engine.jar", "junit-platform-commons.jar",
            "junit-jupiter-engine.jar", "junit-jupiter-api.jar", "junit-vintage-engine.jar", "junit4.jar",
            "hamcrest-core.jar", "opentest4j.jar", "apiguardian-api.jar"]


def one_run(classpath, test, work):
    """The outcome of one fresh JVM running `test` ("pass", "fail", "error", or "infra: ...")."""
    fd, tests_file = tempfile.mkstemp(dir=work, suffix=".tests")
    os.write(fd, (test + "\n").encode())
    os.close(fd)
    results = tests_file[:-6] + ".results"
    try:
        subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-cp", classpath, "io.flakescan.runner.Main", "run",
                        "--tests-file", tests_file, "--results", results],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=False)
        with open(results, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                if row.get("event") == "finished" and row.get("test") == test:
                    return row.get("outcome", "infra: no outcome")
        return "infra: no finished line"
    except subprocess.TimeoutExpired:
        return "infra: timeout"
    finally:
        for p in (tests_file, results):
            if os.path.exists(p):
                os.unlink(p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--twins", action="store_true", help="also run the twins")
    a = ap.parse_args()
    build = pathlib.Path(a.build)
    example_cp = (build / "examples" / "jvm-threads.classpath").read_text().strip()
    classpath = ":".join([example_cp, str(build / "lib" / "flakescan-runner.jar")] + [str(JAVA_LIB / j) for j in PLATFORM])
    tests = [t for t in json.loads((HERE / "expectations.json").read_text())["tests"] if t["flaky"] or a.twins]
    load_before = open("/proc/loadavg").read().split()[0]
    print(f"{a.runs} plain runs per test, one JVM each, {a.jobs} at a time; {os.cpu_count()} cores, load {load_before}")
    with tempfile.TemporaryDirectory(prefix="jvm-threads-plain.") as work, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for t in tests:
            outcomes = list(pool.map(lambda _: one_run(classpath, t["id"], work), range(a.runs)))
            failed = sum(o in ("fail", "error") for o in outcomes)
            other = [o for o in outcomes if o not in ("pass", "fail", "error")]
            print(f"{t['id']:78} {t['junit']:7} {failed:3}/{a.runs} failed" + (f"  ({len(other)} without outcome: {other[0]})" if other else ""),
                  flush=True)
    print("load after: " + open("/proc/loadavg").read().split()[0])


if __name__ == "__main__":
    main()
