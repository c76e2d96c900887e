"""Checks of the image viewer (viewer.js), shared by the HTML export's check and the app's: the
same viewer is judged the same way on both pages.

Each takes the page and `data`, the viewer's images as the page's data gives them:
{"items": [{"ratio", "caption", "error", ...}], "strip": {"cell", "spacing"}}.
"""
import os
import time

from browserlib import check, wait_for_js


def counter_text(index, count):
    return f"{index + 1} of {count}"


def strip_width(data, item, expanding=1):
    """GalleryLayout.filmstrip's width of `item`'s strip cell widened by `expanding` (1: the
    current one at rest): the square cell plus that fraction of the difference to its shape, its
    ratio kept within the filmstrip's 0.5...3."""
    cell = data["strip"]["cell"]
    ratio = min(max(item["ratio"], 0.5), 3)
    return cell + (cell * ratio - cell) * expanding


def strip_geometry(page):
    return page.evaluate("""() => {
        const strip = document.querySelector('.viewer .strip').getBoundingClientRect();
        const current = document.querySelector('.viewer .thumb.current');
        if (!current) return null;
        const r = current.getBoundingClientRect();
        return { width: r.width, centre: r.left + r.width / 2, stripCentre: strip.left + strip.width / 2 };
    }""")


def check_at_rest(page, data, index, tolerance=1):
    """The viewer rests on item `index`: its counter, caption, and its strip thumbnail as wide as
    GalleryLayout's (`strip_width`) and centred, still so once every transition has ended."""
    items = data["items"]
    item = items[index]
    expected = counter_text(index, len(items))
    wait_for_js(page, "t => document.querySelector('.viewer .counter').textContent === t", expected,
                f"the viewer's counter does not read {expected!r}")
    caption = page.locator(".viewer .viewer-caption").text_content()
    check(caption == (item["caption"] or ""), f"the viewer's caption reads {caption!r}, not {item['caption']!r}")
    want = strip_width(data, item)
    wait_for_js(page, """([want, tolerance]) => { const c = document.querySelector('.viewer .thumb.current');
                                   if (!c) return false;
                                   const r = c.getBoundingClientRect();
                                   const s = document.querySelector('.viewer .strip').getBoundingClientRect();
                                   return Math.abs(r.width - want) <= tolerance
                                       && Math.abs(r.left + r.width / 2 - (s.left + s.width / 2)) <= tolerance; }""",
                [want, tolerance], f"the current strip thumbnail is not {want} px wide and centred at {page.viewport_size['width']} px")
    time.sleep(0.4)  # still there once every transition has ended?
    geometry = strip_geometry(page)
    check(abs(geometry["width"] - want) <= tolerance, f"the current strip thumbnail is {geometry['width']} px wide, not {want}")
    check(abs(geometry["centre"] - geometry["stripCentre"]) <= tolerance,
          f"the current strip thumbnail's centre is at {geometry['centre']:.1f}, the strip's at {geometry['stripCentre']:.1f}")


def check_mid_swipe(page, data, index, screenshot=None):
    """A pointer holding the large image half a page to the left: the strip has moved half a
    step, and the current and next thumbnails are each widened halfway (GalleryLayout's
    filmstrip at position index + 0.5, computed here from the data's ratios); the next page is
    a page after; the image lags inside its page by GalleryLayout's parallax offset. Saved as the
    image `screenshot` while held, if given."""
    items = data["items"]
    if index + 1 >= len(items):
        return
    cell, gap = data["strip"]["cell"], data["strip"]["spacing"]

    def extra(item, expanding):
        return strip_width(data, item, expanding) - cell

    stage = page.locator(".viewer .stage").bounding_box()
    y = stage["y"] + stage["height"] / 2
    start = stage["x"] + stage["width"] * 0.75
    page.mouse.move(start, y)
    page.mouse.down()
    page.mouse.move(start - stage["width"] / 2, y, steps=8)
    time.sleep(0.1)
    shown = page.evaluate("""() => {
        const strip = document.querySelector('.viewer .strip').getBoundingClientRect();
        const boxes = [...document.querySelectorAll('.viewer .thumb')].map((t) => t.getBoundingClientRect())
            .sort((a, b) => a.left - b.left);
        const page = document.querySelector('.viewer .frame:not(.neighbour)').getBoundingClientRect();
        const image = document.querySelector('.viewer .frame:not(.neighbour) .placeholder').getBoundingClientRect();
        const next = document.querySelector('.viewer .frame.neighbour[data-side="1"]').getBoundingClientRect();
        return { centre: strip.left + strip.width / 2, boxes: boxes.map((b) => [b.left, b.width]),
                 page: page.left, image: image.left, next: next.left, step: document.querySelector('.viewer .stage').clientWidth };
    }""")
    if screenshot:
        page.screenshot(path=screenshot)
    # Back where it started before letting go: the same image springs back.
    page.mouse.move(start, y, steps=4)
    page.mouse.up()
    here, after = items[index], items[index + 1]
    want_here, want_after = cell + extra(here, 0.5), cell + extra(after, 0.5)
    # The thumbnails in screen order; the two nearest the centre are the current and the next.
    boxes = shown["boxes"]
    nearest = sorted(range(len(boxes)), key=lambda i: abs(boxes[i][0] + boxes[i][1] / 2 - shown["centre"]))[:2]
    left, right = sorted(nearest)
    check(abs(boxes[left][1] - want_here) <= 1.5 and abs(boxes[right][1] - want_after) <= 1.5,
          f"mid-swipe the two thumbnails at the centre are {boxes[left][1]:.1f} and {boxes[right][1]:.1f} px wide, "
          f"not halfway widened ({want_here:.1f} and {want_after:.1f})")
    # The pager: the page half a step left, the next one half in, the image lagging inside its page
    # by GalleryLayout.parallaxOffset: -0.3 x the page's width x its distance (-0.5) = 0.15 x width.
    step = shown["step"]
    check(abs(shown["next"] - shown["page"] - step) <= 2, f"mid-swipe the next page is {shown['next'] - shown['page']:.1f} px after the current one, not a page ({step})")
    lag = shown["image"] - shown["page"]
    check(abs(lag - 0.15 * step) <= 2, f"mid-swipe the image lags {lag:.1f} px inside its page, not 0.3 x {step} x 0.5 = {0.15 * step:.1f}")
    want_centre = shown["centre"] - (cell + gap) / 2 - extra(after, 0.5) / 2
    got_centre = boxes[left][0] + boxes[left][1] / 2
    check(abs(got_centre - want_centre) <= 2,
          f"mid-swipe the current thumbnail's centre is at {got_centre:.1f}, not half a step left of the centre ({want_centre:.1f})")


def check_zoom(page, data, index):
    """A double click zooms the large image in at the pointer; a drag then pans it (the pager
    rests: the same image stays) without showing past its edges; a double click zooms out."""
    if data["items"][index]["error"]:
        return
    stage = page.locator(".viewer .stage").bounding_box()
    centre = (stage["x"] + stage["width"] / 2, stage["y"] + stage["height"] / 2)
    scale = """() => { const t = getComputedStyle(document.querySelector('.viewer .photo')).transform;
        return t === 'none' ? [1, 0, 0] : (([a, , , , e, f]) => [a, e, f])(t.slice(7, -1).split(',').map(Number)); }"""
    page.mouse.dblclick(centre[0] + 40, centre[1])
    zoomed = page.evaluate(scale)
    check(abs(zoomed[0] - 2.5) < 0.01, f"a double click did not zoom the image in (scale {zoomed[0]})")
    page.mouse.move(*centre)
    page.mouse.down()
    page.mouse.move(centre[0] + 5000, centre[1] + 5000, steps=6)
    page.mouse.up()
    panned = page.evaluate(scale)
    frame = page.locator(".viewer .frame:not(.neighbour)").bounding_box()
    photo = page.evaluate("""() => { const p = document.querySelector('.viewer .photo');
        return [p.naturalWidth, p.naturalHeight]; }""")
    ratio = photo[0] / photo[1] if photo[1] else frame["width"] / frame["height"]
    fitted_width = min(frame["width"], frame["height"] * ratio)
    limit = max(0, (fitted_width * 2.5 - frame["width"]) / 2)
    check(panned[1] > 0 and abs(panned[1] - limit) <= 1.5,
          f"dragging a zoomed image far right moved it {panned[1]:.1f} px, not to its edge ({limit:.1f} px)")
    counter = page.locator(".viewer .counter").text_content()
    check(counter == counter_text(index, len(data["items"])), f"dragging a zoomed image paged to {counter}")
    page.mouse.dblclick(*centre)
    check(page.evaluate(scale)[0] == 1, "a second double click did not zoom out")


def check_strip_drag(page, data, index, at_rest, screenshot=None):
    """Dragging the strip three steps to the left: held there, every thumbnail is square and the
    viewer shows the image three on (saved as the image `screenshot` while held, if given); let
    go, `at_rest(index)` checks the image it settles on. Returns the index now shown."""
    items = data["items"]
    if index + 3 >= len(items):
        return index
    step = data["strip"]["cell"] + data["strip"]["spacing"]
    start = page.evaluate("""() => { const r = document.querySelector('.viewer .thumb.current').getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; }""")
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] - 3 * step, start[1], steps=12)
    time.sleep(0.35)
    if screenshot:
        page.screenshot(path=screenshot)
    widths = page.evaluate("() => [...document.querySelectorAll('.viewer .thumb')].map((t) => t.getBoundingClientRect().width)")
    check(all(abs(width - data["strip"]["cell"]) <= 0.5 for width in widths),
          f"while the strip is dragged its thumbnails are not all square: {sorted(set(round(w, 1) for w in widths))}")
    counter = page.locator(".viewer .counter").text_content()
    check(counter == counter_text(index + 3, len(items)), f"dragging the strip three steps shows {counter}, not image {index + 4}")
    page.mouse.up()
    at_rest(index + 3)
    return index + 3


def swipe_once(page, data, index, at_rest):
    """A quick swipe to the left on the large image with the mouse; `at_rest(index + 1)` checks
    the next image is shown. Returns its index."""
    stage = page.locator(".viewer .stage").bounding_box()
    y = stage["y"] + stage["height"] / 2
    page.mouse.move(stage["x"] + stage["width"] * 0.8, y)
    page.mouse.down()
    page.mouse.move(stage["x"] + stage["width"] * 0.3, y, steps=5)
    page.mouse.up()
    at_rest(index + 1)
    return index + 1


def check_wheel(page, data, index, at_rest):
    """A touchpad's sideways swipe (wheel events with deltaX) pages to the next image; a mouse
    wheel's notch down to the one after, and a notch up back. Returns the index now shown."""
    if index + 2 >= len(data["items"]):
        return index
    stage = page.locator(".viewer .stage").bounding_box()
    page.mouse.move(stage["x"] + stage["width"] / 2, stage["y"] + stage["height"] / 2)
    # The swipe's events in one go, inside the page: sent one by one from here, a loaded machine
    # could leave a gap longer than the pause that ends a swipe (120 ms), making two short ones.
    page.evaluate("""() => {
        const stage = document.querySelector('.viewer .stage'), box = stage.getBoundingClientRect();
        for (let i = 0; i < 12; i++) {
            stage.dispatchEvent(new WheelEvent('wheel', { deltaX: 40, deltaY: 0, deltaMode: 0, bubbles: true, cancelable: true,
                                                          clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }));
        }
    }""")
    at_rest(index + 1)
    page.mouse.wheel(0, 100)
    at_rest(index + 2)
    page.mouse.wheel(0, -100)
    at_rest(index + 1)
    return index + 1


# Every decoded image in view (grid tiles, cells, the viewer's large image) as [key, source
# pixels per device pixel, its long edge in pixels, src]: a tile covers its box (cropped), the
# viewer's image fits in it. A key is a tile's index (export), a cell's id (app) or 'viewer'.
# The pixels are read from a copy of the image (from the browser's cache): an <img> chosen from a
# srcset reports a natural size corrected by the candidate's density, not its pixels.
SHARPNESS = """async () => {
    const dpr = devicePixelRatio, looks = [];
    const pixels = (src) => new Promise((resolve) => {
        const probe = new Image();
        probe.onload = () => resolve([probe.naturalWidth, probe.naturalHeight]);
        probe.onerror = () => resolve([0, 0]);
        probe.src = src;
    });
    const look = (img, key, contain) => {
        if (!img || !img.complete || !img.naturalWidth) return;
        const r = img.getBoundingClientRect();
        if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth || r.width < 2) return;
        looks.push(pixels(img.currentSrc || img.src).then(([width, height]) => {
            const across = r.width / width, down = r.height / height;
            const scale = contain ? Math.min(across, down) : Math.max(across, down);
            return [key, width ? 1 / (scale * dpr) : 0, Math.max(width, height), img.getAttribute('src')];
        }));
    };
    const viewer = document.querySelector('dialog.viewer[open]');
    if (viewer) {
        if (viewer.querySelector('.frame.ready:not(.neighbour)')) look(viewer.querySelector('.frame:not(.neighbour) .photo'), 'viewer', true);
    } else {
        for (const img of document.querySelectorAll('.grid .tile img, #canvas .cell img:not(.upgrading)')) {
            const holder = img.closest('[data-id], [data-index]');
            look(img, holder.dataset.id || holder.dataset.index, false);
        }
    }
    return Promise.all(looks); }"""


def check_sharp(page, edge_of, where, viewer_key=None, minimum=0.9, timeout=15.0):
    """Waits until every image in view (the viewer's, if it is open: then `viewer_key` names the
    item shown) has at least `minimum` source pixels per device pixel, unless it is the image at
    its full size (`edge_of(key)`, its long edge, or None when not known); fails naming the worst.
    Returns the least source pixels per device pixel of those not at full size (inf: none)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = page.evaluate(SHARPNESS)
        soft = [(key, ratio, long_edge, src) for key, ratio, long_edge, src in shown
                if ratio < minimum and long_edge < (edge_of(viewer_key if key == "viewer" else key) or 10 ** 9)]
        if shown and not soft:
            below_full = [ratio for key, ratio, long_edge, _ in shown
                          if long_edge < (edge_of(viewer_key if key == "viewer" else key) or 10 ** 9)]
            return min(below_full) if below_full else float("inf")
        if time.monotonic() > deadline:
            worst = min(soft, key=lambda entry: entry[1]) if soft else None
            check(False, f"{where}: " + (f"{len(soft)} images in view are soft; the worst, {worst[3]}, has {worst[1]:.2f} source "
                                          f"pixels per device pixel ({worst[2]} px long)" if worst else "no image in view decoded"))
        time.sleep(0.1)


# Whether the viewer's stage shows a picture of the item whose thumbnail is `thumbnail`: its large
# image decoded and shown, or that thumbnail in its place.
SHOWS_PICTURE = """thumbnail => {
    const frame = document.querySelector('.viewer .frame:not(.neighbour)');
    const photo = frame.querySelector('.photo'), placeholder = frame.querySelector('.placeholder');
    if (frame.classList.contains('failed')) return !document.querySelector('.viewer .failure').hidden;
    if (frame.classList.contains('ready') && photo.complete && photo.naturalWidth > 0) return true;
    return (placeholder.getAttribute('src') || '').endsWith(thumbnail) && placeholder.complete && placeholder.naturalWidth > 0
        && getComputedStyle(placeholder).visibility === 'visible'; }"""


def picture_delay(page, thumbnail, timeout=5.0):
    """Seconds from now until the stage shows a picture of the item whose thumbnail is `thumbnail`."""
    start = time.monotonic()
    while not page.evaluate(SHOWS_PICTURE, thumbnail):
        check(time.monotonic() - start < timeout, f"the viewer showed no picture of {thumbnail} within {timeout} s")
        time.sleep(0.01)
    return time.monotonic() - start


# How long the stage may go without a picture: the 0.25 s when measured by hand
# (GALLERY_PICTURE_LIMIT=0.25), 1 s by default, since the checks also run in CI beside a build,
# where a loaded machine (and Playwright's own polling) can take longer by timing alone.
PICTURE_LIMIT = float(os.environ.get("GALLERY_PICTURE_LIMIT", "1.0"))


def check_never_black(page, data, index, thumbnail_of, limit=PICTURE_LIMIT):
    """With the viewer on item `index`: a jump to the last image (End) and a held filmstrip
    (dragged one thumbnail at a time) each show a picture (the thumbnail at least) within
    `limit` seconds, however slow the network; `thumbnail_of(i)` is item i's thumbnail address.
    Returns the slowest delay and the index now shown."""
    items = data["items"]
    last = len(items) - 1
    delays = []
    page.keyboard.press("End")
    delays.append(("End", picture_delay(page, thumbnail_of(last))))
    page.keyboard.press("Home")
    delays.append(("Home", picture_delay(page, thumbnail_of(0))))
    time.sleep(0.4)  # the strip eases home (300 ms) before it is taken
    step = data["strip"]["cell"] + data["strip"]["spacing"]
    start = page.evaluate("""() => { const r = document.querySelector('.viewer .thumb.current').getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; }""")
    page.mouse.move(*start)
    page.mouse.down()
    steps = min(last, 6)
    for at in range(1, steps + 1):
        page.mouse.move(start[0] - at * step, start[1], steps=3)
        delays.append((f"strip held on {at + 1}", picture_delay(page, thumbnail_of(at))))
    time.sleep(0.3)  # held still before letting go: not a flick on to the next
    page.mouse.up()
    worst = max(delays, key=lambda entry: entry[1])
    check(worst[1] <= limit, f"the viewer showed no picture for {worst[1] * 1000:.0f} ms ({worst[0]}); at most {limit * 1000:.0f} ms")
    return worst[1], steps
