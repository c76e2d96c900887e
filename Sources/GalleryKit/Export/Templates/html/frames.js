// Frame lookups: which frames of a layout meet a band of the page, and which share a row.
//
// Every page script, the HTML export's and gallery serve's alike, is a classic script that adds
// its part to one object, window.Gallery, rather than an ES module: the export must work from
// file://, where Chromium refuses <script type="module"> (blocked by CORS: the script never runs),
// and the pages have no build step to bundle modules into one file. So each file opens with
// `window.Gallery = window.Gallery || {}`, and a page lists its scripts in load order.
(function (Gallery) {
  'use strict';

  // The lookups over `count` frames in reading order, their tops never decreasing, so that each is
  // a binary search. top(index) and height(index) give a frame's, in any unit (the app's CSS
  // pixels, the export's percentages of the grid's height). Making it is O(count).
  Gallery.FrameIndex = function (count, top, height) {
    let tallest = 0;  // how far above a band a frame meeting it may start
    for (let index = 0; index < count; index += 1) tallest = Math.max(tallest, height(index));

    // The first index whose frame's top is at or below `y` (the count when there is none).
    function firstFrom(y) {
      let low = 0, high = count;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (top(middle) < y) low = middle + 1; else high = middle;
      }
      return low;
    }

    // The first index whose frame's top is strictly below `y`.
    function firstBelow(y) {
      let low = 0, high = count;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (top(middle) <= y) low = middle + 1; else high = middle;
      }
      return low;
    }

    // The indices [start, end) of the frames that meet the band from `from` to `to`.
    function between(from, to) {
      let start = firstFrom(from - tallest);
      const end = firstBelow(to);
      while (start < end && top(start) + height(start) < from) start += 1;
      return [start, Math.max(start, end)];
    }

    // The indices [start, end) of the row holding `index`: the frames sharing its top.
    function rowOf(index) {
      const y = top(index);
      return [firstFrom(y - 0.5), firstBelow(y + 0.5)];
    }

    // The bottom of the lowest frame of [start, end).
    function rowBottom(start, end) {
      let bottom = 0;
      for (let at = start; at < end; at += 1) bottom = Math.max(bottom, top(at) + height(at));
      return bottom;
    }

    return { count: count, firstFrom: firstFrom, firstBelow: firstBelow, between: between, rowOf: rowOf, rowBottom: rowBottom };
  };
})(window.Gallery = window.Gallery || {});
