// GalleryKit: the viewer's geometry, for pages that need it at 60 frames a second. It is
// GalleryLayout.filmstrip(aspectRatios:position:expandingRate:…) and
// GalleryLayout.parallaxOffset(pageDistance:pageWidth:) of the Swift library, line for line, and
// a test (ViewerLayoutScriptTests) compares the two on many random inputs: change them together.
// A classic script on window.Gallery (frames.js says why): it defines Gallery.ViewerLayout.
(function (Gallery) {
  'use strict';

  const maximumLength = 1e12;
  const ratioRange = [1 / 16, 16];        // LayoutInput.aspectRatioRange
  const stripRatioRange = [0.5, 3];       // GalleryLayout.filmstripAspectRatioRange
  const parallaxFactor = 0.3;             // GalleryLayout.parallaxFactor

  function clamp(value, low, high) { return Math.min(Math.max(value, low), high); }

  // LayoutInput: the rules that turn a document's numbers into usable ones.
  function aspectRatio(ratio) {
    return Number.isFinite(ratio) && ratio > 0 ? clamp(ratio, ratioRange[0], ratioRange[1]) : 1;
  }
  function length(value) {
    return Number.isFinite(value) && value > 0 ? Math.min(value, maximumLength) : null;
  }
  function spacingOf(value) {
    return Number.isFinite(value) && value > 0 ? Math.min(value, maximumLength) : 0;
  }

  // The strip at a fractional position: [x, width] of each item (every item is `height` high at
  // y 0). See GalleryLayout.filmstrip(aspectRatios:position:expandingRate:width:height:spacing:).
  function filmstrip(aspectRatios, position, expandingRate, width, height, spacing) {
    const count = aspectRatios.length;
    if (count === 0) return [];
    width = length(width);
    height = length(height);
    if (width === null || height === null) return aspectRatios.map(function () { return [0, 0]; });
    spacing = spacingOf(spacing || 0);
    position = Number.isNaN(position) ? 0 : clamp(position, 0, count - 1);
    const rate = Number.isNaN(expandingRate) ? 0 : clamp(expandingRate, 0, 1);
    const step = height + spacing;

    const lower = Math.floor(position);
    const upper = Math.min(lower + 1, count - 1);
    function extraWidth(index) {
      const ratio = clamp(aspectRatio(aspectRatios[index]), stripRatioRange[0], stripRatioRange[1]);
      const expanding = Math.max(0, 1 - Math.abs(index - position));
      return (height * ratio - height) * expanding * rate;
    }
    const widened = upper === lower ? [[lower, extraWidth(lower)]] : [[lower, extraWidth(lower)], [upper, extraWidth(upper)]];

    const frames = new Array(count);
    for (let index = 0; index < count; index += 1) {
      let itemWidth = height;
      let shift = 0;
      for (const [widenedIndex, extra] of widened) {
        if (index === widenedIndex) itemWidth += extra;
        else shift += index < widenedIndex ? -extra / 2 : extra / 2;
      }
      const centre = width / 2 + (index - position) * step + shift;
      frames[index] = [centre - itemWidth / 2, itemWidth];
    }
    return frames;
  }

  // How far a pager's image is moved inside its page: it lags behind its frame.
  function parallaxOffset(pageDistance, pageWidth) {
    pageWidth = length(pageWidth);
    if (pageWidth === null) return 0;
    const distance = Number.isNaN(pageDistance) ? 0 : clamp(pageDistance, -1, 1);
    return -parallaxFactor * pageWidth * distance;
  }

  Gallery.ViewerLayout = { filmstrip: filmstrip, parallaxOffset: parallaxOffset };
})(window.Gallery = window.Gallery || {});
