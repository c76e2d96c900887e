// GalleryKit HTML export: the grid (its tiles beyond the markup's drawn near the view) and the
// viewer (viewer.js) opened from it, on a tile or on an address ending in #N.
// A classic script, not a module: modules do not load from file://. Without it the grid still
// works (every tile links to its original). Data from the document (captions, titles, errors)
// is untrusted: it reaches the page only through textContent and setAttribute, never as markup.
(function () {
  'use strict';

  const viewer = document.getElementById('viewer');
  const grid = document.querySelector('.grid');
  if (!viewer || !grid || typeof viewer.showModal !== 'function' || !window.GalleryViewer || !window.GalleryViewerLayout) return;

  const data = JSON.parse(document.getElementById('gallery-data').textContent);
  const items = data.items;

  // The tiles in the markup; the rest (of a large gallery) are drawn near the view (see "The grid").
  const tiles = [];
  grid.querySelectorAll('.tile').forEach(function (tile) { tiles[Number(tile.dataset.index)] = tile; });

  // The grid ----------------------------------------------------------------------------------

  // The markup holds the first tiles; those after them are drawn here when they come within a
  // screen of the view, and let go when they leave it (unless focused), so that a gallery of
  // 100,000 images holds a few hundred tiles and asks only for the thumbnails near the view.
  // Their frames are the data's, in the same percentages as the markup's style attributes.
  const drawn = data.drawn;
  const drawnTiles = new Map();  // index -> tile, for the tiles drawn here that are in the DOM
  const phoneWidth = window.matchMedia('(max-width: 600px)');  // as in gallery.css
  const tallest = { desktop: tallestOf(drawn.desktop), phone: tallestOf(drawn.phone) };
  let gridRequested = false;

  function tallestOf(frames) {
    let height = 0;
    for (let at = 3; at < frames.length; at += 4) height = Math.max(height, frames[at]);
    return height;
  }

  // The tiles drawn here whose frames meet the band from `top` to `bottom` (in % of the grid's
  // height), as indices [start, end). Frames are in reading order, their tops never decreasing:
  // two binary searches.
  function drawnBetween(top, bottom) {
    const layout = phoneWidth.matches ? 'phone' : 'desktop';
    const frames = drawn[layout], count = frames.length / 4;
    function firstWithTop(isBefore) {
      let low = 0, high = count;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (isBefore(frames[middle * 4 + 1])) low = middle + 1; else high = middle;
      }
      return low;
    }
    const start = firstWithTop(function (y) { return y < top - tallest[layout]; });
    const end = firstWithTop(function (y) { return y <= bottom; });
    return [drawn.first + start, drawn.first + Math.max(start, end)];
  }

  function updateGrid() {
    const box = grid.getBoundingClientRect();
    if (drawn.desktop.length === 0 || box.height <= 0) return;
    const reach = Math.max(window.innerHeight, 600);
    const [start, end] = drawnBetween((-box.top - reach) / box.height * 100, (window.innerHeight - box.top + reach) / box.height * 100);
    let following = null;  // the first tile kept after the band, which new ones go before
    for (const [index, tile] of drawnTiles) {
      if (index >= start && index < end) continue;
      if (tile.contains(document.activeElement)) {
        if (index >= end && (!following || index < Number(following.dataset.index))) following = tile;
        continue;
      }
      tile.remove();
      drawnTiles.delete(index);
    }
    // From the end back, each new tile goes before the one after it: the DOM (and Tab) stays in order.
    for (let index = end - 1; index >= start; index -= 1) {
      let tile = drawnTiles.get(index);
      if (!tile) {
        tile = drawTile(index);
        grid.insertBefore(tile, following);
        drawnTiles.set(index, tile);
      }
      following = tile;
    }
  }

  function scheduleGrid() {
    if (gridRequested) return;
    gridRequested = true;
    requestAnimationFrame(function () { gridRequested = false; updateGrid(); });
  }

  // A tile as the markup writes it (item.html, failed-item.html).
  function drawTile(index) {
    const item = items[index];
    let tile;
    if (item.error) {
      tile = document.createElement('div');
      tile.className = 'tile failed';
      tile.setAttribute('role', 'img');
      tile.tabIndex = 0;
      tile.setAttribute('aria-label', item.alt + ' could not be loaded: ' + item.error);
      tile.title = item.url || '';
      const error = document.createElement('span');
      error.className = 'error';
      error.textContent = item.error;
      tile.append(viewer.querySelector('.failure .icon').cloneNode(true), error);
    } else {
      tile = document.createElement('a');
      tile.className = 'tile';
      tile.href = item.image;
      const img = document.createElement('img');
      img.src = item.thumbnail;
      img.alt = item.alt;
      img.loading = 'lazy';
      img.decoding = 'async';
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

  // The tile of item `index`, drawn (and scrolled to) if it is not in the DOM.
  function tileAt(index) {
    if (tiles[index] || drawnTiles.has(index) || index < drawn.first) return tiles[index] || drawnTiles.get(index);
    const box = grid.getBoundingClientRect();
    const frames = phoneWidth.matches ? drawn.phone : drawn.desktop, at = (index - drawn.first) * 4;
    const top = box.top + frames[at + 1] / 100 * box.height, height = frames[at + 3] / 100 * box.height;
    window.scrollBy(0, top + height / 2 - window.innerHeight / 2);
    updateGrid();
    return drawnTiles.get(index);
  }

  window.addEventListener('scroll', scheduleGrid, { passive: true });
  window.addEventListener('resize', scheduleGrid);
  phoneWidth.addEventListener('change', scheduleGrid);
  // A tile left with Tab (its neighbours drawn by the time the browser scrolls to the next one).
  grid.addEventListener('focusout', scheduleGrid);
  updateGrid();

  // The viewer ---------------------------------------------------------------------------------

  // The address names the image shown (#N), without an entry in the history for each one; the
  // viewer gives the focus back to that image's tile.
  const imageViewer = window.GalleryViewer(viewer, {
    items: items,
    strip: data.strip,
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
})();
