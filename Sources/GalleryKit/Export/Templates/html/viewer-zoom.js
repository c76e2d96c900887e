// The image viewer's zoom: a double click or a pinch zooms the large image, a drag or the wheel pans it within its edges.
// A classic script on window.Gallery (frames.js says why); viewer.js says how the viewer's parts fit.
(function (Gallery) {
  'use strict';
  const parts = Gallery.ViewerParts = Gallery.ViewerParts || {};

  // Zoom: a double click or double tap zooms the large image in at that point (again: out), two
  // fingers pinch it (the pointers are the pager's, viewer-pager.js); while zoomed, a drag pans
  // it, never past its own edges, and the pager rests. Paging to another image zooms out.
  // Adds v.zoom ({ scale, x, y }), v.pinch, v.zoomAt, v.panTo, v.resetZoom.
  parts.zoom = function (v) {
    const maximumZoom = 4;
    const zoom = v.zoom = { scale: 1, x: 0, y: 0 };
    const frame = v.frame, photo = v.photo, placeholder = v.placeholder;
    v.pinch = null;  // two fingers on the image: { distance, scale, centre }
    let sharpenTimer = 0;

    function applyZoom() {
      const value = zoom.scale === 1 ? '' : 'translate(' + zoom.x + 'px,' + zoom.y + 'px) scale(' + zoom.scale + ')';
      photo.style.transform = value;
      placeholder.style.transform = value;
      v.stage.classList.toggle('zoomed', zoom.scale > 1);
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
    v.zoomAt = function (scale, clientX, clientY) {
      const box = frame.getBoundingClientRect();
      const cx = clientX - (box.left + box.width / 2), cy = clientY - (box.top + box.height / 2);
      const next = Math.min(maximumZoom, Math.max(1, scale));
      zoom.x = cx - (cx - zoom.x) * next / zoom.scale;
      zoom.y = cy - (cy - zoom.y) * next / zoom.scale;
      zoom.scale = next;
      if (next === 1) { zoom.x = 0; zoom.y = 0; }
      clampZoom();
      applyZoom();
      // Sharper once the zoom rests (not at every step of a pinch).
      clearTimeout(sharpenTimer);
      sharpenTimer = setTimeout(v.sharpen, 150);
    };

    // Pans the zoomed image to the offsets (x, y), within its edges.
    v.panTo = function (x, y) {
      zoom.x = x;
      zoom.y = y;
      clampZoom();
      applyZoom();
    };

    v.resetZoom = function () {
      zoom.scale = 1;
      zoom.x = zoom.y = 0;
      v.pinch = null;
      applyZoom();
    };

    v.stage.addEventListener('dblclick', function (event) {
      if (event.target.closest('button') || frame.classList.contains('failed')) return;
      if (zoom.scale > 1) v.resetZoom(); else v.zoomAt(2.5, event.clientX, event.clientY);
    });
  };
})(window.Gallery = window.Gallery || {});
