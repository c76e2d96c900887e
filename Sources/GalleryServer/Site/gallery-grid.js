// gallery serve's gallery page: its virtual grid of cells (Gallery.VirtualGrid) and what a cell shows.
(function (Gallery, app) {
  'use strict';
  const { el } = Gallery;
  const canvas = app.canvas;

  app.unreachable = new Map();  // id -> why its image could not be fetched (shown as an error tile)
  let tabStop = null;           // the one cell Tab reaches (the others are reached with the arrows)
  app.arrivedBefore = null;     // while a state is drawn: the ids of the one before, to fade in new ones

  // Cells only near the viewport; never a cell that has focus, is being dragged or has its
  // caption edited. Images in view are asked for first, in reading order; then those nearest it.
  let pinned = new Set();
  const grid = Gallery.VirtualGrid({
    container: canvas,
    frames: function () { return app.state ? app.frames : null; },
    unit: function () { return 1; },
    keyOf: function (index) { return app.state.items[index].id; },
    indexOf: app.indexOf,
    isKept: function (id) { return pinned.has(id); },
    draw: function (index, cell, seen) {
      const isSeen = index >= seen[0] && index < seen[1];
      cell = draw(index, cell, isSeen);
      cell.rank = isSeen ? index - seen[0] : app.images.aheadRank + Math.min(Math.abs(index - seen[0]), Math.abs(index - seen[1]));
      return cell;
    },
    // Kept cells away from the view still follow a new layout.
    kept: function (index, cell) { draw(index, cell, false).rank = 1e9; },
    discard: discard,
  });
  app.cells = grid.elements;  // id -> its cell in the DOM (cells fading out are not in it)
  let windowRequested = false;

  app.scheduleWindow = function () {
    if (windowRequested) return;
    windowRequested = true;
    requestAnimationFrame(function () { windowRequested = false; app.updateWindow(); });
  };

  // Brings the DOM in line with the viewport, and asks for the images in view before those
  // around it. O(cells near the viewport + log items).
  app.updateWindow = function () {
    if (!app.state) return;
    pinned = pinnedIDs();
    const seen = grid.update() || [0, 0];
    app.images.pump();
    if (!tabStop || !app.cells.has(tabStop)) app.setTabStop(seen[0] < app.state.items.length ? app.state.items[seen[0]].id : null);
  };

  // The cell of state.items[index], made (in the DOM) if needed.
  app.cellAt = function (index) { return grid.show(index); };

  function pinnedIDs() {
    const pinned = new Set(app.dragSources);
    const active = document.activeElement;
    const cell = active && active.closest ? active.closest('#canvas .cell') : null;
    if (cell) pinned.add(cell.dataset.id);
    if (app.captionEditing) pinned.add(app.captionEditing);
    for (const id of pinned) if (!app.indexById.has(id)) pinned.delete(id);
    return pinned;
  }

  // The cell of state.items[index] (`cell`, or a new one), redrawn if the state changed since.
  function draw(index, cell, isSeen) {
    const item = app.state.items[index];
    const isNew = !cell;
    if (isNew) cell = el('div', { className: 'cell', tabIndex: -1, role: 'listitem', dataset: { id: item.id } });
    // The first request for an image goes out with its priority: in view first.
    cell.isSeen = isSeen;
    if (cell.generation !== app.generation) {
      fill(cell, item, index);
      place(cell, app.state.layout.frames[index]);
      if (!isNew) app.fitImage(cell, item, index);
      cell.generation = app.generation;
    }
    if (cell.image && cell.image.fetchPriority !== (isSeen ? 'high' : 'low')) cell.image.fetchPriority = isSeen ? 'high' : 'low';
    // Only images new in this state fade in; those scrolled to are simply there.
    if (isNew && app.arrivedBefore !== null && !app.arrivedBefore.has(item.id)) {
      cell.classList.add('entering');
      requestAnimationFrame(function () { requestAnimationFrame(function () { cell.classList.remove('entering'); }); });
    }
    return cell;
  }

  // Removes a cell from the DOM, and its image from the requests (see image-requests.js).
  function discard(cell) {
    if (cell.image) app.images.forget(cell.image);
    if (cell.upgrade) app.images.forget(cell.upgrade);
    cell.image = cell.upgrade = null;
    cell.remove();
  }

  // Cells of images no longer in the state fade out.
  app.retireRemoved = function () {
    for (const [id, cell] of app.cells) {
      if (app.indexById.has(id)) continue;
      app.cells.delete(id);
      cell.classList.add('leaving');
      setTimeout(function () { discard(cell); }, 250);
    }
    for (const id of app.selection) if (!app.indexById.has(id)) app.selection.delete(id);
    for (const id of app.unreachable.keys()) if (!app.indexById.has(id)) app.unreachable.delete(id);
  };

  function place(cell, frame) {
    if (!frame || (app.lifted && app.lifted.cell === cell)) return;  // a lifted cell follows the finger
    const transform = 'translate(' + frame[0] + 'px,' + frame[1] + 'px)';
    if (cell.style.transform !== transform) cell.style.transform = transform;
    cell.style.width = frame[2] + 'px';
    cell.style.height = frame[3] + 'px';
  }

  // Roving tabindex: Tab enters the grid at one cell, the arrow keys move within it.
  app.setTabStop = function (id) {
    if (id === tabStop) return;
    const previous = tabStop && app.cells.get(tabStop);
    if (previous) previous.tabIndex = -1;
    tabStop = id;
    const cell = id && app.cells.get(id);
    if (cell) cell.tabIndex = 0;
  };

  // Whether a cell is dragged with HTML5 drag and drop: a mouse's; a phone's long press is the
  // page's own touch drag (gallery-touch.js), and a caption being edited holds its cell.
  app.isDraggable = function (item) { return !item.isPlaceholder && app.captionEditing !== item.id && !app.touchOnly.matches; };

  // The cell's attributes, and its content when what that shows changed (a caption alone is
  // updated in place, so that editing it does not reload the image).
  function fill(cell, item, index) {
    cell.dataset.index = String(index);
    cell.setAttribute('aria-label', item.alt);
    cell.setAttribute('aria-posinset', String(index + 1));
    cell.setAttribute('aria-setsize', String(app.state.items.length));
    cell.tabIndex = item.id === tabStop ? 0 : -1;
    cell.draggable = app.isDraggable(item);
    for (const status of ['ok', 'failed', 'loading']) cell.classList.toggle(status, item.status === status);
    cell.classList.toggle('unstored', app.isUnstored(item));
    cell.classList.toggle('dragging', app.dragging.has(item.id));
    app.showSelected(cell, item.id);
    const look = lookOf(item);
    if (cell.look !== look) {
      cell.look = look;
      showContent(cell, item, false);
    }
    const caption = cell.querySelector('.caption');
    if (caption && caption.textContent !== (item.caption || '')) caption.textContent = item.caption || '';
    if (cell.image && cell.image.alt !== item.alt) cell.image.alt = item.alt;
  }
  app.fill = fill;

  // What decides a cell's content (its caption aside).
  function lookOf(item) {
    const why = item.status === 'ok' && !item.isPlaceholder ? app.unreachable.get(item.id) : undefined;
    return [item.status, item.isPlaceholder, item.error, item.url, why].join('\u0000');
  }

  // What a cell shows: a placeholder's address, a failed image's tile, the image (or, when the
  // server could not fetch it, why), and the caption. A caption being edited stays.
  function showContent(cell, item, isRetry) {
    if (cell.image) app.images.forget(cell.image);
    if (cell.upgrade) { app.images.forget(cell.upgrade); cell.upgrade = null; }
    cell.image = null;
    cell.classList.remove('fetching', 'unreachable');
    const parts = [];
    if (item.status === 'loading') {
      parts.push(el('span', { className: 'label', textContent: item.url }));
    } else if (item.status === 'failed') {
      parts.push(...errorTile(item.error || 'The image could not be loaded', 'Try ' + item.url + ' again', function () {
        app.send('retries', { id: item.id });
      }));
    } else if (app.unreachable.has(item.id) && !isRetry) {
      cell.classList.add('unreachable');
      parts.push(...errorTile(app.unreachable.get(item.id), 'Retry ' + item.alt, function () { retryImage(cell, item.id); }));
    } else {
      parts.push(app.image(cell, item, isRetry));
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

  function retryImage(cell, id) {
    const index = app.indexOf(id);
    if (index < 0) return;
    app.unreachable.delete(id);
    const item = app.state.items[index];
    cell.look = lookOf(item);
    showContent(cell, item, true);
    cell.focus({ preventScroll: true });
  }
})(window.Gallery, window.Gallery.app);
