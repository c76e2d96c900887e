// gallery serve's gallery page: the bar's controls, the columns (Ctrl+wheel too), the page's width, and the mouse's other gestures.
(function (Gallery, app) {
  'use strict';
  const canvas = app.canvas;
  const columns = document.getElementById('columns');
  const columnsValue = document.getElementById('columns-value');

  document.getElementById('undo').addEventListener('click', function () { app.edit({ action: 'undo' }); });
  document.getElementById('redo').addEventListener('click', function () { app.edit({ action: 'redo' }); });
  document.getElementById('keep').addEventListener('click', function () { app.keep(app.keepTargets().ids); });
  columns.addEventListener('input', function () { columnsValue.textContent = columns.value; });
  columns.addEventListener('change', function () { setColumns(Number(columns.value)); });
  app.styleSelect.addEventListener('change', function () {
    localStorage.setItem(app.styleKey, app.styleSelect.value);
    app.keepAnchor();
    app.load();
  });
  // The bar's Add images… and the empty gallery's.
  for (const picker of [document.getElementById('files'), document.getElementById('empty-files')]) {
    picker.addEventListener('change', function (event) {
      const files = Array.from(event.target.files);
      event.target.value = '';
      app.upload(files, null);
    });
  }

  // The bar tucks away while the page scrolls down and comes back when it scrolls up (on a
  // phone: app.css moves it only there), never while a title is being edited.
  const bar = document.querySelector('.bar');
  let lastScroll = window.scrollY;
  window.addEventListener('scroll', function () {
    const y = window.scrollY, step = y - lastScroll;
    if (Math.abs(step) < 6) return;
    // Not "while focus is in the bar": a button tapped there (Select) keeps the focus, and the
    // bar then never tucked again.
    bar.classList.toggle('tucked', step > 0 && y > bar.offsetHeight && !app.titleEditor);
    lastScroll = y;
  }, { passive: true });

  function setColumns(count) {
    const state = app.state;
    if (!state || count === state.columns || count < state.columnRange[0] || count > state.columnRange[1]) return;
    app.keepAnchor();
    app.edit({ action: 'columns', count: count });
  }

  // Ctrl+wheel, and a touchpad's pinch (which browsers send as one), change the images per row.
  let wheel = 0;
  canvas.addEventListener('wheel', function (event) {
    if (!event.ctrlKey || !app.state) return;
    event.preventDefault();
    wheel += event.deltaY;
    if (Math.abs(wheel) < 40) return;
    setColumns(app.state.columns + (wheel > 0 ? 1 : -1));
    wheel = 0;
  }, { passive: false });

  // A new width needs the server's frames for it; until they come, the first image in view is
  // remembered so that it is still at the top afterwards.
  let width = canvas.clientWidth;
  let resizeTimer = null;
  new ResizeObserver(function () {
    if (Math.abs(canvas.clientWidth - width) < 1) return;
    width = canvas.clientWidth;
    app.keepAnchor();
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(app.load, 120);
  }).observe(canvas);
  window.addEventListener('scroll', function () { app.images.noteMotion(); app.scheduleWindow(); }, { passive: true });
  window.addEventListener('resize', app.scheduleWindow);

  canvas.addEventListener('dblclick', function (event) {
    const cell = event.target.closest('.cell');
    if (!cell || event.target.closest('button, input')) return;
    if (event.target.classList.contains('caption')) app.editCaption(cell); else app.openViewer(app.indexOf(cell.dataset.id));
  });
  canvas.addEventListener('focusin', function (event) {
    const cell = event.target.closest('.cell');
    if (cell && app.cells.get(cell.dataset.id) === cell) app.setTabStop(cell.dataset.id);
  });
  // A cell that loses focus may be far from the view: the next pass lets it go.
  canvas.addEventListener('focusout', app.scheduleWindow);
})(window.Gallery, window.Gallery.app);
