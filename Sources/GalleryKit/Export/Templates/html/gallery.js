// GalleryKit HTML export: the page's glue: its grid (Gallery.VirtualGrid) drawing the tiles beyond the markup's, and the viewer opened from them.
// A classic script on window.Gallery (frames.js says why): the page works from file://. Without
// scripts the grid still works (every tile links to its largest image). Data from the document
// (captions, titles, errors) is untrusted: it reaches the page only through textContent and
// setAttribute, never as markup.
(function (Gallery) {
  'use strict';

  const viewer = document.getElementById('viewer');
  const grid = document.querySelector('.grid');
  if (!viewer || !grid || typeof viewer.showModal !== 'function' || !Gallery.Viewer || !Gallery.VirtualGrid || !Gallery.ViewerLayout || !Gallery.ImageRequests || !Gallery.sizeFor) return;

  const data = JSON.parse(document.getElementById('gallery-data').textContent);
  const items = data.items;
  // The images drawn by script and the viewer's, asked for as the app asks for its own (most
  // wanted first, none merely scrolled past); the markup's tiles load by themselves (lazily).
  const images = Gallery.ImageRequests();

  // The tiles in the markup; the rest (of a large gallery) are drawn near the view.
  const tiles = [];
  grid.querySelectorAll('.tile').forEach(function (tile) { tiles[Number(tile.dataset.index)] = tile; });

  // The grid ----------------------------------------------------------------------------------

  // The markup holds the first tiles; those after them are drawn when they come within a screen
  // of the view, and let go when they leave it (unless focused). Their frames are the data's, in
  // the same percentages of the grid as the markup's style attributes: x, y, width, height for
  // each, in the desktop and the phone layouts, which the style sheet picks between.
  const drawn = data.drawn;
  const phoneWidth = window.matchMedia('(max-width: ' + getComputedStyle(grid).getPropertyValue('--phone-width').trim() + ')');
  function frameIndex(frames) {
    return Gallery.FrameIndex(frames.length / 4, function (index) { return frames[index * 4 + 1]; }, function (index) { return frames[index * 4 + 3]; });
  }
  const layouts = { desktop: frameIndex(drawn.desktop), phone: frameIndex(drawn.phone) };
  const drawnTiles = Gallery.VirtualGrid({
    container: grid,
    frames: function () { return phoneWidth.matches ? layouts.phone : layouts.desktop; },
    first: drawn.first,
    unit: function (box) { return box.height / 100; },
    keyOf: function (index) { return index; },
    indexOf: function (index) { return index; },
    isKept: function (index, tile) { return tile.contains(document.activeElement); },
    draw: function (index, tile) { return tile || drawTile(index); },
    discard: function (tile) {
      const img = tile.querySelector('img');
      if (img) images.forget(img);
      tile.remove();
    },
  });

  // A tile as the markup writes it (item.html, failed-item.html).
  function drawTile(index) {
    const item = items[index];
    let tile;
    if (item.error) {
      tile = document.createElement('div');
      tile.className = 'tile failed';
      tile.setAttribute('role', 'img');
      tile.tabIndex = 0;
      tile.setAttribute('aria-label', item.alt + ': ' + item.error);
      tile.title = item.url || '';
      const error = document.createElement('span');
      error.className = 'error';
      error.textContent = item.error;
      tile.append(viewer.querySelector('.failure .icon').cloneNode(true), error);
    } else {
      tile = document.createElement('a');
      tile.className = 'tile';
      tile.href = item.image || Gallery.sizeFor(item.sizes, Infinity).url;
      const img = document.createElement('img');
      img.alt = item.alt;
      img.decoding = 'async';
      images.want(img, drawnSize(index, item), function () { return rank(tile); });
      const caption = document.createElement('span');
      caption.className = 'caption';
      caption.setAttribute('aria-hidden', 'true');
      caption.textContent = item.caption || '';
      tile.append(img, caption);
    }
    tile.id = String(index + 1);
    tile.dataset.index = String(index);
    const at = (index - drawn.first) * 4;
    ['x', 'y', 'w', 'h'].forEach(function (name, offset) {
      tile.style.setProperty('--' + name, drawn.desktop[at + offset] + '%');
      tile.style.setProperty('--p' + name, drawn.phone[at + offset] + '%');
    });
    return tile;
  }

  // The size a drawn tile needs (image-sizes.js): its frame in device pixels; the thumbnail if it
  // has no larger one.
  function drawnSize(index, item) {
    const frames = phoneWidth.matches ? drawn.phone : drawn.desktop, at = (index - drawn.first) * 4;
    const box = grid.getBoundingClientRect();
    const width = frames[at + 2] / 100 * box.width, height = frames[at + 3] / 100 * box.height;
    const size = Gallery.sizeFor(item.sizes, Gallery.neededEdge(width, height, item.ratio));
    return size ? size.url : item.thumbnail;
  }

  // The markup's tiles offer their sizes with srcset, for a page without scripts; but a browser
  // may pick one smaller than the tile (Chromium takes the smaller of two candidates up to their
  // geometric mean: 0.71 of the device pixels on a phone), so the script picks from each tile's
  // box, as for the tiles it draws, and again when the window grows. An image keeps its picture
  // while a larger one loads in its place.
  function sharpenMarkupTiles() {
    tiles.forEach(function (tile, index) {
      const img = tile.querySelector('img');
      if (!img) return;
      const box = tile.getBoundingClientRect();
      const size = Gallery.sizeFor(items[index].sizes, Gallery.neededEdge(box.width, box.height, items[index].ratio));
      if (!size || size.edge <= (img.shownEdge || 0)) return;
      img.shownEdge = size.edge;
      img.removeAttribute('srcset');
      img.removeAttribute('sizes');
      img.src = size.url;
    });
  }

  // How much a drawn tile's image is wanted, lowest first: those in the view from the top down,
  // then the others by their distance from it (ImageRequests' aheadRank on).
  function rank(tile) {
    const box = tile.getBoundingClientRect();
    const outside = box.bottom < 0 ? -box.bottom : box.top > window.innerHeight ? box.top - window.innerHeight : 0;
    return outside > 0 ? images.aheadRank + outside : box.top;
  }

  // The tile of item `index`, drawn (and scrolled to) if it is not in the DOM.
  function tileAt(index) {
    if (tiles[index] || drawnTiles.elements.has(index) || index < drawn.first) return tiles[index] || drawnTiles.elements.get(index);
    const box = grid.getBoundingClientRect();
    const frames = phoneWidth.matches ? drawn.phone : drawn.desktop, at = (index - drawn.first) * 4;
    const top = box.top + frames[at + 1] / 100 * box.height, height = frames[at + 3] / 100 * box.height;
    window.scrollBy(0, top + height / 2 - window.innerHeight / 2);
    drawnTiles.update();
    return drawnTiles.elements.get(index);
  }

  window.addEventListener('scroll', function () { images.noteMotion(); drawnTiles.schedule(); }, { passive: true });
  window.addEventListener('resize', drawnTiles.schedule);
  let sharpening = 0;
  window.addEventListener('resize', function () { clearTimeout(sharpening); sharpening = setTimeout(sharpenMarkupTiles, 200); });
  sharpenMarkupTiles();
  phoneWidth.addEventListener('change', drawnTiles.schedule);
  // A tile left with Tab (its neighbours drawn by the time the browser scrolls to the next one).
  grid.addEventListener('focusout', drawnTiles.schedule);
  drawnTiles.update();

  // The viewer ---------------------------------------------------------------------------------

  // The address names the image shown (#N), without an entry in the history for each one; the
  // viewer gives the focus back to that image's tile.
  const imageViewer = Gallery.Viewer(viewer, {
    items: items,
    strip: data.strip,
    load: function (img, url, rank, isUrgent) { images.want(img, url, function () { return rank; }, isUrgent); },
    unload: images.forget,
    onShow: function (index) { history.replaceState(null, '', '#' + (index + 1)); },
    onClose: function (index) {
      history.replaceState(null, '', location.pathname + location.search);
      const tile = tileAt(index);
      if (tile) {
        tile.focus({ preventScroll: true });
        tile.scrollIntoView({ block: 'nearest' });
      }
    },
  });
  const open = imageViewer.open;

  grid.addEventListener('click', function (event) {
    const tile = event.target.closest('.tile');
    // Let the browser handle a modified click (a new tab, a download) on the link.
    if (!tile || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open(Number(tile.dataset.index));
  });

  grid.addEventListener('keydown', function (event) {
    const tile = event.target.closest('.tile');
    // A link opens on Enter by itself (a click); Space, and Enter on a failed tile, do not.
    if (!tile || !(event.key === ' ' || (event.key === 'Enter' && tile.tagName !== 'A'))) return;
    event.preventDefault();
    open(Number(tile.dataset.index));
  });

  // An address like index.html#3 opens the third image.
  function indexFromHash() {
    const match = /^#(\d+)$/.exec(location.hash);
    const index = match ? Number(match[1]) - 1 : -1;
    return index >= 0 && index < items.length ? index : -1;
  }

  window.addEventListener('hashchange', function () {
    const index = indexFromHash();
    if (index >= 0) open(index);
  });

  if (indexFromHash() >= 0) open(indexFromHash());
})(window.Gallery = window.Gallery || {});
