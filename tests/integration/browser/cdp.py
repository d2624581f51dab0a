"""A small Chrome DevTools Protocol client for Debian's headless Chromium, over
--remote-debugging-pipe (fd 3: commands in, fd 4: replies and events out, each message a JSON
text ended by a NUL byte). Nothing from npm or PyPI: the standard library only.

Every wait has a deadline; a wait for a page condition polls the page (a DOM query) until it
holds or the deadline passes, and says which condition did not hold."""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


class BrowserError(Exception):
    pass


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, executable, user_data_dir=None, log_path=None):
        self.user_data_dir = user_data_dir or tempfile.mkdtemp(prefix="flakescan-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def child_fds():
            # Move both ends out of the way first (either may itself be fd 3 or 4), then onto
            # 3 and 4; dup2 clears close-on-exec, so the browser inherits exactly these two.
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD_CLOEXEC, 100)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD_CLOEXEC, 100)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        log = open(log_path or os.devnull, "wb")
        self.proc = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe",
             "--user-data-dir=" + self.user_data_dir, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=child_fds, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        log.close()
        self._buffer = b""
        self._next_id = 0
        self.events = []          # (session, method, params) not consumed by a wait yet
        self.session = None

    # ---- wire ----------------------------------------------------------------------------

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("no message from the browser before the deadline")
            ready, _, _ = select.select([self._from_browser], [], [], max(0.0, min(1.0, deadline - time.monotonic())))
            if not ready:
                if self.proc.poll() is not None:
                    raise BrowserError("the browser exited with status %s" % self.proc.returncode)
                continue
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise BrowserError("the browser closed its pipe (exit status %s)" % self.proc.poll())
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method, params=None, session=True, timeout=30):
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._to_browser, data)
            data = data[n:]
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))

    def wait_event(self, method, timeout=30, predicate=None):
        deadline = time.monotonic() + timeout
        while True:
            for i, (session, m, params) in enumerate(self.events):
                if m == method and (predicate is None or predicate(params)):
                    del self.events[i]
                    return params
            reply = self._read_message(deadline)
            if "method" in reply:
                self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))

    # ---- pages ---------------------------------------------------------------------------

    def open_tab(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.send(domain + ".enable")
        return self

    def set_width(self, width, height=900, mobile=False):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def navigate(self, url, timeout=30):
        """Loads url and waits for its load event; returns the URLs the page requested."""
        self.events = [e for e in self.events if e[1] not in ("Page.loadEventFired", "Network.requestWillBeSent")]
        result = self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise BrowserError("navigating to %s: %s" % (url, result["errorText"]))
        self.wait_event("Page.loadEventFired", timeout)
        requests = [p["request"]["url"] for (_, m, p) in self.events if m == "Network.requestWillBeSent"]
        self.events = [e for e in self.events if e[1] != "Network.requestWillBeSent"]
        return requests

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise BrowserError("evaluating %r: %s" % (expression[:200], result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_until(self, expression, what, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.evaluate(expression):
                    return
            except BrowserError as e:
                # The page may be navigating (the live page turns into the report when its scan
                # ends): the evaluation then fails with "Inspected target navigated or closed"
                # and the condition is asked again of the new page.
                if "navigated or closed" not in str(e) and "Execution context was destroyed" not in str(e):
                    raise
            if time.monotonic() > deadline:
                raise BrowserError("waited %d s for: %s" % (timeout, what))
            # Collect whatever the browser sent meanwhile (keeps the pipe drained).
            try:
                self.events.append(("", "tick", {}))
                self._read_message(time.monotonic() + 0.1)
            except BrowserError:
                pass
            self.events = [e for e in self.events if e[1] != "tick"]

    def console_messages(self):
        out = []
        for (_, m, p) in self.events:
            if m == "Log.entryAdded":
                out.append("%s: %s" % (p["entry"].get("level"), p["entry"].get("text")))
            elif m == "Runtime.consoleAPICalled":
                out.append("console.%s" % p.get("type"))
            elif m == "Runtime.exceptionThrown":
                out.append("exception: %s" % p["exceptionDetails"].get("text"))
        return out

    def screenshot(self, path, selector=None, full_page=True):
        """PNG of the whole page, or of the element matching selector."""
        params = {"format": "png", "captureBeyondViewport": True}
        if selector:
            box = self.evaluate("(() => { const r = document.querySelector(%s).getBoundingClientRect();"
                                " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()" % json.dumps(selector))
            params["clip"] = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}
        elif full_page:
            size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
