#!/usr/bin/env python3
"""End-to-end check of `gallery serve` in a real browser.

    check_serve.py GALLERY IMAGES... [--screenshots DIR]

Starts `GALLERY serve` on a temporary folder and drives Debian's chromium with Playwright (no
browser download): reorder by drag, a multi-item drag, URLs dropped from another page (served by a
local server here: a placeholder first, then the images, in the order dropped), a drop on the
trash, undo, the columns control, the keyboard, two tabs seeing each other's edits and an edit
made with the CLI, and on the browser page new, duplicate, rename, Trash and restore. The
document on disk (`gallery open --json`) is the judge of every edit. Prints one line; exits 1 on
the first failure.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_until(predicate, message, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise Failure(message)


class ImageHandler(http.server.BaseHTTPRequestHandler):
    """Serves /DELAY/NAME: the sample image NAME after DELAY seconds (the web images dropped in)."""
    images = {}

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if len(parts) == 2 and parts[1] in self.images:
            time.sleep(float(parts[0]))
            body = self.images[parts[1]]
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

    def log_message(self, *arguments):
        pass


class Session:
    def __init__(self, gallery, images, folder, screenshots):
        self.gallery = gallery
        self.images = images
        self.folder = folder
        self.screenshots = screenshots
        self.server = None
        self.url = None

    # The document as the CLI reads it: the judge of every edit.
    def document(self, name="Trip.gallery"):
        result = subprocess.run([self.gallery, "open", "--json", str(self.folder / name)], capture_output=True, text=True, check=True)
        return json.loads(result.stdout)

    def ids(self, name="Trip.gallery"):
        return [image["id"] for image in self.document(name)["images"]]

    def start(self):
        environment = dict(os.environ)
        state = self.folder.parent / "state"
        for variable, sub in (("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")):
            environment[variable] = str(state / sub)
        self.server = subprocess.Popen([self.gallery, "serve", str(self.folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        line = self.server.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{64})", line)
        check(match, f"serve printed no URL with a token: {line!r} {self.server.stderr.read() if self.server.poll() is not None else ''}")
        self.origin, self.token = match.group(1), match.group(2)
        self.url = f"{self.origin}/?token={self.token}"

    def stop(self):
        if self.server and self.server.poll() is None:
            self.server.send_signal(2)  # Ctrl-C
            try:
                status = self.server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.server.kill()
                raise Failure("serve did not stop within 10 s of Ctrl-C")
            check(status == 0, f"serve exited with {status} on Ctrl-C: {self.server.stderr.read()}")

    def shoot(self, page, name):
        if self.screenshots:
            page.screenshot(path=str(Path(self.screenshots) / f"{name}.png"), full_page=False)


def cell_ids(page):
    """The cells' ids in layout order (top to bottom, left to right), placeholders included."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('#canvas .cell'))
        .filter(cell => !cell.classList.contains('leaving'))
        .map(cell => [cell.dataset.id, Number(cell.dataset.index)])
        .sort((a, b) => a[1] - b[1]).map(pair => pair[0])""")


def settled(page, expected):
    """Waits until the page shows `expected` and its cells have glided to their frames."""
    wait_until(lambda: cell_ids(page) == expected, f"the page shows {cell_ids(page)}, expected {expected}")
    still(page)


def still(page):
    """Waits for the cells' transitions to end (pointer positions are read from them)."""
    page.evaluate("""() => Promise.all(document.getAnimations()
        .filter(animation => animation.effect.getTiming().iterations !== Infinity)
        .map(animation => animation.finished.catch(() => null)))""")


def drop_urls(page, urls, before_id):
    """Drops text/uri-list on the canvas just left of the cell `before_id` (None: after the last)."""
    still(page)
    page.evaluate("""([urls, beforeId]) => {
        const canvas = document.getElementById('canvas');
        let target = beforeId ? document.querySelector(`.cell[data-id="${beforeId}"]`) : null;
        const cells = Array.from(canvas.querySelectorAll('.cell')).sort((a, b) => a.dataset.index - b.dataset.index);
        let box;
        if (target) { const b = target.getBoundingClientRect(); box = { x: b.left + 3, y: b.top + b.height / 2 }; }
        else { const b = cells[cells.length - 1].getBoundingClientRect(); box = { x: b.right - 2, y: b.top + b.height / 2 }; }
        const transfer = new DataTransfer();
        transfer.setData('text/uri-list', '# dropped\\r\\n' + urls.join('\\r\\n'));
        for (const type of ['dragenter', 'dragover', 'drop']) {
            canvas.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, clientX: box.x, clientY: box.y, dataTransfer: transfer }));
        }
    }""", [urls, before_id])


def run(session):
    with sync_playwright() as playwright:
        executable = shutil.which("chromium")
        check(executable, "chromium is not installed (Debian package `chromium`)")
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda response: errors.append(f"{response.status} {response.url}") if response.status >= 400 and response.status not in (404, 415) else None)

        # Without the token nothing is served; with it, a cookie replaces it in the address.
        check(page.goto(session.origin + "/").status == 401, "the app answered without the token")
        errors.clear()
        page.goto(session.url)
        check("token" not in page.url, f"the token stayed in the address bar: {page.url}")
        page.wait_for_selector(".doc[data-name='Trip.gallery']")
        session.shoot(page, "browser-desktop")

        # The gallery page: the frames come from the server for this width.
        page.goto(session.origin + "/gallery/Trip.gallery")
        original = session.ids()
        settled(page, original)
        page.wait_for_function("() => Array.from(document.querySelectorAll('#canvas img')).every(img => img.complete && img.naturalWidth > 0)")
        session.shoot(page, "gallery-desktop")

        # Reorder one image by dragging it onto the left half of the fourth.
        page.drag_and_drop(f".cell[data-id='{original[0]}']", f".cell[data-id='{original[3]}']", target_position={"x": 4, "y": 20})
        expected = original[1:3] + [original[0]] + original[3:]
        wait_until(lambda: session.ids() == expected, f"reorder by drag: the document has {session.ids()}, expected {expected}")
        settled(page, expected)

        # Select two (click, Ctrl-click) and drag the stack before the first image.
        page.click(f".cell[data-id='{expected[2]}']")
        page.click(f".cell[data-id='{expected[4]}']", modifiers=["Control"])
        page.drag_and_drop(f".cell[data-id='{expected[4]}']", f".cell[data-id='{expected[0]}']", target_position={"x": 4, "y": 20})
        expected = [expected[2], expected[4]] + [expected[0], expected[1], expected[3]] + expected[5:]
        wait_until(lambda: session.ids() == expected, f"multi-item drag: the document has {session.ids()}, expected {expected}")
        settled(page, expected)

        # The keyboard: Alt+→ moves the focused image one place right.
        page.click(f".cell[data-id='{expected[0]}']")
        page.keyboard.press("Alt+ArrowRight")
        expected = [expected[1], expected[0]] + expected[2:]
        wait_until(lambda: session.ids() == expected, f"Alt+→: the document has {session.ids()}, expected {expected}")

        # A second tab sees the first one's edits, and the CLI's, within a second.
        second = context.new_page()
        second.goto(session.origin + "/gallery/Trip.gallery")
        settled(second, expected)
        page.click(f".cell[data-id='{expected[-1]}']")
        page.keyboard.press("Alt+ArrowLeft")
        expected = expected[:-2] + [expected[-1], expected[-2]]
        wait_until(lambda: cell_ids(second) == expected, "the second tab did not show the first tab's edit", timeout=1.5)
        subprocess.run([session.gallery, "edit", str(session.folder / "Trip.gallery"), "move", "1", "--to", "3"], check=True, capture_output=True)
        expected = [expected[1], expected[2], expected[0]] + expected[3:]
        wait_until(lambda: cell_ids(page) == expected and cell_ids(second) == expected, "the tabs did not show the CLI's edit", timeout=1.5)
        still(page)

        # Drop two web URLs before the second image: placeholders at once, then the images, in the
        # order dropped although the first takes longer to arrive.
        slow, fast = f"{session.images_url}/2.0/a.jpg", f"{session.images_url}/0.2/b.jpg"
        drop_urls(page, [slow, fast], expected[1])
        page.wait_for_function("() => document.querySelectorAll('#canvas .cell.loading').length === 2", timeout=1500)
        shown = cell_ids(page)
        check(shown[0] == expected[0] and shown[3] == expected[1], f"the placeholders are not at the drop position: {shown} (images: {expected})")
        check(len(session.ids()) == len(expected), "the images were inserted before they arrived")
        page.wait_for_function("() => document.querySelectorAll('#canvas .cell.loading').length === 0", timeout=15000)
        document = session.document()["images"]
        urls = [image["url"] for image in document]
        check(urls[1:3] == [slow, fast], f"dropped images not in drop order at the drop position: {urls[:4]}")
        check(all(image["cached"] and image["status"] == "ok" for image in document[1:3]), "the dropped images were not cached")
        expected = session.ids()
        settled(page, expected)
        page.wait_for_function("() => Array.from(document.querySelectorAll('#canvas img')).every(img => img.complete && img.naturalWidth > 0)")

        # A URL that is no image becomes an error tile, with Retry.
        drop_urls(page, [f"{session.images_url}/0/missing.jpg"], None)
        page.wait_for_selector("#canvas .cell.failed button", timeout=15000)
        check(session.document()["images"][-1]["status"] == "failed", "a failed drop is not a failed image")
        expected = session.ids()

        # Files from the desktop (the file picker): checked by their bytes, cached, added at the end.
        count = len(expected)
        page.set_input_files("#files", [session.images[2]])
        wait_until(lambda: len(session.ids()) == count + 1, "the chosen image file was not added")
        check(session.document()["images"][-1]["cached"], "the uploaded image was not cached")
        fake = session.folder.parent / "notes.jpg"
        fake.write_text("not an image, whatever the name says")
        page.set_input_files("#files", [str(fake)])
        page.wait_for_selector("#status.error")
        check("not an image" in page.text_content("#status"), f"a non-image upload was not refused: {page.text_content('#status')}")
        check(len(session.ids()) == count + 1, "a non-image file was added")
        expected = session.ids()
        settled(page, expected)

        # Drop on the trash removes; Undo brings back.
        page.drag_and_drop(f".cell[data-id='{expected[0]}']", "#trash")
        wait_until(lambda: session.ids() == expected[1:], "the drop on the trash did not remove the image")
        page.click("#undo")
        wait_until(lambda: session.ids() == expected, "Undo did not bring the image back")
        settled(page, expected)
        page.keyboard.press("Control+Shift+z")
        wait_until(lambda: session.ids() == expected[1:], "Shift+Ctrl+Z did not redo the removal")
        page.keyboard.press("Control+z")
        wait_until(lambda: session.ids() == expected, "Ctrl+Z did not undo")

        # The columns control: images per row in the document, and a new layout.
        before = page.evaluate("() => document.querySelector('#canvas .cell').getBoundingClientRect().width")
        page.fill("#columns", "6")
        page.dispatch_event("#columns", "change")
        wait_until(lambda: session.document()["columns"] == 6, "the columns control did not change the document")
        wait_until(lambda: page.evaluate("() => document.querySelector('#canvas .cell').getBoundingClientRect().width") < before * 0.8,
                   "the images did not get smaller with more per row")

        # A caption edited in place (and escaped: it is text, never markup).
        caption = "<img src=x onerror=\"document.title='pwned'\"> Harbour"
        target = f".cell[data-id='{expected[2]}']"
        page.focus(target)
        page.keyboard.press("F2")
        page.fill(f"{target} .caption-editor", caption)
        page.keyboard.press("Enter")
        wait_until(lambda: session.document()["images"][2]["caption"] == caption, "the caption was not saved")
        wait_until(lambda: page.text_content(f"{target} .caption") == caption, "the caption is not shown as text")
        check(page.title() != "pwned", "a caption ran as markup")
        page.click(f".cell[data-id='{expected[4]}']")
        page.click(f".cell[data-id='{expected[5]}']", modifiers=["Shift"])
        still(page)
        session.shoot(page, "gallery-desktop-edited")

        # The viewer: Enter opens, → pages, the filmstrip follows.
        page.focus(target)
        page.keyboard.press("Enter")
        page.wait_for_selector("#viewer[open]")
        check(page.text_content("#viewer-counter") == f"3 of {len(expected)}", "the viewer opened on the wrong image")
        page.keyboard.press("ArrowRight")
        check(page.text_content("#viewer-counter") == f"4 of {len(expected)}", "→ did not page the viewer")
        check(page.evaluate("() => Array.from(document.querySelectorAll('#viewer-strip button')).findIndex(b => b.classList.contains('current'))") == 3,
              "the filmstrip is not in sync")
        session.shoot(page, "viewer-desktop")
        page.keyboard.press("Escape")

        # Phone width: the server lays out for the narrower page.
        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
        phone_page = phone.new_page()
        phone_page.goto(session.url)
        phone_page.wait_for_selector(".doc[data-name='Trip.gallery']")
        session.shoot(phone_page, "browser-phone")
        phone_page.goto(session.origin + "/gallery/Trip.gallery")
        settled(phone_page, expected)
        phone_page.wait_for_function("() => Array.from(document.querySelectorAll('#canvas img')).every(img => img.complete && img.naturalWidth > 0)")
        right = phone_page.evaluate("() => Math.max(...Array.from(document.querySelectorAll('#canvas .cell')).map(c => c.getBoundingClientRect().right))")
        check(right <= 390, f"the phone layout is wider than the screen ({right} px)")
        session.shoot(phone_page, "gallery-phone")
        phone.close()

        # The browser page: new, duplicate, rename, Trash, Recently Deleted, restore.
        page.goto(session.origin + "/")
        page.wait_for_selector(".doc[data-name='Trip.gallery']")
        page.click("#new")
        page.wait_for_selector(".doc[data-name='Untitled.gallery']")
        check((session.folder / "Untitled.gallery").exists(), "New did not create a document")
        page.click(".doc[data-name='Trip.gallery'] button:has-text('Duplicate')")
        copy = wait_until(lambda: [p.name for p in session.folder.glob("Trip*.gallery") if p.name != "Trip.gallery"], "Duplicate made no copy")[0]
        check(session.ids(copy) == session.ids(), "the duplicate does not hold the same images")
        page.wait_for_selector(f".doc[data-name='{copy}']")
        page.click(f".doc[data-name='{copy}'] button:has-text('Rename')")
        page.fill(f".doc[data-name='{copy}'] input", "Harbour")
        page.keyboard.press("Enter")
        page.wait_for_selector(".doc[data-name='Harbour.gallery']")
        check((session.folder / "Harbour.gallery").exists() and not (session.folder / copy).exists(), "Rename did not rename the file")
        page.click(".doc[data-name='Harbour.gallery'] button:has-text('Move to Trash')")
        page.wait_for_selector(".doc[data-name='Harbour.gallery']", state="detached")
        check(not (session.folder / "Harbour.gallery").exists(), "Move to Trash left the file")
        page.click("button[data-view='trash']")
        page.wait_for_selector(".doc.trashed:has-text('Harbour.gallery')")
        page.click(".doc.trashed:has-text('Harbour.gallery') button:has-text('Restore')")
        wait_until(lambda: (session.folder / "Harbour.gallery").exists(), "Restore did not bring the file back")
        page.click("button[data-view='all']")
        page.fill("#search", "harbour")
        page.wait_for_selector(".doc[data-name='Trip.gallery']", state="detached")
        page.wait_for_selector(".doc[data-name='Harbour.gallery']")

        check(not errors, f"the pages reported errors: {errors[:3]}")
        browser.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gallery")
    parser.add_argument("images", nargs="+")
    parser.add_argument("--screenshots")
    arguments = parser.parse_args()

    ImageHandler.images = {"a.jpg": Path(arguments.images[0]).read_bytes(), "b.jpg": Path(arguments.images[1]).read_bytes()}
    images = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ImageHandler)
    threading.Thread(target=images.serve_forever, daemon=True).start()

    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "Galleries"
        folder.mkdir()
        subprocess.run([arguments.gallery, "create", str(folder / "Trip.gallery"), "--cache", "--title", "Trip"] + arguments.images,
                       check=True, capture_output=True)
        session = Session(arguments.gallery, arguments.images, folder, arguments.screenshots)
        session.images_url = f"http://127.0.0.1:{images.server_address[1]}"
        try:
            session.start()
            run(session)
            session.stop()
        except Failure as failure:
            print(f"check_serve: FAIL: {failure}", file=sys.stderr)
            return 1
        finally:
            if session.server and session.server.poll() is None:
                session.server.kill()
            images.shutdown()
    print("check_serve: OK: drag, multi-drag, keyboard, two tabs and the CLI, URL drops in order, trash, undo/redo, columns, "
          "caption, viewer, phone layout, and new/duplicate/rename/trash/restore")
    return 0


if __name__ == "__main__":
    sys.exit(main())
