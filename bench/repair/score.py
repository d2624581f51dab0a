#!/usr/bin/env python3
"""Scores the verdicts of bench/repair against what was planted.

    score.py EXPECTED_TSV VERDICTS_JSON [EXPECTED_TSV VERDICTS_JSON ...]

EXPECTED_TSV lines: victim <TAB> polluter <TAB> expected polluted field <TAB> has_reset (yes/no).
A victim counts as `field` when repair's finding names exactly the planted field, `patched`
when it carries a patch verified by a run (only victims with a reset method should), and a
victim without a reset method counts as `honest` when no patch was offered. Prints a table
and, last, the RESULT line.
"""
import json
import sys


def repair_finding(verdict):
    for f in verdict.get("findings", []):
        if f.get("technique") == "repair":
            return f.get("details", {})
    return None


def main(args):
    rows, seconds = [], []
    for expected_path, verdicts_path in zip(args[0::2], args[1::2]):
        try:
            verdicts = {v["test"]: v for v in json.load(open(verdicts_path))["verdicts"]}
        except (OSError, ValueError) as e:
            print("no verdicts in %s: %s" % (verdicts_path, e))
            verdicts = {}
        for line in open(expected_path):
            if not line.strip():
                continue
            victim, polluter, field, has_reset = line.rstrip("\n").split("\t")
            v = verdicts.get(victim)
            d = repair_finding(v) if v else None
            found = bool(d) and d.get("polluted_field") == field
            patched = bool(d) and bool(d.get("patch")) and bool(d.get("verified_by_run"))
            if d and d.get("repair_seconds"):
                seconds.append(float(d["repair_seconds"]))
            rows.append((victim, field, has_reset == "yes", v["verdict"] if v else "-", found, patched,
                         (d or {}).get("repair", "no repair finding")))
    n = len(rows)
    field_ok = sum(1 for r in rows if r[4])
    with_reset = [r for r in rows if r[2]]
    patched = sum(1 for r in with_reset if r[5])
    no_reset = [r for r in rows if not r[2]]
    honest = sum(1 for r in no_reset if not r[5])
    for victim, field, has_reset, verdict, found, p, why in rows:
        print("%-62s field %-3s patch %-3s %s" % (victim, "yes" if found else "NO", "yes" if p else "no", why[:150]))
    per = sum(seconds) / len(seconds) if seconds else 0.0
    print()
    print("victims %d: polluted field found for %d (%.0f%%; ODRepair 181/327 = 55%%)" % (n, field_ok, 100.0 * field_ok / max(n, 1)))
    print("verified patch for %d of %d victims with a reset method (%.0f%% of all victims; ODRepair 141/327 = 43%%)"
          % (patched, len(with_reset), 100.0 * patched / max(n, 1)))
    print("no patch offered for %d of %d victims without one" % (honest, len(no_reset)))
    print("repair seconds per victim: mean %.1f, max %.1f" % (per, max(seconds) if seconds else 0.0))
    print("RESULT repair victims=%d field=%d patched=%d seconds_per_victim=%.1f max_seconds=%.1f no_reset_honest=%d/%d"
          % (n, field_ok, patched, per, max(seconds) if seconds else 0.0, honest, len(no_reset)))


if __name__ == "__main__":
    main(sys.argv[1:])
