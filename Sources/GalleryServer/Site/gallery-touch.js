// gallery serve's gallery page: touch: a long press carries images (a reorder, or the trash), two fingers change the images per row.
(function (Gallery, app) {
  'use strict';
  const canvas = app.canvas, trash = app.trash;

  // A long press picks an image up (with the rest of the selection, if it is selected); it follows
  // the finger, the others make room, and letting go moves it there, or over the trash removes it.
  // A finger that moves before the press is long scrolls, as usual. Two fingers pinch the images
  // per row: the layout follows live (the server's, for that many per row) and the end is one
  // `columns` edit. Touch events, not HTML5 drag and drop, which phones do not start from touch.
  app.touchOnly = window.matchMedia('(hover: none) and (pointer: coarse)');
  const touchLift = { delay: 450, tolerance: 8, edge: 64, step: 14 };
  let press = null;   // a finger down on a cell, not held long enough yet
  app.lifted = null;  // the image(s) being carried
  let pinch = null;

  canvas.addEventListener('touchstart', function (event) {
    cancelPress();
    if (!app.state || app.lifted) return;
    if (event.touches.length === 2) return startPinch(event);
    if (event.touches.length !== 1) return;
    const cell = event.target.closest('.cell');
    if (!cell || event.target.closest('button, input')) return;
    const index = app.indexOf(cell.dataset.id);
    if (index < 0 || app.state.items[index].isPlaceholder) return;
    const point = event.touches[0];
    press = { id: cell.dataset.id, x: point.clientX, y: point.clientY, timer: setTimeout(lift, touchLift.delay) };
  }, { passive: true });

  canvas.addEventListener('touchmove', function (event) {
    if (pinch) {
      event.preventDefault();
      if (event.touches.length === 2) movePinch(event);
    } else if (app.lifted) {
      event.preventDefault();
      follow(event.touches[0].clientX, event.touches[0].clientY);
    } else if (press) {
      const point = event.touches[0];
      if (Math.hypot(point.clientX - press.x, point.clientY - press.y) > touchLift.tolerance) cancelPress();
    }
  }, { passive: false });

  canvas.addEventListener('touchend', function (event) {
    cancelPress();
    if (app.lifted && event.touches.length === 0) drop(false);
    if (pinch && event.touches.length < 2) endPinch();
  });
  canvas.addEventListener('touchcancel', function () {
    cancelPress();
    if (app.lifted) drop(true);
    if (pinch) endPinch();
  });
  // The long-press menu (Save image, Copy…) would cover the image being picked up.
  canvas.addEventListener('contextmenu', function (event) { if (press || app.lifted || app.touchOnly.matches) event.preventDefault(); });

  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  function lift() {
    const { id, x, y } = press;
    press = null;
    const index = app.indexOf(id);
    if (index < 0) return;
    const ids = app.targets(id);
    const cell = app.cellAt(index);
    const frame = app.state.layout.frames[index];
    const box = canvas.getBoundingClientRect();
    app.lifted = { id: id, ids: ids, cell: cell, base: app.state, before: undefined, x: x, y: y, grabX: x - box.left - frame[0], grabY: y - box.top - frame[1], scrolling: 0 };
    app.dragging = new Set(ids);
    app.dragSources = new Set(ids.filter(function (each) { return app.cells.has(each); }));
    for (const each of ids) if (each !== id && app.cells.has(each)) app.cells.get(each).classList.add('dragging');
    cell.classList.add('lifted');
    if (ids.length > 1) cell.dataset.count = String(ids.length);
    trash.classList.add('active');
    if (navigator.vibrate) navigator.vibrate(10);
    follow(x, y);
  }

  // The lifted cell under the finger; the others where they would be if it were dropped here.
  function follow(x, y) {
    const lifted = app.lifted;
    lifted.x = x;
    lifted.y = y;
    const box = canvas.getBoundingClientRect();
    lifted.cell.style.transform = 'translate(' + (x - box.left - lifted.grabX) + 'px,' + (y - box.top - lifted.grabY) + 'px) scale(1.04)';
    const overTrash = isOver(trash, x, y);
    trash.classList.toggle('over', overTrash);
    if (!overTrash) makeRoom(x, y);
    scrollNearEdges();
  }

  // The others drawn where the reorder would put them, from the state before the lift.
  function makeRoom(x, y) {
    const lifted = app.lifted;
    const before = app.nextRealAfter(app.dropPoint({ clientX: x, clientY: y }).index, new Set(lifted.ids));
    if (before === lifted.before) return;
    lifted.before = before;
    app.showState(Object.assign({}, lifted.base, { items: Gallery.reorder(lifted.base.items, lifted.ids, before) }));
  }

  // Near the top or the bottom of the view the page scrolls, faster the nearer the finger.
  function scrollNearEdges() {
    const lifted = app.lifted;
    const top = app.visibleTop() + touchLift.edge, bottom = window.innerHeight - touchLift.edge;
    const speed = lifted.y < top ? -touchLift.step * Math.min(1, (top - lifted.y) / touchLift.edge)
      : lifted.y > bottom ? touchLift.step * Math.min(1, (lifted.y - bottom) / touchLift.edge) : 0;
    lifted.speed = speed;
    if (speed === 0 || lifted.scrolling) return;
    lifted.scrolling = requestAnimationFrame(function scroll() {
      const carried = app.lifted;
      if (!carried || carried.speed === 0) { if (carried) carried.scrolling = 0; return; }
      window.scrollBy(0, carried.speed);
      carried.scrolling = 0;
      follow(carried.x, carried.y);
    });
  }

  function drop(cancelled) {
    const carried = app.lifted;
    app.lifted = null;
    cancelAnimationFrame(carried.scrolling);
    trash.classList.remove('active', 'over');
    carried.cell.classList.remove('lifted');
    delete carried.cell.dataset.count;
    for (const cell of app.cells.values()) cell.classList.remove('dragging');
    app.dragging = new Set();
    app.dragSources = new Set();
    const onTrash = !cancelled && isOver(trash, carried.x, carried.y);
    // Back to the state before the lift, from which the edit's own optimistic state is drawn.
    app.showState(carried.base);
    if (onTrash) app.remove(carried.ids);
    else if (!cancelled && carried.before !== undefined) app.move(carried.ids, carried.before);
  }

  function isOver(element, x, y) {
    const box = element.getBoundingClientRect();
    return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
  }

  function touchDistance(touches) {
    return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
  }

  function startPinch(event) {
    pinch = { distance: Math.max(touchDistance(event.touches), 1), columns: app.state.columns, shown: app.state.columns };
  }

  // Spread: fewer per row (larger images); pinch: more.
  function movePinch(event) {
    const range = app.state.columnRange;
    const scale = touchDistance(event.touches) / pinch.distance;
    const count = Math.min(Math.max(Math.round(pinch.columns / scale), range[0]), range[1]);
    if (count === pinch.shown) return;
    pinch.shown = count;
    app.keepAnchor();
    app.previewColumns(count, function () { return pinch !== null; });
  }

  function endPinch() {
    const ended = pinch;
    pinch = null;
    if (ended.shown === ended.columns) return;
    app.keepAnchor();
    app.edit({ action: 'columns', count: ended.shown });
  }
})(window.Gallery, window.Gallery.app);
