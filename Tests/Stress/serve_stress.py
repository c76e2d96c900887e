"""`gallery serve` saving, listing, duplicating and trashing at once, beside `gallery export`s,
for SECONDS, in a time zone far from UTC and the plain C locale; then every zip written has
every entry's time right.

    serve_stress.py GALLERY IMAGE... [--seconds 30]

What it guards: GalleryKit once pinned the process's TZ to UTC around each zip header it wrote
(setenv/tzset) and set the C locale for the reader (setlocale), while `gallery serve` lists and
reads documents on other threads: glibc's setenv, getenv and localtime are not safe against
each other. Every entry of every document and export must carry its modification time in UTC:
the DOS date and time equal to the UT extra field's time read in UTC (to the 2 s the DOS form
keeps), and for a document that time is the manifest's `modified`.

Prints `serve_stress: OK: …` and exits 0, or `serve_stress: FAIL: …` and exits 1.
"""
import argparse
import datetime
import http.client
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Browser"))
from browserlib import Failure, check, isolated_environment, start_serve, stop_serve  # noqa: E402


def entry_times(path):
    """Each entry's name, DOS time fields and UT modification time (None if it has none)."""
    times = []
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            modified = None
            extra = info.extra
            while len(extra) >= 4:
                tag, size = struct.unpack("<HH", extra[:4])
                if tag == 0x5455 and size >= 5 and extra[4] & 1:
                    modified = struct.unpack("<I", extra[5:9])[0]
                extra = extra[4 + size:]
            times.append((info.filename, info.date_time, modified))
    return times


def check_times(path, manifest_modified=None):
    """Every entry's DOS time is its UT time in UTC; a document's is its manifest's `modified`."""
    for name, dos, modified in entry_times(path):
        check(modified is not None, f"{path}: {name} has no UT time")
        utc = time.gmtime(modified)
        expected = (utc.tm_year, utc.tm_mon, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec // 2 * 2)
        check(dos == expected, f"{path}: {name}: DOS time {dos} is not its UT time in UTC {expected}")
        if manifest_modified is not None:
            check(modified == manifest_modified, f"{path}: {name}: UT time {modified} is not the manifest's {manifest_modified}")


def manifest_modified(path):
    with zipfile.ZipFile(path) as archive:
        text = json.loads(archive.read("manifest.json"))["modified"]
    return int(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def run(gallery, images, seconds):
    work = Path(tempfile.mkdtemp(prefix="gallerykit-stress-"))
    try:
        folder, exports = work / "folder", work / "exports"
        folder.mkdir()
        exports.mkdir()
        environment = isolated_environment(work)
        # UTC+14, and no locale: what the old process-wide set-up changed for everyone.
        environment["TZ"] = "Pacific/Kiritimati"
        for variable in ("LANG", "LC_ALL", "LC_CTYPE"):
            environment.pop(variable, None)
        names = [f"Doc{number}.gallery" for number in range(3)]
        for name in names:
            made = subprocess.run([gallery, "create", str(folder / name), "--cache", *images], capture_output=True, text=True, env=environment)
            check(made.returncode == 0, f"create {name}: {made.stderr}")
        server, origin, token = start_serve(gallery, folder, environment)
        port = int(origin.rsplit(":", 1)[1])
        headers = {"Cookie": f"gallery-{token[:8]}={token}", "Origin": origin, "Content-Type": "application/json"}
        counts = {"saves": 0, "listings": 0, "duplicates": 0, "exports": 0}
        failures = []
        lock = threading.Lock()
        deadline = time.monotonic() + seconds

        def call(connection, method, path, body=None):
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            data = response.read()
            if response.status >= 300:
                raise Failure(f"{method} {path}: {response.status} {data[:200]!r}")
            return json.loads(data) if data else None

        def worker(kind, task):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            round_ = 0
            try:
                while time.monotonic() < deadline and not failures:
                    task(connection, round_)
                    round_ += 1
                    with lock:
                        counts[kind] += 1
            except Exception as error:  # noqa: BLE001 — any failure ends the run, reported below
                failures.append(f"{kind}: {error}")
            finally:
                connection.close()

        def caption(name):
            def task(connection, round_):
                ids = [item["id"] for item in call(connection, "GET", f"/api/galleries/{name}")["items"]]
                call(connection, "POST", f"/api/galleries/{name}/edits", {"action": "caption", "id": ids[round_ % len(ids)], "text": f"round {round_}"})
            return task

        def listing(connection, _):
            listed = call(connection, "GET", "/api/documents")
            check(json.dumps(listed).count(".gallery") >= len(names), f"the listing lost documents: {listed}")

        def duplicate_and_trash(connection, _):
            copy = call(connection, "POST", f"/api/documents/{names[0]}/duplicate")
            copy_name = copy.get("name") if isinstance(copy, dict) else None
            check(copy_name, f"duplicate answered {copy}")
            check_times(folder / copy_name, manifest_modified(folder / copy_name))
            call(connection, "POST", f"/api/documents/{urllib.parse.quote(copy_name)}/trash")

        def export(_, round_):
            name = names[round_ % len(names)]
            for kind, suffix in (("bundle", "gallery"), ("cbz", "cbz")):
                output = exports / f"{round_}.{suffix}"
                result = subprocess.run([gallery, "export", str(folder / name), "--format", kind, "--output", str(output)],
                                        capture_output=True, text=True, env=environment)
                check(result.returncode == 0, f"export {name} as {kind}: {result.stderr}")

        threads = [threading.Thread(target=worker, args=("saves", caption(name))) for name in names[1:]]
        threads += [threading.Thread(target=worker, args=("listings", listing)) for _ in range(2)]
        threads += [threading.Thread(target=worker, args=("duplicates", duplicate_and_trash))]
        threads += [threading.Thread(target=worker, args=("exports", export))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stop_serve(server)
        check(server.returncode == 0, f"gallery serve ended with {server.returncode}: {server.stderr.read()[-2000:]}")
        check(not failures, "; ".join(failures))
        check(all(counts.values()), f"something never ran: {counts}")
        written = sorted(folder.glob("*.gallery")) + sorted(exports.iterdir())
        for path in written:
            check_times(path, manifest_modified(path) if path.suffix == ".gallery" else None)
        trashed = list((work / "data" / "Trash" / "files").glob("*.gallery"))
        for path in trashed:
            check_times(path, manifest_modified(path))
        return f"{counts['saves']} saves, {counts['listings']} listings, {counts['duplicates']} duplicates trashed, " \
               f"{counts['exports']} export rounds in {seconds:g} s; {len(written) + len(trashed)} archives with every entry time right"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gallery")
    parser.add_argument("images", nargs="+")
    parser.add_argument("--seconds", type=float, default=30)
    arguments = parser.parse_args()
    try:
        summary = run(arguments.gallery, arguments.images, arguments.seconds)
    except Failure as failure:
        print(f"serve_stress: FAIL: {failure}")
        sys.exit(1)
    print(f"serve_stress: OK: {summary}")

if __name__ == "__main__":
    main()
