#!/usr/bin/env python3
"""End-to-end check of a gallery of links (images not stored in the document) in `gallery serve`.

    check_links.py GALLERY IMAGE [--screenshots DIR]

Starts a local web server holding IMAGE under several names (one of them answering 404 until
the check turns it on, and each answering after a short delay so that the placeholders show),
makes a document of links to it with `gallery create` (no --cache: nothing stored), serves it,
and drives Debian's chromium with Playwright: the images are shown, the broken one is a square
error tile with the reason, Retry after the web server starts serving it shows the image, the
document on disk is unchanged by all that viewing, "Keep in gallery" stores every image (judged
by `gallery open --json`) and Undo takes them out again; the browser page shows a preview of the
gallery. With --screenshots, the page while loading and once loaded, at desktop and phone sizes.
Prints one line; exits 1 on the first failure.
"""
import hashlib
import http.server
import os
import re
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
import viewerchecks  # noqa: E402
from browserlib import (check, check_main, document_json, isolated_environment, launch_chromium, start_serve, stop_serve,  # noqa: E402
                        wait_for_js, wait_until)


class Web(http.server.BaseHTTPRequestHandler):
    """`/SET/photo-N.jpg`: the image (its bytes made unique by a tag), after `delay` seconds;
    `/SET/broken.jpg`: 404 unless `broken_fixed` is set."""
    protocol_version = "HTTP/1.1"
    image = b""
    delay = 0.0
    broken_fixed = False

    def do_GET(self):
        time.sleep(Web.delay)
        match = re.fullmatch(r"/\w+/photo-(\d+)\.jpg", self.path)
        if match or (self.path.endswith("/broken.jpg") and Web.broken_fixed):
            body = Web.image + b"tag-" + self.path.encode()
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
        else:
            body = b""
            self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


class WebServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def run(gallery, image, screenshots):
    work = Path(tempfile.mkdtemp(prefix="gallerykit-links-"))
    web = WebServer(("127.0.0.1", 0), Web)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    Web.image = Path(image).read_bytes()
    base = f"http://127.0.0.1:{web.server_address[1]}"
    folder = work / "folder"
    folder.mkdir()
    environment = isolated_environment(work)
    document = folder / "Links.gallery"
    # Made while the broken links still answer: `create` records them as working links. One
    # document for each window size, so that each shows its images loading.
    Web.broken_fixed = True
    for name, links in (("Links", "desktop"), ("Phone", "phone")):
        urls = [f"{base}/{links}/photo-{n}.jpg" for n in range(5)] + [f"{base}/{links}/broken.jpg"]
        created = subprocess.run([gallery, "create", str(folder / f"{name}.gallery"), "--title", name, *urls],
                                 capture_output=True, text=True, env=environment)
        check(created.returncode == 0, f"create failed: {created.stderr}")
    # A fresh cache: what `create` fetched is not there, so the page's server fetches everything.
    shutil.rmtree(work / "cache", ignore_errors=True)
    Web.broken_fixed = False
    Web.delay = 1.0
    before = hashlib.sha256(document.read_bytes()).hexdigest()

    def on_disk():
        return document_json(gallery, document, environment)

    server, origin, token = start_serve(gallery, folder, environment)
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for size, label in (({"width": 1280, "height": 800}, "desktop"), ({"width": 390, "height": 844}, "phone")):
                phone = label == "phone"
                context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone, device_scale_factor=2 if phone else 1)
                page = context.new_page()
                page.goto(f"{origin}/?token={token}")
                page.goto(f"{origin}/gallery/{'Phone' if phone else 'Links'}.gallery")
                page.wait_for_selector("#canvas .cell")
                time.sleep(0.5)  # the spinner shows after 0.3 s; each image takes 1 s to come
                check(page.locator("#canvas .cell.fetching").count() > 0, f"{label}: no placeholder while the images load")
                if screenshots:
                    page.screenshot(path=str(Path(screenshots) / f"links-{label}-loading.png"))

                def shown():
                    return page.evaluate("""() => Array.from(document.querySelectorAll('#canvas .cell img'))
                        .filter((img) => img.complete && img.naturalWidth > 0).length""")
                wait_until(lambda: shown() == 5, f"{label}: {shown()} of 5 images shown")
                tile = page.locator("#canvas .cell.unreachable")
                wait_until(lambda: tile.count() == 1, f"{label}: the broken image is not an error tile")
                reason = tile.locator(".why").inner_text()
                check("404" in reason, f"{label}: the error tile says {reason!r}, not the reason")
                if screenshots:
                    page.screenshot(path=str(Path(screenshots) / f"links-{label}-loaded.png"))

                if label == "desktop":
                    Web.broken_fixed = True
                    tile.get_by_role("button", name=re.compile("retry", re.I)).click()
                    wait_until(lambda: shown() == 6, "Retry did not show the image once the web server served it")
                    check(page.locator("#canvas .cell.unreachable").count() == 0, "the error tile stayed after Retry")
                    check(hashlib.sha256(document.read_bytes()).hexdigest() == before, "viewing changed the document")
                    check(all(not image["cached"] for image in on_disk()["images"]), "viewing stored bytes")

                    # The viewer of web images on a slow network (100 ms a request, 1 MB/s): a jump
                    # to the last image and a held filmstrip show a picture (the thumbnail) at once.
                    state = page.evaluate("async () => (await fetch('/api/galleries/Links.gallery?width=1280')).json()")
                    data = {"items": [{"id": item["id"]} for item in state["items"] if not item["isPlaceholder"]], "strip": state["strip"]}
                    page.locator(f"#canvas .cell[data-id='{data['items'][0]['id']}']").focus()
                    page.keyboard.press("Enter")
                    wait_for_js(page, "() => document.getElementById('viewer').open", None, "Enter did not open the viewer")
                    network = context.new_cdp_session(page)
                    network.send("Network.enable")
                    network.send("Network.emulateNetworkConditions",
                                 {"offline": False, "latency": 100, "downloadThroughput": 1_000_000, "uploadThroughput": 1_000_000})
                    slowest, _ = viewerchecks.check_never_black(page, data, 0, lambda at: "/thumbnails/" + data["items"][at]["id"])
                    network.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
                    print(f"check_links: a picture of a web image on a slow network within {slowest * 1000:.0f} ms at worst")
                    page.keyboard.press("Escape")
                    wait_for_js(page, "() => !document.getElementById('viewer').open", None, "Esc did not close the viewer")

                    keep = page.locator("#keep")
                    check(keep.is_visible(), "no Keep in gallery button for a gallery of links")
                    keep.click()
                    wait_until(lambda: all(image["cached"] for image in on_disk()["images"]),
                               "Keep in gallery did not store every image")
                    wait_until(lambda: not keep.is_visible(), "Keep in gallery still shows once everything is stored")
                    page.locator("#undo").click()
                    wait_until(lambda: not any(image["cached"] for image in on_disk()["images"]), "Undo did not take the kept bytes out")
                    Web.broken_fixed = False

                    # The browser page's tile of the gallery gets a preview made from the links.
                    page.goto(f"{origin}/")
                    preview = page.wait_for_selector(".doc[data-name='Links.gallery'] .open img", timeout=15_000)
                    wait_until(lambda: page.evaluate("(img) => img.complete && img.naturalWidth > 0", preview),
                               "the gallery of links has no preview on the browser page")
                context.close()
            browser.close()
    finally:
        stop_serve(server)
        web.shutdown()
        shutil.rmtree(work, ignore_errors=True)


def main():
    check_main("check_links", lambda gallery, images, screenshots: run(gallery, images[0], screenshots),
               "a gallery of links shows its images, an error tile with its reason, Retry, Keep in gallery and Undo")


if __name__ == "__main__":
    main()
