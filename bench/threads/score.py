#!/usr/bin/env python3
"""The scoring half of bench/threads: pure functions from examples/jvm-threads/expectations.json
and the verdict files of the scans (the shape of schema/verdicts.schema.json; a threads
finding's details as docs/threads.md gives them) to the per-test table and the RESULT line.
No daemon, no JVM: bench/threads/run calls it with what its scans wrote.

By hand, on verdict files written earlier:
  python3 bench/threads/score.py --expectations examples/jvm-threads/expectations.json \
      --threads VERDICTS.json [--threads-runs N] [--replayed T1,T2] [--rerun R.json --rerun-runs N]
      [--noise N.json --noise-runs N]
"""
import argparse
import json
import pathlib


def verdicts_by_test(doc):
    return {v["test"]: v for v in (doc or {}).get("verdicts", [])}


def threads_finding(verdict):
    """The flaky finding of technique threads (its details), or None."""
    for f in verdict.get("findings", []):
        if f.get("technique") == "threads" and f.get("verdict") == "flaky":
            return f
    return None


def is_concurrency_flaky(verdict):
    if not verdict or verdict.get("verdict") != "flaky":
        return False
    return "concurrency" in (verdict.get("categories") or [verdict.get("category")])


def details_of(verdict):
    f = threads_finding(verdict) if verdict else None
    if f and f.get("details"):
        return f["details"]
    return (verdict or {}).get("evidence", {}).get("details", {})


def json_detail(details, key):
    try:
        return json.loads(details.get(key) or "null")
    except ValueError:
        return None


def site_line(site):
    """"src/main/java/example/threads/lostupdate/HitCounter.java:8" -> "HitCounter.java:8";
    "example.threads.lostupdate.HitCounter.record(HitCounter.java:8)" -> "HitCounter.java:8"."""
    s = site.rstrip(")")
    s = s[s.rfind("(") + 1:] if "(" in s else s
    return s.rsplit("/", 1)[-1]


def located(expected, details):
    """Whether the verdict's conflict names the two racing lines of expectations.json (as a set)."""
    conflict = json_detail(details, "conflict") or {}
    got = sorted(site_line((conflict.get(k) or {}).get("site", "")) for k in ("first", "second"))
    want = sorted(site_line(r["site"]) for r in expected.get("racing_lines", []))
    return bool(want) and got == want


def score(expectations, threads_doc, threads_runs=None, replayed=(), rerun_doc=None, rerun_runs=None,
          noise_doc=None, noise_runs=None):
    """Rows of the per-test table and the figures of the RESULT line."""
    tests = expectations["tests"]
    flaky = [t for t in tests if t["flaky"]]
    twins = [t for t in tests if not t["flaky"]]
    tv, rv, nv = verdicts_by_test(threads_doc), verdicts_by_test(rerun_doc), verdicts_by_test(noise_doc)
    rows, found, n_located, deadlocks = [], 0, 0, 0
    for t in flaky:
        v = tv.get(t["id"])
        d = details_of(v)
        hit = is_concurrency_flaky(v)
        found += hit
        loc = hit and located(t, d)
        n_located += loc
        dl = hit and json_detail(d, "deadlock") is not None
        deadlocks += dl and t.get("deadlock", False)
        rows.append({
            "test": t["id"], "junit": t["junit"], "kind": t["kind"], "verdict": (v or {}).get("verdict", "missing") if threads_doc else "-",
            "found": hit, "located": loc, "deadlock": dl, "exact": d.get("exact", "-") if hit else "-",
            "strategy_seed": (d.get("strategy", "?") + " " + d.get("seed", "?")) if hit else "-",
            "replayed": t["id"] in replayed,
            "rerun": failed_of(rv.get(t["id"])), "noise": failed_of(nv.get(t["id"])),
        })
    false = [t["id"] for t in twins if (tv.get(t["id"]) or {}).get("verdict") == "flaky"]
    for t in false:
        rows.append({"test": t, "junit": "", "kind": "twin", "verdict": "flaky", "found": False, "located": False,
                     "deadlock": False, "exact": "-", "strategy_seed": "-", "replayed": False, "rerun": None, "noise": None})
    n = len(flaky)
    figures = {
        "found": found, "n": n, "false": len(false), "twins": len(twins), "located": n_located,
        "deadlocks": deadlocks, "deadlocks_expected": sum(t.get("deadlock", False) for t in flaky),
        "threads_runs": threads_runs, "replayed": sum(t["id"] in replayed for t in flaky if is_concurrency_flaky(tv.get(t["id"]))),
        "rerun_found": sum(is_flaky(rv.get(t["id"])) for t in flaky) if rerun_doc else None, "rerun_runs": rerun_runs,
        "noise_found": sum(is_flaky(nv.get(t["id"])) for t in flaky) if noise_doc else None, "noise_runs": noise_runs,
    }
    return rows, figures


def is_flaky(verdict):
    return bool(verdict) and verdict.get("verdict") == "flaky"


def failed_of(verdict):
    """(failed, passed + failed) of a verdict's runs, or None without one."""
    if not verdict:
        return None
    r = verdict.get("runs", {})
    return r.get("failed", 0), r.get("passed", 0) + r.get("failed", 0)


def table(rows):
    def frac(x):
        return "-" if x is None else "%d/%d" % x
    out = ["%-70s %-6s %-24s %-10s %-7s %-8s %-6s %-12s %-8s %-8s %-8s" % (
        "test", "junit", "kind", "threads", "located", "deadlock", "exact", "schedule", "replayed", "rerun", "noise")]
    for r in rows:
        out.append("%-70s %-6s %-24s %-10s %-7s %-8s %-6s %-12s %-8s %-8s %-8s" % (
            r["test"].replace("example.threads.", ""), r["junit"], r["kind"], r["verdict"], "yes" if r["located"] else "-",
            "yes" if r["deadlock"] else "-", r["exact"], r["strategy_seed"], "yes" if r["replayed"] else "-",
            frac(r["rerun"]), frac(r["noise"])))
    return "\n".join(out)


def result_line(f, extra=""):
    """`RESULT threads ...`: found, false, runs_per_found, replayed, then rerun and noise. A figure
    that was not measured is left out, never made up."""
    n = f["n"]
    parts = ["RESULT threads"]
    if f.get("threads_runs") is not None:
        rpf = "%.1f" % (f["threads_runs"] / f["found"]) if f["found"] else "inf"
        parts += ["found=%d/%d" % (f["found"], n), "false=%d" % f["false"], "runs_per_found=%s" % rpf,
                  "replayed=%d/%d" % (f["replayed"], n)]
    if f.get("rerun_found") is not None:
        parts += ["rerun_found=%d/%d" % (f["rerun_found"], n), "rerun_runs=%d" % f["rerun_runs"]]
    if f.get("noise_found") is not None:
        parts += ["noise_found=%d/%d" % (f["noise_found"], n), "noise_runs=%d" % f["noise_runs"]]
    if f.get("threads_runs") is not None:
        parts += ["located=%d/%d" % (f["located"], n), "deadlocks=%d/%d" % (f["deadlocks"], f["deadlocks_expected"]),
                  "threads_runs=%d" % f["threads_runs"]]
    return " ".join(parts) + (" " + extra if extra else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expectations", required=True)
    ap.add_argument("--threads")
    ap.add_argument("--threads-runs", type=int)
    ap.add_argument("--replayed", default="", help="comma-separated tests whose replay brought the failure back")
    ap.add_argument("--rerun")
    ap.add_argument("--rerun-runs", type=int)
    ap.add_argument("--noise")
    ap.add_argument("--noise-runs", type=int)
    a = ap.parse_args()

    def load(p):
        return json.loads(pathlib.Path(p).read_text()) if p else None
    threads_doc = load(a.threads)
    runs = a.threads_runs
    if threads_doc is not None and runs is None:
        runs = sum(v.get("runs", {}).get("total", 0) for v in threads_doc.get("verdicts", []))
    rows, f = score(load(a.expectations), threads_doc, runs if threads_doc is not None else None,
                    set(filter(None, a.replayed.split(","))), load(a.rerun), a.rerun_runs, load(a.noise), a.noise_runs)
    print(table(rows))
    print(result_line(f))


if __name__ == "__main__":
    main()
