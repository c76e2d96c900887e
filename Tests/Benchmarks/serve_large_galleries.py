#!/usr/bin/env python3
"""`gallery serve` with galleries of links of 300, 3,000 and 100,000 images (the format's limit),
in headless chromium (Playwright, Debian's chromium), in one run.

    serve_large_galleries.py [WORK]

The images are not stored in the documents: the page shows them through the server, which
fetches each one on view from a local web server (small JPEGs, each with its own bytes) into the
image cache and makes its thumbnail. For each size:

- the state API: bytes and time of GET /api/galleries/NAME (the layout of every image);
- first image shown (from navigation) and requests made until the first screen is complete;
- after jumping to the end: time until the images on screen there are shown, and the images
  requested meanwhile elsewhere (those that should not have been asked for first);
- the page's JS heap and the server's RSS at the end.

Then a page of 300 links whose web server answers each image after 50 ms: first image, and all
images of the first screen shown.

Every figure is the median of REPETITIONS page loads, each with a new server and image cache.

Goals (issue 21): first image at 100,000 within 1.5x of 300; at most a few hundred requests
before the first scroll. Prints a table, the ratios, and PASS/FAIL for the goals. Uses the
release build (benchlib.gallery_binary) unless GALLERY_BINARY says otherwise.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import uuid
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
from benchlib import ImageHandler, ImageServer, Server, fresh_work_folder, small_jpeg  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402

SIZES = [300, 3_000, 100_000]
# Each figure is the median of this many page loads, each with a new server and an empty cache.
REPETITIONS = 5
VIEWPORT = {"width": 1280, "height": 800}


class Images(ImageHandler):
    """`/DELAY/N.jpg`: a small JPEG whose bytes are its own (a tag after the end of the image)."""
    protocol_version = "HTTP/1.1"
    base = b""

    def image(self, path):
        match = re.fullmatch(r"/(\d+)/(\d+)\.jpg", path)
        if not match:
            return None
        time.sleep(int(match.group(1)) / 1000)
        return self.base + b"tag-" + match.group(2).encode()


def links_document(path, count, port, delay):
    """A document of `count` web images at the local server, none stored (as `create` without
    `--cache` makes it), written by Python's zipfile."""
    images = [{
        "id": str(uuid.UUID(int=index + 1, version=4)),
        "url": f"http://127.0.0.1:{port}/{delay}/{index}.jpg",
        "aspectRatio": 1.5 if index % 3 else 0.75, "width": 600 if index % 3 else 300, "height": 400,
        "status": "ok", "error": None, "cached": None, "thumbnail": None, "caption": None,
        "added": "2026-11-25T10:00:00Z",
    } for index in range(count)]
    manifest = {
        "format": "gallery", "formatVersion": "1.0", "id": str(uuid.uuid4()), "title": f"{count} links",
        "created": "2026-11-25T10:00:00Z", "modified": "2026-11-25T10:00:00Z", "generator": "benchmark",
        "columns": 4, "images": images,
    }
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.gallery+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("manifest.json", json.dumps(manifest), compress_type=zipfile.ZIP_DEFLATED)


def state(server, name):
    """Bytes and seconds of the state API's answer for `name` (every image's frame)."""
    connection = server.connection()
    start = time.perf_counter()
    connection.request("GET", f"/api/galleries/{name}?width={VIEWPORT['width'] - 32}&style=justified", headers=server.headers)
    body = connection.getresponse().read()
    return len(body), time.perf_counter() - start


# JavaScript the page is measured with: the cells on screen, and whether their images are shown.
ON_SCREEN = """() => {
  const cells = Array.from(document.querySelectorAll('#canvas .cell'));
  const shown = cells.filter((cell) => {
    const box = cell.getBoundingClientRect();
    return box.bottom > 0 && box.top < innerHeight;
  });
  const loaded = shown.filter((cell) => { const img = cell.querySelector('img'); return img && img.complete && img.naturalWidth > 0; });
  return { inDOM: cells.length, onScreen: shown.length, loaded: loaded.length };
}"""


def wait_for(page, predicate, timeout=120):
    """Seconds until `predicate(page)` holds, polling every 10 ms."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if predicate(page):
            return time.perf_counter() - start
        time.sleep(0.01)
    raise SystemExit("timed out waiting for the page")


def measure(browser, serve, name):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(serve.url)  # sets the cookie
    page.wait_for_selector(".tile, .empty-state, main")
    requests.clear()
    start = time.perf_counter()
    page.goto(serve.url.split("?")[0] + "gallery/" + name, wait_until="commit")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('#canvas .cell img')).some((img) => img.complete && img.naturalWidth > 0)",
        timeout=120_000, polling=10)
    first = time.perf_counter() - start
    wait_for(page, lambda p: (lambda s: s["onScreen"] > 0 and s["loaded"] == s["onScreen"])(p.evaluate(ON_SCREEN)))
    screen = time.perf_counter() - start
    time.sleep(0.5)
    before_scroll = len([url for url in requests if "/api/galleries/" in url or "/assets/" in url or "/gallery/" in url])
    in_dom = page.evaluate(ON_SCREEN)["inDOM"]

    requests.clear()
    start = time.perf_counter()
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    time.sleep(0.05)
    wait_for(page, lambda p: (lambda s: s["onScreen"] > 0 and s["loaded"] == s["onScreen"])(p.evaluate(ON_SCREEN)))
    end = time.perf_counter() - start
    end_requests = len([url for url in requests if "/thumbnails/" in url])
    heap = page.evaluate("() => performance.memory ? performance.memory.usedJSHeapSize / 1048576 : 0")
    context.close()
    return {"first": first, "screen": screen, "requests": before_scroll, "inDOM": in_dom, "end": end,
            "endRequests": end_requests, "heap": heap}


def main():
    work, gallery = fresh_work_folder("/tmp/gallerykit-bench-serve-large")
    Images.base = small_jpeg(work)
    port = ImageServer(Images).port

    folder = os.path.join(work, "folder")
    os.makedirs(folder)
    for count in SIZES:
        links_document(os.path.join(folder, f"links-{count}.gallery"), count, port, 0)
    links_document(os.path.join(folder, "slow-300.gallery"), 300, port, 50)

    chromium = shutil.which("chromium")
    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--enable-precise-memory-info"])
        for count in SIZES + ["slow-300"]:
            name = f"links-{count}.gallery" if count != "slow-300" else "slow-300.gallery"
            rows = []
            for repetition in range(REPETITIONS):
                # A server and an image cache of its own each time: every image is fetched.
                serve = Server(gallery, folder, os.path.join(work, f"home-{count}-{repetition}"))
                try:
                    state_bytes, state_seconds = state(serve, name)
                    row = measure(browser, serve, name)
                    row.update(stateBytes=state_bytes, state=state_seconds, rss=serve.rss_kib()[0] / 1024)
                    rows.append(row)
                finally:
                    serve.stop()
            results[count] = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
        browser.close()

    print(f"{'gallery':<12}{'state':>16}{'first image':>13}{'1st screen':>12}{'requests':>10}{'cells':>7}"
          f"{'end shown':>11}{'end reqs':>10}{'JS heap':>10}{'server RSS':>12}")
    for count, row in results.items():
        print(f"{str(count):<12}{row['stateBytes'] / 1e6:7.1f} MB {row['state'] * 1000:5.0f} ms"
              f"{row['first'] * 1000:10.0f} ms{row['screen'] * 1000:9.0f} ms{row['requests']:10.0f}{row['inDOM']:7.0f}"
              f"{row['end'] * 1000:8.0f} ms{row['endRequests']:10.0f}{row['heap']:7.1f} MB{row['rss']:9.1f} MB")
    small, large = results[300], results[100_000]
    ratio = large["first"] / small["first"]
    print(f"\nfirst image, 100,000 vs 300 images: {ratio:.2f}x (goal at most 1.5x): {'PASS' if ratio <= 1.5 else 'FAIL'}")
    most = max(row["requests"] for row in results.values() if row is not results["slow-300"])
    print(f"most requests before the first scroll: {most:.0f} (goal a few hundred at most): {'PASS' if most <= 300 else 'FAIL'}")
    slow = results["slow-300"]
    print(f"300 links at 50 ms each: first image {slow['first'] * 1000:.0f} ms, first screen {slow['screen'] * 1000:.0f} ms")
    images.shutdown()


if __name__ == "__main__":
    main()
