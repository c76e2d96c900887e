#!/usr/bin/env python3
"""Touch on the gallery page of `gallery serve`, in Debian's chromium as a phone.

    check_touch.py GALLERY IMAGE... [--screenshots DIR]

Makes Trip.gallery from the IMAGEs (at least 6), serves it, and drives a 390x844 phone with touch
(`has_touch`, `is_mobile`; the fingers are CDP `Input.dispatchTouchEvent`): a caption edit leaves
its tile undraggable (as a phone's tiles are), a long press and a drag moves one image, a long
press on a selection (made in Select mode) moves the stack, a drag onto the trash removes, two
fingers spread and pinch change the images per row, and a swipe scrolls without changing
anything. The document on disk (`gallery open --json`) is the judge. With --screenshots, the
page during a touch drag. Prints one line; exits 1 on the first failure.
"""
import os
import sys
import time

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
from browserlib import Fingers, check, check_main, document_json, launch_chromium, served_gallery, wait_until  # noqa: E402

PHONE = {"width": 390, "height": 844}


def centre_of(page, selector):
    box = page.locator(selector).bounding_box()
    check(box, f"{selector} is not on the page")
    return (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def run(gallery, images, screenshots):
    with served_gallery(gallery, images, "gallerykit-touch-") as served, sync_playwright() as playwright:
        def on_disk():
            return document_json(gallery, served.document, served.environment)

        ids = served.ids
        browser = launch_chromium(playwright)
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(f"{served.origin}/?token={served.token}")
        page.goto(f"{served.origin}/gallery/Trip.gallery")
        wait_until(lambda: page.evaluate("() => document.querySelectorAll('#canvas .cell img').length") >= 6, "the images did not appear")
        fingers = Fingers(context, page)

        def cell(image_id):
            return f"#canvas .cell[data-id='{image_id}']"

        def settle():
            time.sleep(0.6)

        # A caption edited and left (Esc) leaves the tile as a phone's tiles are: not draggable
        # (HTML5 drag and drop is the mouse's; here a long press carries an image).
        first = cell(ids()[0])
        check(page.locator(first).evaluate("tile => tile.draggable") is False, "a tile is draggable on a phone")
        page.focus(first)
        page.keyboard.press("F2")
        page.wait_for_selector(f"{first} .caption-editor")
        page.keyboard.press("Escape")
        check(page.locator(f"{first} .caption-editor").count() == 0, "Esc did not end the caption edit")
        check(page.locator(first).evaluate("tile => tile.draggable") is False, "after a caption edit the tile is draggable on a phone")

        # A tap opens the image in the viewer, as in Photos (it selected, and a double tap opened).
        page.tap(cell(ids()[1]))
        page.wait_for_selector("#viewer[open]")
        check(page.locator("#canvas .cell[aria-selected='true']").count() == 0, "a tap selected instead of opening")
        page.keyboard.press("Escape")
        wait_until(lambda: not page.evaluate("() => document.getElementById('viewer').open"), "Esc did not close the viewer")

        # One image: a long press on the first, carried to the right half of the fourth.
        before = ids()
        start = centre_of(page, cell(before[0]))
        box = page.locator(cell(before[3])).bounding_box()
        end = (box["x"] + box["width"] * 0.8, box["y"] + box["height"] / 2)
        shot = (lambda: page.screenshot(path=os.path.join(screenshots, "touch-drag-390.png"))) if screenshots else None
        fingers.drag(start, end, hold=0.7, midway=shot)
        wait_until(lambda: ids() != before, "a long press and a drag moved nothing on disk")
        after = ids()
        check(after.index(before[0]) >= 2 and [i for i in after if i != before[0]] == before[1:],
              f"the image went to {after.index(before[0])}, or the others changed order")
        settle()

        # A stack: Select mode, tap two images, carry them (by one of them) to the end.
        before = ids()
        page.tap("#select")
        page.tap(cell(before[1]))
        page.tap(cell(before[2]))
        check(page.locator("#canvas .cell[aria-selected='true']").count() == 2, "tapping in Select mode did not select two images")
        last = page.locator(cell(before[-1])).bounding_box()
        fingers.drag(centre_of(page, cell(before[1])), (last["x"] + last["width"] * 0.9, last["y"] + last["height"] / 2), hold=0.7)
        wait_until(lambda: ids() != before, "carrying a selection moved nothing on disk")
        after = ids()
        check(after[-2:] == [before[1], before[2]] and [i for i in after if i not in before[1:3]] == [i for i in before if i not in before[1:3]],
              f"the stack did not go to the end in its order: {[before.index(i) for i in after]}")
        page.tap("#select")
        settle()

        # The trash: carried there, an image is removed.
        before = ids()
        fingers.drag(centre_of(page, cell(before[0])), centre_of(page, "#trash"), hold=0.7)
        wait_until(lambda: len(ids()) == len(before) - 1, "dropping on the trash removed nothing")
        check(before[0] not in ids(), "the trash removed another image")
        settle()

        # Two fingers: spread for fewer images per row, pinch for more; one edit each.
        columns = on_disk()["columns"]
        middle = centre_of(page, "#canvas")
        fingers.pinch(middle, 80, 300)
        wait_until(lambda: on_disk()["columns"] < columns, f"spreading two fingers left {columns} per row")
        spread = on_disk()["columns"]
        settle()

        # A swipe that does not wait scrolls, and moves nothing.
        before = ids()
        scrolled = page.evaluate("() => scrollY")
        first = page.locator(cell(before[1])).bounding_box()
        start = (first["x"] + first["width"] / 2, min(first["y"] + first["height"] / 2, 700))
        fingers.drag(start, (start[0], start[1] - 300), hold=0, steps=10)
        wait_until(lambda: page.evaluate("() => scrollY") > scrolled + 50, "a swipe did not scroll the page")
        time.sleep(0.6)
        check(ids() == before, "a swipe moved an image")
        # Scrolling down by a finger tucks the one-row bar away; its title shows from then on.
        bar = "() => [document.querySelector('.bar').getBoundingClientRect().bottom, getComputedStyle(document.getElementById('title')).visibility]"
        wait_until(lambda: page.evaluate(bar)[0] <= 1, f"the bar stayed while scrolling down: {page.evaluate(bar)}")
        check(page.evaluate(bar)[1] == "visible", "the bar's title is hidden once the large title has scrolled away")

        page.evaluate("() => window.scrollTo(0, 0)")
        # At the top the whole title stands above the images, and the bar (one row) does not repeat it.
        title = on_disk().get("title") or "Trip"
        large = page.evaluate("() => { const t = document.getElementById('large-title'); return [t.textContent, t.scrollWidth <= t.clientWidth, t.getBoundingClientRect().height] }")
        check(large[0] == title and large[1] and large[2] > 0, f"the large title is {large}, not the whole of {title!r}")
        wait_until(lambda: (lambda shown: shown[0] > 40 and shown[1] == "hidden")(page.evaluate(bar)), f"the bar at the top is {page.evaluate(bar)}")
        check(page.evaluate("() => document.querySelector('.bar').offsetHeight") < 70, "the phone's bar is more than one row")
        fingers.pinch(centre_of(page, "#canvas"), 300, 60)
        wait_until(lambda: on_disk()["columns"] > spread, f"pinching two fingers left {spread} per row")
        browser.close()


def main():
    check_main("check_touch", run, "caption edit keeps the tile undraggable, a tap opens the viewer, long press and drag (one image, a selected stack), trash, pinch both ways, swipe scrolls and tucks the bar away, the whole title above the images")


if __name__ == "__main__":
    main()
