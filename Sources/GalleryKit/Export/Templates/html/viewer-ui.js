// The image viewer's UI: its markup, the bar (counter, actions, Delete, Close), the arrows and the keys.
// A classic script on window.Gallery (frames.js says why); viewer.js says how the viewer's parts fit.
(function (Gallery) {
  'use strict';
  const parts = Gallery.ViewerParts = Gallery.ViewerParts || {};

  // The viewer's markup: constant, no text from the gallery (that goes in through textContent).
  const icon = function (path) {
    return '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="' + path + '"/></svg>';
  };
  const markup =
    '<div class="viewer-bar">' +
      '<p class="counter" aria-live="polite"></p>' +
      '<div class="viewer-actions">' +
        '<button type="button" class="delete" aria-label="Delete (Del)" title="Delete (Del)" hidden>' +
          icon('M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3') + '</button>' +
        '<button type="button" class="close" aria-label="Close (Esc)">' + icon('M6 6l12 12M18 6L6 18') + '</button>' +
      '</div>' +
    '</div>' +
    '<div class="stage">' +
      '<div class="frame">' +
        '<img class="placeholder" alt="" aria-hidden="true" draggable="false" decoding="async">' +
        '<img class="photo" alt="" draggable="false" decoding="async">' +
        '<div class="failure" hidden>' +
          icon('M3 3l18 18M9 3h10a2 2 0 0 1 2 2v10M21 19a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5M3 16l5-5 4 4M15 9.5a1.5 1.5 0 1 0 0-.01') +
          '<p class="failure-error"></p><p class="failure-url"></p>' +
          '<button type="button" class="retry" hidden>Retry</button>' +
        '</div>' +
      '</div>' +
      '<div class="frame neighbour" data-side="-1" aria-hidden="true">' +
        '<img class="placeholder" alt="" draggable="false" decoding="async"><img class="photo" alt="" draggable="false" decoding="async"></div>' +
      '<div class="frame neighbour" data-side="1" aria-hidden="true">' +
        '<img class="placeholder" alt="" draggable="false" decoding="async"><img class="photo" alt="" draggable="false" decoding="async"></div>' +
      '<button type="button" class="nav prev" aria-label="Previous image">' + icon('M15 5l-7 7 7 7') + '</button>' +
      '<button type="button" class="nav next" aria-label="Next image">' + icon('M9 5l7 7-7 7') + '</button>' +
    '</div>' +
    '<p class="viewer-caption"></p>' +
    '<p class="viewer-credit"></p>' +
    '<div class="strip" aria-label="Filmstrip" role="group"><div class="strip-track"></div></div>';

  // Makes the markup in `v.dialog` and puts its parts on `v`.
  parts.markup = function (v) {
    const viewer = v.dialog;
    viewer.innerHTML = markup;
    viewer.tabIndex = -1;
    const part = function (selector) { return viewer.querySelector(selector); };
    Object.assign(v, {
      counter: part('.counter'), stage: part('.stage'), frame: part('.frame'), placeholder: part('.placeholder'),
      photo: part('.photo'), failure: part('.failure'), retryButton: part('.retry'), caption: part('.viewer-caption'),
      credit: part('.viewer-credit'),
      prev: part('.nav.prev'), next: part('.nav.next'), strip: part('.strip'), track: part('.strip-track'),
      deleteButton: part('.delete'), closeButton: part('.close'),
      neighbours: { '-1': part('.frame.neighbour[data-side="-1"]'), '1': part('.frame.neighbour[data-side="1"]') },
    });
  };

  // The bar's buttons (the caller's actions, shown for the items they apply to), the arrows and
  // the keys. Adds v.showBar(): the counter, caption, arrows and actions for the item shown.
  parts.ui = function (v) {
    const options = v.options;
    const actions = (options.actions || []).map(function (action) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'action';
      button.textContent = action.label;
      if (action.title) button.title = action.title;
      button.addEventListener('click', function () { if (v.current >= 0 && !v.isBusy()) action.run(v.current, v.items[v.current]); });
      v.deleteButton.before(button);
      return { button: button, isShown: action.isShown || function () { return true; } };
    });
    v.deleteButton.hidden = !options.onDelete;

    v.showBar = function () {
      const index = v.current, item = v.items[index];
      v.counter.textContent = (index + 1) + ' of ' + v.items.length;
      v.caption.textContent = item.caption || '';
      v.credit.textContent = item.credit || '';
      v.prev.disabled = index === 0;
      v.next.disabled = index === v.items.length - 1;
      for (const action of actions) action.button.hidden = v.current < 0 || !action.isShown(v.items[v.current]);
    };

    v.closeButton.addEventListener('click', function () { v.dialog.close(); });
    v.prev.addEventListener('click', function () { v.show(v.current - 1); });
    v.next.addEventListener('click', function () { v.show(v.current + 1); });
    v.deleteButton.addEventListener('click', function () { v.deleteCurrent(); });

    v.dialog.addEventListener('keydown', function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'Delete' && options.onDelete) {
        event.preventDefault();
        v.deleteCurrent();
        return;
      }
      const moves = { ArrowLeft: v.current - 1, ArrowRight: v.current + 1, Home: 0, End: v.items.length - 1 };
      if (!(event.key in moves) || v.isBusy()) return;
      event.preventDefault();
      v.show(moves[event.key]);
    });
  };
})(window.Gallery = window.Gallery || {});
