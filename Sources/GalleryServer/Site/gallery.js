// gallery serve: one gallery — its images at the frames the server computed with GalleryLayout
// for this page's width (the page never lays out by itself), drag and drop, selection, the
// keyboard, captions, columns, undo/redo, the viewer, and live updates from other tabs.
(function () {
  'use strict';
  const { api, el, say } = Gallery;
  const name = decodeURIComponent(location.pathname.replace(/^\/gallery\//, ''));
  const base = '/api/galleries/' + Gallery.path(name);
  const canvas = document.getElementById('canvas');
  const trash = document.getElementById('trash');
  const columns = document.getElementById('columns');
  const columnsValue = document.getElementById('columns-value');
  const styleSelect = document.getElementById('style');
  const undoButton = document.getElementById('undo');
  const redoButton = document.getElementById('redo');
  const internalType = 'application/x-gallery-ids';

  let state = null;          // the server's last answer
  const cells = new Map();   // image id -> element, kept across renders so that cells glide
  const selection = new Set();
  let anchor = null;         // the id Shift-click extends from
  let dragged = null;        // ids being dragged from this page
  let loading = null;

  const styleKey = 'gallery.style.' + name;
  styleSelect.value = localStorage.getItem(styleKey) || 'justified';

  function query() {
    return '?width=' + Math.max(100, Math.round(canvas.clientWidth)) + '&style=' + styleSelect.value;
  }

  async function load() {
    const request = api('GET', base + query());
    loading = request;
    try {
      const answer = await request;
      if (loading === request) render(answer);
    } catch (error) {
      say(error.message, true);
    }
  }

  // Rendering ----------------------------------------------------------------------------------

  let failureShown = null;

  function render(next) {
    if (next.arrivalFailure && next.arrivalFailure !== failureShown) say(next.arrivalFailure, true);
    failureShown = next.arrivalFailure;
    state = next;
    document.title = (state.title || name) + ' — Gallery';
    document.getElementById('title').textContent = state.title || name.replace(/\.gallery$/i, '');
    undoButton.disabled = !state.canUndo;
    redoButton.disabled = !state.canRedo;
    // The column range and the filmstrip's cell are the library's (PageStyle), not restated here.
    columns.min = state.columnRange[0];
    columns.max = state.columnRange[1];
    columns.value = state.columns;
    columnsValue.textContent = state.columns;
    const filmstrip = document.getElementById('viewer-strip');
    filmstrip.style.setProperty('--strip-cell', state.strip.cell + 'px');
    filmstrip.style.setProperty('--strip-gap', state.strip.spacing + 'px');
    canvas.style.height = Math.ceil(state.layout.height) + 'px';
    canvas.dataset.count = String(state.items.filter(function (item) { return !item.isPlaceholder; }).length);
    const present = new Set();
    state.items.forEach(function (item, index) {
      present.add(item.id);
      let cell = cells.get(item.id);
      const isNew = !cell;
      if (isNew) {
        cell = makeCell(item);
        cells.set(item.id, cell);
        cell.classList.add('entering');
      }
      fill(cell, item, index);
      place(cell, state.layout.frames[index]);
      if (isNew) {
        canvas.appendChild(cell);
        requestAnimationFrame(function () { requestAnimationFrame(function () { cell.classList.remove('entering'); }); });
      }
    });
    for (const [id, cell] of cells) {
      if (present.has(id)) continue;
      cells.delete(id);
      selection.delete(id);
      cell.classList.add('leaving');
      setTimeout(function () { cell.remove(); }, 250);
    }
    showSelection();
  }

  function place(cell, frame) {
    if (!frame) return;
    cell.style.transform = 'translate(' + frame[0] + 'px,' + frame[1] + 'px)';
    cell.style.width = frame[2] + 'px';
    cell.style.height = frame[3] + 'px';
  }

  function makeCell(item) {
    const cell = el('div', { className: 'cell', tabIndex: 0, draggable: true, role: 'listitem', dataset: { id: item.id } });
    cell.addEventListener('click', function (event) { choose(item.id, event); });
    cell.addEventListener('dblclick', function (event) {
      if (event.target.classList.contains('caption')) editCaption(cell); else openViewer(indexOf(cell.dataset.id));
    });
    cell.addEventListener('dragstart', startDrag);
    cell.addEventListener('dragend', endDrag);
    return cell;
  }

  // The cell's content, rebuilt only when what it shows changed.
  function fill(cell, item, index) {
    const key = [item.status, item.hasThumbnail, item.isCached, item.caption, item.error, item.url].join('\u0000');
    cell.dataset.index = String(index);
    cell.setAttribute('aria-label', item.alt);
    if (cell.dataset.key === key) return;
    cell.dataset.key = key;
    cell.className = 'cell ' + item.status + (cell.classList.contains('entering') ? ' entering' : '');
    cell.draggable = !item.isPlaceholder;
    const children = [];
    if (item.status === 'loading') {
      children.push(el('span', { className: 'label', textContent: item.url }));
    } else if (item.status === 'failed') {
      const retry = el('button', { type: 'button', textContent: 'Retry', 'aria-label': 'Try ' + item.url + ' again' });
      retry.addEventListener('click', function (event) { event.stopPropagation(); send('retries', { id: item.id }); });
      children.push(
        el('span', { className: 'mark', textContent: '⚠', 'aria-hidden': 'true' }),
        el('span', { className: 'why', textContent: item.error || 'The image could not be loaded' }),
        retry
      );
    } else if (item.hasThumbnail || item.isCached) {
      children.push(el('img', {
        alt: item.alt, decoding: 'async', draggable: false,
        src: base + (item.hasThumbnail ? '/thumbnails/' : '/images/') + item.id,
      }));
    } else {
      cell.classList.add('unstored');
      children.push(el('span', { textContent: 'Not stored in the document: ' + hostOf(item.url) }));
    }
    if (!item.isPlaceholder) children.push(el('p', { className: 'caption', textContent: item.caption || '' }));
    cell.replaceChildren(...children);
  }

  function hostOf(url) {
    try { return new URL(url).host || url; } catch (error) { return url; }
  }

  function indexOf(id) { return state.items.findIndex(function (item) { return item.id === id; }); }

  // Selection ----------------------------------------------------------------------------------

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

  function showSelection() {
    for (const [id, cell] of cells) {
      cell.classList.toggle('selected', selection.has(id));
      cell.setAttribute('aria-selected', String(selection.has(id)));
    }
  }

  // The images an action applies to: the selection if it includes `id`, else `id` alone; in
  // gallery order.
  function targets(id) {
    const chosen = id && !selection.has(id) ? new Set([id]) : selection;
    return state.items.filter(function (item) { return chosen.has(item.id) && !item.isPlaceholder; }).map(function (item) { return item.id; });
  }

  // Edits --------------------------------------------------------------------------------------

  // Draws the answer to a change; a reload started before it must not draw over it.
  function showChange(answer) {
    loading = null;
    render(answer);
  }

  async function send(route, body) {
    try {
      showChange(await api('POST', base + '/' + route + query(), body));
    } catch (error) {
      say(error.message, true);
      load();
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
    render(Object.assign({}, state, { items: reordered }));
    edit({ action: 'move', ids: ids, before: before });
  }

  function remove(ids) {
    if (ids.length === 0) return;
    say('Removed ' + Gallery.plural(ids.length, 'image') + ' (Undo brings them back)');
    edit({ action: 'remove', ids: ids });
  }

  function nextRealAfter(index, skipping) {
    for (let at = index; at < state.items.length; at += 1) {
      const item = state.items[at];
      if (!item.isPlaceholder && !(skipping && skipping.has(item.id))) return item.id;
    }
    return null;
  }

  // Drag and drop ------------------------------------------------------------------------------

  const marker = el('div', { className: 'insertion', hidden: true });
  canvas.appendChild(marker);

  function startDrag(event) {
    const id = event.currentTarget.dataset.id;
    if (!selection.has(id)) { selection.clear(); selection.add(id); anchor = id; showSelection(); }
    dragged = targets(id);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(internalType, JSON.stringify(dragged));
    event.dataTransfer.setData('text/plain', Gallery.plural(dragged.length, 'image'));
    dragged.forEach(function (each) { const cell = cells.get(each); if (cell) cell.classList.add('dragging'); });
    trash.classList.add('active');
  }

  function endDrag() {
    for (const cell of cells.values()) cell.classList.remove('dragging');
    trash.classList.remove('active', 'over');
    marker.hidden = true;
    canvas.classList.remove('receiving');
    dragged = null;
  }

  function accepts(event) {
    const types = Array.from(event.dataTransfer.types);
    return types.includes(internalType) || types.includes('Files') || types.includes('text/uri-list') || types.includes('text/plain');
  }

  // Where a drop at the pointer lands: the index it is inserted at, and the marker's place.
  function dropPoint(event) {
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left, y = event.clientY - box.top;
    const frames = state.layout.frames;
    if (frames.length === 0) return { index: 0, x: 0, y: 0, height: 60 };
    let rowTop = null, best = Infinity;
    for (const frame of frames) {
      const distance = y < frame[1] ? frame[1] - y : y > frame[1] + frame[3] ? y - frame[1] - frame[3] : 0;
      if (distance < best) { best = distance; rowTop = frame[1]; }
    }
    let index = -1, last = -1;
    for (let at = 0; at < frames.length; at += 1) {
      const frame = frames[at];
      if (Math.abs(frame[1] - rowTop) > 0.5) continue;
      last = at;
      if (index < 0 && x < frame[0] + frame[2] / 2) index = at;
    }
    if (index < 0) {
      const frame = frames[last];
      return { index: last + 1, x: frame[0] + frame[2] + 1, y: frame[1], height: frame[3] };
    }
    const frame = frames[index];
    return { index: index, x: frame[0] - 4, y: frame[1], height: frame[3] };
  }

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

  // Keyboard -----------------------------------------------------------------------------------

  canvas.addEventListener('keydown', function (event) {
    const cell = event.target.closest && event.target.closest('.cell');
    if (!cell || event.target.tagName === 'INPUT' || !state) return;
    const id = cell.dataset.id;
    const index = indexOf(id);
    if (index < 0) return;  // a cell fading out after its image was removed
    const item = state.items[index];
    if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      if (item.isPlaceholder) return;
      const ids = targets(id);
      const moving = new Set(ids);
      const positions = ids.map(indexOf);
      if (event.key === 'ArrowLeft') {
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
      requestAnimationFrame(function () { cell.focus(); });
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      focusNeighbour(index, event.key);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      if (item.isPlaceholder) return;
      const ids = targets(id);
      const after = nextRealAfter(index + 1, new Set(ids));
      remove(ids);
      if (after) requestAnimationFrame(function () { const next = cells.get(after); if (next) next.focus(); });
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
      state.items.forEach(function (each) { if (!each.isPlaceholder) selection.add(each.id); });
      showSelection();
    }
  });

  function focusNeighbour(index, key) {
    const frames = state.layout.frames;
    let target = index;
    if (key === 'ArrowLeft') target = Math.max(0, index - 1);
    else if (key === 'ArrowRight') target = Math.min(state.items.length - 1, index + 1);
    else {
      const here = frames[index], centre = here[0] + here[2] / 2;
      let best = Infinity;
      frames.forEach(function (frame, at) {
        const below = frame[1] > here[1] + 1, above = frame[1] < here[1] - 1;
        if ((key === 'ArrowDown' && !below) || (key === 'ArrowUp' && !above)) return;
        const distance = Math.abs(frame[1] - here[1]) * 4 + Math.abs(frame[0] + frame[2] / 2 - centre);
        if (distance < best) { best = distance; target = at; }
      });
    }
    const cell = cells.get(state.items[target].id);
    if (cell) cell.focus();
  }

  document.addEventListener('keydown', function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.target.tagName === 'INPUT' || viewer.open) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) { event.preventDefault(); if (state && state.canUndo) edit({ action: 'undo' }); }
    if ((key === 'z' && event.shiftKey) || key === 'y') { event.preventDefault(); if (state && state.canRedo) edit({ action: 'redo' }); }
  });

  // Captions -----------------------------------------------------------------------------------

  function editCaption(cell) {
    const item = state.items[indexOf(cell.dataset.id)];
    if (!item || item.isPlaceholder || cell.querySelector('.caption-editor')) return;
    const input = el('input', { type: 'text', className: 'caption-editor', value: item.caption || '', 'aria-label': 'Caption of ' + item.alt, maxLength: 10000 });
    cell.draggable = false;
    cell.appendChild(input);
    input.focus();
    let done = false;
    function finish(save) {
      if (done) return;
      done = true;
      input.remove();
      cell.draggable = true;
      cell.focus();
      if (save && input.value !== (item.caption || '')) edit({ action: 'caption', id: item.id, text: input.value });
    }
    input.addEventListener('keydown', function (event) {
      event.stopPropagation();
      if (event.key === 'Enter') finish(true);
      if (event.key === 'Escape') finish(false);
    });
    input.addEventListener('click', function (event) { event.stopPropagation(); });
    input.addEventListener('blur', function () { finish(true); });
  }

  // Controls -----------------------------------------------------------------------------------

  undoButton.addEventListener('click', function () { edit({ action: 'undo' }); });
  redoButton.addEventListener('click', function () { edit({ action: 'redo' }); });
  columns.addEventListener('input', function () { columnsValue.textContent = columns.value; });
  columns.addEventListener('change', function () { setColumns(Number(columns.value)); });
  styleSelect.addEventListener('change', function () { localStorage.setItem(styleKey, styleSelect.value); load(); });
  document.getElementById('files').addEventListener('change', function (event) {
    const files = Array.from(event.target.files);
    event.target.value = '';
    upload(files, null);
  });

  function setColumns(count) {
    if (!state || count === state.columns || count < state.columnRange[0] || count > state.columnRange[1]) return;
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

  let width = canvas.clientWidth;
  new ResizeObserver(function () {
    if (Math.abs(canvas.clientWidth - width) < 1) return;
    width = canvas.clientWidth;
    clearTimeout(canvas.resizeTimer);
    canvas.resizeTimer = setTimeout(load, 120);
  }).observe(canvas);

  // The viewer: the large image, a filmstrip in sync, ←/→, Esc ---------------------------------

  const viewer = document.getElementById('viewer');
  const viewerImage = document.getElementById('viewer-image');
  const viewerFailure = document.getElementById('viewer-failure');
  const strip = document.getElementById('viewer-strip');
  let viewing = [];   // the real images when the viewer opened
  let current = -1;

  function openViewer(index) {
    if (!state || index < 0) return;
    viewing = state.items.filter(function (item) { return !item.isPlaceholder; });
    const id = state.items[index].id;
    current = Math.max(0, viewing.findIndex(function (item) { return item.id === id; }));
    strip.replaceChildren(...viewing.map(function (item, at) {
      const thumb = el('button', { type: 'button', tabIndex: -1, 'aria-label': item.alt });
      if (item.hasThumbnail || item.isCached) thumb.appendChild(el('img', { alt: '', loading: 'lazy', src: base + (item.hasThumbnail ? '/thumbnails/' : '/images/') + item.id }));
      thumb.addEventListener('click', function () { show(at); });
      return thumb;
    }));
    if (!viewer.open) viewer.showModal();
    show(current);
  }

  function show(index) {
    if (viewing.length === 0) return;
    current = Math.min(Math.max(index, 0), viewing.length - 1);
    const item = viewing[current];
    document.getElementById('viewer-counter').textContent = (current + 1) + ' of ' + viewing.length;
    document.getElementById('viewer-caption').textContent = item.caption || '';
    const stored = item.isCached || item.hasThumbnail;
    viewerImage.hidden = !stored || item.status === 'failed';
    viewerFailure.hidden = !viewerImage.hidden;
    if (!viewerImage.hidden) {
      viewerImage.alt = item.alt;
      viewerImage.src = base + (item.isCached ? '/images/' : '/thumbnails/') + item.id;
    } else {
      viewerFailure.textContent = item.error || 'Not stored in the document: ' + item.url;
    }
    Array.from(strip.children).forEach(function (thumb, at) {
      thumb.classList.toggle('current', at === current);
      if (at === current) thumb.style.setProperty('--strip-width', item.stripWidth + 'px');
    });
    centreStrip();
  }

  function centreStrip() {
    const thumb = strip.children[current];
    if (thumb) strip.scrollLeft = thumb.offsetLeft - strip.clientWidth / 2 + thumb.offsetWidth / 2;
  }

  document.getElementById('viewer-prev').addEventListener('click', function () { show(current - 1); });
  document.getElementById('viewer-next').addEventListener('click', function () { show(current + 1); });
  document.getElementById('viewer-close').addEventListener('click', function () { viewer.close(); });
  viewer.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowLeft') show(current - 1);
    if (event.key === 'ArrowRight') show(current + 1);
  });
  viewer.addEventListener('close', function () {
    const item = viewing[current];
    const cell = item && cells.get(item.id);
    if (cell) cell.focus();
  });
  window.addEventListener('resize', function () { if (viewer.open) centreStrip(); });

  // Live updates: other tabs, the CLI, images arriving -----------------------------------------

  const events = new EventSource(base + '/events');
  events.addEventListener('change', function (message) {
    const event = JSON.parse(message.data);
    if (!state) return;
    const arriving = state.items.filter(function (item) { return item.isPlaceholder; }).length;
    if (event.version === 'gone') return say(name + ' is no longer in the folder.', true);
    if (event.version !== state.version || event.arriving !== arriving || state.items.some(function (item) { return item.status === 'loading'; })) load();
  });

  load();
})();
