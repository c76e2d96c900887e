"""Shared by the browser checks: failing with a message, waiting for a condition (in Python or
in the page), touches sent as a phone's screen sends them, and starting `gallery serve` with
data, state and cache folders of its own."""
import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_until(predicate, message, timeout=15.0):
    """The first truthy value of `predicate()`, polled every 50 ms; fails with `message` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise Failure(message)


def wait_for_js(page, predicate, argument, message, timeout_ms=10_000):
    """Polls a JS predicate in `page` until it is truthy; fails with `message` and the
    predicate's last value."""
    try:
        page.wait_for_function(predicate, arg=argument, timeout=timeout_ms, polling=100)
    except Exception:
        raise Failure(f"{message} (last value: {page.evaluate(predicate, argument)!r})")


class Fingers:
    """Touches sent through the DevTools protocol, as a phone's screen sends them (the page's
    context made with `has_touch`)."""

    def __init__(self, context, page):
        self.session = context.new_cdp_session(page)

    def send(self, kind, points):
        self.session.send("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": number} for number, (x, y) in enumerate(points)]})

    def drag(self, start, end, hold, steps=16, midway=None, pause=0.03):
        """One finger down at `start`, held `hold` seconds, moved to `end` in `steps` (`pause`
        seconds apart; `midway()` called halfway), lifted."""
        self.send("touchStart", [start])
        time.sleep(hold)
        for step in range(1, steps + 1):
            point = (start[0] + (end[0] - start[0]) * step / steps, start[1] + (end[1] - start[1]) * step / steps)
            self.send("touchMove", [point])
            time.sleep(pause)
            if midway and step == steps // 2:
                midway()
        time.sleep(0.2)
        self.send("touchEnd", [])

    def pinch(self, centre, start_gap, end_gap, steps=10):
        """Two fingers either side of `centre`, `start_gap` apart, moved to `end_gap` apart."""
        def points(gap):
            return [(centre[0] - gap / 2, centre[1]), (centre[0] + gap / 2, centre[1])]
        self.send("touchStart", points(start_gap))
        for step in range(1, steps + 1):
            self.send("touchMove", points(start_gap + (end_gap - start_gap) * step / steps))
            time.sleep(0.05)
        time.sleep(0.4)
        self.send("touchEnd", [])


def isolated_environment(home):
    """This process's environment with the XDG data, state and cache folders under `home`."""
    environment = dict(os.environ)
    for variable, sub in (("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")):
        environment[variable] = str(home / sub)
    return environment


def start_serve(gallery, folder, environment):
    """`gallery serve FOLDER` started; returns the process, its origin and its token."""
    server = subprocess.Popen([gallery, "serve", str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    line = server.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{64})", line)
    check(match, f"serve printed no URL with a token: {line!r} {server.stderr.read() if server.poll() is not None else ''}")
    return server, match.group(1), match.group(2)


def stop_serve(server):
    """Ctrl-C to `gallery serve`, and a kill if it has not stopped 10 s later."""
    server.send_signal(2)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


def report(name, check_everything, success):
    """Runs `check_everything()`; prints `NAME: OK: success`, or `NAME: FAIL: why` and exits 1."""
    try:
        check_everything()
    except Failure as failure:
        print(f"{name}: FAIL: {failure}")
        sys.exit(1)
    print(f"{name}: OK: {success}")


def document_json(gallery, document, environment):
    """`gallery open --json DOCUMENT`, parsed: the document on disk, the judge of every edit."""
    result = subprocess.run([gallery, "open", "--json", str(document)], capture_output=True, text=True, check=True, env=environment)
    return json.loads(result.stdout)


def launch_chromium(playwright):
    """Debian's chromium, headless, driven by Playwright."""
    executable = shutil.which("chromium")
    check(executable, "chromium is not installed (Debian package `chromium`)")
    return playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])


@contextlib.contextmanager
def served_gallery(gallery, images, prefix):
    """Trip.gallery made from `images` (stored in it) in a folder of its own and served; yields
    a namespace with `document`, `environment`, `origin`, `token` and `ids()` (the image ids on
    disk, in order). Stops the server and removes the folder afterwards."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        folder = work / "folder"
        folder.mkdir()
        environment = isolated_environment(work)
        document = folder / "Trip.gallery"
        created = subprocess.run([gallery, "create", str(document), "--cache", *images], capture_output=True, text=True, env=environment)
        check(created.returncode == 0, f"create failed: {created.stderr}")
        server, origin, token = start_serve(gallery, folder, environment)
        try:
            yield argparse.Namespace(
                document=document, environment=environment, origin=origin, token=token,
                ids=lambda: [image["id"] for image in document_json(gallery, document, environment)["images"]])
        finally:
            stop_serve(server)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_main(name, run, success):
    """The command line of a check run on images: `NAME GALLERY IMAGE... [--screenshots DIR]`;
    calls `run(gallery, images, screenshots)` and reports as `report` does."""
    parser = argparse.ArgumentParser()
    parser.add_argument("gallery")
    parser.add_argument("images", nargs="+")
    parser.add_argument("--screenshots")
    arguments = parser.parse_args()
    if arguments.screenshots:
        os.makedirs(arguments.screenshots, exist_ok=True)
    report(name, lambda: run(arguments.gallery, arguments.images, arguments.screenshots), success)
