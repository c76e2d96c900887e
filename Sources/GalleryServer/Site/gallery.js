// gallery serve: one gallery — its images at the frames the server computed with GalleryLayout
// for this page's width (the page never lays out by itself), drag and drop, selection, the
// keyboard, captions, the title, columns, undo/redo, the viewer, and live updates from other tabs.
//
// A gallery may hold 100,000 images, so the grid is virtual: only the cells whose frames are near
// the viewport are in the DOM (see "The virtual grid"). Everything else — selection, focus, drag
// and drop, the viewer — works on the state's items and frames by id and index, and asks for a
// cell only when one must be shown.
(function () {
  'use strict';
  const { api, el, say } = Gallery;
  const name = decodeURIComponent(location.pathname.replace(/^\/gallery\//, ''));
  const fileName = name.replace(/\.gallery$/i, '');
  const base = '/api/galleries/' + Gallery.path(name);
  const bar = document.querySelector('.bar');
  const canvas = document.getElementById('canvas');
  const trash = document.getElementById('trash');
  const titleHeading = document.getElementById('title');
  const columns = document.getElementById('columns');
  const columnsValue = document.getElementById('columns-value');
  const styleSelect = document.getElementById('style');
  const undoButton = document.getElementById('undo');
  const redoButton = document.getElementById('redo');
  const keepButton = document.getElementById('keep');
  const internalType = 'application/x-gallery-ids';

  const styleKey = 'gallery.style.' + name;
  const scrollKey = 'gallery.scroll.' + name;
  styleSelect.value = localStorage.getItem(styleKey) || 'justified';

  function query() {
    return '?width=' + Math.max(100, Math.round(canvas.clientWidth)) + '&style=' + styleSelect.value;
  }

  function thumbnailURL(id) { return base + '/thumbnails/' + id; }
  function imageURL(id) { return base + '/images/' + id; }

  // The state and its lookups --------------------------------------------------------------------

  let state = null;           // the server's last answer (or a move shown before its answer)
  let indexById = new Map();  // image id -> index in state.items
  let tallestFrame = 0;       // how far above a band a frame meeting it may start
  let generation = 0;         // bumped by each state drawn: a cell drawn for an older one is redrawn
  let realCount = 0;          // images, placeholders left out
  let unstoredCount = 0;

  // Makes `next` the state and rebuilds what the page looks things up with. O(items).
  function adopt(next) {
    state = next;
    generation += 1;
    indexById = new Map();
    realCount = 0;
    unstoredCount = 0;
    next.items.forEach(function (item, index) {
      indexById.set(item.id, index);
      if (!item.isPlaceholder) realCount += 1;
      if (isUnstored(item)) unstoredCount += 1;
    });
    tallestFrame = 0;
    for (const frame of next.layout.frames) tallestFrame = Math.max(tallestFrame, frame[3]);
  }

  function indexOf(id) {
    const index = indexById.get(id);
    return index === undefined ? -1 : index;
  }

  // An image the document names but does not hold: the server fetches it when it is viewed.
  function isUnstored(item) { return item.status === 'ok' && !item.isPlaceholder && !item.isCached; }

  // Frames are in reading order, so their tops never decrease: every lookup is a binary search.

  // The first index whose frame's top is at or below `y` (the count when there is none).
  function firstFrameFrom(y) {
    const frames = state.layout.frames;
    let low = 0, high = frames.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (frames[middle][1] < y) low = middle + 1; else high = middle;
    }
    return low;
  }

  // The first index whose frame's top is strictly below `y`.
  function firstFrameBelow(y) {
    const frames = state.layout.frames;
    let low = 0, high = frames.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (frames[middle][1] <= y) low = middle + 1; else high = middle;
    }
    return low;
  }

  // The indices [start, end) of the frames that meet the band from `top` to `bottom` (canvas y).
  function framesBetween(top, bottom) {
    const frames = state.layout.frames;
    let start = firstFrameFrom(top - tallestFrame);
    const end = firstFrameBelow(bottom);
    while (start < end && frames[start][1] + frames[start][3] < top) start += 1;
    return [start, end];
  }

  // The indices [start, end) of the row holding `index`: the frames sharing its top.
  function rowOf(index) {
    const top = state.layout.frames[index][1];
    return [firstFrameFrom(top - 0.5), firstFrameBelow(top + 0.5)];
  }

  function rowBottom(start, end) {
    let bottom = 0;
    for (let at = start; at < end; at += 1) bottom = Math.max(bottom, state.layout.frames[at][1] + state.layout.frames[at][3]);
    return bottom;
  }

  // The virtual grid: cells only near the viewport ----------------------------------------------

  const cells = new Map();      // id -> its cell in the DOM (cells fading out are not in it)
  const unreachable = new Map(); // id -> why its image could not be fetched (shown as an error tile)
  let tabStop = null;           // the one cell Tab reaches (the others are reached with the arrows)
  let arrivedBefore = null;     // while a state is drawn: the ids of the one before, to fade in new ones
  let windowRequested = false;

  // How far beyond each edge of the viewport cells are kept: scrolling a little shows images that
  // are ready, without holding thousands of cells.
  function reach() { return Math.max(window.innerHeight, 600); }

  // The top of the viewport that the sticky bar does not cover, in viewport pixels.
  function visibleTop() { return Math.max(0, bar.getBoundingClientRect().bottom); }

  function scheduleWindow() {
    if (windowRequested) return;
    windowRequested = true;
    requestAnimationFrame(function () { windowRequested = false; updateWindow(); });
  }

  // Brings the DOM in line with the viewport: draws the cells near it, discards the others (but
  // never a cell that has focus, is being dragged or has its caption edited), and asks the
  // browser for the images in view before those around it. O(cells near the viewport + log items).
  function updateWindow() {
    if (!state) return;
    const top = -canvas.getBoundingClientRect().top, bottom = top + window.innerHeight;
    const [start, end] = framesBetween(top - reach(), bottom + reach());
    const [seenStart, seenEnd] = framesBetween(top, bottom);
    const pinned = pinnedIDs();
    for (const [id, cell] of cells) {
      const index = indexById.get(id);
      if ((index >= start && index < end) || pinned.has(id)) continue;
      cells.delete(id);
      discard(cell);
    }
    for (let index = start; index < end; index += 1) {
      // Images in view are asked for first, in reading order; then those nearest the view.
      const isSeen = index >= seenStart && index < seenEnd;
      draw(index, isSeen).rank = isSeen ? index - seenStart : imageRequests.aheadRank + Math.min(Math.abs(index - seenStart), Math.abs(index - seenEnd));
    }
    // Pinned cells away from the view still follow a new layout.
    for (const id of pinned) {
      const index = indexById.get(id);
      if (cells.has(id) && (index < start || index >= end)) draw(index, false).rank = 1e9;
    }
    pumpImages();
    if (!tabStop || !cells.has(tabStop)) setTabStop(seenStart < state.items.length ? state.items[seenStart].id : null);
  }

  function pinnedIDs() {
    const pinned = new Set(dragSources);
    const active = document.activeElement;
    const cell = active && active.closest ? active.closest('#canvas .cell') : null;
    if (cell) pinned.add(cell.dataset.id);
    if (captionEditing) pinned.add(captionEditing);
    for (const id of pinned) if (!indexById.has(id)) pinned.delete(id);
    return pinned;
  }

  // The cell of state.items[index], made if needed, and redrawn if the state changed since.
  function draw(index, isSeen) {
    const item = state.items[index];
    let cell = cells.get(item.id);
    const isNew = !cell;
    if (isNew) {
      cell = el('div', { className: 'cell', tabIndex: -1, role: 'listitem', dataset: { id: item.id } });
      cells.set(item.id, cell);
    }
    // The first request for an image goes out with its priority: in view first.
    cell.isSeen = isSeen;
    if (cell.generation !== generation) {
      fill(cell, item, index);
      place(cell, state.layout.frames[index]);
      cell.generation = generation;
    }
    if (cell.image && cell.image.fetchPriority !== (isSeen ? 'high' : 'low')) cell.image.fetchPriority = isSeen ? 'high' : 'low';
    if (isNew) {
      // Only images new in this state fade in; those scrolled to are simply there.
      const arriving = arrivedBefore !== null && !arrivedBefore.has(item.id);
      if (arriving) cell.classList.add('entering');
      canvas.appendChild(cell);
      if (arriving) requestAnimationFrame(function () { requestAnimationFrame(function () { cell.classList.remove('entering'); }); });
    }
    return cell;
  }

  // Removes a cell from the DOM, and its image from the requests (see "Image requests").
  function discard(cell) {
    if (cell.image) forgetImage(cell.image);
    cell.image = null;
    cell.remove();
  }

  // Cells of images no longer in the state fade out.
  function retireRemoved() {
    for (const [id, cell] of cells) {
      if (indexById.has(id)) continue;
      cells.delete(id);
      cell.classList.add('leaving');
      setTimeout(function () { discard(cell); }, 250);
    }
    for (const id of selection) if (!indexById.has(id)) selection.delete(id);
    for (const id of unreachable.keys()) if (!indexById.has(id)) unreachable.delete(id);
  }

  function place(cell, frame) {
    if (!frame || (lifted && lifted.cell === cell)) return;  // a lifted cell follows the finger
    const transform = 'translate(' + frame[0] + 'px,' + frame[1] + 'px)';
    if (cell.style.transform !== transform) cell.style.transform = transform;
    cell.style.width = frame[2] + 'px';
    cell.style.height = frame[3] + 'px';
  }

  // Roving tabindex: Tab enters the grid at one cell, the arrow keys move within it.
  function setTabStop(id) {
    if (id === tabStop) return;
    const previous = tabStop && cells.get(tabStop);
    if (previous) previous.tabIndex = -1;
    tabStop = id;
    const cell = id && cells.get(id);
    if (cell) cell.tabIndex = 0;
  }

  // The cell's attributes, and its content when what that shows changed (a caption alone is
  // updated in place, so that editing it does not reload the image).
  function fill(cell, item, index) {
    cell.dataset.index = String(index);
    cell.setAttribute('aria-label', item.alt);
    cell.setAttribute('aria-posinset', String(index + 1));
    cell.setAttribute('aria-setsize', String(state.items.length));
    cell.tabIndex = item.id === tabStop ? 0 : -1;
    cell.draggable = isDraggable(item);
    for (const status of ['ok', 'failed', 'loading']) cell.classList.toggle(status, item.status === status);
    cell.classList.toggle('unstored', isUnstored(item));
    cell.classList.toggle('dragging', dragging.has(item.id));
    showSelected(cell, item.id);
    const look = lookOf(item);
    if (cell.look !== look) {
      cell.look = look;
      showContent(cell, item, false);
    }
    const caption = cell.querySelector('.caption');
    if (caption && caption.textContent !== (item.caption || '')) caption.textContent = item.caption || '';
    if (cell.image && cell.image.alt !== item.alt) cell.image.alt = item.alt;
  }

  // Whether a cell is dragged with HTML5 drag and drop: a mouse's; a phone's long press is the
  // page's own touch drag, and a caption being edited holds its cell.
  function isDraggable(item) { return !item.isPlaceholder && captionEditing !== item.id && !touchOnly.matches; }

  // What decides a cell's content (its caption aside).
  function lookOf(item) {
    const why = item.status === 'ok' && !item.isPlaceholder ? unreachable.get(item.id) : undefined;
    return [item.status, item.isPlaceholder, item.error, item.url, why].join('\u0000');
  }

  // What a cell shows: a placeholder's address, a failed image's tile, the image (or, when the
  // server could not fetch it, why), and the caption. A caption being edited stays.
  function showContent(cell, item, isRetry) {
    if (cell.image) forgetImage(cell.image);
    cell.image = null;
    cell.classList.remove('fetching', 'unreachable');
    const parts = [];
    if (item.status === 'loading') {
      parts.push(el('span', { className: 'label', textContent: item.url }));
    } else if (item.status === 'failed') {
      parts.push(...errorTile(item.error || 'The image could not be loaded', 'Try ' + item.url + ' again', function () {
        send('retries', { id: item.id });
      }));
    } else if (unreachable.has(item.id) && !isRetry) {
      cell.classList.add('unreachable');
      parts.push(...errorTile(unreachable.get(item.id), 'Retry ' + item.alt, function () { retryImage(cell, item.id); }));
    } else {
      parts.push(image(cell, item, isRetry));
    }
    if (!item.isPlaceholder) parts.push(el('p', { className: 'caption', textContent: item.caption || '' }));
    const editor = cell.querySelector('.caption-editor');
    for (const child of Array.from(cell.children)) if (child !== editor) child.remove();
    cell.prepend(...parts);
  }

  function errorTile(reason, retryLabel, retry) {
    const button = el('button', { type: 'button', textContent: 'Retry', 'aria-label': retryLabel });
    button.addEventListener('click', function (event) { event.stopPropagation(); retry(); });
    return [
      el('span', { className: 'mark', textContent: '⚠', 'aria-hidden': 'true' }),
      el('span', { className: 'why', textContent: reason }),
      button,
    ];
  }

  // Image requests ---------------------------------------------------------------------------------

  // The server may answer one image at a time (each is read from the document, or fetched from the
  // web), and a request the page gives up on still costs it that time: cancelling only closes the
  // connection. So the page asks for at most `parallel` images at once, counting a cancelled one
  // as busy for as long as a request usually takes; the most wanted go first (at most `ahead` of
  // them outside the view, fetched ahead of a scroll); and it never asks for an image it merely
  // passes by: while the view moves (a scroll, paging the viewer), an image must stay wanted for
  // `dwell` ms first. After a jump to the end of a huge gallery, little but the images there is
  // then in the server's way.
  const imageRequests = {
    parallel: 4,
    ahead: 2,
    aheadRank: 1e4,       // ranks from here on are images outside the view
    dwell: 120,
    waiting: new Map(),   // img -> { source, rank: () => number (lowest first), since }
    running: new Map(),   // img -> { isAhead, started }
    cancelled: 0,         // requests given up on that the server is probably still answering
    latency: 250,         // how long a request usually takes, in ms (a moving average)
    known: new WeakSet(), // imgs whose load and error the loader listens to
    lastMotion: -Infinity,
    timer: null,
    timerAt: Infinity,
  };

  // Asks for `source` in `img` when its turn comes.
  function wantImage(img, source, rank) {
    const requests = imageRequests;
    if (!requests.known.has(img)) {
      requests.known.add(img);
      img.addEventListener('load', imageSettled);
      img.addEventListener('error', imageSettled);
    }
    forgetImage(img);
    requests.waiting.set(img, { source: source, rank: rank, since: performance.now() });
    schedulePump(0);
  }

  // Gives up an image: not asked for, or its request cancelled (removing the src does that, and
  // fires no error event).
  function forgetImage(img) {
    const requests = imageRequests;
    requests.waiting.delete(img);
    img.removeAttribute('src');
    const running = requests.running.get(img);
    if (!running) return;
    requests.running.delete(img);
    const busy = Math.min(requests.latency, 5000) - (performance.now() - running.started);
    if (busy <= 0) return schedulePump(0);
    requests.cancelled += 1;
    setTimeout(function () { requests.cancelled -= 1; schedulePump(0); }, busy);
  }

  function imageSettled(event) {
    const requests = imageRequests;
    const running = requests.running.get(event.target);
    if (!running) return;
    requests.running.delete(event.target);
    requests.latency = requests.latency * 0.8 + (performance.now() - running.started) * 0.2;
    schedulePump(0);
  }

  function noteMotion() { imageRequests.lastMotion = performance.now(); }

  function schedulePump(delay) {
    const requests = imageRequests;
    const at = performance.now() + delay;
    if (requests.timer !== null && requests.timerAt <= at) return;
    clearTimeout(requests.timer);
    requests.timerAt = at;
    requests.timer = setTimeout(function () {
      requests.timer = null;
      requests.timerAt = Infinity;
      pumpImages();
    }, delay);
  }

  function pumpImages() {
    const requests = imageRequests;
    const now = performance.now();
    const isStill = now - requests.lastMotion >= requests.dwell;
    const ready = [];
    let nextReady = Infinity;
    for (const [img, wanted] of requests.waiting) {
      if (!img.isConnected) continue;
      if (isStill || now - wanted.since >= requests.dwell) ready.push([wanted.rank(), img, wanted]);
      else nextReady = Math.min(nextReady, wanted.since + requests.dwell, requests.lastMotion + requests.dwell);
    }
    ready.sort(function (a, b) { return a[0] - b[0]; });
    let ahead = 0;
    for (const running of requests.running.values()) if (running.isAhead) ahead += 1;
    for (const [rank, img, wanted] of ready) {
      if (requests.running.size + requests.cancelled >= requests.parallel) break;
      const isAhead = rank >= requests.aheadRank;
      if (isAhead && ahead >= requests.ahead) break;  // the rest are ahead too
      if (isAhead) ahead += 1;
      requests.waiting.delete(img);
      requests.running.set(img, { isAhead: isAhead, started: now });
      img.src = wanted.source;
    }
    if (nextReady < Infinity) schedulePump(Math.max(0, nextReady - now));
  }

  // Images -----------------------------------------------------------------------------------------

  // The cell's image: its thumbnail, which the server serves from the document or fetches (an
  // image the document does not store). The cell shows a spinner until it loads; if it cannot, the
  // cell becomes an error tile saying why.
  function image(cell, item, isRetry) {
    const img = el('img', { alt: item.alt, decoding: 'async', draggable: false });
    img.fetchPriority = cell.isSeen ? 'high' : 'low';
    img.addEventListener('load', function () { cell.classList.remove('fetching'); });
    img.addEventListener('error', function () { imageFailed(cell, item.id, img); });
    cell.classList.add('fetching');
    cell.image = img;
    wantImage(img, thumbnailURL(item.id) + (isRetry ? '?retry=' + Date.now() : ''), function () { return cell.rank; });
    return img;
  }

  async function imageFailed(cell, id, img) {
    const source = img.getAttribute('src');
    if (!source) return;  // discarded: its src was removed on purpose
    const reason = await failureReason(source);
    unreachable.set(id, reason || 'This browser cannot show this image');
    // Redrawn if still shown; a cell made later shows the tile without asking again.
    const index = indexOf(id);
    if (cells.get(id) === cell && cell.image === img && index >= 0) fill(cell, state.items[index], index);
  }

  function retryImage(cell, id) {
    const index = indexOf(id);
    if (index < 0) return;
    unreachable.delete(id);
    const item = state.items[index];
    cell.look = lookOf(item);
    showContent(cell, item, true);
    cell.focus({ preventScroll: true });
  }

  // Why an image address failed: the server's one line ({"error": …}), or null when it answers
  // with an image after all (one this browser cannot decode). The address is asked without its
  // ?retry=, which would make the server fetch the image once more.
  async function failureReason(source) {
    try {
      const response = await fetch(source.replace(/\?retry=.*$/, ''), { credentials: 'same-origin' });
      if (response.ok) {
        if (response.body) response.body.cancel();
        return null;
      }
      let answer = null;
      try { answer = await response.json(); } catch (error) { answer = null; }
      return (answer && answer.error) || response.status + ' ' + response.statusText;
    } catch (error) {
      return 'The app could not be reached';
    }
  }

  // Rendering a state ----------------------------------------------------------------------------

  let loading = null;
  let failureShown = null;
  // The image to keep at the top of the view when the next state is drawn: set when the layout is
  // about to change (the page's width, the style, the columns) and when the page is reloaded.
  let anchorToKeep = readSavedAnchor();

  // The page's first answer holds only the first images (and the whole layout's height), so that
  // a gallery of 100,000 images shows its first screen before its whole state (megabytes) has
  // come; a larger one is then loaded whole. Not when the page comes back to a place further on.
  const firstItems = 300;
  let whole = Promise.resolve();  // settles once a whole state has been drawn

  function isPartial() { return state !== null && state.count > state.items.length; }

  function load() {
    whole = loadState(!state && !anchorToKeep);
    return whole;
  }

  async function loadState(firstOnly) {
    const request = api('GET', base + query() + (firstOnly ? '&first=' + firstItems : ''));
    loading = request;
    try {
      const answer = await request;
      if (loading !== request) return;
      render(answer);
      if (!isPartial()) return;
      // The rest waits until the images in view have come (or a second): it would slow them.
      await inViewShown(1000);
      if (loading === request) await loadState(false);
    } catch (error) {
      say(error.message, true);
    }
  }

  // Resolves once no cell in view is waiting for its image, or after `timeout` ms.
  function inViewShown(timeout) {
    const deadline = performance.now() + timeout;
    return new Promise(function (resolve) {
      (function poll() {
        let waiting = false;
        for (const cell of cells.values()) if (cell.isSeen && cell.classList.contains('fetching')) waiting = true;
        if (!waiting || performance.now() >= deadline) resolve(); else setTimeout(poll, 50);
      })();
    });
  }

  function render(next) {
    if (next.arrivalFailure && next.arrivalFailure !== failureShown) say(next.arrivalFailure, true);
    failureShown = next.arrivalFailure;
    showState(next);
  }

  // Draws a state: the server's, or a move shown before the server's answer.
  function showState(next) {
    const before = state ? indexById : new Map();
    adopt(next);
    showHeader();
    canvas.style.height = Math.ceil(state.layout.height) + 'px';
    canvas.dataset.count = String(realCount);
    retireRemoved();
    if (anchorToKeep) {
      restoreAnchor(anchorToKeep);
      anchorToKeep = null;
    }
    arrivedBefore = before;
    updateWindow();
    arrivedBefore = null;
    showKeep();
    showStateInViewer();
  }

  function showHeader() {
    document.title = (state.title || fileName) + ' — Gallery';
    if (!titleEditor) {
      titleHeading.dataset.title = state.title || '';
      titleHeading.textContent = state.title || fileName;
    }
    undoButton.disabled = !state.canUndo;
    redoButton.disabled = !state.canRedo;
    // The column range (and the viewer's filmstrip cell) are the library's (PageStyle), not
    // restated here.
    columns.min = state.columnRange[0];
    columns.max = state.columnRange[1];
    columns.value = state.columns;
    columnsValue.textContent = state.columns;
  }

  // Scroll anchoring ------------------------------------------------------------------------------

  // The first image in view, and where its top is relative to the top of the view.
  function viewAnchor() {
    if (!state || state.items.length === 0 || window.scrollY === 0) return null;
    const top = visibleTop() - canvas.getBoundingClientRect().top;
    const index = framesBetween(top, top)[0];
    if (index >= state.items.length) return null;
    const frame = state.layout.frames[index];
    return { id: state.items[index].id, offset: frame[1] - top, height: frame[3] };
  }

  // Scrolls so that the anchor's image is where it was in the view; the part of it that was
  // above the view stays the same fraction of its new height.
  function restoreAnchor(anchor) {
    const index = indexOf(anchor.id);
    if (index < 0) return;
    const frame = state.layout.frames[index];
    const offset = anchor.offset >= 0 ? anchor.offset : anchor.offset * frame[3] / anchor.height;
    window.scrollBy(0, canvas.getBoundingClientRect().top + frame[1] - offset - visibleTop());
  }

  function keepAnchor() { if (!anchorToKeep) anchorToKeep = viewAnchor(); }

  // A reload (or Back to this page) comes back to the same images: the browser's own restoration
  // cannot, the canvas being empty until the state arrives. A new visit starts at the top.
  history.scrollRestoration = 'manual';
  function readSavedAnchor() {
    const visit = performance.getEntriesByType('navigation')[0];
    if (!visit || (visit.type !== 'reload' && visit.type !== 'back_forward')) return null;
    try { return JSON.parse(sessionStorage.getItem(scrollKey)); } catch (error) { return null; }
  }
  window.addEventListener('pagehide', function () {
    try { sessionStorage.setItem(scrollKey, JSON.stringify(viewAnchor())); } catch (error) { /* storage full or off */ }
  });

  // Selection --------------------------------------------------------------------------------------

  const selection = new Set();
  let anchor = null;  // the id Shift-click extends from

  function choose(id, event) {
    if (event.shiftKey && anchor && indexOf(anchor) >= 0) {
      const from = indexOf(anchor), to = indexOf(id);
      if (!(event.ctrlKey || event.metaKey)) selection.clear();
      for (let index = Math.min(from, to); index <= Math.max(from, to); index += 1) {
        if (!state.items[index].isPlaceholder) selection.add(state.items[index].id);
      }
    } else if (event.ctrlKey || event.metaKey) {
      if (selection.has(id)) selection.delete(id); else selection.add(id);
      anchor = id;
    } else {
      selection.clear();
      selection.add(id);
      anchor = id;
    }
    showSelection();
  }

  function selectAll() {
    for (const item of state.items) if (!item.isPlaceholder) selection.add(item.id);
    showSelection();
  }

  // Only the cells in the DOM show it; a cell made later shows it when it is filled.
  function showSelection() {
    for (const [id, cell] of cells) showSelected(cell, id);
    showKeep();
  }

  function showSelected(cell, id) {
    const isSelected = selection.has(id);
    cell.classList.toggle('selected', isSelected);
    cell.setAttribute('aria-selected', String(isSelected));
  }

  // The images an action applies to: the selection if it includes `id`, else `id` alone; in
  // gallery order. O(k log k) for k chosen images.
  function targets(id) {
    const chosen = id && !selection.has(id) ? [id] : Array.from(selection);
    return chosen
      .filter(function (each) { const index = indexOf(each); return index >= 0 && !state.items[index].isPlaceholder; })
      .sort(function (a, b) { return indexOf(a) - indexOf(b); });
  }

  // Edits ------------------------------------------------------------------------------------------

  // Draws the answer to a change; a reload started before it must not draw over it.
  function showChange(answer) {
    loading = null;
    render(answer);
  }

  // Sends a change (once the whole state is here); resolves to whether the server made it.
  async function send(route, body) {
    await whole;
    try {
      showChange(await api('POST', base + '/' + route + query(), body));
      return true;
    } catch (error) {
      say(error.message, true);
      load();
      return false;
    }
  }

  function edit(body) { return send('edits', body); }

  // Moves `ids` before `before` (null: the end) at once on the page, then saves.
  function move(ids, before) {
    if (ids.length === 0) return;
    const moving = new Set(ids);
    const kept = state.items.filter(function (item) { return !moving.has(item.id); });
    const moved = state.items.filter(function (item) { return moving.has(item.id); });
    let at = before ? kept.findIndex(function (item) { return item.id === before; }) : kept.length;
    if (at < 0) at = kept.length;
    const reordered = kept.slice(0, at).concat(moved, kept.slice(at));
    if (reordered.every(function (item, index) { return item === state.items[index]; })) return;
    // Shown at once in the old frames; the server's answer brings the exact ones.
    showState(Object.assign({}, state, { items: reordered }));
    edit({ action: 'move', ids: ids, before: before });
  }

  function remove(ids) {
    if (ids.length === 0) return;
    say('Removed ' + Gallery.plural(ids.length, 'image') + ' (Undo brings them back)');
    edit({ action: 'remove', ids: ids });
  }

  // Stores the bytes of images the document only links to.
  async function keep(ids) {
    if (ids.length === 0) return;
    if (await edit({ action: 'keep', ids: ids })) say('Kept ' + Gallery.plural(ids.length, 'image') + ' in the gallery (Undo takes them out)');
  }

  // What "Keep in gallery" keeps: the selected images not stored, or, when the selection has
  // none, every image not stored.
  function keepTargets() {
    const selected = Array.from(selection).filter(function (id) { const index = indexOf(id); return index >= 0 && isUnstored(state.items[index]); });
    if (selected.length > 0) return { ids: selected.sort(function (a, b) { return indexOf(a) - indexOf(b); }), isSelection: true };
    return { ids: state.items.filter(isUnstored).map(function (item) { return item.id; }), isSelection: false };
  }

  function showKeep() {
    if (!state) return;
    keepButton.hidden = unstoredCount === 0;
    if (keepButton.hidden) return;
    const chosen = keepTargets();
    const label = 'Keep ' + (chosen.isSelection ? 'the ' + Gallery.plural(chosen.ids.length, 'selected image') + ' not stored'
      : (chosen.ids.length === 1 ? 'the image' : 'all ' + chosen.ids.length + ' images') + ' not stored') +
      ' in this gallery (store their bytes in the document)';
    keepButton.title = label;
    keepButton.setAttribute('aria-label', label);
  }

  function nextRealAfter(index, skipping) {
    for (let at = index; at < state.items.length; at += 1) {
      const item = state.items[at];
      if (!item.isPlaceholder && !(skipping && skipping.has(item.id))) return item.id;
    }
    return null;
  }

  function lastRealBefore(index, skipping) {
    for (let at = index - 1; at >= 0; at -= 1) {
      const item = state.items[at];
      if (!item.isPlaceholder && !skipping.has(item.id)) return item.id;
    }
    return null;
  }

  // Drag and drop ----------------------------------------------------------------------------------

  const marker = el('div', { className: 'insertion', hidden: true });
  canvas.appendChild(marker);
  let dragged = null;            // ids being dragged from this page, in gallery order
  let dragging = new Set();      // the same, to mark cells drawn during the drag
  let dragSources = new Set();   // the dragged cells in the DOM when the drag began: kept there

  function startDrag(event) {
    const cell = event.target.closest && event.target.closest('.cell');
    if (!cell) return;
    const id = cell.dataset.id;
    if (!selection.has(id)) { selection.clear(); selection.add(id); anchor = id; showSelection(); }
    dragged = targets(id);
    dragging = new Set(dragged);
    dragSources = new Set(dragged.filter(function (each) { return cells.has(each); }));
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(internalType, JSON.stringify(dragged));
    event.dataTransfer.setData('text/plain', Gallery.plural(dragged.length, 'image'));
    for (const each of dragSources) cells.get(each).classList.add('dragging');
    trash.classList.add('active');
  }

  function endDrag() {
    for (const cell of cells.values()) cell.classList.remove('dragging');
    trash.classList.remove('active', 'over');
    marker.hidden = true;
    canvas.classList.remove('receiving');
    dragged = null;
    dragging = new Set();
    dragSources = new Set();
    scheduleWindow();
  }

  function accepts(event) {
    const types = Array.from(event.dataTransfer.types);
    return types.includes(internalType) || types.includes('Files') || types.includes('text/uri-list') || types.includes('text/plain');
  }

  // Where a drop at the pointer lands: the index it is inserted at, and the marker's place.
  // O(log items + a row).
  function dropPoint(event) {
    const frames = state.layout.frames;
    if (frames.length === 0) return { index: 0, x: 0, y: 0, height: 60 };
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left, y = event.clientY - box.top;
    // The row under the pointer, else the nearer of the rows above and below it.
    let [start, end] = rowOf(Math.max(0, firstFrameBelow(y) - 1));
    if (end < frames.length) {
      const bottom = rowBottom(start, end);
      if (y > bottom && frames[end][1] - y < y - bottom) [start, end] = rowOf(end);
    }
    for (let at = start; at < end; at += 1) {
      const frame = frames[at];
      if (x < frame[0] + frame[2] / 2) return { index: at, x: frame[0] - 4, y: frame[1], height: frame[3] };
    }
    const last = frames[end - 1];
    return { index: end, x: last[0] + last[2] + 1, y: last[1], height: last[3] };
  }

  canvas.addEventListener('dragstart', startDrag);
  canvas.addEventListener('dragend', endDrag);
  canvas.addEventListener('dragover', function (event) {
    if (!state || !accepts(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = dragged ? 'move' : 'copy';
    canvas.classList.toggle('receiving', !dragged);
    const point = dropPoint(event);
    marker.hidden = false;
    marker.style.transform = 'translate(' + point.x + 'px,' + point.y + 'px)';
    marker.style.height = point.height + 'px';
  });
  canvas.addEventListener('dragleave', function (event) {
    if (!canvas.contains(event.relatedTarget)) { marker.hidden = true; canvas.classList.remove('receiving'); }
  });
  canvas.addEventListener('drop', function (event) {
    if (!state || !accepts(event)) return;
    event.preventDefault();
    const point = dropPoint(event);
    marker.hidden = true;
    canvas.classList.remove('receiving');
    const transfer = event.dataTransfer;
    const internal = transfer.getData(internalType);
    if (internal) {
      const ids = JSON.parse(internal);
      move(ids, nextRealAfter(point.index, new Set(ids)));
    } else if (transfer.files && transfer.files.length > 0) {
      upload(Array.from(transfer.files), nextRealAfter(point.index));
    } else {
      const urls = droppedURLs(transfer);
      if (urls.length === 0) return say('Nothing in that drop is an image or a link.', true);
      send('drops', { urls: urls, before: nextRealAfter(point.index) });
    }
  });

  // text/uri-list (one URL a line, # comments), else text that is a URL.
  function droppedURLs(transfer) {
    const list = transfer.getData('text/uri-list');
    const lines = (list || transfer.getData('text/plain') || '').split(/\r?\n/).map(function (line) { return line.trim(); });
    return lines.filter(function (line) { return /^https?:\/\//i.test(line); });
  }

  // Files from the desktop (or the file picker), one request each, in order.
  async function upload(files, before) {
    for (const file of files) {
      try {
        showChange(await api('POST', base + '/uploads' + query() + (before ? '&before=' + before : ''), file, {
          headers: { 'Content-Type': file.type || 'application/octet-stream', 'X-File-Name': encodeURIComponent(file.name) },
        }));
      } catch (error) {
        say(file.name + ': ' + error.message, true);
      }
    }
  }

  trash.addEventListener('dragover', function (event) {
    if (!dragged) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    trash.classList.add('over');
  });
  trash.addEventListener('dragleave', function () { trash.classList.remove('over'); });
  trash.addEventListener('drop', function (event) {
    event.preventDefault();
    const ids = JSON.parse(event.dataTransfer.getData(internalType) || '[]');
    endDrag();
    remove(ids);
  });

  // Pointer ----------------------------------------------------------------------------------------

  canvas.addEventListener('click', function (event) {
    const cell = event.target.closest('.cell');
    // In selection mode a tap adds or takes away, as Ctrl-click does.
    if (cell && !event.target.closest('button, input')) choose(cell.dataset.id, selecting ? { ctrlKey: true } : event);
  });

  let selecting = false;
  const selectButton = document.getElementById('select');
  selectButton.addEventListener('click', function () {
    selecting = !selecting;
    selectButton.setAttribute('aria-pressed', String(selecting));
    if (!selecting) { selection.clear(); showSelection(); }
  });

  // Touch ------------------------------------------------------------------------------------------

  // A long press picks an image up (with the rest of the selection, if it is selected); it follows
  // the finger, the others make room, and letting go moves it there, or over the trash removes it.
  // A finger that moves before the press is long scrolls, as usual. Two fingers pinch the images
  // per row: the layout follows live (the server's, for that many per row) and the end is one
  // `columns` edit. Touch events, not HTML5 drag and drop, which phones do not start from touch.
  const touchOnly = window.matchMedia('(hover: none) and (pointer: coarse)');
  const touchLift = { delay: 450, tolerance: 8, edge: 64, step: 14 };
  let press = null;   // a finger down on a cell, not held long enough yet
  let lifted = null;  // the image(s) being carried
  let pinch = null;

  canvas.addEventListener('touchstart', function (event) {
    cancelPress();
    if (!state || lifted) return;
    if (event.touches.length === 2) return startPinch(event);
    if (event.touches.length !== 1) return;
    const cell = event.target.closest('.cell');
    if (!cell || event.target.closest('button, input')) return;
    const index = indexOf(cell.dataset.id);
    if (index < 0 || state.items[index].isPlaceholder) return;
    const point = event.touches[0];
    press = { id: cell.dataset.id, x: point.clientX, y: point.clientY, timer: setTimeout(lift, touchLift.delay) };
  }, { passive: true });

  canvas.addEventListener('touchmove', function (event) {
    if (pinch) {
      event.preventDefault();
      if (event.touches.length === 2) movePinch(event);
    } else if (lifted) {
      event.preventDefault();
      follow(event.touches[0].clientX, event.touches[0].clientY);
    } else if (press) {
      const point = event.touches[0];
      if (Math.hypot(point.clientX - press.x, point.clientY - press.y) > touchLift.tolerance) cancelPress();
    }
  }, { passive: false });

  canvas.addEventListener('touchend', function (event) {
    cancelPress();
    if (lifted && event.touches.length === 0) drop(false);
    if (pinch && event.touches.length < 2) endPinch();
  });
  canvas.addEventListener('touchcancel', function () {
    cancelPress();
    if (lifted) drop(true);
    if (pinch) endPinch();
  });
  // The long-press menu (Save image, Copy…) would cover the image being picked up.
  canvas.addEventListener('contextmenu', function (event) { if (press || lifted || touchOnly.matches) event.preventDefault(); });

  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  function lift() {
    const { id, x, y } = press;
    press = null;
    const index = indexOf(id);
    if (index < 0) return;
    const ids = targets(id);
    const cell = cells.get(id) || draw(index, true);
    const frame = state.layout.frames[index];
    const box = canvas.getBoundingClientRect();
    lifted = { id: id, ids: ids, cell: cell, base: state, before: undefined, x: x, y: y, grabX: x - box.left - frame[0], grabY: y - box.top - frame[1], scrolling: 0 };
    dragging = new Set(ids);
    dragSources = new Set(ids.filter(function (each) { return cells.has(each); }));
    for (const each of ids) if (each !== id && cells.has(each)) cells.get(each).classList.add('dragging');
    cell.classList.add('lifted');
    if (ids.length > 1) cell.dataset.count = String(ids.length);
    trash.classList.add('active');
    if (navigator.vibrate) navigator.vibrate(10);
    follow(x, y);
  }

  // The lifted cell under the finger; the others where they would be if it were dropped here.
  function follow(x, y) {
    lifted.x = x;
    lifted.y = y;
    const box = canvas.getBoundingClientRect();
    lifted.cell.style.transform = 'translate(' + (x - box.left - lifted.grabX) + 'px,' + (y - box.top - lifted.grabY) + 'px) scale(1.04)';
    const overTrash = isOver(trash, x, y);
    trash.classList.toggle('over', overTrash);
    if (!overTrash) makeRoom(x, y);
    scrollNearEdges();
  }

  function makeRoom(x, y) {
    const moving = new Set(lifted.ids);
    const before = nextRealAfter(dropPoint({ clientX: x, clientY: y }).index, moving);
    if (before === lifted.before) return;
    lifted.before = before;
    const kept = lifted.base.items.filter(function (item) { return !moving.has(item.id); });
    const moved = lifted.base.items.filter(function (item) { return moving.has(item.id); });
    let at = before ? kept.findIndex(function (item) { return item.id === before; }) : kept.length;
    if (at < 0) at = kept.length;
    showState(Object.assign({}, lifted.base, { items: kept.slice(0, at).concat(moved, kept.slice(at)) }));
  }

  // Near the top or the bottom of the view the page scrolls, faster the nearer the finger.
  function scrollNearEdges() {
    const top = visibleTop() + touchLift.edge, bottom = window.innerHeight - touchLift.edge;
    const speed = lifted.y < top ? -touchLift.step * Math.min(1, (top - lifted.y) / touchLift.edge)
      : lifted.y > bottom ? touchLift.step * Math.min(1, (lifted.y - bottom) / touchLift.edge) : 0;
    lifted.speed = speed;
    if (speed === 0 || lifted.scrolling) return;
    lifted.scrolling = requestAnimationFrame(function scroll() {
      if (!lifted || lifted.speed === 0) { if (lifted) lifted.scrolling = 0; return; }
      window.scrollBy(0, lifted.speed);
      lifted.scrolling = 0;
      follow(lifted.x, lifted.y);
    });
  }

  function drop(cancelled) {
    const carried = lifted;
    lifted = null;
    cancelAnimationFrame(carried.scrolling);
    trash.classList.remove('active', 'over');
    carried.cell.classList.remove('lifted');
    delete carried.cell.dataset.count;
    for (const cell of cells.values()) cell.classList.remove('dragging');
    dragging = new Set();
    dragSources = new Set();
    const onTrash = !cancelled && isOver(trash, carried.x, carried.y);
    // Back to the state before the lift, from which the edit's own optimistic state is drawn.
    showState(carried.base);
    if (onTrash) remove(carried.ids);
    else if (!cancelled && carried.before !== undefined) move(carried.ids, carried.before);
  }

  function isOver(element, x, y) {
    const box = element.getBoundingClientRect();
    return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
  }

  function touchDistance(touches) {
    return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
  }

  function startPinch(event) {
    pinch = { distance: Math.max(touchDistance(event.touches), 1), columns: state.columns, shown: state.columns };
  }

  // Spread: fewer per row (larger images); pinch: more.
  function movePinch(event) {
    const scale = touchDistance(event.touches) / pinch.distance;
    const count = Math.min(Math.max(Math.round(pinch.columns / scale), state.columnRange[0]), state.columnRange[1]);
    if (count === pinch.shown) return;
    pinch.shown = count;
    keepAnchor();
    previewColumns(count);
  }

  function endPinch() {
    const ended = pinch;
    pinch = null;
    if (ended.shown === ended.columns) return;
    keepAnchor();
    edit({ action: 'columns', count: ended.shown });
  }

  async function previewColumns(count) {
    const request = api('GET', base + query() + '&columns=' + count);
    loading = request;
    try {
      const answer = await request;
      if (loading === request && pinch) render(answer);
    } catch (error) {
      say(error.message, true);
    }
  }
  canvas.addEventListener('dblclick', function (event) {
    const cell = event.target.closest('.cell');
    if (!cell || event.target.closest('button, input')) return;
    if (event.target.classList.contains('caption')) editCaption(cell); else openViewer(indexOf(cell.dataset.id));
  });
  canvas.addEventListener('focusin', function (event) {
    const cell = event.target.closest('.cell');
    if (cell && cells.get(cell.dataset.id) === cell) setTabStop(cell.dataset.id);
  });
  // A cell that loses focus may be far from the view: the next pass lets it go.
  canvas.addEventListener('focusout', scheduleWindow);

  // Keyboard ---------------------------------------------------------------------------------------

  // Shows the image at `index` (scrolling it into view, making its cell) and focuses its cell.
  function focusItem(index) {
    if (!state || index < 0 || index >= state.items.length) return;
    reveal(index);
    updateWindow();
    const cell = cells.get(state.items[index].id) || draw(index, true);
    cell.focus({ preventScroll: true });
    setTabStop(state.items[index].id);
  }

  // Scrolls the least that shows the whole frame between the sticky bar and the bottom.
  function reveal(index) {
    const frame = state.layout.frames[index];
    const top = canvas.getBoundingClientRect().top + frame[1], bottom = top + frame[3];
    const from = visibleTop() + 8, to = window.innerHeight - 8;
    if (top < from) window.scrollBy(0, top - from);
    else if (bottom > to) window.scrollBy(0, Math.min(bottom - to, top - from));
  }

  canvas.addEventListener('keydown', function (event) {
    const cell = event.target.closest && event.target.closest('.cell');
    if (!cell || event.target.tagName === 'INPUT' || event.target.tagName === 'BUTTON' || !state) return;
    const id = cell.dataset.id;
    const index = indexOf(id);
    if (index < 0) return;  // a cell fading out after its image was removed
    const item = state.items[index];
    const isArrow = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key);
    if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      if (!item.isPlaceholder) moveByKey(id, event.key === 'ArrowLeft' ? -1 : 1);
    } else if (isArrow || event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      focusItem(neighbour(index, event.key));
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      if (item.isPlaceholder) return;
      const ids = targets(id);
      // Focus goes on to the next image left (the previous one after the last).
      const after = nextRealAfter(index + 1, new Set(ids)) || lastRealBefore(index, new Set(ids));
      remove(ids);
      if (after) focusItem(indexOf(after));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      openViewer(index);
    } else if (event.key === ' ') {
      event.preventDefault();
      choose(id, { ctrlKey: true });
    } else if (event.key === 'F2') {
      event.preventDefault();
      editCaption(cell);
    } else if (event.key === 'Escape') {
      selection.clear();
      showSelection();
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      selectAll();
    }
  });

  // Alt+←/→: moves the image (or the selection holding it) one place, and keeps it in view.
  function moveByKey(id, step) {
    const ids = targets(id);
    const moving = new Set(ids);
    const positions = ids.map(indexOf);
    if (step < 0) {
      const first = Math.min.apply(null, positions);
      if (first === 0) return;
      let at = first - 1;
      while (at > 0 && (moving.has(state.items[at].id) || state.items[at].isPlaceholder)) at -= 1;
      move(ids, nextRealAfter(at, moving));
    } else {
      const last = Math.max.apply(null, positions);
      let at = last + 1;
      while (at < state.items.length && (moving.has(state.items[at].id) || state.items[at].isPlaceholder)) at += 1;
      if (at >= state.items.length) return;
      move(ids, nextRealAfter(at + 1, moving));
    }
    requestAnimationFrame(function () { focusItem(indexOf(id)); });
  }

  // The index the arrow keys (and Home, End) go to from `index`: up and down go to the frame of the
  // next row whose centre is nearest. O(log items + a row).
  function neighbour(index, key) {
    const frames = state.layout.frames, last = state.items.length - 1;
    if (key === 'ArrowLeft') return Math.max(0, index - 1);
    if (key === 'ArrowRight') return Math.min(last, index + 1);
    if (key === 'Home') return 0;
    if (key === 'End') return last;
    const here = frames[index], centre = here[0] + here[2] / 2;
    let row;
    if (key === 'ArrowDown') {
      const below = firstFrameBelow(here[1] + 1);
      if (below > last) return index;
      row = rowOf(below);
    } else {
      const above = firstFrameFrom(here[1] - 1);
      if (above === 0) return index;
      row = rowOf(above - 1);
    }
    let target = index, best = Infinity;
    for (let at = row[0]; at < row[1]; at += 1) {
      const distance = Math.abs(frames[at][0] + frames[at][2] / 2 - centre);
      if (distance < best) { best = distance; target = at; }
    }
    return target;
  }

  document.addEventListener('keydown', function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.target.tagName === 'INPUT' || viewer.open) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) { event.preventDefault(); if (state && state.canUndo) edit({ action: 'undo' }); }
    if ((key === 'z' && event.shiftKey) || key === 'y') { event.preventDefault(); if (state && state.canRedo) edit({ action: 'redo' }); }
  });

  // Captions ---------------------------------------------------------------------------------------

  let captionEditing = null;  // the id whose caption is being edited: its cell stays in the DOM

  function editCaption(cell) {
    const item = state.items[indexOf(cell.dataset.id)];
    if (!item || item.isPlaceholder || cell.querySelector('.caption-editor')) return;
    const input = el('input', { type: 'text', className: 'caption-editor', value: item.caption || '', 'aria-label': 'Caption of ' + item.alt, maxLength: 10000 });
    captionEditing = item.id;
    cell.draggable = false;
    cell.appendChild(input);
    input.focus();
    editInPlace(input, function (save) {
      captionEditing = null;
      input.remove();
      // As before the edit: on a phone a cell stays undraggable.
      cell.draggable = isDraggable(item);
      if (cells.get(item.id) === cell) cell.focus({ preventScroll: true });
      if (save && input.value !== (item.caption || '')) edit({ action: 'caption', id: item.id, text: input.value });
      scheduleWindow();
    });
  }

  // A field edited in place: Enter or leaving it saves, Esc cancels; `finish(save)` runs once.
  function editInPlace(input, finish) {
    let done = false;
    function end(save) {
      if (done) return;
      done = true;
      finish(save);
    }
    input.addEventListener('keydown', function (event) {
      event.stopPropagation();
      if (event.key === 'Enter') { event.preventDefault(); end(true); }
      if (event.key === 'Escape') { event.preventDefault(); end(false); }
    });
    input.addEventListener('click', function (event) { event.stopPropagation(); });
    input.addEventListener('blur', function () { end(true); });
  }

  // The title: click, Enter or F2 edits it in place; Enter or leaving saves, Esc cancels --------------

  let titleEditor = null;

  function editTitle() {
    if (!state || titleEditor) return;
    // The title shown: the state's, or one just saved whose answer has not come yet.
    const before = titleHeading.dataset.title || '';
    const input = el('input', { type: 'text', className: 'title-editor', value: before, placeholder: fileName, 'aria-label': 'Gallery title', maxLength: 10000 });
    titleEditor = input;
    // While it holds the field, the heading is no button (a button may not contain one).
    titleHeading.removeAttribute('role');
    titleHeading.removeAttribute('tabindex');
    titleHeading.replaceChildren(input);
    input.focus();
    input.select();
    editInPlace(input, function (save) {
      titleEditor = null;
      const text = input.value.trim();
      titleHeading.setAttribute('role', 'button');
      titleHeading.tabIndex = 0;
      titleHeading.dataset.title = save ? text : before;
      titleHeading.textContent = titleHeading.dataset.title || fileName;
      if (document.activeElement === input || document.activeElement === document.body) titleHeading.focus();
      // Empty text clears the title: the page then shows the file name.
      if (save && text !== before) edit({ action: 'title', text: text });
    });
  }

  titleHeading.addEventListener('click', editTitle);
  titleHeading.addEventListener('keydown', function (event) {
    if (event.target !== titleHeading) return;
    if (event.key === 'Enter' || event.key === 'F2' || event.key === ' ') { event.preventDefault(); editTitle(); }
  });

  // Controls ---------------------------------------------------------------------------------------

  undoButton.addEventListener('click', function () { edit({ action: 'undo' }); });
  redoButton.addEventListener('click', function () { edit({ action: 'redo' }); });
  keepButton.addEventListener('click', function () { keep(keepTargets().ids); });
  columns.addEventListener('input', function () { columnsValue.textContent = columns.value; });
  columns.addEventListener('change', function () { setColumns(Number(columns.value)); });
  styleSelect.addEventListener('change', function () {
    localStorage.setItem(styleKey, styleSelect.value);
    keepAnchor();
    load();
  });
  document.getElementById('files').addEventListener('change', function (event) {
    const files = Array.from(event.target.files);
    event.target.value = '';
    upload(files, null);
  });

  function setColumns(count) {
    if (!state || count === state.columns || count < state.columnRange[0] || count > state.columnRange[1]) return;
    keepAnchor();
    edit({ action: 'columns', count: count });
  }

  // Ctrl+wheel, and a touchpad's pinch (which browsers send as one), change the images per row.
  let wheel = 0;
  canvas.addEventListener('wheel', function (event) {
    if (!event.ctrlKey || !state) return;
    event.preventDefault();
    wheel += event.deltaY;
    if (Math.abs(wheel) < 40) return;
    setColumns(state.columns + (wheel > 0 ? 1 : -1));
    wheel = 0;
  }, { passive: false });

  // A new width needs the server's frames for it; until they come, the first image in view is
  // remembered so that it is still at the top afterwards.
  let width = canvas.clientWidth;
  let resizeTimer = null;
  new ResizeObserver(function () {
    if (Math.abs(canvas.clientWidth - width) < 1) return;
    width = canvas.clientWidth;
    keepAnchor();
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(load, 120);
  }).observe(canvas);
  window.addEventListener('scroll', function () { noteMotion(); scheduleWindow(); }, { passive: true });
  window.addEventListener('resize', scheduleWindow);

  // The viewer: the HTML export's (viewer.js), fed the gallery's images ------------------------------

  // Its images are the state's (placeholders left out), asked for through the page's image
  // requests like the grid's. The address names the image shown (#ID: kept on reload and Back,
  // without a history entry per image); closing gives the focus back to that image's tile.
  const viewer = document.getElementById('viewer');
  let viewerHasShown = false;
  let linkedImage = /^#[0-9a-f-]{36}$/i.test(location.hash) ? location.hash.slice(1).toLowerCase() : null;

  let imageViewer = null;  // made when first opened, with the state's strip (PageStyle's)

  function viewerOptions() {
    return {
      items: [],
      strip: state.strip,
      load: function (img, url, rank) { wantImage(img, url, function () { return rank; }); },
      unload: forgetImage,
      explainFailure: failureReason,
      retryURL: function (url) { return url + '?retry=' + Date.now(); },
      actions: [{
        label: 'Keep in gallery',
        title: "Store this image's bytes in the document",
        isShown: function (item) { return item.canKeep; },
        run: function (index, item) { keep([item.id]); },
      }],
      onDelete: function (index, item) { remove([item.id]); },
      onShow: function (index, item) {
        // Paging on: the next image is asked for only if it stays a moment.
        if (viewerHasShown) noteMotion();
        viewerHasShown = true;
        history.replaceState(history.state, '', location.pathname + location.search + '#' + item.id);
      },
      onClose: function (index, item) {
        viewerHasShown = false;
        history.replaceState(history.state, '', location.pathname + location.search);
        if (item) focusItem(indexOf(item.id));
      },
    };
  }

  // What the viewer shows of the state's images.
  function viewerItems() {
    const items = [];
    for (const item of state.items) {
      if (item.isPlaceholder) continue;
      const isOK = item.status === 'ok';
      items.push({
        id: item.id,
        image: imageURL(item.id),
        thumbnail: isOK ? thumbnailURL(item.id) : null,
        alt: item.alt,
        caption: item.caption || '',
        error: item.status === 'failed' ? item.error || 'The image could not be loaded' : null,
        waiting: item.status === 'loading' ? 'Arriving…' : null,
        url: item.url,
        ratio: item.ratio,
        canKeep: isUnstored(item),
      });
    }
    return items;
  }

  function openViewer(index) {
    if (!state || index < 0 || state.items[index].isPlaceholder) return;
    const id = state.items[index].id;
    if (!imageViewer) imageViewer = window.GalleryViewer(viewer, viewerOptions());
    const items = viewerItems();
    imageViewer.update(items);
    imageViewer.open(items.findIndex(function (item) { return item.id === id; }));
  }

  // A new state: the viewer keeps its image; an address naming an image opens it once it is here.
  function showStateInViewer() {
    if (viewer.open && imageViewer) return imageViewer.update(viewerItems());
    if (!linkedImage) return;
    const index = indexOf(linkedImage);
    if (index >= 0 || !isPartial()) linkedImage = null;
    if (index >= 0) openViewer(index);
  }

  window.addEventListener('hashchange', function () {
    const id = location.hash.slice(1).toLowerCase();
    if (!viewer.open && indexOf(id) >= 0) openViewer(indexOf(id));
  });

  // Live updates: other tabs, the CLI, images arriving -------------------------------------------

  const events = new EventSource(base + '/events');
  events.addEventListener('change', function (message) {
    const event = JSON.parse(message.data);
    if (!state) return;
    const arriving = state.items.length - realCount;
    if (event.version === 'gone') return say(name + ' is no longer in the folder.', true);
    if (event.version !== state.version || event.arriving !== arriving || state.items.some(function (item) { return item.status === 'loading'; })) load();
  });

  load();
})();
