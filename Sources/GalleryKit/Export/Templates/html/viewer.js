// GalleryKit: the image viewer, laid out as Photos lays it out (the layout write-up this project
// follows): a pager of large images whose images lag inside their pages (parallax), over a
// filmstrip centred on the current position whose geometry is GalleryLayout's (viewer-layout.js).
// Both follow the finger and each other; zoom with a double click or a pinch.
//
// A classic script (modules do not load from file://), used by the HTML export and by
// `gallery serve`, that defines window.GalleryViewer(dialog, options) -> { open(index),
// update(items), currentIndex() }. `dialog` is an empty <dialog class="viewer">: the viewer
// makes its own markup. Options:
//   items:    [{ id, image, thumbnail, alt, caption, error, waiting, url, ratio }], in gallery
//             order; `id` (optional) names an item across update(); `error` says why it has no
//             image, `waiting` why it has none yet; `thumbnail` may be null
//   strip:    { cell, spacing }, the filmstrip's square side and gap (PageStyle's)
//   onShow:   called with the index and item of each image shown (to name it in the address)
//   onClose:  called with the index and item shown when the viewer closes (to focus its tile)
//   load(img, url, rank), unload(img): how an image is asked for (rank: lowest first) and given
//             up; by default its src is set and removed
//   explainFailure(url) -> Promise<reason or null>: why the large image did not load (null: it
//             came but cannot be decoded, and its thumbnail stays); the viewer then says so
//   retryURL(url): the address that asks for an image again (a Retry button) when it failed
//   actions:  [{ label, title, isShown(item), run(index, item) }], buttons in the viewer's bar
//   onDelete(index, item): a Delete button (and the Delete key) that removes the image shown; the
//             viewer plays the removal and shows the next image (the previous after the last)
// Texts reach the page only through textContent and setAttribute, never as markup.
(function () {
  'use strict';

  // The viewer's markup: constant, no text from the gallery (that goes in through textContent).
  const icon = function (path) {
    return '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="' + path + '"/></svg>';
  };
  const markup =
    '<div class="viewer-bar">' +
      '<p class="counter" aria-live="polite"></p>' +
      '<div class="viewer-actions">' +
        '<button type="button" class="delete" aria-label="Delete (Del)" title="Delete (Del)" hidden>' +
          icon('M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3') + '</button>' +
        '<button type="button" class="close" aria-label="Close (Esc)">' + icon('M6 6l12 12M18 6L6 18') + '</button>' +
      '</div>' +
    '</div>' +
    '<div class="stage">' +
      '<div class="frame">' +
        '<img class="placeholder" alt="" aria-hidden="true" draggable="false" decoding="async">' +
        '<img class="photo" alt="" draggable="false" decoding="async">' +
        '<div class="failure" hidden>' +
          icon('M3 3l18 18M9 3h10a2 2 0 0 1 2 2v10M21 19a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5M3 16l5-5 4 4M15 9.5a1.5 1.5 0 1 0 0-.01') +
          '<p class="failure-error"></p><p class="failure-url"></p>' +
          '<button type="button" class="retry" hidden>Retry</button>' +
        '</div>' +
      '</div>' +
      '<div class="frame neighbour" data-side="-1" aria-hidden="true"><img alt="" draggable="false" decoding="async"></div>' +
      '<div class="frame neighbour" data-side="1" aria-hidden="true"><img alt="" draggable="false" decoding="async"></div>' +
      '<button type="button" class="nav prev" aria-label="Previous image">' + icon('M15 5l-7 7 7 7') + '</button>' +
      '<button type="button" class="nav next" aria-label="Next image">' + icon('M9 5l7 7-7 7') + '</button>' +
    '</div>' +
    '<p class="viewer-caption"></p>' +
    '<div class="strip" aria-label="Filmstrip" role="group"><div class="strip-track"></div></div>';

  window.GalleryViewer = function (viewer, options) {
    let items = options.items;
    const cell = options.strip.cell;
    const gap = options.strip.spacing;
    const load = options.load || function (img, url) { img.src = url; };
    const unload = options.unload || function (img) { img.removeAttribute('src'); };
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

    viewer.innerHTML = markup;
    viewer.tabIndex = -1;
    const part = function (selector) { return viewer.querySelector(selector); };
    const counter = part('.counter');
    const stage = part('.stage');
    const frame = part('.frame');
    const placeholder = part('.placeholder');
    const photo = part('.photo');
    const failure = part('.failure');
    const retryButton = part('.retry');
    const caption = part('.viewer-caption');
    const prev = part('.nav.prev');
    const next = part('.nav.next');
    const strip = part('.strip');
    const track = part('.strip-track');
    const deleteButton = part('.delete');
    track.style.height = cell + 'px';

    let current = -1;  // index of the item shown, -1 while closed
    let shown = null;  // the item whose image the large page shows (or tries to)

    // The key that names an item across update(): its id, or its place (in `list`, by default
    // the items shown) if it has none.
    function keyOf(index, list) { const item = (list || items)[index]; return item.id !== undefined ? item.id : index; }

    // The bar's buttons: the caller's actions, shown for the items they apply to.
    const actions = (options.actions || []).map(function (action) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'action';
      button.textContent = action.label;
      if (action.title) button.title = action.title;
      button.addEventListener('click', function () { if (current >= 0 && !isBusy()) action.run(current, items[current]); });
      deleteButton.before(button);
      return { button: button, isShown: action.isShown || function () { return true; } };
    });
    deleteButton.hidden = !options.onDelete;

    function showActions() {
      for (const action of actions) action.button.hidden = current < 0 || !action.isShown(items[current]);
    }

    // The filmstrip -----------------------------------------------------------------------------

    // The strip holds the thumbnails within `stripReach` of the current one, not one per image. It
    // is at a fractional position (the item at the strip's centre: 2.4 is 40 % of the way from item
    // 2 to 3) and an expanding rate, and every drawn thumbnail is placed where GalleryLayout's
    // filmstrip puts it (viewer-layout.js, pinned to the Swift code by a test): the current one
    // widened to its image's shape, its neighbours widening in turn as the pager moves. Only the
    // thumbnails within the strip's view (and a little beyond) are asked for.
    const stripReach = 60;
    const thumbs = new Map();  // key -> its cell (with .index), for those drawn
    let stripStart = 0, stripEnd = 0;
    let stripPosition = 0;
    let stripRate = 1;
    let stripAnimation = 0;

    function drawStrip(isForced) {
      const start = Math.max(0, current - stripReach), end = Math.min(items.length, current + stripReach + 1);
      if (!isForced && start === stripStart && end === stripEnd) return;
      const wanted = new Map();
      for (let index = start; index < end; index += 1) wanted.set(keyOf(index), index);
      for (const [key, button] of thumbs) {
        const index = wanted.get(key);
        if (index !== undefined && button.source === items[index].thumbnail) {
          button.index = index;
          button.setAttribute('aria-label', items[index].alt);
          continue;
        }
        if (button.img) unload(button.img);
        button.remove();
        thumbs.delete(key);
      }
      for (const [key, index] of wanted) {
        if (thumbs.has(key)) continue;
        const button = thumbnail(index);
        track.appendChild(button);
        thumbs.set(key, button);
      }
      stripStart = start;
      stripEnd = end;
    }

    function thumbnail(index) {
      const item = items[index];
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'thumb';
      button.tabIndex = -1;
      button.index = index;
      button.source = item.thumbnail;
      button.setAttribute('aria-label', item.alt);
      if (item.thumbnail) {
        const img = document.createElement('img');
        img.alt = '';
        img.decoding = 'async';
        img.draggable = false;
        img.addEventListener('error', function () { if (img.getAttribute('src')) button.classList.add('failed'); });
        button.appendChild(img);
        button.img = img;
      } else {
        button.classList.add('failed');
      }
      button.addEventListener('click', function () { show(button.index); });
      return button;
    }

    // Places the drawn thumbnails for the strip's position and rate (a window of the strip is the
    // same strip: positions are relative to the centre).
    function placeStrip() {
      if (current < 0) return;
      drawStrip(false);
      const ratios = [];
      for (let index = stripStart; index < stripEnd; index += 1) ratios.push(items[index].ratio);
      const width = strip.clientWidth;
      const frames = window.GalleryViewerLayout.filmstrip(ratios, stripPosition - stripStart, stripRate, width, cell, gap);
      for (const button of thumbs.values()) {
        const index = button.index;
        const frame = frames[index - stripStart];
        button.style.transform = 'translateX(' + frame[0] + 'px)';
        button.style.width = frame[1] + 'px';
        const isCurrent = index === current;
        button.classList.toggle('current', isCurrent);
        if (isCurrent) button.setAttribute('aria-current', 'true'); else button.removeAttribute('aria-current');
        if (button.img && !button.isWanted && frame[0] + frame[1] > -2 * cell && frame[0] < width + 2 * cell) {
          button.isWanted = true;
          load(button.img, button.source, -1e6 + Math.abs(index - stripPosition));
        }
      }
    }

    // Moves the strip to `position` at rate 1 over `duration` ms, easing in and out.
    function settleStrip(position, duration) {
      cancelAnimationFrame(stripAnimation);
      const from = stripPosition, fromRate = stripRate, started = performance.now();
      (function tick(now) {
        const eased = easeInOut(reducedMotion.matches ? 1 : Math.min(1, (now - started) / duration));
        stripPosition = from + (position - from) * eased;
        stripRate = fromRate + (1 - fromRate) * eased;
        placeStrip();
        if (eased < 1) stripAnimation = requestAnimationFrame(tick);
      })(started);
    }

    // How fast the last moves went, in px per ms; 0 if the finger then held still.
    function flickVelocity(samples) {
      const [first, last] = [samples[0], samples[samples.length - 1]];
      if (performance.now() - last[0] > 100 || last[0] <= first[0]) return 0;
      return (last[1] - first[1]) / (last[0] - first[0]);
    }

    function easeInOut(t) { return t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2; }

    // Dragging the strip itself: the thumbnails follow the finger, all square (the expanding rate
    // eases to 0 in 0.15 s), and the large image follows, the image at the strip's centre becoming
    // the current one. Let go, the strip settles on the nearest image (a flick carries it on) and
    // widens it again. A tap without moving stays a tap on a thumbnail.
    let stripDrag = null;
    let rateAnimation = 0;
    let swallowClick = false;

    function easeRateTo(rate, duration) {
      cancelAnimationFrame(rateAnimation);
      const from = stripRate, started = performance.now();
      (function tick(now) {
        const eased = easeInOut(Math.min(1, (now - started) / duration));
        stripRate = from + (rate - from) * eased;
        placeStrip();
        if (eased < 1 && stripDrag) rateAnimation = requestAnimationFrame(tick);
      })(started);
    }

    strip.addEventListener('pointerdown', function (event) {
      if (!event.isPrimary || event.button !== 0 || current < 0 || isBusy()) return;
      stripDrag = { id: event.pointerId, x: event.clientX, from: stripPosition, moved: false, samples: [[performance.now(), event.clientX]] };
    });

    strip.addEventListener('pointermove', function (event) {
      if (!stripDrag || event.pointerId !== stripDrag.id) return;
      const dx = event.clientX - stripDrag.x;
      if (!stripDrag.moved) {
        if (Math.abs(dx) < 6) return;
        stripDrag.moved = true;
        strip.setPointerCapture(event.pointerId);
        cancelAnimationFrame(stripAnimation);
        resetZoom();
        stage.classList.add('paging');
        easeRateTo(0, 150);
      }
      stripDrag.samples.push([performance.now(), event.clientX]);
      if (stripDrag.samples.length > 5) stripDrag.samples.shift();
      stripPosition = Math.min(Math.max(stripDrag.from - dx / (cell + gap), 0), items.length - 1);
      const nearest = Math.round(stripPosition);
      if (nearest !== current) show(nearest, true);
      placePages((current - stripPosition) * pageStep());
      placeStrip();
    });

    function endStripDrag(event) {
      if (!stripDrag || event.pointerId !== stripDrag.id) return;
      const drag = stripDrag;
      stripDrag = null;
      cancelAnimationFrame(rateAnimation);
      if (!drag.moved) return;
      swallowClick = true;
      const velocity = flickVelocity(drag.samples);
      const target = Math.min(Math.max(Math.round(stripPosition - velocity * 120 / (cell + gap)), 0), items.length - 1);
      settleOn(target);
    }

    strip.addEventListener('pointerup', endStripDrag);
    strip.addEventListener('pointercancel', endStripDrag);
    strip.addEventListener('click', function (event) {
      if (!swallowClick) return;
      swallowClick = false;
      event.stopPropagation();
    }, true);

    // The large image ---------------------------------------------------------------------------

    // Shows item `index` (again if `isForced`: what the caller knows of it changed); the strip
    // eases there unless it is being dragged (`stripFollows`).
    function show(index, stripFollows, isForced) {
      index = Math.max(0, Math.min(items.length - 1, index));
      const opening = current < 0;
      if (index !== current || isForced) {
        current = index;
        const item = items[index];
        counter.textContent = (index + 1) + ' of ' + items.length;
        caption.textContent = item.caption || '';
        prev.disabled = index === 0;
        next.disabled = index === items.length - 1;
        showActions();
        if (shown !== item) showLarge(item, null);
        fillNeighbours();
        if (options.onShow) options.onShow(index, item);
      }
      if (opening) {
        stripPosition = index;
        stripRate = 1;
        placeStrip();
      } else if (stripFollows) {
        placeStrip();  // where it is; only which thumbnail is current changes
      } else {
        settleStrip(index, 300);
      }
    }

    // The large page: the thumbnail until the image has come, or why there is none. `retry`: the
    // image's address asked for again.
    function showLarge(item, retry) {
      const problem = item.error || item.waiting;
      const isSame = shown !== null && shown.image === item.image && shown.thumbnail === item.thumbnail;
      shown = item;
      photo.alt = item.alt;
      // The same image, already there (the gallery changed around it): it stays, zoom and all.
      if (isSame && !retry && !problem && frame.classList.contains('ready')) return;
      resetZoom();
      frame.classList.toggle('failed', Boolean(problem));
      frame.classList.toggle('waiting', !item.error && Boolean(item.waiting));
      if (problem) {
        frame.classList.remove('ready', 'loading');
        unload(placeholder);
        unload(photo);
        showFailure(problem, item.url, false);
        return;
      }
      failure.hidden = true;
      frame.classList.remove('ready');
      frame.classList.add('loading');
      if (item.thumbnail) load(placeholder, item.thumbnail, -1e9); else unload(placeholder);
      load(photo, retry || item.image, -1e9 + 1);
    }

    function showFailure(reason, url, canRetry) {
      failure.querySelector('.failure-error').textContent = reason;
      failure.querySelector('.failure-url').textContent = url || '';
      retryButton.hidden = !canRetry;
      failure.hidden = false;
    }

    photo.addEventListener('load', function () {
      // Only if the image now asked for has loaded, not one paged past before it arrived.
      if (photo.complete && photo.naturalWidth > 0) frame.classList.add('ready');
      frame.classList.remove('loading');
    });
    // A format the browser cannot decode (TIFF outside Safari): the thumbnail stays in its place.
    // An image the caller could not get: the reason, and Retry if it can be asked for again.
    photo.addEventListener('error', async function () {
      const source = photo.getAttribute('src');
      frame.classList.remove('ready', 'loading');
      if (!source || !options.explainFailure) return;
      const item = shown;
      const reason = await options.explainFailure(source);
      if (reason === null || shown !== item || photo.getAttribute('src') !== source) return;
      frame.classList.add('failed');
      showFailure(reason, item.url, Boolean(options.retryURL));
    });
    retryButton.addEventListener('click', function () {
      if (!shown || !options.retryURL) return;
      frame.classList.remove('failed');
      showLarge(shown, options.retryURL(shown.image));
    });

    // Opening, closing, updating ----------------------------------------------------------------

    function open(index) {
      if (items.length === 0) return;
      if (!viewer.open) {
        viewer.showModal();
        viewer.focus();  // not the close button: a focus ring there on opening looks like a selection
      }
      show(index);
    }

    // New items while the viewer is open (the gallery changed): the same image stays shown, at
    // its new place, with what is now known of it; if it is gone, the one now in its place.
    function update(nextItems) {
      if (leaving) { pendingItems = nextItems; return; }
      const key = current >= 0 ? keyOf(current) : null;
      items = nextItems;
      if (current < 0) return;
      if (items.length === 0) { viewer.close(); return; }
      let at = items.findIndex(function (item, index) { return keyOf(index) === key; });
      if (at < 0) at = Math.min(current, items.length - 1);
      // show() asks showLarge(), which keeps the large image only if it is the same one, loaded.
      if (at !== current) {
        // It changed places: the strip jumps with it rather than travel through other images.
        cancelAnimationFrame(stripAnimation);
        stripPosition = at;
        current = at;
      }
      drawStrip(true);
      show(at, true, true);
    }

    viewer.addEventListener('close', function () {
      const closed = current;
      const closedItem = items[current];
      current = -1;
      shown = null;
      unload(photo);
      unload(placeholder);
      for (const side of ['-1', '1']) unload(neighbours[side].querySelector('img'));
      for (const button of thumbs.values()) { if (button.img) unload(button.img); button.remove(); }
      thumbs.clear();
      stripStart = stripEnd = 0;
      if (options.onClose) options.onClose(closed, closedItem);
    });

    part('.close').addEventListener('click', function () { viewer.close(); });
    prev.addEventListener('click', function () { show(current - 1); });
    next.addEventListener('click', function () { show(current + 1); });
    deleteButton.addEventListener('click', deleteCurrent);

    viewer.addEventListener('keydown', function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'Delete' && options.onDelete) {
        event.preventDefault();
        deleteCurrent();
        return;
      }
      const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: items.length - 1 };
      if (!(event.key in moves) || isBusy()) return;
      event.preventDefault();
      show(moves[event.key]);
    });

    // Delete: the image shown leaves (it fades and shrinks, its thumbnail too), then the strip
    // closes the gap and the next image (the previous, after the last) slides in from its side.
    // The caller removes it from the gallery; its next items arrive through update().
    let leaving = false;
    let pendingItems = null;

    function deleteCurrent() {
      if (!options.onDelete || current < 0 || isBusy()) return;
      const index = current;
      const thumb = thumbs.get(keyOf(index));
      leaving = true;
      resetZoom();
      frame.classList.add('leaving');
      if (thumb) thumb.classList.add('leaving');
      options.onDelete(index, items[index]);
      setTimeout(function () {
        leaving = false;
        frame.classList.remove('leaving');
        const gone = keyOf(index);
        if (thumb && thumb.img) unload(thumb.img);
        if (thumb) thumb.remove();
        thumbs.delete(gone);
        // The caller's items if they came meanwhile, else these; without the one deleted either way
        // (the caller's may be from before its removal).
        const rest = pendingItems || items;
        items = rest.filter(function (item, at) { return keyOf(at, rest) !== gone; });
        pendingItems = null;
        if (items.length === 0) { viewer.close(); return; }
        const side = index < items.length ? 1 : -1;
        const target = Math.min(index, items.length - 1);
        stripStart = stripEnd = -1;  // redrawn: the window's indices changed
        current = target;
        stripPosition = target;
        // The thumbnails glide to their new places; the new page comes from where it stood,
        // beside the one that left.
        track.classList.add('settling');
        show(target, true, true);
        placePages(side * pageStep());
        void frame.offsetWidth;  // that place is where the slide starts
        frame.classList.add('settling');
        placePages(0);
        setTimeout(function () { frame.classList.remove('settling'); track.classList.remove('settling'); }, 260);
      }, reducedMotion.matches ? 0 : 220);
    }

    // Zoom: a double click or double tap zooms the large image in at that point (again: out), two
    // fingers pinch it; while zoomed, a drag pans it, never past its own edges, and the pager
    // rests. Paging to another image zooms out.
    const maximumZoom = 4;
    const zoom = { scale: 1, x: 0, y: 0 };
    const pointers = new Map();  // pointer id -> [x, y], for the pinch
    let pinch = null;

    function applyZoom() {
      const value = zoom.scale === 1 ? '' : 'translate(' + zoom.x + 'px,' + zoom.y + 'px) scale(' + zoom.scale + ')';
      photo.style.transform = value;
      placeholder.style.transform = value;
      stage.classList.toggle('zoomed', zoom.scale > 1);
    }

    // The offsets that keep the image (as shown, contained in its page) covering the page where it
    // is larger than the page, and centred where it is not.
    function clampZoom() {
      const box = frame.getBoundingClientRect();
      const source = photo.naturalWidth ? photo : placeholder;
      const ratio = source.naturalWidth && source.naturalHeight ? source.naturalWidth / source.naturalHeight : box.width / box.height;
      const fitted = ratio > box.width / box.height ? [box.width, box.width / ratio] : [box.height * ratio, box.height];
      const room = [Math.max(0, (fitted[0] * zoom.scale - box.width) / 2), Math.max(0, (fitted[1] * zoom.scale - box.height) / 2)];
      zoom.x = Math.min(room[0], Math.max(-room[0], zoom.x));
      zoom.y = Math.min(room[1], Math.max(-room[1], zoom.y));
    }

    // Zooms to `scale`, keeping the point (clientX, clientY) where it is on screen.
    function zoomAt(scale, clientX, clientY) {
      const box = frame.getBoundingClientRect();
      const cx = clientX - (box.left + box.width / 2), cy = clientY - (box.top + box.height / 2);
      const next = Math.min(maximumZoom, Math.max(1, scale));
      zoom.x = cx - (cx - zoom.x) * next / zoom.scale;
      zoom.y = cy - (cy - zoom.y) * next / zoom.scale;
      zoom.scale = next;
      if (next === 1) { zoom.x = 0; zoom.y = 0; }
      clampZoom();
      applyZoom();
    }

    function resetZoom() {
      zoom.scale = 1;
      zoom.x = zoom.y = 0;
      pinch = null;
      applyZoom();
    }

    stage.addEventListener('dblclick', function (event) {
      if (event.target.closest('button') || frame.classList.contains('failed')) return;
      if (zoom.scale > 1) resetZoom(); else zoomAt(2.5, event.clientX, event.clientY);
    });

    function pinchDistance() {
      const [a, b] = Array.from(pointers.values());
      return Math.hypot(a[0] - b[0], a[1] - b[1]);
    }

    // The pager: the large image and its two neighbours side by side, a page apart. They follow the
    // finger (or the mouse); each page's image lags inside it by GalleryLayout's parallax offset,
    // so it slides slower than its frame; the strip moves with them. Let go past a fifth of the
    // page (or flicked), the next page slides in; otherwise the pages spring back.
    const neighbours = { '-1': part('.frame.neighbour[data-side="-1"]'), '1': part('.frame.neighbour[data-side="1"]') };
    let drag = null;
    let settling = 0;

    function pageStep() { return stage.clientWidth; }

    // Whether the pages are moving on their own (settling on an image, or an image leaving).
    function isBusy() { return settling !== 0 || leaving; }

    // Places the pages `dx` px from rest: the current one, and the neighbours a page either side.
    function placePages(dx) {
      const step = pageStep();
      const pages = [[frame, 0], [neighbours['-1'], -1], [neighbours['1'], 1]];
      for (const [page, side] of pages) {
        const offset = dx + side * step;
        page.style.transform = offset ? 'translateX(' + offset + 'px)' : '';
        const parallax = window.GalleryViewerLayout.parallaxOffset(offset / step, step);
        page.style.setProperty('--parallax', parallax + 'px');
      }
    }

    // The neighbours' images, asked for as soon as an image is shown so that a swipe finds them
    // there (a thumbnail stands in for a format the browser cannot show; a failed image's page
    // stays empty).
    function fillNeighbours() {
      for (const side of [-1, 1]) {
        const item = items[current + side];
        const img = neighbours[String(side)].querySelector('img');
        if (!item || item.error || item.waiting) { unload(img); img.item = null; continue; }
        if (img.item === item) continue;
        img.item = item;
        img.onerror = function () {
          if (img.item === item && item.thumbnail && img.getAttribute('src') === item.image) load(img, item.thumbnail, -1e8);
        };
        load(img, item.image, -1e8);
      }
    }

    stage.addEventListener('pointerdown', function (event) {
      if (event.button !== 0 || event.target.closest('button') || isBusy()) return;
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pointers.size === 2 && !frame.classList.contains('failed')) {
        // A second finger: the pinch takes over from the page drag.
        if (drag) { placePages(0); stage.classList.remove('paging'); drag = null; }
        const [a, b] = Array.from(pointers.values());
        pinch = { distance: pinchDistance(), scale: zoom.scale, centre: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
        stage.setPointerCapture(event.pointerId);
        return;
      }
      if (!event.isPrimary) return;
      stage.setPointerCapture(event.pointerId);
      if (zoom.scale > 1) {
        drag = { id: event.pointerId, pan: true, x: event.clientX - zoom.x, y: event.clientY - zoom.y };
        return;
      }
      drag = { id: event.pointerId, x: event.clientX, dx: 0, samples: [[performance.now(), event.clientX]] };
      stage.classList.add('paging');
    });

    stage.addEventListener('pointermove', function (event) {
      if (pointers.has(event.pointerId)) pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pinch && pointers.size === 2) {
        zoomAt(pinch.scale * pinchDistance() / pinch.distance, pinch.centre[0], pinch.centre[1]);
        return;
      }
      if (!drag || event.pointerId !== drag.id) return;
      if (drag.pan) {
        zoom.x = event.clientX - drag.x;
        zoom.y = event.clientY - drag.y;
        clampZoom();
        applyZoom();
        return;
      }
      drag.dx = event.clientX - drag.x;
      // No page beyond the first or the last: the pager resists there.
      if ((current === 0 && drag.dx > 0) || (current === items.length - 1 && drag.dx < 0)) drag.dx /= 3;
      drag.samples.push([performance.now(), event.clientX]);
      if (drag.samples.length > 5) drag.samples.shift();
      placePages(drag.dx);
      // The strip follows the pager: a page's width dragged is one thumbnail's step.
      cancelAnimationFrame(stripAnimation);
      stripPosition = current - drag.dx / pageStep();
      placeStrip();
    });

    function endDrag(event, cancelled) {
      pointers.delete(event.pointerId);
      if (pinch && pointers.size < 2) {
        pinch = null;
        if (zoom.scale < 1.05) resetZoom();
        return;
      }
      if (!drag || event.pointerId !== drag.id) return;
      if (drag.pan) { drag = null; return; }
      const dx = cancelled ? 0 : drag.dx;
      if (drag.dx === 0) {
        // A click (or the first of a double click): nothing moved, nothing to settle.
        drag = null;
        stage.classList.remove('paging');
        return;
      }
      const velocity = flickVelocity(drag.samples);
      drag = null;
      const step = pageStep();
      const flicked = Math.abs(velocity) > 0.5 && Math.sign(velocity) === Math.sign(dx);
      const target = (Math.abs(dx) > step * 0.2 || flicked) && dx !== 0 ? current - Math.sign(dx) : current;
      settleOn(Math.max(0, Math.min(items.length - 1, target)));
    }

    // The pages slide to where `target` is at rest and the strip eases there; then the target
    // becomes the current page.
    function settleOn(target) {
      const pages = [frame, neighbours['-1'], neighbours['1']];
      for (const page of pages) page.classList.add('settling');
      placePages((current - target) * pageStep());
      settleStrip(target, 250);
      settling = setTimeout(function () {
        settling = 0;
        for (const page of pages) page.classList.remove('settling');
        stage.classList.remove('paging');
        placePages(0);
        show(target, true);
      }, 260);
    }

    // The wheel: a touchpad's sideways swipe moves the pages as a finger does and settles once it
    // stops; a mouse wheel pages one image a notch; a touchpad pinch (Ctrl+wheel, as browsers
    // report it) zooms, and while zoomed the wheel pans.
    let wheel = null;           // a sideways swipe under way: { dx, timer }
    let wheelTravel = 0;        // vertical travel towards the next notch
    let wheelTravelTimer = 0;

    stage.addEventListener('wheel', function (event) {
      event.preventDefault();
      if (current < 0 || isBusy() || drag) return;
      const scale = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? pageStep() : 1;  // lines, pages
      const dx = event.deltaX * scale, dy = event.deltaY * scale;
      if (event.ctrlKey) {
        if (!frame.classList.contains('failed')) zoomAt(zoom.scale * Math.exp(-dy / 100), event.clientX, event.clientY);
        return;
      }
      if (zoom.scale > 1) {
        zoom.x -= dx;
        zoom.y -= dy;
        clampZoom();
        applyZoom();
        return;
      }
      if (Math.abs(dx) > Math.abs(dy) || wheel) {
        if (!wheel) {
          wheel = { dx: 0, timer: 0 };
          stage.classList.add('paging');
          cancelAnimationFrame(stripAnimation);
        }
        wheel.dx -= dx;
        const atEnd = (current === 0 && wheel.dx > 0) || (current === items.length - 1 && wheel.dx < 0);
        const offset = atEnd ? wheel.dx / 3 : wheel.dx;  // the pager resists past the ends
        placePages(offset);
        stripPosition = current - offset / pageStep();
        placeStrip();
        clearTimeout(wheel.timer);
        wheel.timer = setTimeout(function () {
          const moved = wheel.dx;
          wheel = null;
          settleOn(Math.abs(moved) > pageStep() * 0.2 ? Math.max(0, Math.min(items.length - 1, current - Math.sign(moved))) : current);
        }, 120);
        return;
      }
      wheelTravel += dy;
      clearTimeout(wheelTravelTimer);
      wheelTravelTimer = setTimeout(function () { wheelTravel = 0; }, 300);
      if (Math.abs(wheelTravel) < 50) return;
      const step = Math.sign(wheelTravel);
      wheelTravel = 0;
      show(current + step);
    }, { passive: false });

    stage.addEventListener('pointerup', function (event) { endDrag(event, false); });
    stage.addEventListener('pointercancel', function (event) { endDrag(event, true); });

    // Rotating a phone or resizing the window moves the strip's centre.
    window.addEventListener('resize', placeStrip);

    return {
      open: open,
      update: update,
      currentIndex: function () { return current; },
    };
  };
})();
