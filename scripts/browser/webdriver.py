"""A small W3C WebDriver client (Python's standard library only) for the
browser tests: chromedriver drives Debian's headless Chromium.

Only what the tests use: a session, navigation, elements found by CSS,
clicks, keys, scripts, the browser console's log and screenshots. The
protocol is JSON over HTTP (https://www.w3.org/TR/webdriver2/); no package
from a registry is needed, so nothing can change the tests' verdict but
the browser itself.
"""

import base64
import json
import os
import socket
import subprocess
import time
import urllib.request

# The special keys of the protocol's key codes.
KEYS = {
    "ArrowLeft": "\ue012",
    "ArrowRight": "\ue014",
    "ArrowUp": "\ue013",
    "ArrowDown": "\ue015",
    "Home": "\ue011",
    "End": "\ue010",
    "PageUp": "\ue00e",
    "PageDown": "\ue00f",
    "Enter": "\ue007",
    "Tab": "\ue004",
}

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class WebDriverError(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Element:
    def __init__(self, driver, ref):
        self.driver = driver
        self.ref = ref

    def _path(self, tail=""):
        return f"/element/{self.ref}{tail}"

    def click(self):
        self.driver._session("POST", self._path("/click"), {})

    def send_keys(self, text):
        self.driver._session("POST", self._path("/value"), {"text": text})

    def clear(self):
        self.driver._session("POST", self._path("/clear"), {})

    @property
    def text(self):
        return self.driver._session("GET", self._path("/text"))

    def attribute(self, name):
        return self.driver._session("GET", self._path(f"/attribute/{name}"))

    def find_all(self, css):
        found = self.driver._session(
            "POST", self._path("/elements"), {"using": "css selector", "value": css}
        )
        return [Element(self.driver, f[ELEMENT]) for f in found]


class Driver:
    """chromedriver on a free port, and one headless Chromium session."""

    def __init__(self, chromium="/usr/bin/chromium", chromedriver="/usr/bin/chromedriver",
                 width=1280, height=1000):
        self.port = free_port()
        self.process = subprocess.Popen(
            [chromedriver, f"--port={self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 30
        while True:
            try:
                self._call("GET", "/status")
                break
            except OSError:
                if time.time() > deadline:
                    raise WebDriverError("chromedriver did not start")
                time.sleep(0.1)
        self.profile = f"/tmp/kifu-browser-{os.getpid()}-{self.port}"
        # The flags this machine's closed network needs (no background
        # connections, no first-run work), headless, as root without the
        # sandbox.
        args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
        ]
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {"binary": chromium, "args": args},
                    "goog:loggingPrefs": {"browser": "ALL"},
                }
            }
        }
        answer = self._call("POST", "/session", caps)
        self.session = answer["sessionId"]

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as e:
            answer = json.load(e)
            raise WebDriverError(f"{method} {path}: {answer.get('value')}") from None
        return answer.get("value")

    def _session(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def get(self, url):
        self._session("POST", "/url", {"url": url})

    @property
    def url(self):
        return self._session("GET", "/url")

    def back(self):
        self._session("POST", "/back", {})

    def forward(self):
        self._session("POST", "/forward", {})

    def find(self, css):
        found = self.find_all(css)
        if not found:
            raise WebDriverError(f"no element matches {css!r}")
        return found[0]

    def find_all(self, css):
        found = self._session("POST", "/elements", {"using": "css selector", "value": css})
        return [Element(self, f[ELEMENT]) for f in found]

    def script(self, source, *args):
        return self._session("POST", "/execute/sync", {"script": source, "args": list(args)})

    def keys(self, *names):
        """Presses keys on whatever has the focus (the page's key handler)."""
        actions = []
        for name in names:
            key = KEYS.get(name, name)
            actions += [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        self._session("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})
        self._session("DELETE", "/actions")

    def set_size(self, width, height):
        self._session("POST", "/window/rect", {"width": width, "height": height})

    def console(self):
        """The browser console's entries since the last call."""
        return self._session("POST", "/se/log", {"type": "browser"})

    def screenshot(self, path):
        data = self._session("GET", "/screenshot")
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def wait(self, condition, what, timeout=20):
        deadline = time.time() + timeout
        while True:
            try:
                value = condition()
                if value:
                    return value
            except WebDriverError:
                pass
            if time.time() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.05)

    def quit(self):
        try:
            self._session("DELETE", "")
        finally:
            self.process.terminate()
            self.process.wait(timeout=10)
            subprocess.run(["rm", "-rf", self.profile], check=False)
