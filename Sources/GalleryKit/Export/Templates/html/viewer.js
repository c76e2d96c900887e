// The image viewer's core: its items, the large image shown, opening, updating, closing and deleting.
//
// The viewer is laid out as Photos lays it out (the layout write-up this project follows): a
// pager of large images whose images lag inside their pages (parallax), over a filmstrip centred
// on the current position whose geometry is GalleryLayout's (viewer-layout.js). Both follow the
// finger and each other; zoom with a double click or a pinch. One viewer for the HTML export and
// `gallery serve`, in parts as PhotoSwipe 5 splits its own: this core, viewer-ui.js (markup, bar,
// keys), viewer-strip.js (the filmstrip), viewer-zoom.js and viewer-pager.js (the gestures). Each
// part adds its functions to one object per viewer, `v` (classic scripts on window.Gallery:
// frames.js says why); a page loads viewer-layout.js and the parts before this file.
//
// Gallery.Viewer(dialog, options) -> { open(index), update(items), currentIndex() }. `dialog` is
// an empty <dialog class="viewer">: the viewer makes its own markup. Options:
//   items:    [{ id, image, sizes, edge, thumbnail, alt, caption, credit, error, waiting, url, ratio }], in
//             gallery order; `id` (optional) names an item across update(); `sizes` are its
//             renditions, `[[edge, url], …]` smallest first (image-sizes.js), of which the stage
//             shows the smallest at least as large as its device pixels; `image` is the original
//             (null when the page has none), shown only past the largest size (zoomed in, a large
//             screen) if `edge`, its long edge, is larger; `error` says why it has no image,
//             `waiting` why it has none yet; `thumbnail` may be null; `ratio` is the aspect ratio
//             its strip cell widens to (and the image's shape). The one shape both pages feed it: the
//             export's data holds it as it is (HTMLExporter), the app makes it from its state
//             (gallery-viewer.js, adding `canKeep` for its action)
//   strip:    { cell, spacing }, the filmstrip's square side and gap (PageStyle's)
//   onShow:   called with the index and item of each image shown (to name it in the address)
//   onClose:  called with the index and item shown when the viewer closes (to focus its tile)
//   load(img, url, rank), unload(img): how an image is asked for (rank: lowest first) and given
//             up; by default its src is set and removed
//   explainFailure(url) -> Promise<reason or null>: why the large image did not load (null: it
//             came but cannot be decoded, and its thumbnail stays); the viewer then says so
//   retryURL(url): the address that asks for an image again (a Retry button) when it failed
//   retryFailed(item): fetches again an image that failed when it was added (`item.error`), for
//             the Retry button of its failure; the caller's new items then show it
//   actions:  [{ label, title, isShown(item), run(index, item) }], buttons in the viewer's bar
//   onDelete(index, item): a Delete button (and the Delete key) that removes the image shown; the
//             viewer plays the removal and shows the next image (the previous after the last)
// Texts reach the page only through textContent and setAttribute, never as markup.
(function (Gallery) {
  'use strict';
  const parts = Gallery.ViewerParts;

  Gallery.Viewer = function (dialog, options) {
    const v = {
      dialog: dialog,
      options: options,
      items: options.items,
      current: -1,   // index of the item shown, -1 while closed
      shown: null,   // the item whose image the large page shows (or tries to)
      leaving: false,  // an image deleted is leaving
      load: options.load || function (img, url) { img.src = url; },  // (img, url, rank, isUrgent)
      unload: options.unload || function (img) { img.removeAttribute('src'); },
      reducedMotion: window.matchMedia('(prefers-reduced-motion: reduce)'),
    };
    parts.markup(v);
    parts.ui(v);
    parts.strip(v);
    parts.zoom(v);
    parts.pager(v);
    const frame = v.frame, photo = v.photo, placeholder = v.placeholder, failure = v.failure;
    let pendingItems = null;  // items that came while an image was leaving

    // The key that names an item across update(): its id, or its place (in `list`, by default
    // the items shown) if it has none.
    v.keyOf = function (index, list) { const item = (list || v.items)[index]; return item.id !== undefined ? item.id : index; };

    // Shows item `index` (again if `isForced`: what the caller knows of it changed); the strip
    // eases there unless it is being dragged (`stripFollows`).
    v.show = function (index, stripFollows, isForced) {
      index = Math.max(0, Math.min(v.items.length - 1, index));
      const opening = v.current < 0;
      if (index !== v.current || isForced) {
        v.current = index;
        const item = v.items[index];
        v.showBar();
        if (v.shown !== item) showLarge(item, null);
        v.fillNeighbours();
        if (options.onShow) options.onShow(index, item);
      }
      if (opening) v.jumpStrip(index);
      else if (stripFollows) v.placeStrip();  // where it is; only which thumbnail is current changes
      else v.settleStrip(index, 300);
    };

    // The size of `item` the stage needs, `scale` times over (zoomed in): `{ edge, url }`.
    v.sizeOf = function (item, scale) {
      const sizes = item.sizes || [];
      const largest = sizes.length > 0 ? sizes[sizes.length - 1][0] : 0;
      const beyond = item.image && (!item.edge || item.edge > largest) ? item.image : null;
      const needed = Gallery.neededEdge(v.stage.clientWidth * scale, v.stage.clientHeight * scale, item.ratio, true);
      return Gallery.sizeFor(sizes, needed, beyond) || { edge: item.image ? Infinity : 0, url: item.image || item.thumbnail };
    };

    // What names an item's large image, to tell whether two items show the same one.
    function largeKey(item) {
      const sizes = item.sizes || [];
      return [item.image, item.thumbnail, sizes.length > 0 ? sizes[0][1] : ''].join('\u0000');
    }

    // Puts `item`'s thumbnail in `img`: at once if the strip has it loaded (the browser holds it),
    // else asked for ahead of everything. The stage never waits for a picture the page has.
    v.showThumbnail = function (img, item, rank) {
      if (!item.thumbnail) { v.unload(img); return; }
      for (const button of v.thumbs.values()) {
        if (button.source === item.thumbnail && button.img && button.img.complete && button.img.naturalWidth > 0) {
          if (img.getAttribute('src') === button.img.getAttribute('src')) return;
          v.unload(img);
          img.src = button.img.getAttribute('src');
          return;
        }
      }
      v.load(img, item.thumbnail, rank, true);
    };

    // The large page: the thumbnail until the image has come, or why there is none. `retry`: the
    // image's address asked for again.
    function showLarge(item, retry) {
      const problem = item.error || item.waiting;
      const isSame = v.shown !== null && largeKey(v.shown) === largeKey(item);
      v.shown = item;
      photo.alt = item.alt;
      // The same image, already there (the gallery changed around it): it stays, zoom and all.
      if (isSame && !retry && !problem && frame.classList.contains('ready')) return;
      v.resetZoom();
      frame.classList.toggle('failed', Boolean(problem));
      frame.classList.toggle('waiting', !item.error && Boolean(item.waiting));
      if (problem) {
        frame.classList.remove('ready', 'loading');
        v.unload(placeholder);
        v.unload(photo);
        showFailure(problem, item.url, Boolean(item.error && options.retryFailed));
        return;
      }
      failure.hidden = true;
      frame.classList.remove('ready');
      frame.classList.add('loading');
      v.showThumbnail(placeholder, item, -1e9);
      const size = v.sizeOf(item, 1);
      v.shownSize = size;
      v.load(photo, retry || size.url, -1e9 + 1);
    }

    // Zoomed in past the size shown: the next size (or the original) replaces it when it has
    // come; the one shown stays meanwhile (an image keeps its picture while its next loads).
    v.sharpen = function () {
      const item = v.shown;
      if (!item || item.error || item.waiting || !frame.classList.contains('ready') || !v.shownSize) return;
      const size = v.sizeOf(item, v.zoom.scale);
      if (size.edge <= v.shownSize.edge || size.url === v.shownSize.url) return;
      v.shownSize = size;
      photo.src = size.url;
    };

    function showFailure(reason, url, canRetry) {
      failure.querySelector('.failure-error').textContent = reason;
      failure.querySelector('.failure-url').textContent = url || '';
      v.retryButton.hidden = !canRetry;
      failure.hidden = false;
    }

    photo.addEventListener('load', function () {
      // Only if the image now asked for has loaded, not one paged past before it arrived.
      if (photo.complete && photo.naturalWidth > 0) frame.classList.add('ready');
      frame.classList.remove('loading');
    });
    // A format the browser cannot decode (TIFF outside Safari): the thumbnail stays in its place.
    // An image the caller could not get: the reason, and Retry if it can be asked for again.
    photo.addEventListener('error', async function () {
      const source = photo.getAttribute('src');
      frame.classList.remove('ready', 'loading');
      if (!source || !options.explainFailure) return;
      const item = v.shown;
      const reason = await options.explainFailure(source);
      if (reason === null || v.shown !== item || photo.getAttribute('src') !== source) return;
      frame.classList.add('failed');
      showFailure(reason, item.url, Boolean(options.retryURL));
    });
    v.retryButton.addEventListener('click', function () {
      // An image that failed when it was added is fetched again by its caller (an edit).
      if (v.shown && v.shown.error && options.retryFailed) return options.retryFailed(v.shown);
      if (!v.shown || !options.retryURL) return;
      frame.classList.remove('failed');
      showLarge(v.shown, options.retryURL(v.sizeOf(v.shown, 1).url));
    });

    function open(index) {
      if (v.items.length === 0) return;
      if (!dialog.open) {
        dialog.showModal();
        dialog.focus();  // not the close button: a focus ring there on opening looks like a selection
      }
      v.show(index);
    }

    // New items while the viewer is open (the gallery changed): the same image stays shown, at
    // its new place, with what is now known of it; if it is gone, the one now in its place.
    function update(nextItems) {
      if (v.leaving) { pendingItems = nextItems; return; }
      const key = v.current >= 0 ? v.keyOf(v.current) : null;
      v.items = nextItems;
      if (v.current < 0) return;
      if (v.items.length === 0) { dialog.close(); return; }
      let at = v.items.findIndex(function (item, index) { return v.keyOf(index) === key; });
      if (at < 0) at = Math.min(v.current, v.items.length - 1);
      // show() asks showLarge(), which keeps the large image only if it is the same one, loaded.
      if (at !== v.current) {
        // It changed places: the strip jumps with it rather than travel through other images.
        v.stopStrip();
        v.stripPosition = at;
        v.current = at;
      }
      v.drawStrip(true);
      v.show(at, true, true);
    }

    dialog.addEventListener('close', function () {
      const closed = v.current;
      const closedItem = v.items[v.current];
      v.current = -1;
      v.shown = null;
      v.unload(photo);
      v.unload(placeholder);
      for (const side of ['-1', '1']) v.neighbours[side].querySelectorAll('img').forEach(v.unload);
      v.clearStrip();
      if (options.onClose) options.onClose(closed, closedItem);
    });

    // Delete: the image shown leaves (it fades and shrinks, its thumbnail too), then the strip
    // closes the gap and the next image (the previous, after the last) slides in from its side.
    // The caller removes it from the gallery; its next items arrive through update().
    v.deleteCurrent = function () {
      if (!options.onDelete || v.current < 0 || v.isBusy()) return;
      const index = v.current;
      const thumb = v.thumbs.get(v.keyOf(index));
      v.leaving = true;
      v.resetZoom();
      frame.classList.add('leaving');
      if (thumb) thumb.classList.add('leaving');
      options.onDelete(index, v.items[index]);
      setTimeout(function () {
        v.leaving = false;
        frame.classList.remove('leaving');
        const gone = v.keyOf(index);
        if (thumb && thumb.img) v.unload(thumb.img);
        if (thumb) thumb.remove();
        v.thumbs.delete(gone);
        // The caller's items if they came meanwhile, else these; without the one deleted either way
        // (the caller's may be from before its removal).
        const rest = pendingItems || v.items;
        v.items = rest.filter(function (item, at) { return v.keyOf(at, rest) !== gone; });
        pendingItems = null;
        if (v.items.length === 0) { dialog.close(); return; }
        const side = index < v.items.length ? 1 : -1;
        const target = Math.min(index, v.items.length - 1);
        v.redrawStrip();
        v.current = target;
        v.stripPosition = target;
        // The thumbnails glide to their new places; the new page comes from where it stood,
        // beside the one that left.
        v.track.classList.add('settling');
        v.show(target, true, true);
        v.placePages(side * v.pageStep());
        void frame.offsetWidth;  // that place is where the slide starts
        frame.classList.add('settling');
        v.placePages(0);
        setTimeout(function () { frame.classList.remove('settling'); v.track.classList.remove('settling'); }, 260);
      }, v.reducedMotion.matches ? 0 : 220);
    };

    return {
      open: open,
      update: update,
      currentIndex: function () { return v.current; },
    };
  };
})(window.Gallery = window.Gallery || {});
