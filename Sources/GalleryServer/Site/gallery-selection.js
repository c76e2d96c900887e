// gallery serve's gallery page: the selection (click, Shift/Ctrl-click, Select mode) and what an action applies to.
(function (Gallery, app) {
  'use strict';
  const selection = app.selection = new Set();
  let anchor = null;  // the id Shift-click extends from
  let selecting = false;  // Select mode: a tap adds or takes away

  app.choose = function (id, event) {
    const state = app.state;
    if (event.shiftKey && anchor && app.indexOf(anchor) >= 0) {
      const from = app.indexOf(anchor), to = app.indexOf(id);
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
    app.showSelection();
  };

  // A drag picks up the selection if it holds `id`; else `id` alone becomes the selection.
  app.chooseForDrag = function (id) {
    if (!selection.has(id)) { selection.clear(); selection.add(id); anchor = id; app.showSelection(); }
  };

  app.selectAll = function () {
    for (const item of app.state.items) if (!item.isPlaceholder) selection.add(item.id);
    app.showSelection();
  };

  // Only the cells in the DOM show it; a cell made later shows it when it is filled.
  app.showSelection = function () {
    for (const [id, cell] of app.cells) app.showSelected(cell, id);
    app.showKeep();
  };

  app.showSelected = function (cell, id) {
    const isSelected = selection.has(id);
    cell.classList.toggle('selected', isSelected);
    cell.setAttribute('aria-selected', String(isSelected));
  };

  // The images an action applies to: the selection if it includes `id`, else `id` alone; in
  // gallery order. O(k log k) for k chosen images.
  app.targets = function (id) {
    const chosen = id && !selection.has(id) ? [id] : Array.from(selection);
    return chosen
      .filter(function (each) { const index = app.indexOf(each); return index >= 0 && !app.state.items[index].isPlaceholder; })
      .sort(function (a, b) { return app.indexOf(a) - app.indexOf(b); });
  };

  app.canvas.addEventListener('click', function (event) {
    const cell = event.target.closest('.cell');
    if (!cell || event.target.closest('button, input')) return;
    // A tap opens the image, as in Photos and the app this comes from (it selected, and only a
    // double tap opened); selecting by touch is Select mode's. A mouse click selects, a double
    // click opens.
    if (event.pointerType === 'touch' && !selecting) {
      const index = app.indexOf(cell.dataset.id);
      if (index >= 0 && !app.state.items[index].isPlaceholder) app.openViewer(index);
      return;
    }
    // In selection mode a tap adds or takes away, as Ctrl-click does.
    app.choose(cell.dataset.id, selecting ? { ctrlKey: true } : event);
  });

  const selectButton = document.getElementById('select');
  selectButton.addEventListener('click', function () {
    selecting = !selecting;
    selectButton.setAttribute('aria-pressed', String(selecting));
    if (!selecting) { selection.clear(); app.showSelection(); }
  });
})(window.Gallery, window.Gallery.app);
