"""Shared by the browser checks of `gallery serve`: failing with a message, waiting for a
condition, and starting the server with data, state and cache folders of its own."""
import os
import re
import subprocess
import sys
import time


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
