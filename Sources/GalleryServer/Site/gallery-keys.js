// gallery serve's gallery page: the keyboard: arrows between images, Alt+arrows to move them, Delete, Enter, Space, F2, undo.
(function (Gallery, app) {
  'use strict';
  const canvas = app.canvas;

  // Shows the image at `index` (scrolling it into view, making its cell) and focuses its cell.
  app.focusItem = function (index) {
    if (!app.state || index < 0 || index >= app.state.items.length) return;
    reveal(index);
    app.updateWindow();
    const cell = app.cellAt(index);
    cell.focus({ preventScroll: true });
    app.setTabStop(app.state.items[index].id);
  };

  // Scrolls the least that shows the whole frame between the sticky bar and the bottom.
  function reveal(index) {
    const frame = app.state.layout.frames[index];
    const top = canvas.getBoundingClientRect().top + frame[1], bottom = top + frame[3];
    const from = app.visibleTop() + 8, to = window.innerHeight - 8;
    if (top < from) window.scrollBy(0, top - from);
    else if (bottom > to) window.scrollBy(0, Math.min(bottom - to, top - from));
  }

  canvas.addEventListener('keydown', function (event) {
    const cell = event.target.closest && event.target.closest('.cell');
    if (!cell || event.target.tagName === 'INPUT' || event.target.tagName === 'BUTTON' || !app.state) return;
    const id = cell.dataset.id;
    const index = app.indexOf(id);
    if (index < 0) return;  // a cell fading out after its image was removed
    const item = app.state.items[index];
    const isArrow = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key);
    if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      if (!item.isPlaceholder) moveByKey(id, event.key === 'ArrowLeft' ? -1 : 1);
    } else if (isArrow || event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      app.focusItem(neighbour(index, event.key));
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      if (item.isPlaceholder) return;
      const ids = app.targets(id);
      // Focus goes on to the next image left (the previous one after the last).
      const after = app.nextRealAfter(index + 1, new Set(ids)) || app.lastRealBefore(index, new Set(ids));
      app.remove(ids);
      if (after) app.focusItem(app.indexOf(after));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      app.openViewer(index);
    } else if (event.key === ' ') {
      event.preventDefault();
      app.choose(id, { ctrlKey: true });
    } else if (event.key === 'F2') {
      event.preventDefault();
      app.editCaption(cell);
    } else if (event.key === 'Escape') {
      app.selection.clear();
      app.showSelection();
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      app.selectAll();
    }
  });

  // Alt+←/→: moves the image (or the selection holding it) one place, and keeps it in view.
  function moveByKey(id, step) {
    const items = app.state.items;
    const ids = app.targets(id);
    const moving = new Set(ids);
    const positions = ids.map(app.indexOf);
    if (step < 0) {
      const first = Math.min.apply(null, positions);
      if (first === 0) return;
      let at = first - 1;
      while (at > 0 && (moving.has(items[at].id) || items[at].isPlaceholder)) at -= 1;
      app.move(ids, app.nextRealAfter(at, moving));
    } else {
      const last = Math.max.apply(null, positions);
      let at = last + 1;
      while (at < items.length && (moving.has(items[at].id) || items[at].isPlaceholder)) at += 1;
      if (at >= items.length) return;
      app.move(ids, app.nextRealAfter(at + 1, moving));
    }
    requestAnimationFrame(function () { app.focusItem(app.indexOf(id)); });
  }

  // The index the arrow keys (and Home, End) go to from `index`: up and down go to the frame of the
  // next row whose centre is nearest. O(log items + a row).
  function neighbour(index, key) {
    const frames = app.state.layout.frames, lookup = app.frames, last = app.state.items.length - 1;
    if (key === 'ArrowLeft') return Math.max(0, index - 1);
    if (key === 'ArrowRight') return Math.min(last, index + 1);
    if (key === 'Home') return 0;
    if (key === 'End') return last;
    const here = frames[index], centre = here[0] + here[2] / 2;
    let row;
    if (key === 'ArrowDown') {
      const below = lookup.firstBelow(here[1] + 1);
      if (below > last) return index;
      row = lookup.rowOf(below);
    } else {
      const above = lookup.firstFrom(here[1] - 1);
      if (above === 0) return index;
      row = lookup.rowOf(above - 1);
    }
    let target = index, best = Infinity;
    for (let at = row[0]; at < row[1]; at += 1) {
      const distance = Math.abs(frames[at][0] + frames[at][2] / 2 - centre);
      if (distance < best) { best = distance; target = at; }
    }
    return target;
  }

  // Undo and redo, in the viewer too (a Del there is undone without closing it first).
  document.addEventListener('keydown', function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.target.tagName === 'INPUT') return;
    const key = event.key.toLowerCase();
    const state = app.state;
    if (key === 'z' && !event.shiftKey) { event.preventDefault(); if (state && state.canUndo) app.edit({ action: 'undo' }); }
    if ((key === 'z' && event.shiftKey) || key === 'y') { event.preventDefault(); if (state && state.canRedo) app.edit({ action: 'redo' }); }
  });

  // The keys and gestures sheet: the ? button, or the ? key anywhere but in a text field.
  const help = document.getElementById('help');
  document.getElementById('show-help').addEventListener('click', function () { help.showModal(); });
  document.addEventListener('keydown', function (event) {
    if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || app.viewer.open) return;
    if (event.target.closest('input, textarea, [contenteditable="true"]')) return;
    event.preventDefault();
    help.showModal();
  });
})(window.Gallery, window.Gallery.app);
