// The image viewer's filmstrip: the thumbnails near the current one, placed by GalleryLayout's filmstrip, and dragged.
// A classic script on window.Gallery (frames.js says why); viewer.js says how the viewer's parts fit.
(function (Gallery) {
  'use strict';
  const parts = Gallery.ViewerParts = Gallery.ViewerParts || {};

  function easeInOut(t) { return t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2; }
  parts.easeInOut = easeInOut;

  // How fast the last moves went, in px per ms; 0 if the finger then held still.
  parts.flickVelocity = function (samples) {
    const [first, last] = [samples[0], samples[samples.length - 1]];
    if (performance.now() - last[0] > 100 || last[0] <= first[0]) return 0;
    return (last[1] - first[1]) / (last[0] - first[0]);
  };

  // The strip holds the thumbnails within `stripReach` of the current one, not one per image. It
  // is at a fractional position (v.stripPosition, the item at the strip's centre: 2.4 is 40 % of
  // the way from item 2 to 3) and an expanding rate, and every drawn thumbnail is placed where
  // GalleryLayout's filmstrip puts it (viewer-layout.js, pinned to the Swift code by a test): the
  // current one widened to its image's shape, its neighbours widening in turn as the pager moves.
  // Only the thumbnails within the strip's view (and a little beyond) are asked for.
  // Adds v.thumbs, v.stripPosition, v.drawStrip, v.placeStrip, v.settleStrip, v.stopStrip,
  // v.clearStrip.
  parts.strip = function (v) {
    const cell = v.options.strip.cell;
    const gap = v.options.strip.spacing;
    const strip = v.strip, track = v.track;
    const stripReach = 60;
    const thumbs = v.thumbs = new Map();  // key -> its cell (with .index), for those drawn
    let stripStart = 0, stripEnd = 0;
    let stripRate = 1;
    let stripAnimation = 0;
    v.stripPosition = 0;
    track.style.height = cell + 'px';

    v.drawStrip = function (isForced) {
      const items = v.items, current = v.current;
      const start = Math.max(0, current - stripReach), end = Math.min(items.length, current + stripReach + 1);
      if (!isForced && start === stripStart && end === stripEnd) return;
      const wanted = new Map();
      for (let index = start; index < end; index += 1) wanted.set(v.keyOf(index), index);
      for (const [key, button] of thumbs) {
        const index = wanted.get(key);
        if (index !== undefined && button.source === items[index].thumbnail) {
          button.index = index;
          button.setAttribute('aria-label', items[index].alt);
          continue;
        }
        if (button.img) v.unload(button.img);
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
    };

    // The window's indices changed (an item left): the next placing draws it anew.
    v.redrawStrip = function () { stripStart = stripEnd = -1; };

    // Every thumbnail let go (the viewer closed).
    v.clearStrip = function () {
      for (const button of thumbs.values()) { if (button.img) v.unload(button.img); button.remove(); }
      thumbs.clear();
      stripStart = stripEnd = 0;
    };

    function thumbnail(index) {
      const item = v.items[index];
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
      button.addEventListener('click', function () { v.show(button.index); });
      return button;
    }

    // Places the drawn thumbnails for the strip's position and rate (a window of the strip is the
    // same strip: positions are relative to the centre).
    v.placeStrip = function () {
      const current = v.current;
      if (current < 0) return;
      v.drawStrip(false);
      const ratios = [];
      for (let index = stripStart; index < stripEnd; index += 1) ratios.push(v.items[index].ratio);
      const width = strip.clientWidth;
      const frames = Gallery.ViewerLayout.filmstrip(ratios, v.stripPosition - stripStart, stripRate, width, cell, gap);
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
          v.load(button.img, button.source, -1e6 + Math.abs(index - v.stripPosition));
        }
      }
    };

    // The strip at `position`, at rate 1 (widened), at once.
    v.jumpStrip = function (position) {
      v.stripPosition = position;
      stripRate = 1;
      v.placeStrip();
    };

    // Stops the strip's easing (something else moves it now).
    v.stopStrip = function () { cancelAnimationFrame(stripAnimation); };

    // Moves the strip to `position` at rate 1 over `duration` ms, easing in and out.
    v.settleStrip = function (position, duration) {
      cancelAnimationFrame(stripAnimation);
      const from = v.stripPosition, fromRate = stripRate, started = performance.now();
      (function tick(now) {
        const eased = easeInOut(v.reducedMotion.matches ? 1 : Math.min(1, (now - started) / duration));
        v.stripPosition = from + (position - from) * eased;
        stripRate = fromRate + (1 - fromRate) * eased;
        v.placeStrip();
        if (eased < 1) stripAnimation = requestAnimationFrame(tick);
      })(started);
    };

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
        v.placeStrip();
        if (eased < 1 && stripDrag) rateAnimation = requestAnimationFrame(tick);
      })(started);
    }

    strip.addEventListener('pointerdown', function (event) {
      if (!event.isPrimary || event.button !== 0 || v.current < 0 || v.isBusy()) return;
      stripDrag = { id: event.pointerId, x: event.clientX, from: v.stripPosition, moved: false, samples: [[performance.now(), event.clientX]] };
    });

    strip.addEventListener('pointermove', function (event) {
      if (!stripDrag || event.pointerId !== stripDrag.id) return;
      const dx = event.clientX - stripDrag.x;
      if (!stripDrag.moved) {
        if (Math.abs(dx) < 6) return;
        stripDrag.moved = true;
        strip.setPointerCapture(event.pointerId);
        cancelAnimationFrame(stripAnimation);
        v.resetZoom();
        v.stage.classList.add('paging');
        easeRateTo(0, 150);
      }
      stripDrag.samples.push([performance.now(), event.clientX]);
      if (stripDrag.samples.length > 5) stripDrag.samples.shift();
      v.stripPosition = Math.min(Math.max(stripDrag.from - dx / (cell + gap), 0), v.items.length - 1);
      const nearest = Math.round(v.stripPosition);
      if (nearest !== v.current) v.show(nearest, true);
      v.placePages((v.current - v.stripPosition) * v.pageStep());
      v.placeStrip();
    });

    function endStripDrag(event) {
      if (!stripDrag || event.pointerId !== stripDrag.id) return;
      const drag = stripDrag;
      stripDrag = null;
      cancelAnimationFrame(rateAnimation);
      if (!drag.moved) return;
      swallowClick = true;
      const velocity = parts.flickVelocity(drag.samples);
      const target = Math.min(Math.max(Math.round(v.stripPosition - velocity * 120 / (cell + gap)), 0), v.items.length - 1);
      v.settleOn(target);
    }

    strip.addEventListener('pointerup', endStripDrag);
    strip.addEventListener('pointercancel', endStripDrag);
    strip.addEventListener('click', function (event) {
      if (!swallowClick) return;
      swallowClick = false;
      event.stopPropagation();
    }, true);

    // Rotating a phone or resizing the window moves the strip's centre.
    window.addEventListener('resize', v.placeStrip);
  };
})(window.Gallery = window.Gallery || {});
