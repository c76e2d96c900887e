// GalleryKit: the image viewer, laid out as Photos lays it out (the layout write-up this project
// follows): a pager of large images whose images lag inside their pages (parallax), over a
// filmstrip centred on the current position whose geometry is GalleryLayout's (viewer-layout.js).
// Both follow the finger and each other; zoom with a double click or a pinch.
//
// A classic script (modules do not load from file://) that defines
// window.GalleryViewer(dialog, options) -> { open(index) }: `dialog` holds the viewer's markup
// (see the HTML export's index.html), and options are
//   items:   [{ image, thumbnail, alt, caption, error, url, ratio }], in gallery order
//   strip:   { cell, spacing }, the filmstrip's square side and gap (PageStyle's)
//   onShow:  called with the index of each image shown (to name it in the address)
//   onClose: called with the index shown when the viewer closes (to focus its tile)
// Texts reach the page only through textContent and setAttribute, never as markup.
(function () {
  'use strict';

  window.GalleryViewer = function (viewer, options) {
    const items = options.items;
    const cell = options.strip.cell;
    const gap = options.strip.spacing;

    const part = function (selector) { return viewer.querySelector(selector); };
    const counter = part('.counter');
    const stage = part('.stage');
    const frame = part('.frame');
    const placeholder = part('.placeholder');
    const photo = part('.photo');
    const failure = part('.failure');
    const caption = part('.viewer-caption');
    const prev = part('.nav.prev');
    const next = part('.nav.next');
    const strip = part('.strip');
    const track = part('.strip-track');
    track.style.height = cell + 'px';

    let current = -1;  // index of the item shown, -1 while closed

    // The filmstrip -----------------------------------------------------------------------------

    // The strip holds the thumbnails within `stripReach` of the current one, not one per image. It
    // is at a fractional position (the item at the strip's centre: 2.4 is 40 % of the way from item
    // 2 to 3) and an expanding rate, and every drawn thumbnail is placed where GalleryLayout's
    // filmstrip puts it (viewer-layout.js, pinned to the Swift code by a test): the current one
    // widened to its image's shape, its neighbours widening in turn as the pager moves.
    const stripReach = 60;
    const thumbs = new Map();  // index -> its cell, for those drawn
    let stripStart = 0, stripEnd = 0;
    let stripPosition = 0;
    let stripRate = 1;
    let stripAnimation = 0;

    function drawStrip() {
      const start = Math.max(0, current - stripReach), end = Math.min(items.length, current + stripReach + 1);
      if (start === stripStart && end === stripEnd) return;
      for (const [index, button] of thumbs) {
        if (index >= start && index < end) continue;
        button.remove();
        thumbs.delete(index);
      }
      for (let index = start; index < end; index += 1) {
        if (thumbs.has(index)) continue;
        const button = thumbnail(index);
        track.appendChild(button);
        thumbs.set(index, button);
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
      button.setAttribute('aria-label', item.alt);
      if (item.thumbnail) {
        const img = document.createElement('img');
        img.src = item.thumbnail;
        img.alt = '';
        img.loading = 'lazy';
        img.decoding = 'async';
        img.draggable = false;
        button.appendChild(img);
      } else {
        button.classList.add('failed');
      }
      button.addEventListener('click', function () { show(index); });
      return button;
    }

    // Places the drawn thumbnails for the strip's position and rate (a window of the strip is the
    // same strip: positions are relative to the centre).
    function placeStrip() {
      if (current < 0) return;
      drawStrip();
      const ratios = [];
      for (let index = stripStart; index < stripEnd; index += 1) ratios.push(items[index].ratio);
      const frames = window.GalleryViewerLayout.filmstrip(ratios, stripPosition - stripStart, stripRate, strip.clientWidth, cell, gap);
      for (const [index, button] of thumbs) {
        const frame = frames[index - stripStart];
        button.style.transform = 'translateX(' + frame[0] + 'px)';
        button.style.width = frame[1] + 'px';
        const isCurrent = index === current;
        button.classList.toggle('current', isCurrent);
        if (isCurrent) button.setAttribute('aria-current', 'true'); else button.removeAttribute('aria-current');
      }
    }

    // Moves the strip to `position` at rate 1 over `duration` ms, easing in and out.
    function settleStrip(position, duration) {
      cancelAnimationFrame(stripAnimation);
      const from = stripPosition, fromRate = stripRate, started = performance.now();
      const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      (function tick(now) {
        const eased = easeInOut(reduced ? 1 : Math.min(1, (now - started) / duration));
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
      if (!event.isPrimary || event.button !== 0 || current < 0 || settling) return;
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
        fillNeighbours();
        easeRateTo(0, 150);
      }
      stripDrag.samples.push([performance.now(), event.clientX]);
      if (stripDrag.samples.length > 5) stripDrag.samples.shift();
      stripPosition = Math.min(Math.max(stripDrag.from - dx / (cell + gap), 0), items.length - 1);
      const nearest = Math.round(stripPosition);
      if (nearest !== current) {
        show(nearest, true);
        fillNeighbours();
      }
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

    // Shows item `index`; the strip eases there unless it is being dragged (`stripFollows`).
    function show(index, stripFollows) {
      index = Math.max(0, Math.min(items.length - 1, index));
      const opening = current < 0;
      if (index !== current) {
        current = index;
        resetZoom();
        const item = items[index];
        counter.textContent = (index + 1) + ' / ' + items.length;
        caption.textContent = item.caption || '';
        prev.disabled = index === 0;
        next.disabled = index === items.length - 1;
        frame.classList.remove('ready', 'failed');
        failure.hidden = !item.error;
        if (item.error) {
          frame.classList.add('failed');
          placeholder.removeAttribute('src');
          photo.removeAttribute('src');
          photo.alt = '';
          failure.querySelector('.failure-error').textContent = item.error;
          failure.querySelector('.failure-url').textContent = item.url || '';
        } else {
          placeholder.src = item.thumbnail;
          photo.alt = item.alt;
          photo.src = item.image;
        }
        preloadNeighbours(index);
        if (options.onShow) options.onShow(index);
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

    photo.addEventListener('load', function () {
      // Only if the image now asked for has loaded, not one paged past before it arrived.
      if (photo.complete && photo.naturalWidth > 0) frame.classList.add('ready');
    });
    // A format the browser cannot decode (TIFF outside Safari): the thumbnail stays in its place.
    photo.addEventListener('error', function () { frame.classList.remove('ready'); });

    function preloadNeighbours(index) {
      [index - 1, index + 1].forEach(function (neighbour) {
        const item = items[neighbour];
        if (item && item.image) new Image().src = item.image;
      });
    }

    // Opening and closing -----------------------------------------------------------------------

    function open(index) {
      if (!viewer.open) {
        viewer.showModal();
        viewer.focus();  // not the close button: a focus ring there on opening looks like a selection
      }
      show(index);
    }

    viewer.addEventListener('close', function () {
      const closed = current;
      current = -1;
      if (options.onClose) options.onClose(closed);
    });

    part('.close').addEventListener('click', function () { viewer.close(); });
    prev.addEventListener('click', function () { show(current - 1); });
    next.addEventListener('click', function () { show(current + 1); });

    viewer.addEventListener('keydown', function (event) {
      const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: items.length - 1 };
      if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      show(moves[event.key]);
    });

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

    // The neighbours' images, when a drag starts (the originals were preloaded; a thumbnail
    // stands in for a format the browser cannot show, or a failed image's empty page).
    function fillNeighbours() {
      for (const side of [-1, 1]) {
        const item = items[current + side];
        const img = neighbours[String(side)].querySelector('img');
        if (!item || item.error) { img.removeAttribute('src'); continue; }
        img.onerror = function () { if (img.getAttribute('src') !== item.thumbnail) img.src = item.thumbnail; };
        img.src = item.image;
      }
    }

    stage.addEventListener('pointerdown', function (event) {
      if (event.button !== 0 || event.target.closest('button') || settling) return;
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
      stage.setPointerCapture(event.pointerId);
      fillNeighbours();
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

    stage.addEventListener('pointerup', function (event) { endDrag(event, false); });
    stage.addEventListener('pointercancel', function (event) { endDrag(event, true); });

    // Rotating a phone or resizing the window moves the strip's centre.
    window.addEventListener('resize', placeStrip);

    return { open: open };
  };
})();
