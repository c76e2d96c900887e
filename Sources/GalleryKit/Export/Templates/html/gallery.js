// GalleryKit HTML export: the image viewer.
// A classic script, not a module: modules do not load from file://. Without it the grid still
// works (every tile links to its original). Data from the document (captions, titles, errors)
// is untrusted: it reaches the page only through textContent and setAttribute, never as markup.
(function () {
  'use strict';

  const viewer = document.getElementById('viewer');
  const grid = document.querySelector('.grid');
  if (!viewer || !grid || typeof viewer.showModal !== 'function') return;

  const data = JSON.parse(document.getElementById('gallery-data').textContent);
  const items = data.items;
  const cell = data.strip.cell;
  const gap = data.strip.spacing;

  const tiles = [];
  grid.querySelectorAll('.tile').forEach(function (tile) { tiles[Number(tile.dataset.index)] = tile; });

  const part = function (selector) { return viewer.querySelector(selector); };
  const counter = part('.counter');
  const stage = part('.stage');
  const frame = part('.frame');
  const placeholder = part('.placeholder');
  const photo = part('.photo');
  const failure = part('.failure');
  const caption = part('.viewer-caption');
  const prev = part('.nav.prev');
  const next = part('.nav.next');
  const strip = part('.strip');
  const track = part('.strip-track');

  let current = -1;     // index of the item shown, -1 while closed
  let expanded = true;  // false while a swipe is being dragged: the current strip cell is square
  let thumbs = null;    // the strip's cells, built on first open
  let widened = null;   // the one cell that is wider than `cell`

  // The filmstrip -----------------------------------------------------------------------------

  function buildStrip() {
    track.style.setProperty('--cell', cell + 'px');
    track.style.setProperty('--gap', gap + 'px');
    thumbs = items.map(function (item, index) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'thumb';
      button.tabIndex = -1;
      button.setAttribute('aria-label', item.alt);
      if (item.thumbnail) {
        const img = document.createElement('img');
        img.src = item.thumbnail;
        img.alt = '';
        img.loading = 'lazy';
        img.decoding = 'async';
        img.draggable = false;
        button.appendChild(img);
      } else {
        button.classList.add('failed');
      }
      button.addEventListener('click', function () { show(index); });
      track.appendChild(button);
      return button;
    });
  }

  function stripWidth(index) {
    return index === current && expanded ? items[index].stripWidth : cell;
  }

  // Widens the current cell (the CSS transition on width animates expansion 0 → 1) and centres it.
  function updateStrip() {
    if (widened) { widened.style.width = ''; widened.classList.remove('current'); }
    widened = thumbs[current];
    widened.style.width = stripWidth(current) + 'px';
    widened.classList.add('current');
    centreStrip();
  }

  // Translates the track so the current cell's centre is at the strip's centre. The widths are
  // still animating, so the DOM cannot yet tell where the cell will end up; but once settled
  // every cell before the current one is exactly `cell` wide, so its final position is the first
  // cell's offset plus that many cells and gaps.
  function centreStrip() {
    if (current < 0) return;
    const left = thumbs[0].offsetLeft + current * (cell + gap);
    const centre = left + stripWidth(current) / 2;
    track.style.transform = 'translateX(' + (strip.clientWidth / 2 - centre) + 'px)';
  }

  // The large image ---------------------------------------------------------------------------

  function show(index) {
    index = Math.max(0, Math.min(items.length - 1, index));
    expanded = true;
    if (index !== current) {
      current = index;
      const item = items[index];
      counter.textContent = (index + 1) + ' / ' + items.length;
      caption.textContent = item.caption || '';
      prev.disabled = index === 0;
      next.disabled = index === items.length - 1;
      frame.classList.remove('ready', 'failed');
      failure.hidden = !item.error;
      if (item.error) {
        frame.classList.add('failed');
        placeholder.removeAttribute('src');
        photo.removeAttribute('src');
        photo.alt = '';
        failure.querySelector('.failure-error').textContent = item.error;
        // The URL is not in the data; the grid's error tile holds it as its title.
        failure.querySelector('.failure-url').textContent = tiles[index] ? tiles[index].title : '';
      } else {
        placeholder.src = item.thumbnail;
        photo.alt = item.alt;
        photo.src = item.image;
      }
      preloadNeighbours(index);
      history.replaceState(null, '', '#' + (index + 1));
    }
    updateStrip();
  }

  photo.addEventListener('load', function () {
    // Only if the image now asked for has loaded, not one paged past before it arrived.
    if (photo.complete && photo.naturalWidth > 0) frame.classList.add('ready');
  });
  // A format the browser cannot decode (TIFF outside Safari): the thumbnail stays in its place.
  photo.addEventListener('error', function () { frame.classList.remove('ready'); });

  function preloadNeighbours(index) {
    [index - 1, index + 1].forEach(function (neighbour) {
      const item = items[neighbour];
      if (item && item.image) new Image().src = item.image;
    });
  }

  // Opening and closing -----------------------------------------------------------------------

  function open(index) {
    if (!thumbs) buildStrip();
    if (!viewer.open) {
      viewer.showModal();
      viewer.focus();  // not the close button: a focus ring there on opening looks like a selection
    }
    show(index);
  }

  viewer.addEventListener('close', function () {
    const tile = tiles[current];
    current = -1;
    history.replaceState(null, '', location.pathname + location.search);
    if (tile) {
      tile.focus({ preventScroll: true });
      tile.scrollIntoView({ block: 'nearest' });
    }
  });

  part('.close').addEventListener('click', function () { viewer.close(); });
  prev.addEventListener('click', function () { show(current - 1); });
  next.addEventListener('click', function () { show(current + 1); });

  viewer.addEventListener('keydown', function (event) {
    const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: items.length - 1 };
    if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(moves[event.key]);
  });

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

  // Swipe: the image follows the finger; past the threshold it pages, otherwise springs back.
  let drag = null;

  stage.addEventListener('pointerdown', function (event) {
    if (!event.isPrimary || event.button !== 0 || event.target.closest('button')) return;
    drag = { id: event.pointerId, x: event.clientX, dx: 0 };
    stage.setPointerCapture(event.pointerId);
    frame.classList.remove('settling');
  });

  stage.addEventListener('pointermove', function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    drag.dx = event.clientX - drag.x;
    frame.style.transform = 'translateX(' + drag.dx + 'px)';
    if (expanded && Math.abs(drag.dx) > 10) {
      expanded = false;  // expansion 0 while scrolling, as in Photos
      updateStrip();
    }
  });

  function endDrag(event, cancelled) {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = cancelled ? 0 : drag.dx;
    drag = null;
    const threshold = Math.min(80, stage.clientWidth * 0.2);
    const target = Math.abs(dx) > threshold ? current - Math.sign(dx) : current;
    // A new image appears in place; the same one springs back from where it was dragged to.
    frame.classList.toggle('settling', target === current || target < 0 || target >= items.length);
    frame.style.transform = '';
    show(target);
  }

  stage.addEventListener('pointerup', function (event) { endDrag(event, false); });
  stage.addEventListener('pointercancel', function (event) { endDrag(event, true); });

  // Rotating a phone or resizing the window moves the strip's centre.
  window.addEventListener('resize', centreStrip);

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
