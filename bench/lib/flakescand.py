"""Shared by the drills (bench/crash_drill, bench/load): a flakescand started on a free
loopback port with a given data folder, and a small HTTP/SSE client for it. Python's standard
library only; every wait is bounded."""
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time

JAVA_LIB = "/usr/share/java"


def build_dir():
    build = os.environ.get("FLAKESCAN_BUILD")
    if not build:
        raise SystemExit("FLAKESCAN_BUILD is not set: run through bench/run, or set FLAKESCAN_BUILD=<build dir>")
    return build


def snapshot_build(build, into):
    """Copies what the drills run (flakescand, the runner jar, the jvm-basic example) into `into`,
    laid out as in the build tree, and returns `into`: other engineers relinking the shared
    build tree mid-drill then change nothing under a running drill. Retries while a binary is
    being written (not yet executable)."""
    parts = ["daemon/app/flakescand", "lib/flakescan-runner.jar", "examples/jvm-basic.jar"]
    deadline = time.monotonic() + 300
    while True:
        try:
            for part in parts:
                os.makedirs(os.path.dirname(os.path.join(into, part)), exist_ok=True)
                shutil.copy2(os.path.join(build, part), os.path.join(into, part))
            exe = os.path.join(into, parts[0])
            if subprocess.run([exe, "--version"], capture_output=True, timeout=30).returncode == 0:
                return into
        except (OSError, subprocess.SubprocessError):
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"cannot take a working copy of flakescand from {build}")
        time.sleep(5)


def jvm_basic_classpath(build):
    jars = ["junit4.jar", "hamcrest-core.jar", "junit-jupiter-api.jar", "opentest4j.jar", "apiguardian-api.jar"]
    return ":".join([os.path.join(build, "examples/jvm-basic.jar")] + [os.path.join(JAVA_LIB, j) for j in jars])


class Daemon:
    """One flakescand process: --listen 127.0.0.1:0, its port read from --port-file."""

    def __init__(self, build, data_dir, extra_args=(), log_path=None, port_file=None, start_timeout=30.0):
        self.build = build
        self.data_dir = data_dir
        self.port_file = port_file or data_dir.rstrip("/") + ".port"
        if os.path.exists(self.port_file):
            os.unlink(self.port_file)
        self.log_path = log_path or (data_dir.rstrip("/") + ".log")
        self.log = open(self.log_path, "ab")
        args = [os.path.join(build, "daemon/app/flakescand"), "--listen", "127.0.0.1:0", "--port-file", self.port_file,
                "--data-dir", data_dir, *extra_args]
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.port = None
        deadline = time.monotonic() + start_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                with open(self.port_file) as f:
                    text = f.read().strip()
                if text:
                    self.port = int(text)
                    break
            except FileNotFoundError:
                pass
            time.sleep(0.02)

    @property
    def started(self):
        return self.port is not None

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def exit_code(self, timeout=30.0):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill9(self):
        if self.alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.log.close()

    def stop(self, timeout=30.0):
        """SIGTERM, then SIGKILL after `timeout`; returns the exit code (or -9)."""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=30)
        if not self.log.closed:
            self.log.close()
        return self.proc.returncode

    def log_text(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def rss_kib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None

    # -- HTTP ---------------------------------------------------------------------------
    def request(self, method, path, body=None, timeout=30.0):
        """Returns (status, parsed JSON or text); raises OSError when the daemon is unreachable."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
            try:
                return response.status, json.loads(text)
            except ValueError:
                return response.status, text
        finally:
            conn.close()

    def get(self, path, timeout=30.0):
        return self.request("GET", path, timeout=timeout)

    def submit(self, body, timeout=30.0):
        return self.request("POST", "/v1/scans", body, timeout=timeout)

    def wait_finished(self, scan_id, timeout=300.0, poll=0.2):
        """Polls the scan until it leaves queued/running; returns its last status (or None)."""
        deadline = time.monotonic() + timeout
        status = None
        while time.monotonic() < deadline:
            code, status = self.get(f"/v1/scans/{scan_id}")
            if code == 200 and status["state"] not in ("queued", "running"):
                return status
            time.sleep(poll)
        return status


class EventReader(threading.Thread):
    """Reads a scan's SSE stream on its own thread; `on_event(type, data)` per event.
    Ends when the stream ends, the connection breaks, or stop() is called."""

    def __init__(self, port, scan_id, on_event=None, timeout=600.0):
        super().__init__(daemon=True)
        self.port, self.scan_id, self.on_event, self.timeout = port, scan_id, on_event, timeout
        self.events = []
        self.error = None
        self.status = None
        self.ended_cleanly = False
        self.sock = None

    def run(self):
        try:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
            self.sock.sendall(f"GET /v1/scans/{self.scan_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Accept: text/event-stream\r\n\r\n".encode())
            f = self.sock.makefile("rb")
            status_line = f.readline().decode(errors="replace")
            self.status = int(status_line.split()[1]) if status_line.startswith("HTTP/") else None
            while f.readline() not in (b"\r\n", b"\n", b""):
                pass
            etype, data = None, []
            for raw in f:
                line = raw.decode(errors="replace").rstrip("\r\n")
                if line == "":
                    if etype is not None:
                        payload = "\n".join(data)
                        self.events.append((etype, payload))
                        if self.on_event:
                            self.on_event(etype, payload)
                    etype, data = None, []
                elif line.startswith("event: "):
                    etype = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
            self.ended_cleanly = True
        except OSError as e:
            self.error = e
        finally:
            if self.sock:
                try:
                    self.sock.close()
                except OSError:
                    pass

    def stop(self):
        if self.sock:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
