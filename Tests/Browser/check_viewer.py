#!/usr/bin/env python3
"""The image viewer of `gallery serve` (the HTML export's viewer.js), in Debian's chromium.

    check_viewer.py GALLERY IMAGE... [--screenshots DIR]

Makes Trip.gallery from the IMAGEs (at least 6, stored in it), serves it and checks the viewer
the way check_html_export.py checks the export's (viewerchecks.py): on a 1280x800 desktop, at
rest (the current thumbnail centred and as wide as GalleryLayout's), mid-swipe (strip half a
step on, both thumbnails half widened, the image lagging by the parallax offset), zoom and pan,
a strip drag, the wheel; the address names the image shown and a reload opens it again. On a 390x844 phone
with touch (CDP `Input.dispatchTouchEvent`), a finger swipe goes to the next image and turning
the phone (844x390) keeps it. Delete (the key, and the bar's button on the last image) removes
the image shown, judged on disk (`gallery open --json`), shows the next (the one before, after
the last), and Undo brings both back in their places. With --screenshots, the viewer at rest and
mid-swipe at both sizes, during a strip drag and during a delete. Prints one line; exits 1 on
the first failure.
"""
import os
import sys
import time

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
import viewerchecks  # noqa: E402
from browserlib import Fingers, check, check_main, document_json, launch_chromium, served_gallery, wait_for_js, wait_until  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PHONE_TURNED = {"width": 844, "height": 390}


def viewer_data(page):
    """The viewer's images as the app's state gives them (placeholders left out)."""
    state = page.evaluate("""async () => {
        const answer = await fetch('/api/galleries/Trip.gallery?width=1280&style=justified');
        return answer.json(); }""")
    items = [{"id": item["id"], "ratio": item["ratio"], "caption": item.get("caption") or "", "edge": item.get("edge"),
              "error": item.get("error") if item["status"] == "failed" else None}
             for item in state["items"] if not item["isPlaceholder"]]
    return {"items": items, "strip": state["strip"]}


def check_at(page, data, index, tolerance=1):
    """The app's viewer rests on item `index`: viewerchecks' checks, its large image decoded (or
    the thumbnail in its place), and the address naming it."""
    viewerchecks.check_at_rest(page, data, index, tolerance)
    image_id = data["items"][index]["id"]
    wait_for_js(page, """id => { const p = document.querySelector('.viewer .photo'), t = document.querySelector('.viewer .placeholder');
                                 const src = p.getAttribute('src') || '';
                                 return (src.endsWith('/images/' + id) || src.includes('/renditions/' + id + '/'))
                                     && ((p.complete && p.naturalWidth > 0) || (t.complete && t.naturalWidth > 0)); }""",
                image_id, f"the viewer's image {index + 1} did not come")
    hash_now = page.evaluate("location.hash")
    check(hash_now == "#" + image_id, f"the address names {hash_now!r}, not image {index + 1} (#{image_id})")


def open_on(page, data, index):
    """Opens the viewer from the grid on item `index` (its cell focused, Enter)."""
    page.locator(f"#canvas .cell[data-id='{data['items'][index]['id']}']").focus()
    page.keyboard.press("Enter")
    wait_for_js(page, "() => document.getElementById('viewer').open", None, "Enter on an image did not open the viewer")


def run(gallery, images, screenshots):
    with served_gallery(gallery, images, "gallerykit-viewer-") as served, sync_playwright() as playwright:
        ids, origin, token = served.ids, served.origin, served.token

        def shot(name):
            return os.path.join(screenshots, name) if screenshots else None

        browser = launch_chromium(playwright)
        problems = []

        def watch(page):
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}") if message.type == "error" else None)

        # Desktop: at rest, mid-swipe, zoom, strip drag, the address.
        page = browser.new_page(viewport=DESKTOP)
        watch(page)
        page.goto(f"{origin}/?token={token}")
        page.goto(f"{origin}/gallery/Trip.gallery")
        wait_until(lambda: page.evaluate("() => document.querySelectorAll('#canvas .cell img').length") >= len(images), "the images did not appear")
        data = viewer_data(page)
        check(len(data["items"]) >= 6, f"the gallery has {len(data['items'])} images, not 6 or more")
        edges = {item["id"]: item["edge"] for item in data["items"]}
        sharpness = {"grid-1280": viewerchecks.check_sharp(page, edges.get, "the grid at 1280 px")}
        open_on(page, data, 0)
        check_at(page, data, 0)
        sharpness["viewer-1280"] = viewerchecks.check_sharp(page, edges.get, "the viewer at 1280 px", data["items"][0]["id"])
        if screenshots:
            page.screenshot(path=shot("viewer-rest-1280.png"))
        viewerchecks.check_mid_swipe(page, data, 0, screenshot=shot("viewer-midswipe-1280.png"))
        check_at(page, data, 0)
        viewerchecks.check_zoom(page, data, 0)
        index = viewerchecks.check_strip_drag(page, data, 0, lambda at: check_at(page, data, at), screenshot=shot("viewer-stripdrag-1280.png"))
        index = viewerchecks.check_wheel(page, data, index, lambda at: check_at(page, data, at))
        page.keyboard.press("ArrowLeft")
        index -= 1
        check_at(page, data, index)
        # A slow network (100 ms a request, 1 MB/s): a jump and a held strip still show a picture at once.
        network = page.context.new_cdp_session(page)
        network.send("Network.enable")
        network.send("Network.emulateNetworkConditions",
                     {"offline": False, "latency": 100, "downloadThroughput": 1_000_000, "uploadThroughput": 1_000_000})
        slowest, index = viewerchecks.check_never_black(page, data, index, lambda at: "/thumbnails/" + data["items"][at]["id"])
        network.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        check_at(page, data, index)
        page.keyboard.press("ArrowLeft")
        index -= 1
        check_at(page, data, index)
        page.reload()
        wait_for_js(page, "() => document.getElementById('viewer').open", None, "a reload did not open the viewer on the image in the address")
        check_at(page, data, index)
        page.keyboard.press("Escape")
        wait_for_js(page, "() => !document.getElementById('viewer').open", None, "Esc did not close the viewer")
        # The dialog's `close` event, which focuses the cell, is a task queued after `open` turns false.
        wait_for_js(page, "id => document.activeElement && document.activeElement.dataset.id === id", data["items"][index]["id"],
                    "closing the viewer did not focus its image's cell")
        check(page.evaluate("location.hash") == "", "the address still names an image after the viewer closed")

        # Delete: the image shown goes, on disk; the next one is shown.
        before = ids()
        open_on(page, data, 2)
        check_at(page, data, 2)
        page.keyboard.press("Delete")
        if screenshots:
            time.sleep(0.1)
            page.screenshot(path=shot("viewer-delete-1280.png"))
        wait_until(lambda: ids() == before[:2] + before[3:], f"Delete in the viewer did not remove image 3 on disk: {ids()}")
        data = viewer_data(page)
        check_at(page, data, 2)
        check(data["items"][2]["id"] == before[3], "after Delete the viewer does not show the image that followed")
        # The last: its button, and the one before is shown.
        page.keyboard.press("End")
        last = len(data["items"]) - 1
        check_at(page, data, last)
        page.click(".viewer .delete")
        wait_until(lambda: ids() == before[:2] + before[3:-1], f"deleting the last image in the viewer removed the wrong one: {ids()}")
        data = viewer_data(page)
        check_at(page, data, last - 1)
        # Ctrl+Z in the viewer undoes (it did nothing until Esc), and the viewer stays open.
        page.keyboard.press("Control+z")
        wait_until(lambda: ids() == before[:2] + before[3:], f"Ctrl+Z in the viewer did not bring the last image back: {ids()}")
        check(page.evaluate("() => document.getElementById('viewer').open"), "Ctrl+Z closed the viewer")
        page.keyboard.press("Control+Shift+z")
        wait_until(lambda: ids() == before[:2] + before[3:-1], f"Shift+Ctrl+Z in the viewer did not redo: {ids()}")
        page.keyboard.press("Escape")
        wait_for_js(page, "() => !document.getElementById('viewer').open", None, "Esc did not close the viewer")
        for _ in range(2):
            wait_for_js(page, "() => !document.getElementById('undo').disabled", None, "Undo is not enabled after a delete")
            undone = len(ids())
            page.click("#undo")
            wait_until(lambda: len(ids()) == undone + 1, "Undo did not bring a deleted image back")
        check(ids() == before, f"Undo did not bring both images back in their places: {ids()} vs {before}")

        # The info panel (the i key, or Info): the credit edited there is saved, judged on disk,
        # and the viewer shows its line; Esc closes the panel and leaves the viewer open.
        def attribution_on_disk(image_id):
            images = document_json(gallery, served.document, served.environment)["images"]
            return next(image.get("attribution") for image in images if image["id"] == image_id)

        data = viewer_data(page)
        open_on(page, data, 0)
        page.keyboard.press("i")
        wait_for_js(page, "() => document.getElementById('info').open", None, "i in the viewer did not open the info panel")
        page.fill("#info [name=creator]", "Ana Lima")
        page.fill("#info [name=license]", "http://creativecommons.org/licenses/by/4.0/")
        if screenshots:
            page.screenshot(path=shot("viewer-info-1280.png"))
        page.click("#info button[value=save]")
        credit = {"creator": "Ana Lima", "license": "http://creativecommons.org/licenses/by/4.0/"}
        wait_until(lambda: attribution_on_disk(data["items"][0]["id"]) == credit,
                   f"the credit saved from the info panel is not on disk: {attribution_on_disk(data['items'][0]['id'])}")
        wait_for_js(page, "() => document.querySelector('.viewer-credit').textContent === 'Ana Lima · CC BY 4.0'", None,
                    "the viewer does not show the image's credit line")
        check(page.evaluate("() => document.getElementById('viewer').open"), "saving the credit closed the viewer")
        if screenshots:
            page.screenshot(path=shot("viewer-credit-1280.png"))
        page.click(".viewer .action:text-is('Info')")
        wait_for_js(page, "() => document.getElementById('info').open && document.querySelector('#info [name=creator]').value === 'Ana Lima'",
                    None, "Info did not open the panel with the saved credit")
        page.keyboard.press("Escape")
        wait_for_js(page, "() => !document.getElementById('info').open", None, "Esc did not close the info panel")
        check(page.evaluate("() => document.getElementById('viewer').open"), "Esc in the info panel closed the viewer too")
        page.keyboard.press("Escape")
        page.close()

        # Phone: a finger swipe pages; turning the phone keeps the image.
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True, is_mobile=True)
        phone = context.new_page()
        watch(phone)
        phone.goto(f"{origin}/?token={token}")
        phone.goto(f"{origin}/gallery/Trip.gallery")
        wait_until(lambda: phone.evaluate("() => document.querySelectorAll('#canvas .cell img').length") >= len(images), "the images did not appear on the phone")
        data = viewer_data(phone)
        sharpness["grid-390"] = viewerchecks.check_sharp(phone, edges.get, "the grid at 390 px")
        open_on(phone, data, 1)
        check_at(phone, data, 1, tolerance=2)
        sharpness["viewer-390"] = viewerchecks.check_sharp(phone, edges.get, "the viewer at 390 px", data["items"][1]["id"])
        if screenshots:
            phone.screenshot(path=shot("viewer-rest-390.png"))
        fingers = Fingers(context, phone)
        stage = phone.locator(".viewer .stage").bounding_box()
        y = stage["y"] + stage["height"] / 2
        if screenshots:
            # Held at half a page for the picture, then back.
            start = stage["x"] + stage["width"] * 0.75
            fingers.send("touchStart", [(start, y)])
            for step in range(1, 9):
                fingers.send("touchMove", [(start - stage["width"] / 2 * step / 8, y)])
                time.sleep(0.03)
            time.sleep(0.2)
            phone.screenshot(path=shot("viewer-midswipe-390.png"))
            fingers.send("touchMove", [(start, y)])
            time.sleep(0.2)
            fingers.send("touchEnd", [])
            check_at(phone, data, 1, tolerance=2)
        fingers.drag((stage["x"] + stage["width"] * 0.85, y), (stage["x"] + stage["width"] * 0.15, y), hold=0, steps=6, pause=0.016)
        check_at(phone, data, 2, tolerance=2)
        phone.set_viewport_size(PHONE_TURNED)
        check_at(phone, data, 2, tolerance=2)
        if screenshots:
            phone.screenshot(path=shot("viewer-rest-844.png"))
        check(not problems, "; ".join(problems))
        browser.close()
        print("check_viewer: least source pixels per device pixel (of images not at full size): "
              + ", ".join(f"{where} {ratio:.2f}" for where, ratio in sharpness.items())
              + f"; slowest picture on a slow network {slowest * 1000:.0f} ms")


def main():
    check_main("check_viewer", run,
               "at rest, mid-swipe (strip, parallax), zoom, strip drag, wheel, the address and a reload at 1280 px; "
               "delete (next shown, the last shows the one before) and undo on disk; the info panel's credit, saved on disk and "
               "shown; a finger swipe at 390 px; turning the phone")


if __name__ == "__main__":
    main()
