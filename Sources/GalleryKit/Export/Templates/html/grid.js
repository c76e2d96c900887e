// The virtual grid: of a layout's frames, only the elements of those near the viewport are in the DOM.
// A classic script on window.Gallery (frames.js says why), used by the HTML export and gallery serve.
(function (Gallery) {
  'use strict';

  // A gallery may hold 100,000 images, so a page holds the elements of the frames within a screen
  // (at least 600 px) of the viewport, and lets the others go unless they must stay (focused,
  // dragged, edited): a few hundred elements, and only the images near the view are asked for.
  // New elements go before the next one drawn, so that the DOM (and Tab) follows reading order.
  // Options:
  //   container            the element the frames are placed in (their y 0 is its top)
  //   frames()             the Gallery.FrameIndex shown, or null (nothing to draw yet)
  //   first                the index of its frame 0 in the page's items (0 by default)
  //   unit(box)            CSS pixels per unit of the frames, given the container's bounding box
  //   keyOf(index), indexOf(key)  what names an element across layouts (-1: no longer there)
  //   isKept(key, element) whether an element away from the view stays
  //   draw(index, element, seen)  the element of `index`: `element` (redrawn as needed), or a
  //                        new one if it is null; `seen`: the indices [start, end) in the viewport
  //   kept(index, element) optional: called for each element kept away from the view
  //   discard(element, key) lets an element go (it is already out of `elements`)
  // update() returns the indices [start, end) in the viewport, or null when nothing is drawn.
  // O(elements near the viewport + log frames).
  Gallery.VirtualGrid = function (options) {
    const elements = new Map();  // key -> element, for those in the DOM (the caller's to read)
    let seen = [0, 0];           // the indices [start, end) in the viewport at the last update
    let requested = false;

    // The bands in view and near it, in the page's indices: [[start, end), [start, end)].
    function bands() {
      const frames = options.frames();
      if (!frames || frames.count === 0) return null;
      const box = options.container.getBoundingClientRect();
      const unit = options.unit(box);
      if (!(unit > 0)) return null;
      const first = options.first || 0;
      const top = -box.top / unit, bottom = (window.innerHeight - box.top) / unit;
      const reach = Math.max(window.innerHeight, 600) / unit;
      const shift = function (band) { return [band[0] + first, band[1] + first]; };
      return [shift(frames.between(top - reach, bottom + reach)), shift(frames.between(top, bottom))];
    }

    function update() {
      const found = bands();
      if (!found) return null;
      const [start, end] = found[0];
      seen = found[1];
      let following = null, followingIndex = Infinity;  // the first element kept after the band
      for (const [key, element] of elements) {
        const index = options.indexOf(key);
        if (index >= start && index < end) continue;
        if (index >= 0 && options.isKept(key, element)) {
          if (index >= end && index < followingIndex) { following = element; followingIndex = index; }
          if (options.kept) options.kept(index, element);
          continue;
        }
        elements.delete(key);
        options.discard(element, key);
      }
      // From the end back, each new element goes before the one after it.
      for (let index = end - 1; index >= start; index -= 1) {
        following = show(index, following);
      }
      return seen;
    }

    // The element of `index`, drawn if needed (a new one before `following`, by default at the end).
    function show(index, following) {
      const key = options.keyOf(index);
      const element = elements.get(key) || null;
      const drawn = options.draw(index, element, seen);
      if (!element) {
        options.container.insertBefore(drawn, following || null);
        elements.set(key, drawn);
      }
      return drawn;
    }

    function schedule() {
      if (requested) return;
      requested = true;
      requestAnimationFrame(function () { requested = false; update(); });
    }

    return { elements: elements, update: update, schedule: schedule, show: show };
  };
})(window.Gallery = window.Gallery || {});
