// gallery serve's gallery page: the image viewer (the HTML export's, viewer*.js) fed the state's images.
(function (Gallery, app) {
  'use strict';

  // Its images are the state's (placeholders left out), asked for through the page's image
  // requests like the grid's. The address names the image shown (#ID: kept on reload and Back,
  // without a history entry per image); closing gives the focus back to that image's tile.
  const viewer = app.viewer = document.getElementById('viewer');
  let viewerHasShown = false;
  let linkedImage = /^#[0-9a-f-]{36}$/i.test(location.hash) ? location.hash.slice(1).toLowerCase() : null;
  let imageViewer = null;  // made when first opened, with the state's strip (PageStyle's)

  function viewerOptions() {
    return {
      items: [],
      strip: app.state.strip,
      load: function (img, url, rank, isUrgent) { app.images.want(img, url, function () { return rank; }, isUrgent); },
      unload: app.images.forget,
      explainFailure: app.failureReason,
      retryURL: function (url) { return url + '?retry=' + Date.now(); },
      retryFailed: function (item) { app.send('retries', { id: item.id }); },
      actions: [{
        label: 'Info',
        title: 'Who made it, its licence, and the photo’s details (i)',
        run: function (index, item) { app.showInfo(item.id); },
      }, {
        label: 'Keep in gallery',
        title: "Store this image's bytes in the document",
        isShown: function (item) { return item.canKeep; },
        run: function (index, item) { app.keep([item.id]); },
      }],
      onDelete: function (index, item) { app.remove([item.id]); },
      onShow: function (index, item) {
        // Paging on: the next image is asked for only if it stays a moment.
        if (viewerHasShown) app.images.noteMotion();
        viewerHasShown = true;
        history.replaceState(history.state, '', location.pathname + location.search + '#' + item.id);
      },
      onClose: function (index, item) {
        viewerHasShown = false;
        history.replaceState(history.state, '', location.pathname + location.search);
        if (item) app.focusItem(app.indexOf(item.id));
      },
    };
  }

  // What the viewer shows of the state's images.
  function viewerItems() {
    const items = [];
    for (const item of app.state.items) {
      if (item.isPlaceholder) continue;
      const isOK = item.status === 'ok';
      items.push({
        id: item.id,
        image: app.imageURL(item.id),
        sizes: isOK ? app.sizesOf(item) : [],
        edge: item.edge || null,
        thumbnail: isOK ? app.thumbnailURL(item.id) : null,
        alt: item.alt,
        caption: item.caption || '',
        credit: item.credit || '',
        error: item.status === 'failed' ? item.error || 'The image could not be loaded' : null,
        waiting: item.status === 'loading' ? 'Arriving…' : null,
        url: item.url,
        ratio: item.ratio,
        canKeep: app.isUnstored(item),
      });
    }
    return items;
  }

  // i: the info panel of the image shown.
  viewer.addEventListener('keydown', function (event) {
    if (event.key !== 'i' || event.ctrlKey || event.metaKey || event.altKey || !imageViewer || event.target.closest('input, textarea')) return;
    const item = viewerItems()[imageViewer.currentIndex()];
    if (!item) return;
    event.preventDefault();
    app.showInfo(item.id);
  });

  app.openViewer = function (index) {
    const state = app.state;
    if (!state || index < 0 || state.items[index].isPlaceholder) return;
    const id = state.items[index].id;
    if (!imageViewer) imageViewer = Gallery.Viewer(viewer, viewerOptions());
    const items = viewerItems();
    imageViewer.update(items);
    imageViewer.open(items.findIndex(function (item) { return item.id === id; }));
  };

  // A new state: the viewer keeps its image; an address naming an image opens it once it is here.
  app.showStateInViewer = function () {
    if (viewer.open && imageViewer) return imageViewer.update(viewerItems());
    if (!linkedImage) return;
    const index = app.indexOf(linkedImage);
    if (index >= 0 || !app.isPartial()) linkedImage = null;
    if (index >= 0) app.openViewer(index);
  };

  window.addEventListener('hashchange', function () {
    const id = location.hash.slice(1).toLowerCase();
    if (!viewer.open && app.indexOf(id) >= 0) app.openViewer(app.indexOf(id));
  });
})(window.Gallery, window.Gallery.app);
