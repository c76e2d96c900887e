#!/usr/bin/env python3
"""`gallery serve` under load, on the 300-photo cached document (~450 MB), against the CLI.

    serve_edits.py [WORK] [--seconds 60] [--clients 20]

1. A drop to the saved edit: a drag's move (POST .../edits, answered after the save) and a web
   image dropped in (POST .../drops, then until the document on disk holds it), against
   `gallery edit move` of the same document (the obvious alternative: one process per edit).
2. The gallery page's first paint and all its thumbnails shown, in headless chromium (Playwright).
3. CLIENTS clients (threads, each its own keep-alive connection) captioning their own image in
   a loop for SECONDS: edits per second, median and p99 latency, edits lost (each client's last
   caption must be in the document), saves (a burst is coalesced into one), server RSS; then the
   same number of edits made serially with the CLI, timed.

Prints a table and ratios. Uses the release build (benchlib.gallery_binary).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchlib import ImageHandler, ImageServer, Server, gallery_binary, make_photos  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def document_ids(gallery, path):
    output = subprocess.run([gallery, "open", "--json", path], check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("work", nargs="?", default="/tmp/gallerykit-bench")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=20)
    arguments = parser.parse_args()
    gallery = gallery_binary()
    folder = os.path.join(arguments.work, "serve")
    os.makedirs(folder, exist_ok=True)
    document = os.path.join(folder, "Photos.gallery")
    if not os.path.exists(document):
        photos = make_photos(os.path.join(arguments.work, "photos"), 300)
        subprocess.run([gallery, "create", document, "--cache", *photos], check=True, stdout=subprocess.DEVNULL)
    print(f"Document: 300 cached photos, {os.path.getsize(document) / 1e6:.0f} MB")

    # A web image to drop, served here.
    photo = open(os.path.join(arguments.work, "photos", "photo-000.jpg"), "rb").read()

    class Images(ImageHandler):
        def image(self, path):
            return photo

    images = ImageServer(Images)

    server = Server(gallery, folder, os.path.join(arguments.work, "serve-state"))
    connection = server.connection()
    path = "/api/galleries/Photos.gallery"
    try:
        # 1. A drag's move, saved; against the CLI's move.
        ids = [item["id"] for item in server.call(connection, "GET", path)["items"]]
        moves = []
        for round in range(10):
            start = time.perf_counter()
            server.call(connection, "POST", path + "/edits?width=1200", {"action": "move", "ids": [ids[round]], "before": ids[-1 - round]})
            moves.append(time.perf_counter() - start)
        cli = []
        for round in range(10):
            start = time.perf_counter()
            subprocess.run([gallery, "edit", document, "move", str(round + 1), "--to", str(300 - round)], check=True, capture_output=True)
            cli.append(time.perf_counter() - start)
        drops = []
        for round in range(5):
            url = f"http://127.0.0.1:{images.port}/photo-{round}.jpg"
            start = time.perf_counter()
            server.call(connection, "POST", path + "/drops", {"urls": [url], "before": ids[150]})
            shown = time.perf_counter() - start
            while True:
                state = server.call(connection, "GET", path)
                if not any(item["isPlaceholder"] for item in state["items"]):
                    break
                time.sleep(0.01)
            drops.append((shown, time.perf_counter() - start))
        print("\n1. From a drop to the saved edit (medians)")
        print(f"   drag's move, answered after the save     {statistics.median(moves) * 1000:8.1f} ms")
        print(f"   gallery edit move (CLI)                  {statistics.median(cli) * 1000:8.1f} ms   ratio {statistics.median(moves) / statistics.median(cli):.2f}")
        print(f"   URL drop: placeholder in the answer      {statistics.median(d[0] for d in drops) * 1000:8.1f} ms")
        print(f"   URL drop: fetched, cached and saved      {statistics.median(d[1] for d in drops) * 1000:8.1f} ms")

        # 2. First paint of the gallery page.
        try:
            from playwright.sync_api import sync_playwright
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(server.url)
                paints, complete = [], []
                for _ in range(5):
                    start = time.perf_counter()
                    page.goto(f"http://127.0.0.1:{server.port}/gallery/Photos.gallery")
                    page.wait_for_selector("#canvas .cell img")
                    painted = time.perf_counter() - start
                    page.wait_for_function("""() => { const images = Array.from(document.querySelectorAll('#canvas img'));
                        return images.length >= 300 && images.every(image => image.complete && image.naturalWidth > 0); }""", timeout=120000)
                    paints.append((painted, page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime || 0")))
                    complete.append(time.perf_counter() - start)
                # A move made with the keyboard (as a drag): shown, then saved.
                shown, saved = [], []
                for round in range(6):
                    first = page.evaluate("() => document.querySelector('#canvas .cell[data-index=\"0\"]').dataset.id")
                    page.focus(f".cell[data-id='{first}']")
                    start = time.perf_counter()
                    with page.expect_response(lambda response: "/edits" in response.url, timeout=60000) as answer:
                        page.keyboard.press("Alt+ArrowRight")
                        page.wait_for_function(f"() => document.querySelector(`.cell[data-id='{first}']`).dataset.index === '1'")
                        shown.append(time.perf_counter() - start)
                    answer.value.finished()
                    saved.append(time.perf_counter() - start)
                    page.wait_for_timeout(300)
                browser.close()
            print("\n2. Gallery page of 300 photos (medians of 5 loads)")
            print(f"   first contentful paint (browser's own)   {statistics.median(p[1] for p in paints):8.1f} ms")
            print(f"   first image shown                        {statistics.median(p[0] for p in paints) * 1000:8.1f} ms")
            print(f"   all 300 thumbnails shown                 {statistics.median(complete) * 1000:8.1f} ms")
            print(f"   a move (Alt+→, as a drag) on the page    {statistics.median(shown) * 1000:8.1f} ms   (median of 6)")
            print(f"   ... and saved (the server's answer)      {statistics.median(saved) * 1000:8.1f} ms")
        except ImportError:
            print("\n2. skipped: Playwright is not installed")

        # 3. Many clients at once.
        state = server.call(connection, "GET", path)
        ids = [item["id"] for item in state["items"]]
        latencies, last, failures = [], {}, []
        lock = threading.Lock()
        deadline = time.perf_counter() + arguments.seconds

        def client(number):
            own = server.connection()
            round = 0
            while time.perf_counter() < deadline:
                text = f"client {number} edit {round}"
                start = time.perf_counter()
                try:
                    server.call(own, "POST", path + "/edits", {"action": "caption", "id": ids[number], "text": text})
                except Exception as error:  # noqa: BLE001 (counted, not hidden)
                    with lock:
                        failures.append(str(error))
                    own = server.connection()
                    continue
                with lock:
                    latencies.append(time.perf_counter() - start)
                    last[number] = text
                round += 1

        rss_before = server.rss_kib()[0]
        threads = [threading.Thread(target=client, args=(number,)) for number in range(arguments.clients)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        rss, peak = server.rss_kib()
        captions = {image["id"]: image["caption"] for image in document_ids(gallery, document)["images"]}
        lost = sum(1 for number, text in last.items() if captions.get(ids[number]) != text)
        total = len(latencies)
        serial = []
        for round in range(5):
            start = time.perf_counter()
            subprocess.run([gallery, "edit", document, "caption", str(round + 1), f"cli {round}"], check=True, capture_output=True)
            serial.append(time.perf_counter() - start)
        cli_rate = 1 / statistics.median(serial)
        print(f"\n3. {arguments.clients} clients editing for {elapsed:.0f} s")
        print(f"   edits                                    {total:8d}   ({len(failures)} refused)")
        print(f"   edits per second                         {total / elapsed:8.1f}   ratio to the CLI one after another: {total / elapsed / cli_rate:.1f}x ({cli_rate:.1f}/s)")
        print(f"   latency median / p99                     {statistics.median(latencies) * 1000:8.0f} / {percentile(latencies, 0.99) * 1000:.0f} ms")
        print(f"   edits lost                               {lost:8d}   (each client's last caption checked in the document)")
        print(f"   server RSS before / after / peak         {rss_before / 1024:6.0f} / {rss / 1024:.0f} / {peak / 1024:.0f} MB")
        if failures:
            print(f"   first refusal: {failures[0]}")
    finally:
        server.stop()
        images.shutdown()


if __name__ == "__main__":
    main()
