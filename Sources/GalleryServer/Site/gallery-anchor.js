// gallery serve's gallery page: scroll anchoring, the image kept in place when the layout changes or the page comes back.
(function (Gallery, app) {
  'use strict';
  const canvas = app.canvas;
  const scrollKey = 'gallery.scroll.' + app.name;

  // The first image in view, and where its top is relative to the top of the view.
  function viewAnchor() {
    const state = app.state;
    if (!state || state.items.length === 0 || window.scrollY === 0) return null;
    const top = app.visibleTop() - canvas.getBoundingClientRect().top;
    const index = app.frames.between(top, top)[0];
    if (index >= state.items.length) return null;
    const frame = state.layout.frames[index];
    return { id: state.items[index].id, offset: frame[1] - top, height: frame[3] };
  }

  // Scrolls so that the anchor's image is where it was in the view; the part of it that was
  // above the view stays the same fraction of its new height.
  app.restoreAnchor = function (anchor) {
    const index = app.indexOf(anchor.id);
    if (index < 0) return;
    const frame = app.state.layout.frames[index];
    const offset = anchor.offset >= 0 ? anchor.offset : anchor.offset * frame[3] / anchor.height;
    window.scrollBy(0, canvas.getBoundingClientRect().top + frame[1] - offset - app.visibleTop());
  };

  // The layout is about to change (the page's width, the style, the columns): the next state
  // drawn keeps the first image in view where it is.
  app.keepAnchor = function () { if (!app.anchorToKeep) app.anchorToKeep = viewAnchor(); };

  // A reload (or Back to this page) comes back to the same images: the browser's own restoration
  // cannot, the canvas being empty until the state arrives. A new visit starts at the top.
  history.scrollRestoration = 'manual';
  function readSavedAnchor() {
    const visit = performance.getEntriesByType('navigation')[0];
    if (!visit || (visit.type !== 'reload' && visit.type !== 'back_forward')) return null;
    try { return JSON.parse(sessionStorage.getItem(scrollKey)); } catch (error) { return null; }
  }
  app.anchorToKeep = readSavedAnchor();  // the image to keep at the top when the next state is drawn
  window.addEventListener('pagehide', function () {
    try { sessionStorage.setItem(scrollKey, JSON.stringify(viewAnchor())); } catch (error) { /* storage full or off */ }
  });
})(window.Gallery, window.Gallery.app);
