// gallery serve's gallery page: loading the state from the server and drawing it (header included).
(function (Gallery, app) {
  'use strict';
  const { api, say } = Gallery;
  const canvas = app.canvas;
  const titleHeading = document.getElementById('title');
  const columns = document.getElementById('columns');
  const columnsValue = document.getElementById('columns-value');
  const undoButton = document.getElementById('undo');
  const redoButton = document.getElementById('redo');

  app.loading = null;  // the request whose answer is drawn; an older one's is not
  let failureShown = null;

  // The page's first answer holds only the first images (and the whole layout's height), so that
  // a gallery of 100,000 images shows its first screen before its whole state (megabytes) has
  // come; a larger one is then loaded whole. Not when the page comes back to a place further on.
  const firstItems = 300;
  app.whole = Promise.resolve();  // settles once a whole state has been drawn

  app.load = function () {
    app.whole = loadState(!app.state && !app.anchorToKeep);
    return app.whole;
  };

  async function loadState(firstOnly) {
    const request = api('GET', app.base + app.query() + (firstOnly ? '&first=' + firstItems : ''));
    app.loading = request;
    try {
      const answer = await request;
      if (app.loading !== request) return;
      app.render(answer);
      if (!app.isPartial()) return;
      // The rest waits until the images in view have come (or a second): it would slow them.
      await inViewShown(1000);
      if (app.loading === request) await loadState(false);
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
        for (const cell of app.cells.values()) if (cell.isSeen && cell.classList.contains('fetching')) waiting = true;
        if (!waiting || performance.now() >= deadline) resolve(); else setTimeout(poll, 50);
      })();
    });
  }

  app.render = function (next) {
    if (next.arrivalFailure && next.arrivalFailure !== failureShown) say(next.arrivalFailure, true);
    failureShown = next.arrivalFailure;
    app.showState(next);
  };

  // Draws a state: the server's, or a move shown before the server's answer.
  app.showState = function (next) {
    const before = app.state ? app.indexById : new Map();
    app.adopt(next);
    showHeader();
    canvas.style.height = Math.ceil(app.state.layout.height) + 'px';
    canvas.dataset.count = String(app.realCount);
    app.retireRemoved();
    if (app.anchorToKeep) {
      app.restoreAnchor(app.anchorToKeep);
      app.anchorToKeep = null;
    }
    app.arrivedBefore = before;
    app.updateWindow();
    app.arrivedBefore = null;
    app.showKeep();
    app.showStateInViewer();
    // An empty gallery says how to fill it, instead of being a blank page.
    app.emptyHint.hidden = next.items.length > 0;
  };

  function showHeader() {
    const state = app.state;
    document.title = (state.title || app.fileName) + ' — Gallery';
    if (!app.titleEditor) app.showTitle(state.title || '');
    undoButton.disabled = !state.canUndo;
    redoButton.disabled = !state.canRedo;
    // The column range (and the viewer's filmstrip cell) are the library's (PageStyle), not
    // restated here.
    columns.min = state.columnRange[0];
    columns.max = state.columnRange[1];
    columns.value = state.columns;
    columnsValue.textContent = state.columns;
  }
})(window.Gallery, window.Gallery.app);
