// gallery serve's gallery page: the page's one object (Gallery.app), and the state the server sent.
//
// The page shows a gallery's images at the frames the server computed with GalleryLayout for
// this page's width (the page never lays out by itself). Its scripts each add one part to
// Gallery.app, which this file makes (classic scripts on window.Gallery: frames.js says why):
// the state, the grid, images, loading, anchoring, selection, edits, mouse drag and drop, touch,
// keys, texts, controls, the viewer and live updates (gallery.js, the last, starts the page).
// A gallery may hold 100,000 images, so the grid is virtual: everything else works on the
// state's items and frames by id and index, and asks for a cell only when one must be shown.
(function (Gallery) {
  'use strict';
  const name = decodeURIComponent(location.pathname.replace(/^\/gallery\//, ''));
  const app = Gallery.app = {
    name: name,
    fileName: name.replace(/\.gallery$/i, ''),
    base: '/api/galleries/' + Gallery.path(name),
    canvas: document.getElementById('canvas'),
    trash: document.getElementById('trash'),
    emptyHint: document.getElementById('empty'),
    styleSelect: document.getElementById('style'),
    styleKey: 'gallery.style.' + name,
    state: null,            // the server's last answer (or a move shown before its answer)
    frames: null,           // its frames' lookups (Gallery.FrameIndex)
    indexById: new Map(),   // image id -> index in state.items
    generation: 0,          // bumped by each state drawn: a cell drawn for an older one is redrawn
    realCount: 0,           // images, placeholders left out
    unstoredCount: 0,
  };
  const bar = document.querySelector('.bar');
  app.styleSelect.value = localStorage.getItem(app.styleKey) || 'justified';

  app.query = function () {
    return '?width=' + Math.max(100, Math.round(app.canvas.clientWidth)) + '&style=' + app.styleSelect.value;
  };
  app.thumbnailURL = function (id) { return app.base + '/thumbnails/' + id; };
  app.imageURL = function (id) { return app.base + '/images/' + id; };

  // Makes `next` the state and rebuilds what the page looks things up with. O(items).
  app.adopt = function (next) {
    app.state = next;
    app.generation += 1;
    app.indexById = new Map();
    app.realCount = 0;
    app.unstoredCount = 0;
    next.items.forEach(function (item, index) {
      app.indexById.set(item.id, index);
      if (!item.isPlaceholder) app.realCount += 1;
      if (app.isUnstored(item)) app.unstoredCount += 1;
    });
    const frames = next.layout.frames;
    app.frames = Gallery.FrameIndex(frames.length, function (index) { return frames[index][1]; }, function (index) { return frames[index][3]; });
  };

  app.indexOf = function (id) {
    const index = app.indexById.get(id);
    return index === undefined ? -1 : index;
  };

  // An image the document names but does not hold: the server fetches it when it is viewed.
  app.isUnstored = function (item) { return item.status === 'ok' && !item.isPlaceholder && !item.isCached; };

  // Whether the state holds only the first images (see gallery-load.js).
  app.isPartial = function () { return app.state !== null && app.state.count > app.state.items.length; };

  // The first image from `index` on that is no placeholder (nor in `skipping`), or null.
  app.nextRealAfter = function (index, skipping) {
    const items = app.state.items;
    for (let at = index; at < items.length; at += 1) {
      if (!items[at].isPlaceholder && !(skipping && skipping.has(items[at].id))) return items[at].id;
    }
    return null;
  };

  // The last image before `index` that is no placeholder nor in `skipping`, or null.
  app.lastRealBefore = function (index, skipping) {
    for (let at = index - 1; at >= 0; at -= 1) {
      const item = app.state.items[at];
      if (!item.isPlaceholder && !skipping.has(item.id)) return item.id;
    }
    return null;
  };

  // The top of the viewport that the sticky bar does not cover, in viewport pixels.
  app.visibleTop = function () { return Math.max(0, bar.getBoundingClientRect().bottom); };
})(window.Gallery);
