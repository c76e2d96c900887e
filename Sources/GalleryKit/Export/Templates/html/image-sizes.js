// Which size of an image a page asks for: the smallest rendition at least as large as the device pixels it fills.
// A classic script on window.Gallery (frames.js says why), used by the HTML export and gallery serve.
(function (Gallery) {
  'use strict';

  // An item's sizes are `[[edge, url], …]`, smallest first: its renditions by long edge
  // (Rendition.ladder; the last may be the image at its own size, without its metadata). An item
  // may also have `image`, the original, asked for only when even the largest size is too small
  // (the viewer zoomed in); the export leaves it out unless it carries the originals.

  // The long edge, in device pixels, of an image of aspect `ratio` (width / height) drawn in a
  // box of `width`×`height` CSS pixels: covering it (a grid tile, cropped), or with `contain`
  // fitting in it (the viewer).
  Gallery.neededEdge = function (width, height, ratio, contain) {
    const r = ratio > 0 && isFinite(ratio) ? ratio : 1;
    const scale = contain ? Math.min(width / r, height) : Math.max(width / r, height);
    return Math.ceil(scale * Math.max(r, 1) * (window.devicePixelRatio || 1));
  };

  // The smallest of `sizes` whose long edge is at least `edge`, as `{ edge, url }`; past the
  // largest, `beyond` if given (the original, as large as it gets), else the largest. Null when
  // there is nothing to show.
  Gallery.sizeFor = function (sizes, edge, beyond) {
    for (const [sizeEdge, url] of sizes || []) if (sizeEdge >= edge) return { edge: sizeEdge, url: url };
    if (beyond) return { edge: Infinity, url: beyond };
    return sizes && sizes.length > 0 ? { edge: sizes[sizes.length - 1][0], url: sizes[sizes.length - 1][1] } : null;
  };
})(window.Gallery = window.Gallery || {});
