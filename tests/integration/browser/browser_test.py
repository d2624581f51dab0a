#!/usr/bin/env python3
"""Browser tests of the HTML report (index.html) and the daemon's dashboard, in Debian's
headless Chromium driven over the DevTools protocol (cdp.py).

  1. `flakescan report` on tests/fixtures/report/verdicts_every_category.json (every verdict
     and category: concurrency, order_dependent victim and brittle, nio, unknown, failing,
     could_not_run, not_flaky): the page loads from file:// fetching nothing but itself, runs
     no script, shows each test with its verdict, categories and picture, and is readable at
     1280 px and at 390 px (no sideways scrolling; picture panels side by side, then stacked).
  2. flakescand on a store holding that scan (seed_store) and a CI import: the scan list, the
     scan, one test, the suspects and the quarantine pages.
  3. A real scan watched live: a rerun scan of fixture.infra.GateTest, whose runs wait for a
     file this script creates; the page shows the state and the runs as the event stream tells
     them, then the report when the scan ends (with the run strip of the real runs).
  4. The token rules: with --token a page without it is refused (401 with a Basic challenge),
     and the browser given the token as a Basic password gets the page.

Screenshots go to OUT/screenshots/ (CI keeps them as artifacts). Prints one line per check;
exits 1 when a check failed, 77 (CTest: skipped) when no chromium is installed, except under
CI=true where a missing chromium is a failure (scripts/bootstrap installs it).
"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import time
import traceback
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

FIXTURE_SCAN = "s5e1c0a7b9d21"
CONCURRENCY = "demo.android.AsyncWaitTest#thumbnailShownAfterOpen"
VICTIM = "example.order.CachedPriceTest#listPriceWithoutDiscount"
BRITTLE = "example.order.CurrencyBrittleTest#formatsInCurrency"
NIO = "example.order.LedgerNioTest#recordsOneEntry"
UNKNOWN = "example.order.FirstRunFlakyTest#failsOnFirstRunOnly"
FAILING = "example.order.BrokenInitializerTest#usesLimit"
NOT_RUN = "fixture.infra.InfraTest#hangs"
STABLE = "example.order.StableTextTest#trims"
GATE_TEST = "fixture.infra.GateTest#waitsForGate"

failures = 0


def check(what, ok, detail=""):
    global failures
    if ok:
        print("ok   - " + what)
    else:
        failures += 1
        print("FAIL - " + what + (": " + str(detail) if detail != "" else ""))
    return ok


def js(value):
    return json.dumps(value)


# ---- what the page shows (DOM queries, run in the page) ---------------------------------------

def article_of(test):
    """JS expression: the <article> whose heading is the test id (null when none)."""
    return ("[...document.querySelectorAll('article.test')].find(a => a.querySelector('h3').textContent === %s)" % js(test))


def page_facts(b):
    return b.evaluate("""(() => {
      const tables = [...document.querySelectorAll('table')];
      const svgs = [...document.querySelectorAll('svg')];
      return {
        title: document.title,
        h1: [...document.querySelectorAll('h1')].map(h => h.textContent),
        h2: [...document.querySelectorAll('h2')].map(h => h.textContent),
        scripts: document.scripts.length,
        tables: tables.length,
        tablesWithoutHeaders: tables.filter(t => !t.querySelector('th')).length,
        tablesWithoutCaption: tables.filter(t => !t.caption || !t.caption.textContent.trim()).length,
        colHeadersWithoutScope: [...document.querySelectorAll('thead th')].filter(th => th.scope !== 'col').length,
        svgs: svgs.length,
        svgsWithoutName: svgs.filter(s => s.getAttribute('role') !== 'img' || !s.querySelector(':scope > title') ||
            !s.querySelector(':scope > title').textContent.trim() ||
            !(s.getAttribute('aria-labelledby') || '').split(' ').every(id => document.getElementById(id))).length,
        imgs: document.querySelectorAll('img').length,
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        lang: document.documentElement.lang,
      };
    })()""")


def check_accessible_and_fits(b, where, width, expect_script=False):
    f = page_facts(b)
    check("%s at %d px: one h1, a lang attribute" % (where, width), len(f["h1"]) == 1 and f["lang"] == "en", f)
    check("%s at %d px: every table has header cells and a caption, column headers have scope=col" % (where, width),
          f["tables"] > 0 and f["tablesWithoutHeaders"] == 0 and f["tablesWithoutCaption"] == 0 and f["colHeadersWithoutScope"] == 0, f)
    check("%s at %d px: every picture is an svg role=img with a <title> and existing aria-labelledby ids" % (where, width),
          f["svgsWithoutName"] == 0, f)
    check("%s at %d px: %s" % (where, width, "its script only" if expect_script else "no script, no <img>"),
          (f["scripts"] == 1 if expect_script else f["scripts"] == 0) and f["imgs"] == 0, f)
    check("%s at %d px: nothing wider than the window (no sideways scrolling)" % (where, width),
          f["scrollWidth"] <= f["innerWidth"] == width, "scrollWidth %s, innerWidth %s" % (f["scrollWidth"], f["innerWidth"]))
    return f


def check_every_category(b, where):
    """The fixture scan's tests, as the report shows them (index.html and the dashboard alike)."""
    f = page_facts(b)
    check(where + ": the headline counts the flaky tests", f["h1"] == ["flakescan: 5 flaky tests out of 8 scanned"], f["h1"])
    check(where + ": a section per verdict kind",
          f["h2"][:5] == ["Summary", "Flaky tests (5)", "Failing in every run (broken, not flaky) (1)", "Could not run (1)", "Not flaky (1)"],
          f["h2"])
    rows = b.evaluate("""[...document.querySelectorAll('table.tests tbody tr')].map(tr =>
        [tr.querySelector('th').textContent, ...[...tr.querySelectorAll('td')].map(td => td.textContent)])""")
    by_test = {r[0]: r[1:] for r in rows}
    expected = {
        CONCURRENCY: ("flaky", "concurrency"), VICTIM: ("flaky", "order-dependent"), BRITTLE: ("flaky", "order-dependent"),
        NIO: ("flaky", "NIO (not idempotent)"), UNKNOWN: ("flaky", "unknown"), FAILING: ("failing every run", "none"),
        NOT_RUN: ("could not run", "none"), STABLE: ("not flaky", "none"),
    }
    check(where + ": the summary table lists every test with its verdict and categories",
          all(t in by_test and tuple(by_test[t][:2]) == v for t, v in expected.items()) and len(by_test) == 8, by_test)

    def figure_text(test, figure):
        return b.evaluate("(() => { const a = %s; const f = a && a.querySelector(%s); return f ? f.textContent : null; })()"
                          % (article_of(test), js(figure)))

    sched = figure_text(CONCURRENCY, "figure.schedule")
    check(where + ": concurrency: the passing and the failing schedule side by side, the racing statement and the moved message marked",
          sched is not None and "Passing schedule (run 111)" in sched and "Failing schedule (run 115)" in sched
          and "line 57 · racing statement" in sched and "moved" in sched and "passing schedule ran it here" in sched
          and "message from 'thumbnail-decoder'" in sched, sched)
    desc = b.evaluate("(() => [...%s.querySelectorAll('figure.schedule svg > desc')].map(d => d.textContent))()" % article_of(CONCURRENCY))
    check(where + ": concurrency: each panel says in words what it shows",
          len(desc) == 2 and "before the racing statement on line 57" in desc[0] and "delayed to just before line 58" in desc[1], desc)
    orders = figure_text(VICTIM, "figure.orders")
    check(where + ": order-dependent victim: failing and passing order, the polluter and the cleaner marked",
          orders is not None and "Failing order (run 207)" in orders and "Passing order (run 201)" in orders
          and "polluter" in orders and "cleaner" in orders and "Passing with a cleaner" in orders, orders)
    brittle = figure_text(BRITTLE, "figure.orders")
    check(where + ": order-dependent brittle: the state-setter marked in the passing order",
          brittle is not None and "state-setter" in brittle and "SettingsLoaderTest" in brittle, brittle)
    nio = figure_text(NIO, "figure.orders")
    check(where + ": NIO: the test twice in one JVM, passing then failing",
          nio is not None and "run 1 · passes" in nio and "run 2 · fails" in nio, nio)
    strips = b.evaluate("""(() => Object.fromEntries(%s.map(t => {
        const a = [...document.querySelectorAll('article.test')].find(x => x.querySelector('h3').textContent === t);
        const svg = a && a.querySelector('figure.strip svg');
        return [t, svg ? [...svg.querySelectorAll('g > title')].map(x => x.textContent) : null];
      })))()""" % js([UNKNOWN, FAILING, NOT_RUN, STABLE, CONCURRENCY]))
    check(where + ": unknown (rerun): the strip of every run in order, the first one failing",
          strips[UNKNOWN] is not None and len(strips[UNKNOWN]) == 10 and strips[UNKNOWN][0] == "run 401: fail (rerun)"
          and all(s.endswith("pass (rerun)") for s in strips[UNKNOWN][1:]), strips[UNKNOWN])
    check(where + ": failing: every run of the strip failed",
          strips[FAILING] == ["run 501: error (rerun)", "run 502: error (rerun)", "run 503: error (rerun)"], strips[FAILING])
    check(where + ": could not run: the strip shows runs without an outcome",
          strips[NOT_RUN] == ["run 601: infra (rerun)", "run 602: infra (rerun)"], strips[NOT_RUN])
    check(where + ": a file without a run strip: the runs drawn from the counts, grouped",
          strips[STABLE] == ["pass"] * 10, strips[STABLE])
    check(where + ": concurrency: the strip holds the rerun and the explore runs",
          strips[CONCURRENCY] is not None and len(strips[CONCURRENCY]) == 16 and strips[CONCURRENCY][11] == "run 112: fail (explore)",
          strips[CONCURRENCY])
    findings = b.evaluate("(() => [...%s.querySelectorAll('table.findings tbody tr')].map(tr => tr.textContent))()" % article_of(UNKNOWN))
    check(where + ": every finding listed, the one that does not decide marked so",
          len(findings) == 2 and any("order" in r and "no: the failing order (alone) also passed" in r for r in findings), findings)
    repro = b.evaluate("(() => { const p = %s.querySelector('pre.cmd'); return p && p.textContent; })()" % article_of(VICTIM))
    check(where + ": the reproducer command", repro is not None and repro.startswith("flakescan replay ")
          and repro.endswith("--test '%s'" % VICTIM), repro)
    runs = b.evaluate("(() => [...%s.querySelectorAll('.runs h4')].map(h => h.textContent))()" % article_of(VICTIM))
    check(where + ": the passing and the failing run", runs == ["Passing run", "Failing run"], runs)
    signature = b.evaluate("(() => { const t = %s.querySelector('table.failures tbody th'); return t && t.textContent; })()"
                           % article_of(VICTIM))
    check(where + ": the failure signature",
          signature == "java.lang.AssertionError@example.order.CachedPriceTest.listPriceWithoutDiscount:15", signature)
    escaped = b.evaluate("(() => { const a = %s; return [a.querySelectorAll('script, img').length,"
                         " a.querySelector('table.failures td[data-label=Message]').textContent]; })()" % article_of(UNKNOWN))
    check(where + ": markup in a failure message is shown as text, never run",
          escaped[0] == 0 and escaped[1] == "first run on this machine: marker <script>alert(\"x\")</script> & 'quotes' were missing",
          escaped)


def panels_layout(b, test):
    """'side by side' or 'stacked': the two panels of a test's first picture."""
    boxes = b.evaluate("(() => [...%s.querySelectorAll('figure .pair')[0].querySelectorAll(':scope > svg')]"
                       ".map(s => { const r = s.getBoundingClientRect(); return [r.top, r.bottom, r.left]; }))()" % article_of(test))
    if len(boxes) < 2:
        return "missing"
    if abs(boxes[0][0] - boxes[1][0]) < 1 and boxes[1][2] > boxes[0][2]:
        return "side by side"
    return "stacked" if boxes[1][0] >= boxes[0][1] else "overlapping"


def no_errors_logged(b, where):
    errors = [m for m in b.console_messages() if m.startswith("error") or m.startswith("exception")]
    check(where + ": no error in the browser's console (a blocked fetch or script would be one)", not errors, errors)
    b.events = []


# ---- the daemon --------------------------------------------------------------------------------

class Daemon:
    def __init__(self, exe, data_dir, extra=()):
        self.data_dir = data_dir
        os.makedirs(data_dir, exist_ok=True)
        port_file = os.path.join(data_dir, "port")
        self.log = open(os.path.join(data_dir, "flakescand.log"), "wb")
        self.proc = subprocess.Popen([exe, "--listen", "127.0.0.1:0", "--port-file", port_file, "--data-dir", data_dir,
                                      "--class-data-sharing", "off", *extra], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("flakescand did not start (log: %s)" % self.log.name)
            time.sleep(0.02)
        self.url = "http://127.0.0.1:" + open(port_file).read().strip()

    def request(self, method, path, body=None, content_type="application/json", headers=None):
        req = urllib.request.Request(self.url + path, data=body, method=method,
                                     headers={"Content-Type": content_type, **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flakescan", required=True)
    ap.add_argument("--flakescand", required=True)
    ap.add_argument("--seed-store", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--infra-jar", required=True)
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
    src = a.source_dir
    fixture = os.path.join(src, "tests/fixtures/report/verdicts_every_category.json")

    # 1. index.html, from file://
    report_dir = os.path.join(a.out, "report")
    subprocess.run([a.flakescan, "report", "--quiet", "--verdicts", fixture, "--out-dir", report_dir,
                    "--source-root", os.path.join(src, "examples/jvm-order/src/test/java"),
                    "--source-root", os.path.join(src, "examples/android-style/src/test/java"), "--base-dir", src], check=True)
    index = os.path.join(report_dir, "index.html")
    text = open(index, encoding="utf-8").read()
    check("index.html is written next to the other reports", os.path.getsize(index) > 0)
    check("index.html holds no <script> and names no remote address but the SVG namespace",
          "<script" not in text and re.findall(r"(?:https?|ftp)://|//[a-z0-9.-]+\.[a-z]{2,}/", text.replace("http://www.w3.org/2000/svg", "")) == [])

    b = cdp.Browser(chromium, user_data_dir=os.path.join(a.out, "chromium-profile"), log_path=os.path.join(a.out, "chromium.log"))
    daemons = []
    try:
        b.open_tab()
        url = "file://" + index
        for width in (1280, 390):
            b.set_width(width, 900, mobile=width < 600)
            requests = b.navigate(url)
            check("index.html at %d px fetches nothing but itself" % width, requests == [url], requests)
            check_accessible_and_fits(b, "index.html", width)
            check_every_category(b, "index.html at %d px" % width)
            expected = "side by side" if width == 1280 else "stacked"
            check("index.html at %d px: the two schedule panels stand %s" % (width, expected),
                  panels_layout(b, CONCURRENCY) == expected, panels_layout(b, CONCURRENCY))
            no_errors_logged(b, "index.html at %d px" % width)
            b.screenshot(os.path.join(shots, "report-%d.png" % width))
            b.screenshot(os.path.join(shots, "report-%d-concurrency.png" % width), selector="article.test#test-0")
            b.screenshot(os.path.join(shots, "report-%d-order-dependent.png" % width), selector="article.test#test-1")

        # The pictures of docs/ (docs/report-concurrency.png, docs/report-order-dependent.png):
        # a verdict's heading, reason and picture, the tables folded away.
        b.set_width(1000, 900)
        b.navigate(url)
        b.evaluate("""(() => { for (const e of document.querySelectorAll('article.test :is(.scroll, .runs, h4, pre.cmd,'
                   + ' ol.order, p:not(.facts):not(.reason), figure.strip)')) e.style.display = 'none'; return true; })()""")
        b.screenshot(os.path.join(shots, "docs-report-concurrency.png"), selector="article.test#test-0")
        b.screenshot(os.path.join(shots, "docs-report-order-dependent.png"), selector="article.test#test-1")

        # 2. the dashboard on a store holding the fixture scan
        data = os.path.join(a.out, "daemon")
        os.makedirs(data)
        seeded = subprocess.run([a.seed_store, os.path.join(data, "flakescan.db"), fixture], check=True,
                                capture_output=True, text=True).stdout.strip()
        check("the fixture scan is in the store", seeded == FIXTURE_SCAN, seeded)
        d = Daemon(a.flakescand, data)
        daemons.append(d)
        junit = open(os.path.join(src, "tests/fixtures/junit/surefire-reruns.xml"), "rb").read()
        status, _, _ = d.request("POST", "/v1/results?source=ci-1&commit=c0ffee", junit, "application/xml")
        check("a CI report is imported (for the suspects page)", status == 201, status)

        b.set_width(1280, 900)
        requests = b.navigate(d.url + "/")
        check("dashboard /: fetches nothing but itself", requests == [d.url + "/"], requests)
        links = b.evaluate("[...document.querySelectorAll('table.scans tbody th a')].map(a => [a.textContent, a.getAttribute('href')])")
        check("dashboard /: lists the scan with a link to its page", links == [[FIXTURE_SCAN, "/scans/" + FIXTURE_SCAN]], links)
        check_accessible_and_fits(b, "dashboard /", 1280)
        b.screenshot(os.path.join(shots, "dashboard-scans-1280.png"))

        for width in (1280, 390):
            b.set_width(width, 900, mobile=width < 600)
            scan_url = d.url + "/scans/" + FIXTURE_SCAN
            requests = b.navigate(scan_url)
            check("dashboard scan page at %d px fetches nothing but itself" % width, requests == [scan_url], requests)
            check_accessible_and_fits(b, "dashboard scan page", width)
            check_every_category(b, "dashboard scan page at %d px" % width)
            repro = b.evaluate("(() => %s.querySelector('pre.cmd').textContent)()" % article_of(VICTIM))
            check("dashboard scan page: the reproducer names the scan",
                  repro == "flakescan replay --scan %s --test '%s'" % (FIXTURE_SCAN, VICTIM), repro)
            no_errors_logged(b, "dashboard scan page at %d px" % width)
            b.screenshot(os.path.join(shots, "dashboard-scan-%d.png" % width))

        b.set_width(1280, 900)
        href = b.evaluate("%s.querySelector('a[href*=\"/test?name=\"]').getAttribute('href')" % article_of(CONCURRENCY))
        b.navigate(d.url + href)
        one = page_facts(b)
        check("dashboard test page: one test, its schedule picture",
              b.evaluate("document.querySelectorAll('article.test').length") == 1
              and b.evaluate("document.querySelectorAll('article.test figure.schedule svg').length") == 2
              and b.evaluate("document.querySelector('article.test h3').textContent") == CONCURRENCY, one)
        check_accessible_and_fits(b, "dashboard test page", 1280)
        b.screenshot(os.path.join(shots, "dashboard-test-1280.png"))

        b.navigate(d.url + "/quarantine")
        quarantined = b.evaluate("[...document.querySelectorAll('table.quarantine tbody th')].map(th => th.textContent).sort()")
        check("dashboard quarantine: the five flaky tests of the scan",
              quarantined == sorted([CONCURRENCY, VICTIM, BRITTLE, NIO, UNKNOWN]), quarantined)
        check_accessible_and_fits(b, "dashboard quarantine", 1280)
        b.screenshot(os.path.join(shots, "dashboard-quarantine-1280.png"))

        b.set_width(390, 900, mobile=True)
        b.navigate(d.url + "/suspects")
        suspects = b.evaluate("[...document.querySelectorAll('table.suspects tbody tr')].map(tr => tr.textContent)")
        check("dashboard suspects: the test that passed on a rerun in the imported report",
              any("com.example.checkout.CartTest#refreshesTotal" in s and "passed_on_rerun" in s for s in suspects), suspects)
        check_accessible_and_fits(b, "dashboard suspects", 390)
        b.screenshot(os.path.join(shots, "dashboard-suspects-390.png"))

        # 3. a real scan, watched live
        gate = os.path.join(a.out, "gate")
        os.makedirs(gate)
        classpath = a.infra_jar + ":/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
        status, _, body = d.request("POST", "/v1/scans", json.dumps({
            "classpath": classpath, "tests": [GATE_TEST], "techniques": ["rerun"], "runs": 2, "parallelism": 1,
            "jvm_args": ["-Dflakescan.gate=" + gate]}).encode())
        check("a scan is submitted", status == 202, body)
        live_id = json.loads(body)["id"]
        b.set_width(1280, 900)
        b.navigate(d.url + "/scans/" + live_id)
        b.wait_until("document.getElementById('state') && document.getElementById('state').textContent === 'running'"
                     " && document.getElementById('planned').textContent === '2'", "the live page shows the scan running, 2 runs planned")
        check("live page: running, 0 of 2 runs done, the first run held at the gate",
              b.evaluate("[document.getElementById('done').textContent, document.getElementById('progress').max]") == ["0", 2])
        check_accessible_and_fits(b, "live page", 1280, expect_script=True)
        open(os.path.join(gate, "open"), "w").close()
        b.wait_until("document.getElementById('done') && document.getElementById('done').textContent === '1'",
                     "the live page counts the first run from the event stream")
        last = b.evaluate("document.getElementById('last-run').textContent")
        check("live page: the finished run is named, the scan still running",
              last.startswith("Run ") and "(rerun," in last and last.endswith(": pass")
              and b.evaluate("document.getElementById('state').textContent") == "running", last)
        no_errors_logged(b, "live page")
        b.screenshot(os.path.join(shots, "dashboard-live-1280.png"))
        open(os.path.join(gate, "open"), "w").close()
        b.wait_until("!!document.getElementById('summary')", "the page turns into the scan's report when the scan ends", timeout=60)
        f = page_facts(b)
        check("after the scan: its report, no script", f["h1"] == ["flakescan: 0 flaky tests out of 1 scanned"] and f["scripts"] == 0, f)
        strip = b.evaluate("(() => [...%s.querySelectorAll('figure.strip g > title')].map(t => t.textContent))()" % article_of(GATE_TEST))
        check("after the scan: the strip of its two real runs (evidence.run_strip from the daemon)",
              len(strip) == 2 and all(s.startswith("run ") and s.endswith(": pass (rerun)") for s in strip), strip)
        b.screenshot(os.path.join(shots, "dashboard-live-finished-1280.png"))

        # 4. the token rules
        token = "browser-test-token"
        t = Daemon(a.flakescand, os.path.join(a.out, "daemon-token"), ["--token", token])
        daemons.append(t)
        status, headers, _ = t.request("GET", "/")
        challenges = headers.get_all("WWW-Authenticate") or []
        check("with a token: a page without it is refused with 401, a Bearer and a Basic challenge",
              status == 401 and any(c.startswith("Basic ") for c in challenges) and any(c.startswith("Bearer ") for c in challenges),
              (status, challenges))
        status, _, _ = t.request("GET", "/v1/scans", headers={"Authorization": "Bearer " + token})
        check("with a token: the API takes it as a bearer token", status == 200, status)
        basic = base64.b64encode(("me:" + token).encode()).decode()
        status, _, _ = t.request("GET", "/", headers={"Authorization": "Basic " + basic})
        check("with a token: a page takes it as a Basic password", status == 200, status)
        status, _, _ = t.request("GET", "/", headers={"Authorization": "Basic " + base64.b64encode(b"me:wrong").decode()})
        check("with a token: a wrong Basic password is refused", status == 401, status)
        b.send("Network.setExtraHTTPHeaders", {"headers": {"Authorization": "Basic " + basic}})
        b.navigate(t.url + "/")
        check("with a token: the browser sending it gets the scan list",
              b.evaluate("document.querySelector('h1') && document.querySelector('h1').textContent") == "Scans")
        b.send("Network.setExtraHTTPHeaders", {"headers": {}})
    except Exception:  # a broken wait or protocol error is a failed check, with its story
        check("the browser session ran to its end", False, traceback.format_exc())
    finally:
        b.close()
        for d in daemons:
            d.stop()

    print("# %d failure(s) in %.1f s; screenshots in %s" % (failures, time.monotonic() - started, shots))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
