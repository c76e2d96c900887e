// gallery serve's gallery page: the mouse's drag and drop (HTML5): reorder, the trash, and images, files or links dropped in.
(function (Gallery, app) {
  'use strict';
  const { el, say } = Gallery;
  const canvas = app.canvas, trash = app.trash;
  const internalType = 'application/x-gallery-ids';
  const marker = el('div', { className: 'insertion', hidden: true });
  canvas.appendChild(marker);
  let dragged = null;           // ids being dragged from this page, in gallery order
  app.dragging = new Set();     // the same (or the touch drag's), to mark cells drawn during the drag
  app.dragSources = new Set();  // the dragged cells in the DOM when the drag began: kept there

  function startDrag(event) {
    const cell = event.target.closest && event.target.closest('.cell');
    if (!cell) return;
    const id = cell.dataset.id;
    app.chooseForDrag(id);
    dragged = app.targets(id);
    app.dragging = new Set(dragged);
    app.dragSources = new Set(dragged.filter(function (each) { return app.cells.has(each); }));
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(internalType, JSON.stringify(dragged));
    event.dataTransfer.setData('text/plain', Gallery.plural(dragged.length, 'image'));
    for (const each of app.dragSources) app.cells.get(each).classList.add('dragging');
    trash.classList.add('active');
  }

  function endDrag() {
    for (const cell of app.cells.values()) cell.classList.remove('dragging');
    trash.classList.remove('active', 'over');
    marker.hidden = true;
    canvas.classList.remove('receiving');
    dragged = null;
    app.dragging = new Set();
    app.dragSources = new Set();
    app.scheduleWindow();
  }

  function accepts(event) {
    const types = Array.from(event.dataTransfer.types);
    return types.includes(internalType) || types.includes('Files') || types.includes('text/uri-list') || types.includes('text/plain');
  }

  // Where a drop at the pointer (clientX, clientY) lands: the index it is inserted at, and the
  // marker's place. O(log items + a row).
  app.dropPoint = function (event) {
    const frames = app.state.layout.frames, lookup = app.frames;
    if (frames.length === 0) return { index: 0, x: 0, y: 0, height: 60 };
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left, y = event.clientY - box.top;
    // The row under the pointer, else the nearer of the rows above and below it.
    let [start, end] = lookup.rowOf(Math.max(0, lookup.firstBelow(y) - 1));
    if (end < frames.length) {
      const bottom = lookup.rowBottom(start, end);
      if (y > bottom && frames[end][1] - y < y - bottom) [start, end] = lookup.rowOf(end);
    }
    for (let at = start; at < end; at += 1) {
      const frame = frames[at];
      if (x < frame[0] + frame[2] / 2) return { index: at, x: frame[0] - 4, y: frame[1], height: frame[3] };
    }
    const last = frames[end - 1];
    return { index: end, x: last[0] + last[2] + 1, y: last[1], height: last[3] };
  };

  canvas.addEventListener('dragstart', startDrag);
  canvas.addEventListener('dragend', endDrag);
  canvas.addEventListener('dragover', function (event) {
    if (!app.state || !accepts(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = dragged ? 'move' : 'copy';
    canvas.classList.toggle('receiving', !dragged);
    const point = app.dropPoint(event);
    marker.hidden = false;
    marker.style.transform = 'translate(' + point.x + 'px,' + point.y + 'px)';
    marker.style.height = point.height + 'px';
  });
  canvas.addEventListener('dragleave', function (event) {
    if (!canvas.contains(event.relatedTarget)) { marker.hidden = true; canvas.classList.remove('receiving'); }
  });
  canvas.addEventListener('drop', function (event) {
    if (!app.state || !accepts(event)) return;
    event.preventDefault();
    const point = app.dropPoint(event);
    marker.hidden = true;
    canvas.classList.remove('receiving');
    const transfer = event.dataTransfer;
    const internal = transfer.getData(internalType);
    if (internal) {
      const ids = JSON.parse(internal);
      app.move(ids, app.nextRealAfter(point.index, new Set(ids)));
    } else if (transfer.files && transfer.files.length > 0) {
      app.upload(Array.from(transfer.files), app.nextRealAfter(point.index));
    } else {
      const urls = droppedURLs(transfer);
      if (urls.length === 0) return say('Nothing in that drop is an image or a link.', true);
      app.send('drops', { urls: urls, before: app.nextRealAfter(point.index) });
    }
  });

  // text/uri-list (one URL a line, # comments), else text that is a URL.
  function droppedURLs(transfer) {
    const list = transfer.getData('text/uri-list');
    const lines = (list || transfer.getData('text/plain') || '').split(/\r?\n/).map(function (line) { return line.trim(); });
    return lines.filter(function (line) { return /^https?:\/\//i.test(line); });
  }

  // A paste adds what a drop would, at the end: an image copied (a screenshot), else links.
  // Not while text is typed (a title, a caption).
  document.addEventListener('paste', function (event) {
    if (!app.state || !event.clipboardData || event.target.closest('input, textarea, [contenteditable="true"]')) return;
    event.preventDefault();
    const transfer = event.clipboardData;
    if (transfer.files && transfer.files.length > 0) return app.upload(Array.from(transfer.files), null);
    const urls = droppedURLs(transfer);
    if (urls.length === 0) return say('Nothing pasted is an image or a link.', true);
    app.send('drops', { urls: urls, before: null });
  });

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
    app.remove(ids);
  });
})(window.Gallery, window.Gallery.app);
