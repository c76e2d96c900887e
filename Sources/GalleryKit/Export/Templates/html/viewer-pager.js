// The image viewer's gestures: the pager of large images following a finger, the mouse or the wheel, with parallax.
// A classic script on window.Gallery (frames.js says why); viewer.js says how the viewer's parts fit.
(function (Gallery) {
  'use strict';
  const parts = Gallery.ViewerParts = Gallery.ViewerParts || {};

  // The pager: the large image and its two neighbours side by side, a page apart. They follow the
  // finger (or the mouse); each page's image lags inside it by GalleryLayout's parallax offset,
  // so it slides slower than its frame; the strip moves with them. Let go past a fifth of the
  // page (or flicked), the next page slides in; otherwise the pages spring back. Two fingers
  // hand over to the zoom's pinch (viewer-zoom.js).
  // Adds v.pageStep, v.isBusy, v.placePages, v.fillNeighbours, v.settleOn.
  parts.pager = function (v) {
    const stage = v.stage, frame = v.frame, neighbours = v.neighbours, zoom = v.zoom;
    const pointers = new Map();  // pointer id -> [x, y], for the pinch
    let drag = null;
    let settling = 0;

    v.pageStep = function () { return stage.clientWidth; };

    // Whether the pages are moving on their own (settling on an image, or an image leaving).
    v.isBusy = function () { return settling !== 0 || v.leaving; };

    // Places the pages `dx` px from rest: the current one, and the neighbours a page either side.
    v.placePages = function (dx) {
      const step = v.pageStep();
      const pages = [[frame, 0], [neighbours['-1'], -1], [neighbours['1'], 1]];
      for (const [page, side] of pages) {
        const offset = dx + side * step;
        page.style.transform = offset ? 'translateX(' + offset + 'px)' : '';
        const parallax = Gallery.ViewerLayout.parallaxOffset(offset / step, step);
        page.style.setProperty('--parallax', parallax + 'px');
      }
    };

    // The neighbours' images, asked for as soon as an image is shown so that a swipe finds them
    // there, each over its thumbnail (shown at once when the strip has it), which also stands in
    // for a format the browser cannot show; a failed image's page stays empty.
    v.fillNeighbours = function () {
      for (const side of [-1, 1]) {
        const item = v.items[v.current + side];
        const page = neighbours[String(side)];
        const img = page.querySelector('.photo'), under = page.querySelector('.placeholder');
        if (!item || item.error || item.waiting) { v.unload(img); v.unload(under); img.item = null; continue; }
        if (img.item === item) continue;
        img.item = item;
        v.showThumbnail(under, item, -1e8);
        img.onerror = function () { if (img.item === item) v.unload(img); };
        v.load(img, v.sizeOf(item, 1).url, -1e8);
      }
    };

    function pinchDistance() {
      const [a, b] = Array.from(pointers.values());
      return Math.hypot(a[0] - b[0], a[1] - b[1]);
    }

    stage.addEventListener('pointerdown', function (event) {
      if (event.button !== 0 || event.target.closest('button') || v.isBusy()) return;
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pointers.size === 2 && !frame.classList.contains('failed')) {
        // A second finger: the pinch takes over from the page drag.
        if (drag) { v.placePages(0); stage.classList.remove('paging'); drag = null; }
        const [a, b] = Array.from(pointers.values());
        v.pinch = { distance: pinchDistance(), scale: zoom.scale, centre: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
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
      const pinch = v.pinch;
      if (pinch && pointers.size === 2) {
        v.zoomAt(pinch.scale * pinchDistance() / pinch.distance, pinch.centre[0], pinch.centre[1]);
        return;
      }
      if (!drag || event.pointerId !== drag.id) return;
      if (drag.pan) {
        v.panTo(event.clientX - drag.x, event.clientY - drag.y);
        return;
      }
      drag.dx = event.clientX - drag.x;
      // No page beyond the first or the last: the pager resists there.
      if ((v.current === 0 && drag.dx > 0) || (v.current === v.items.length - 1 && drag.dx < 0)) drag.dx /= 3;
      drag.samples.push([performance.now(), event.clientX]);
      if (drag.samples.length > 5) drag.samples.shift();
      v.placePages(drag.dx);
      // The strip follows the pager: a page's width dragged is one thumbnail's step.
      v.stopStrip();
      v.stripPosition = v.current - drag.dx / v.pageStep();
      v.placeStrip();
    });

    function endDrag(event, cancelled) {
      pointers.delete(event.pointerId);
      if (v.pinch && pointers.size < 2) {
        v.pinch = null;
        if (zoom.scale < 1.05) v.resetZoom();
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
      const velocity = parts.flickVelocity(drag.samples);
      drag = null;
      const step = v.pageStep();
      const flicked = Math.abs(velocity) > 0.5 && Math.sign(velocity) === Math.sign(dx);
      const target = (Math.abs(dx) > step * 0.2 || flicked) && dx !== 0 ? v.current - Math.sign(dx) : v.current;
      v.settleOn(Math.max(0, Math.min(v.items.length - 1, target)));
    }

    // The pages slide to where `target` is at rest and the strip eases there; then the target
    // becomes the current page.
    v.settleOn = function (target) {
      const pages = [frame, neighbours['-1'], neighbours['1']];
      for (const page of pages) page.classList.add('settling');
      v.placePages((v.current - target) * v.pageStep());
      v.settleStrip(target, 250);
      settling = setTimeout(function () {
        settling = 0;
        for (const page of pages) page.classList.remove('settling');
        stage.classList.remove('paging');
        v.placePages(0);
        v.show(target, true);
      }, 260);
    };

    // The wheel: a touchpad's sideways swipe moves the pages as a finger does and settles once it
    // stops; a mouse wheel pages one image a notch; a touchpad pinch (Ctrl+wheel, as browsers
    // report it) zooms, and while zoomed the wheel pans.
    let wheel = null;           // a sideways swipe under way: { dx, timer }
    let wheelTravel = 0;        // vertical travel towards the next notch
    let wheelTravelTimer = 0;

    stage.addEventListener('wheel', function (event) {
      event.preventDefault();
      if (v.current < 0 || v.isBusy() || drag) return;
      const scale = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? v.pageStep() : 1;  // lines, pages
      const dx = event.deltaX * scale, dy = event.deltaY * scale;
      if (event.ctrlKey) {
        if (!frame.classList.contains('failed')) v.zoomAt(zoom.scale * Math.exp(-dy / 100), event.clientX, event.clientY);
        return;
      }
      if (zoom.scale > 1) {
        v.panTo(zoom.x - dx, zoom.y - dy);
        return;
      }
      if (Math.abs(dx) > Math.abs(dy) || wheel) {
        if (!wheel) {
          wheel = { dx: 0, timer: 0 };
          stage.classList.add('paging');
          v.stopStrip();
        }
        wheel.dx -= dx;
        const atEnd = (v.current === 0 && wheel.dx > 0) || (v.current === v.items.length - 1 && wheel.dx < 0);
        const offset = atEnd ? wheel.dx / 3 : wheel.dx;  // the pager resists past the ends
        v.placePages(offset);
        v.stripPosition = v.current - offset / v.pageStep();
        v.placeStrip();
        clearTimeout(wheel.timer);
        wheel.timer = setTimeout(function () {
          const moved = wheel.dx;
          wheel = null;
          v.settleOn(Math.abs(moved) > v.pageStep() * 0.2 ? Math.max(0, Math.min(v.items.length - 1, v.current - Math.sign(moved))) : v.current);
        }, 120);
        return;
      }
      wheelTravel += dy;
      clearTimeout(wheelTravelTimer);
      wheelTravelTimer = setTimeout(function () { wheelTravel = 0; }, 300);
      if (Math.abs(wheelTravel) < 50) return;
      const step = Math.sign(wheelTravel);
      wheelTravel = 0;
      v.show(v.current + step);
    }, { passive: false });

    stage.addEventListener('pointerup', function (event) { endDrag(event, false); });
    stage.addEventListener('pointercancel', function (event) { endDrag(event, true); });
  };
})(window.Gallery = window.Gallery || {});
