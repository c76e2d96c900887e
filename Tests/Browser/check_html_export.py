#!/usr/bin/env python3
"""Checks a `gallery export --format html` folder in headless Chromium.

    check_html_export.py OUTDIR [--screenshots DIR]

Loads OUTDIR/index.html from file:// with Debian's chromium driven by Playwright and fails on the
first problem: a request outside OUTDIR, a failed request, a console or page error, an alert, a
grid image that does not decode, a missing error tile, an href/src that is not a relative path to
an existing file, text that the page shows differently from the data (bad escaping), or a viewer
that does not page (pointer, wheel, keys), centre its filmstrip, keep its image when the phone
turns or give focus back to the grid. With --screenshots, saves
grid-1280.png, grid-390.png, viewer-1280.png and viewer-390.png in DIR.

Prints one summary line; exit status 0 on success, 1 on failure (the message says what failed).
"""
import argparse
import os
import re
import shutil
import sys
import time
from urllib.parse import unquote, urlsplit

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
import viewerchecks  # noqa: E402
from browserlib import Failure, check, wait_for_js  # noqa: E402

# What Chromium decodes in an <img>; other originals (TIFF, HEIC) show the thumbnail instead.
BROWSER_FORMATS = {"jpg", "jpeg", "png", "gif", "webp", "avif", "bmp", "svg", "ico"}
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PHONE_TURNED = {"width": 844, "height": 390}


class Export:
    """The folder under test: turns request URLs and attribute values into checked paths."""

    def __init__(self, folder):
        self.root = os.path.realpath(folder)
        self.index = os.path.join(self.root, "index.html")
        check(os.path.isfile(self.index), f"{self.index} does not exist")

    def contains_url(self, url):
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            return False
        path = os.path.realpath(unquote(parts.path))
        return path == self.root or path.startswith(self.root + os.sep)

    def check_reference(self, value, where):
        check(value, f"{where}: empty reference")
        check(not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", value) and not value.startswith(("/", "\\")),
              f"{where}: {value!r} is not a relative reference")
        path = os.path.realpath(os.path.join(self.root, unquote(urlsplit(value).path)))
        check(path.startswith(self.root + os.sep), f"{where}: {value!r} leaves the export folder")
        check(os.path.isfile(path), f"{where}: {value!r} does not exist")


def watch(page, export, log):
    """Records everything that would make the page not self-contained or broken."""
    def on_request(request):
        log["requests"] += 1
        if not export.contains_url(request.url):
            log["problems"].append(f"request outside the export folder: {request.url}")

    page.on("request", on_request)
    def on_request_failed(request):
        # A cancelled load (an image paged past, a navigation) is no error; a missing file is.
        if request.failure != "net::ERR_ABORTED":
            log["problems"].append(f"request failed: {request.url} ({request.failure})")

    page.on("requestfailed", on_request_failed)
    page.on("console", lambda m: m.type == "error" and log["problems"].append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: log["problems"].append(f"page error: {e}"))

    def on_dialog(dialog):
        log["problems"].append(f"page opened a {dialog.type}: {dialog.message!r}")
        dialog.dismiss()

    page.on("dialog", on_dialog)


def check_log(log):
    check(not log["problems"], log["problems"][0] if log["problems"] else "")


def load(page, export, log):
    page.goto("file://" + export.index, wait_until="load")
    data = page.evaluate("JSON.parse(document.getElementById('gallery-data').textContent)")
    check(isinstance(data.get("items"), list), "the data JSON has no items list")
    check_log(log)
    return data


def check_grid(page, export, data, log):
    items = data["items"]
    heading = page.locator("h1").text_content()
    check(heading == data["title"], f"the page's heading reads {heading!r}, the data's title is {data['title']!r}")
    # The markup holds the first tiles (all of a gallery of ordinary size); the script draws the rest.
    in_markup = min(len(items), data["drawn"]["first"])
    shown = tiles_in_dom(page)
    check([tile["index"] for tile in shown] == list(range(in_markup)),
          f"{len(shown)} tiles in the page at first for {len(items)} items, not the {in_markup} of its markup")
    check_tiles(shown, items)

    # Lazy images load only near the viewport: bring each one in, then all must have decoded.
    images = page.locator(".grid img")
    for position in range(images.count()):
        images.nth(position).scroll_into_view_if_needed()
    wait_for_js(page, """() => [...document.querySelectorAll('.grid img')]
                    .filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'))
                    .join(' ') === ''""", None, "grid images did not decode")

    # Each tile lies inside the grid (the layout's percentages fit the width that applies).
    outside = page.evaluate("""() => {
        const g = document.querySelector('.grid').getBoundingClientRect();
        return [...document.querySelectorAll('.grid .tile')].filter(t => {
            const r = t.getBoundingClientRect();
            return r.left < g.left - 1 || r.right > g.right + 1 || r.top < g.top - 1 || r.bottom > g.bottom + 1
                || r.width < 1 || r.height < 1;
        }).map(t => t.dataset.index); }""")
    check(not outside, f"tiles outside the grid at {page.viewport_size['width']} px: {outside}")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    check(overflow <= 0, f"the page scrolls sideways by {overflow} px at {page.viewport_size['width']} px")
    check_references(page, export, data)
    check_log(log)


def tiles_in_dom(page):
    """What each tile in the grid shows, in DOM order."""
    return page.evaluate("""() => [...document.querySelectorAll('.grid .tile')].map(t => ({
        index: Number(t.dataset.index), id: t.id, failed: t.classList.contains('failed'), role: t.getAttribute('role'),
        label: t.getAttribute('aria-label'), title: t.getAttribute('title'), href: t.getAttribute('href'),
        error: t.querySelector('.error')?.textContent ?? null, src: t.querySelector('img')?.getAttribute('src') ?? null,
        alt: t.querySelector('img')?.getAttribute('alt') ?? null, caption: t.querySelector('.caption')?.textContent ?? null }))""")


def check_tiles(shown, items):
    """Each tile shows its item as the data has it (text escaped, never markup)."""
    for tile in shown:
        index = tile["index"]
        item = items[index]
        check(tile["id"] == str(index + 1), f"item {index + 1}: the tile's id is {tile['id']!r}")
        if item["error"]:
            check(tile["failed"] and tile["role"] == "img",
                  f"item {index + 1} failed ({item['error']}) but its tile is not a role=img error tile")
            check(tile["label"], f"item {index + 1}: the error tile has no aria-label")
            check(tile["title"] and tile["title"] == item["url"], f"item {index + 1}: the error tile's title is not its URL {item['url']!r}")
            check(tile["error"] == item["error"], f"item {index + 1}: the error tile says {tile['error']!r}, not {item['error']!r}")
        else:
            largest = item["image"] or (item["sizes"][-1][1] if item["sizes"] else item["thumbnail"])
            check(tile["href"] == largest, f"item {index + 1}: the tile links to {tile['href']!r}, not {largest!r}")
            shown = [url for _, url in item["sizes"]] + [item["thumbnail"]]
            check(tile["src"] in shown, f"item {index + 1}: the tile shows {tile['src']!r}, none of its sizes {shown}")
            check(tile["alt"] == item["alt"], f"item {index + 1}: alt {tile['alt']!r}, not {item['alt']!r}")
            check(tile["caption"] == (item["caption"] or ""), f"item {index + 1}: the caption reads {tile['caption']!r}, not {item['caption']!r}")


# A tile that is drawn, and its thumbnail decoded (an error tile has none).
SETTLED = """index => { const t = document.querySelector(`.grid .tile[data-index='${index}']`);
    const i = t && t.querySelector('img'); return !!t && (!i || (i.complete && i.naturalWidth > 0)); }"""


def check_large_grid(page, data, log):
    """A gallery beyond the markup's tiles: after a jump to the end the last tiles are drawn and
    their thumbnails decode, and the page holds only the tiles near the view (and the viewer's
    strip a window of thumbnails); Esc from the viewer focuses the tile of the last image."""
    items = data["items"]
    first = data["drawn"]["first"]
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for_js(page, SETTLED, len(items) - 1, "the last tile's thumbnail did not decode")
    shown = tiles_in_dom(page)
    drawn = [tile["index"] for tile in shown if tile["index"] >= first]
    check(drawn and drawn[-1] == len(items) - 1 and drawn == sorted(drawn),
          f"after a jump to the end the drawn tiles are {drawn[:3]}…{drawn[-3:]}, not in order up to the last")
    check(len(drawn) < 300 and drawn[0] > len(items) - 400, f"{len(drawn)} tiles drawn from {drawn[0]} for the end of {len(items)}")
    check_tiles(shown, items)
    # Halfway: the tiles there replace those at the end.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    wait_for_js(page, "last => !document.querySelector(`.grid .tile[data-index='${last}']`)", len(items) - 1,
               "the tiles at the end stayed in the page after scrolling away")
    middle = [tile["index"] for tile in tiles_in_dom(page) if tile["index"] >= first]
    check(middle and len(middle) < 300, f"{len(middle)} tiles drawn halfway")
    wait_for_js(page, SETTLED, middle[len(middle) // 2], "a thumbnail halfway did not decode")
    # The viewer on the last image holds a window of thumbnails, and Esc comes back to its tile.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for_js(page, "last => !!document.querySelector(`.grid .tile[data-index='${last}']`)", len(items) - 1, "the last tile was not drawn again")
    page.locator(f'.grid .tile[data-index="{len(items) - 1}"]').click()
    check_viewer_at(page, data, len(items) - 1, log)
    thumbs = page.evaluate("document.querySelectorAll('.viewer .thumb').length")
    check(thumbs <= 121, f"the viewer's strip holds {thumbs} thumbnails for {len(items)} images")
    page.keyboard.press("Home")
    check_viewer_at(page, data, 0, log)
    page.keyboard.press("End")
    check_viewer_at(page, data, len(items) - 1, log)
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("Escape")
    wait_for_js(page, "() => !document.querySelector('.viewer').open", None, "Esc did not close the viewer")
    wait_for_focus_on_tile(page, len(items) - 1, "after Esc the focus is not on the last tile")
    visible = page.evaluate("() => { const r = document.activeElement.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }")
    check(visible, "after Esc the last tile is scrolled out of view")
    check_log(log)


def wait_for_focus_on_tile(page, index, message):
    """Waits for tile `index` to have the focus: the closed viewer's `close` event, which gives
    it, is a task queued after `open` turns false."""
    wait_for_js(page, """index => { const e = document.activeElement;
                                    return !!e && e.classList.contains('tile') && Number(e.dataset.index) === index; }""",
                index, message)


def check_references(page, export, data):
    references = page.evaluate("""() => [...document.querySelectorAll('[href], [src]')]
        .map(e => [e.tagName.toLowerCase(), e.getAttribute('href') ?? e.getAttribute('src')])""")
    for tag, value in references:
        export.check_reference(value, f"<{tag}>")
    for index, item in enumerate(data["items"]):
        for key in ("image", "thumbnail"):
            if item[key] is not None:
                export.check_reference(item[key], f"data item {index + 1} {key}")
        for edge, url in item["sizes"]:
            export.check_reference(url, f"data item {index + 1} size {edge}")


def check_viewer_at(page, data, index, log):
    """The viewer shows item `index`: counter, caption and filmstrip (viewerchecks), and its image
    decoded, the thumbnail in place of a format the browser cannot show, or the error tile."""
    item = data["items"][index]
    viewerchecks.check_at_rest(page, data, index)
    if item["error"]:
        wait_for_js(page, "() => !document.querySelector('.viewer .failure').hidden", None,
                    f"item {index + 1} failed but the viewer shows no error tile")
        shown = page.locator(".viewer .failure-error").text_content()
        check(shown == item["error"], f"the viewer's error tile says {shown!r}, not {item['error']!r}")
    elif item["sizes"] or item["image"].rsplit(".", 1)[-1].lower() in BROWSER_FORMATS:
        shown = [url for _, url in item["sizes"]] + ([item["image"]] if item["image"] else [])
        wait_for_js(page, """sources => { const p = document.querySelector('.viewer .photo');
                                      return sources.includes(p.getAttribute('src')) && p.complete && p.naturalWidth > 0
                                          && getComputedStyle(p).visibility === 'visible'; }""",
                    shown, f"the viewer's large image (one of {shown}) did not decode")
    else:
        wait_for_js(page, """src => { const p = document.querySelector('.viewer .placeholder');
                                      return p.getAttribute('src') === src && p.complete && p.naturalWidth > 0; }""",
                    item["thumbnail"], f"the viewer shows no thumbnail in place of {item['image']}")
    check_log(log)


def open_grid(browser, export, log, viewport, scale, screenshot):
    """A new page of the site at `viewport` and `scale`, its grid checked (and saved as the image
    `screenshot`, if given); returns the page and the site's data."""
    page = browser.new_page(viewport=viewport, device_scale_factor=scale)
    watch(page, export, log)
    data = load(page, export, log)
    check_grid(page, export, data, log)
    if screenshot:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=screenshot, full_page=True)
    return page, data


def open_viewer(page, data):
    """Clicks the first tile whose image loaded (or the first tile, if none did); returns its index."""
    first = next((i for i, item in enumerate(data["items"]) if not item["error"]), 0)
    page.locator(f'.grid .tile[data-index="{first}"]').click()
    wait_for_js(page, "() => document.querySelector('.viewer').open", None, "clicking a tile did not open the viewer")
    return first


def page_once(page, data, index):
    """Presses → (← on the last item); returns the index now shown."""
    if len(data["items"]) < 2:
        return index
    if index + 1 < len(data["items"]):
        page.keyboard.press("ArrowRight")
        return index + 1
    page.keyboard.press("ArrowLeft")
    return index - 1


def run(export, screenshots):
    log = {"requests": 0, "problems": []}
    with sync_playwright() as playwright:
        executable = shutil.which("chromium")
        check(executable, "chromium is not installed (Debian package `chromium`)")
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            # Desktop: grid, viewer, paging, filmstrip, then rotate to phone size, then back to the grid.
            page, data = open_grid(browser, export, log, DESKTOP, 1, screenshots and os.path.join(screenshots, "grid-1280.png"))
            edge_of = lambda key: data["items"][int(key)]["edge"]  # noqa: E731
            page.evaluate("window.scrollTo(0, 0)")
            sharpness = {"grid-1280": viewerchecks.check_sharp(page, edge_of, "the grid at 1280 px")}
            if data["items"]:
                index = open_viewer(page, data)
                check_viewer_at(page, data, index, log)
                sharpness["viewer-1280"] = viewerchecks.check_sharp(page, edge_of, "the viewer at 1280 px", index)
                viewerchecks.check_mid_swipe(page, data, index)
                check_viewer_at(page, data, index, log)
                viewerchecks.check_zoom(page, data, index)
                index = viewerchecks.check_strip_drag(page, data, index, lambda at: check_viewer_at(page, data, at, log))
                index = viewerchecks.check_wheel(page, data, index, lambda at: check_viewer_at(page, data, at, log))
                index = page_once(page, data, index)
                check_viewer_at(page, data, index, log)
                check(page.evaluate("location.hash") == f"#{index + 1}", f"the address does not end in #{index + 1}")
                check_references(page, export, data)
                if screenshots:
                    page.screenshot(path=os.path.join(screenshots, "viewer-1280.png"))
                page.set_viewport_size(PHONE)
                check_viewer_at(page, data, index, log)
                page.keyboard.press("Escape")
                wait_for_js(page, "() => !document.querySelector('.viewer').open", None, "Esc did not close the viewer")
                wait_for_focus_on_tile(page, index, f"after Esc the focus is not on tile {index} (the current image)")
                visible = page.evaluate("""() => { const r = document.activeElement.getBoundingClientRect();
                    return r.bottom > 0 && r.top < innerHeight; }""")
                check(visible, "after Esc the focused tile is scrolled out of view")
            if len(data["items"]) > data["drawn"]["first"]:
                page.set_viewport_size(DESKTOP)
                check_large_grid(page, data, log)
            page.close()

            # Phone: the phone layout, and (for the screenshots) a 2x rendering. Opened on #N.
            phone, _ = open_grid(browser, export, log, PHONE, 2, screenshots and os.path.join(screenshots, "grid-390.png"))
            phone.evaluate("window.scrollTo(0, 0)")
            sharpness["grid-390"] = viewerchecks.check_sharp(phone, edge_of, "the grid at 390 px")
            if data["items"]:
                index = open_viewer(phone, data)
                check_viewer_at(phone, data, index, log)
                sharpness["viewer-390"] = viewerchecks.check_sharp(phone, edge_of, "the viewer at 390 px", index)
                if index + 1 < len(data["items"]):
                    index = viewerchecks.swipe_once(phone, data, index, lambda at: check_viewer_at(phone, data, at, log))
                index = page_once(phone, data, index)
                check_viewer_at(phone, data, index, log)
                if screenshots:
                    phone.screenshot(path=os.path.join(screenshots, "viewer-390.png"))
                phone.set_viewport_size(PHONE_TURNED)  # the phone turned: the same image
                check_viewer_at(phone, data, index, log)
            phone.close()

            # An address ending in #N opens the viewer on item N.
            if data["items"]:
                linked = browser.new_page(viewport=DESKTOP)
                watch(linked, export, log)
                linked.goto("file://" + export.index + f"#{len(data['items'])}", wait_until="load")
                check_viewer_at(linked, data, len(data["items"]) - 1, log)
                linked.close()
        finally:
            browser.close()
    check_log(log)
    log["sharpness"] = sharpness
    return data, log


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", help="the folder written by `gallery export --format html`")
    parser.add_argument("--screenshots", metavar="DIR", help="save grid and viewer screenshots at 1280 and 390 px here")
    arguments = parser.parse_args()
    try:
        export = Export(arguments.outdir)
        if arguments.screenshots:
            os.makedirs(arguments.screenshots, exist_ok=True)
        data, log = run(export, arguments.screenshots)
    except Failure as failure:
        print(f"check_html_export: FAIL: {arguments.outdir}: {failure}", file=sys.stderr)
        return 1
    except Exception as error:  # Playwright's own: the browser would not start, a click timed out…
        print(f"check_html_export: FAIL: {arguments.outdir}: {type(error).__name__}: {error}".splitlines()[0], file=sys.stderr)
        return 1
    failed = sum(1 for item in data["items"] if item["error"])
    print(f"check_html_export: OK: {arguments.outdir}: {len(data['items'])} items ({failed} failed), "
          f"{log['requests']} requests all inside the folder, grid{' and viewer' if data['items'] else ''} checked at 1280 and 390 px; "
          "least source pixels per device pixel (of images not at full size): "
          + ", ".join(f"{where} {ratio:.2f}" for where, ratio in log["sharpness"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
