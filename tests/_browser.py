"""A minimal headless-Chromium client for the browser tests (a helper, not a test file).

Chromium is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``, fds
3 and 4): no extra Python package and no browser download. The :func:`browser` fixture
skips the test when no Chromium is on PATH (``.ci/run`` installs Debian's ``chromium``).
Import the fixture into a test module to use it::

    from _browser import browser  # noqa: F401  (a fixture)
"""
import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time

import pytest


class Chromium:
    """Headless Chromium driven over the DevTools protocol on a pipe (fds 3 and 4)."""

    FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-pipe")

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="evalbars-chromium-")
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def as_fds_3_and_4() -> None:  # in the child, before exec
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands_read, replies_write)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [executable, *self.FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            preexec_fn=as_fds_3_and_4, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self._buffer, self._id, self.events = b"", 0, []

    def _message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._replies], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event.get("method") == method and event.get("sessionId") == session:
                    self.events.remove(event)
                    return event
            self.events.append(self._message(deadline))

    def open(self, url: str) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1000, "height": 900,
                                                         "deviceScaleFactor": 1,
                                                         "mobile": False}, session)
        self.send("Page.navigate", {"url": url}, session)
        self.wait_for("Page.loadEventFired", session)
        return Page(self, session)

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._replies)
        self.profile.cleanup()


class Page:
    """One tab: evaluate JavaScript, send real mouse clicks and keys, take screenshots."""

    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser, self.session = browser, session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression: str):
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def click(self, selector: str) -> None:
        """A real left click in the middle of the element (scrolled into view)."""
        box = self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                            "e.scrollIntoView({block: 'center'});"
                            "const r = e.getBoundingClientRect();"
                            "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def press(self, selector: str, key: str, times: int = 1) -> None:
        """Focus the element and press an arrow key, as a person using the keyboard."""
        codes = {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35}
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        for _ in range(times):
            for kind in ("rawKeyDown", "keyUp"):
                self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                     "windowsVirtualKeyCode": codes[key]})

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and refused loads (CSP) seen so far."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(json.dumps(params.get("args"))[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(params["entry"]["text"])
        return found

    def dialogs(self) -> list[dict]:
        return [e for e in self.browser.events if e.get("sessionId") == self.session
                and e.get("method") == "Page.javascriptDialogOpening"]

    def screenshot(self, path) -> bytes:
        """A PNG of the whole page, written to ``path``."""
        height = self.evaluate("document.documentElement.scrollHeight")
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1000, "height": int(height),
                                                         "deviceScaleFactor": 1, "mobile": False})
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        png = base64.b64decode(data)
        path.write_bytes(png)
        return png


def find_chromium() -> str | None:
    """The path of a Chromium or Chrome on PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the test module; skips the test when there is none."""
    executable = find_chromium()
    if executable is None:
        pytest.skip("no Chromium on PATH (.ci/run installs it: apt-get install chromium)")
    chromium = Chromium(executable)
    yield chromium
    chromium.close()


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])
