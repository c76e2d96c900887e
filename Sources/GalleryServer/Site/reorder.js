// The one reorder rule of gallery serve's page: images moved, in gallery order, before another.
// A classic script on window.Gallery (frames.js says why). Pure: it changes nothing it is given.
(function (Gallery) {
  'use strict';

  // `items` with those whose ids are in `ids` taken out and put, in their order in `items`, before
  // the item whose id is `before` (at the end if it is null or not among those left), as the
  // server's `move` edit does. O(items).
  Gallery.reorder = function (items, ids, before) {
    const moving = new Set(ids);
    const kept = items.filter(function (item) { return !moving.has(item.id); });
    const moved = items.filter(function (item) { return moving.has(item.id); });
    let at = before ? kept.findIndex(function (item) { return item.id === before; }) : kept.length;
    if (at < 0) at = kept.length;
    return kept.slice(0, at).concat(moved, kept.slice(at));
  };
})(window.Gallery = window.Gallery || {});
