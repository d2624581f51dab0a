#!/usr/bin/env python3
"""Browser test of the schedules a `threads` verdict draws in the HTML report (docs/threads.md,
"The report"), in Debian's headless Chromium over the DevTools protocol (cdp.py), the way
browser_test.py checks explore's pictures.

`flakescan report` on tests/fixtures/threads/verdicts.json (a deadlock, a long lost-update
schedule, a pool task whose schedule is not exact, a missed notify with four threads, a
not-flaky twin); index.html from file:// at 1280 px and at 390 px:
  - fetches nothing but itself, runs no script, every picture is named, no sideways scrolling;
  - each flaky test shows both schedules, side by side at 1280 px and stacked at 390 px, one
    lane per thread, steps top to bottom, the two conflicting steps highlighted in both panels
    (in the failing panel 1 above 2, in the passing one 2 above 1), each box's tooltip naming
    its source line;
  - the deadlock drawn as the two blocked threads and their locks; "virtual time", "not exact"
    with its reason, and the number of steps left out of a long schedule, in words.
Screenshots go to OUT/screenshots/; docs-report-threads.png is the picture of docs/threads.md
(docs/report-threads.png). Exits 1 when a check failed, 77 (CTest: skipped) when no chromium
is installed, except under CI=true.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test  # noqa: E402  (its checks and page queries)
import cdp  # noqa: E402

from browser_test import article_of, check, check_accessible_and_fits, no_errors_logged, panels_layout  # noqa: E402

DEADLOCK = "example.threads.deadlock.TransfersTest#opposingTransfersComplete"
LOST_UPDATE = "example.threads.lostupdate.HitCounterTest#countsHitsFromTwoThreads"
POOL = "example.threads.pool.OrderServiceTest#placingAnOrderAuditsIt"
GATE = "example.threads.missednotify.StartGateTest#workersStartWhenTheGateOpens"
TWIN = "example.threads.lostupdate.HitCounterTest#countsHitsFromTwoThreadsAtomically"


def figure_facts(b, test):
    """What the test's figure.threads shows: its panels' titles, lane headings, the conflict boxes
    (panel, number, box and tooltip) and the caption."""
    return b.evaluate("""(() => {
      const a = %s; const fig = a && a.querySelector('figure.threads');
      if (!fig) return null;
      const panels = [...fig.querySelectorAll('.pair > svg')].map(svg => {
        const title = svg.querySelector(':scope > title').textContent;
        const conflicts = [...svg.querySelectorAll('g.conflict')].map(g => {
          const r = g.querySelector('rect').getBoundingClientRect();
          return {id: g.id, tip: g.querySelector('title').textContent, top: r.top, left: r.left, width: r.width,
                  stroke: g.querySelector('rect').getAttribute('stroke')};
        });
        const boxes = svg.querySelectorAll('g > rect').length;
        return {title, conflicts, boxes, text: svg.textContent};
      });
      const deadlock = fig.querySelector(':scope > svg');
      return {panels, caption: fig.querySelector('figcaption').textContent,
              deadlock: deadlock ? deadlock.textContent : null};
    })()""" % article_of(test))


def steps_in_fixture(fixture, test):
    """How many steps the fixture's passing and failing schedule of `test` list."""
    verdict = next(v for v in fixture["verdicts"] if v["test"] == test)
    details = verdict["evidence"]["details"]
    return [len(json.loads(details[k])["steps"]) for k in ("schedule_passing", "schedule_failing")]


def check_schedules(b, where, fixture):
    d = figure_facts(b, DEADLOCK)
    check(where + ": the deadlock test shows a passing and the failing schedule",
          d is not None and [p["title"] for p in d["panels"]] == ["Passing schedule (run 1101)", "Failing schedule (run 1107)"], d)
    if d is None:
        return
    fail = d["panels"][1]
    check(where + ": one lane per thread, named in both panels",
          all(all(n in p["text"] for n in ("T0 main", "T1 teller-a", "T2 teller-b")) for p in d["panels"]), d["panels"][0]["text"][:300])
    check(where + ": every step of each schedule is one box",
          [p["boxes"] for p in d["panels"]] == steps_in_fixture(fixture, DEADLOCK), [p["boxes"] for p in d["panels"]])
    for p in d["panels"]:
        ids = sorted(c["id"][-2:] for c in p["conflicts"])
        check(where + ": %s: the two conflicting steps highlighted (orange, numbered 1 and 2)" % p["title"],
              ids == ["c1", "c2"] and all(c["stroke"] == "#bc4c00" for c in p["conflicts"]), p["conflicts"])
    c = {x["id"][-2:]: x for x in fail["conflicts"]}
    if len(c) == 2:
        check(where + ": failing schedule: conflict 1 above conflict 2, in the lanes of teller-b and teller-a",
              c["c1"]["top"] < c["c2"]["top"] and c["c1"]["left"] > c["c2"]["left"], c)
        check(where + ": a conflict box's tooltip names its thread, op, target and source line",
              c["c1"]["tip"].endswith("T2 teller-b: monitor_enter example.threads.deadlock.Account@o2 at "
                                      "example.threads.deadlock.Transfers.transfer(Transfers.java:9) (conflict 1)"), c["c1"]["tip"])
    passing = {x["id"][-2:]: x for x in d["panels"][0]["conflicts"]}
    if len(passing) == 2:
        check(where + ": passing schedule: the other order (2 above 1)", passing["c2"]["top"] < passing["c1"]["top"], passing)
    check(where + ": the deadlock: both blocked threads, the lock each holds and the one it wants, and who holds that",
          d["deadlock"] is not None and "Deadlock: 2 threads wait for each other" in d["deadlock"]
          and "holds Account@o1" in d["deadlock"] and "wants Account@o2" in d["deadlock"]
          and "held by T2 teller-b" in d["deadlock"] and "held by T1 teller-a" in d["deadlock"], d["deadlock"])
    check(where + ": the caption says strategy, seed, virtual time and the replay",
          "(strategy pct, seed 9051)" in d["caption"] and "Virtual time" in d["caption"]
          and "brought the same failure back" in d["caption"] and "Not exact" not in d["caption"], d["caption"])

    lost = figure_facts(b, LOST_UPDATE)
    check(where + ": a long schedule: the 200 steps the record has, and how many were left out",
          lost is not None and all("⋮ 207 earlier steps left out" in p["text"] for p in lost["panels"])
          and "the last 200 are drawn, 207 earlier ones left out" in lost["caption"]
          and [p["boxes"] for p in lost["panels"]] == [200, 200], lost and [p["boxes"] for p in lost["panels"]])
    pool = figure_facts(b, POOL)
    check(where + ": a schedule not under full control: not exact, with the reason",
          pool is not None and "Not exact: part of the test ran outside the scheduler's control: thread audit-writer stalled"
          in pool["caption"] and "(strategy pos, seed 77)" in pool["caption"], pool and pool["caption"])
    gate = figure_facts(b, GATE)
    check(where + ": four threads, four lanes", gate is not None and all("T3 config-loader" in p["text"] for p in gate["panels"]),
          gate and gate["panels"][0]["text"][:200])
    twin = b.evaluate("(() => %s.querySelectorAll('figure.threads').length)()" % article_of(TWIN))
    check(where + ": the not-flaky twin has no schedule picture", twin == 0, twin)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flakescan", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    chromium = cdp.find_chromium()
    if not chromium:
        if os.environ.get("CI", "") == "true":
            print("FAIL - chromium is not installed, and under CI the browser tests must run (scripts/bootstrap installs it)")
            return 1
        print("SKIP: no chromium on this machine (apt-get install chromium, or scripts/bootstrap); the browser tests did not run")
        return 77

    started = time.monotonic()
    shutil.rmtree(a.out, ignore_errors=True)
    shots = os.path.join(a.out, "screenshots")
    os.makedirs(shots)
    report_dir = os.path.join(a.out, "report")
    subprocess.run([a.flakescan, "report", "--quiet", "--verdicts", os.path.join(a.source_dir, "tests/fixtures/threads/verdicts.json"),
                    "--out-dir", report_dir, "--source-root", os.path.join(a.source_dir, "examples/jvm-threads/src/test/java"),
                    "--base-dir", a.source_dir], check=True)
    fixture = json.load(open(os.path.join(a.source_dir, "tests/fixtures/threads/verdicts.json"), encoding="utf-8"))
    index = os.path.join(report_dir, "index.html")
    text = open(index, encoding="utf-8").read()
    check("index.html holds no <script> and names no remote address but the SVG namespace",
          "<script" not in text and re.findall(r"(?:https?|ftp)://", text.replace("http://www.w3.org/2000/svg", "")) == [])

    b = cdp.Browser(chromium, user_data_dir=os.path.join(a.out, "chromium-profile"), log_path=os.path.join(a.out, "chromium.log"))
    try:
        b.open_tab()
        url = "file://" + index
        for width in (1280, 390):
            b.set_width(width, 900, mobile=width < 600)
            requests = b.navigate(url)
            check("index.html at %d px fetches nothing but itself" % width, requests == [url], requests)
            check_accessible_and_fits(b, "index.html", width)
            check_schedules(b, "index.html at %d px" % width, fixture)
            expected = "side by side" if width == 1280 else "stacked"
            for test in (DEADLOCK, GATE):
                check("index.html at %d px: the two schedule panels of %s stand %s" % (width, test.split(".")[-1], expected),
                      panels_layout(b, test) == expected, panels_layout(b, test))
            no_errors_logged(b, "index.html at %d px" % width)
            b.screenshot(os.path.join(shots, "threads-%d.png" % width))
            b.screenshot(os.path.join(shots, "threads-%d-deadlock.png" % width), selector="article.test#test-0")

        # The picture of docs/threads.md (docs/report-threads.png): the deadlock verdict's
        # heading, reason and schedules, the tables folded away.
        b.set_width(1200, 900)
        b.navigate(url)
        b.evaluate("""(() => { for (const e of document.querySelectorAll('article.test :is(.scroll, .runs, h4, pre.cmd,'
                   + ' ol.order, p:not(.facts):not(.reason), figure.strip)')) e.style.display = 'none'; return true; })()""")
        b.screenshot(os.path.join(shots, "docs-report-threads.png"), selector="article.test#test-0")
    except Exception:  # a broken wait or protocol error is a failed check, with its story
        check("the browser session ran to its end", False, traceback.format_exc())
    finally:
        b.close()

    failures = browser_test.failures
    print("# %d failure(s) in %.1f s; screenshots in %s" % (failures, time.monotonic() - started, shots))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
