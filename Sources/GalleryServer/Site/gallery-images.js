// gallery serve's gallery page: a cell's image, asked for through the image requests, and why one failed.
(function (Gallery, app) {
  'use strict';
  const { el } = Gallery;

  app.images = Gallery.ImageRequests();  // the grid's and the viewer's (image-requests.js)

  // The cell's image: its thumbnail first, which the server has at once (stored in the document),
  // then, if the cell needs more, the smallest rendition at least as large as the device pixels of
  // its frame (image-sizes.js), which the server makes the first time (a few hundred ms for a
  // large photo) from the document's bytes or the fetched web image, and which takes the
  // thumbnail's place once it has come. The cell shows a spinner until the thumbnail loads; if it
  // cannot, the cell becomes an error tile saying why.
  app.image = function (cell, item, isRetry) {
    const img = el('img', { alt: item.alt, decoding: 'async', draggable: false });
    img.fetchPriority = cell.isSeen ? 'high' : 'low';
    img.addEventListener('load', function () { cell.classList.remove('fetching'); });
    img.addEventListener('error', function () { imageFailed(cell, item.id, img); });
    img.addEventListener('load', function () {
      const index = app.indexOf(item.id);
      if (cell.image === img && index >= 0) app.fitImage(cell, app.state.items[index], index);
    }, { once: true });
    cell.classList.add('fetching');
    cell.image = img;
    const sizes = app.sizesOf(item);
    cell.imageEdge = sizes[0][0];
    app.images.want(img, sizes[0][1] + (isRetry ? '?retry=' + Date.now() : ''), function () { return cell.rank; });
    return img;
  };

  // A cell grown (a pinch, a wider window) past its image's size: a larger one is asked for. One
  // still loading is simply asked for in the new size; one shown stays until the larger one has
  // loaded and takes its place, so the cell is never blank meanwhile.
  app.fitImage = function (cell, item, index) {
    const shown = cell.image;
    if (!shown) return;
    const size = sizeOf(item, index);
    if (size.edge <= cell.imageEdge) return;
    cell.imageEdge = size.edge;
    if (cell.classList.contains('fetching')) {
      app.images.want(shown, size.url, function () { return cell.rank; });
      return;
    }
    if (cell.upgrade) { app.images.forget(cell.upgrade); cell.upgrade.remove(); }
    // In the cell (the requests skip an image that is not in the page), hidden until it has loaded.
    const img = cell.upgrade = el('img', { alt: item.alt, decoding: 'async', draggable: false, className: 'upgrading' });
    img.addEventListener('load', function () {
      cell.upgrade = null;
      if (cell.image !== shown) { img.remove(); return; }
      app.images.forget(shown);
      img.className = '';
      shown.replaceWith(img);
      cell.image = img;
    });
    img.addEventListener('error', function () { if (cell.upgrade === img) cell.upgrade = null; app.images.forget(img); img.remove(); });
    shown.after(img);
    app.images.want(img, size.url, function () { return cell.rank; });
  };

  app.renditionURL = function (id, edge) { return app.base + '/renditions/' + id + '/' + edge; };

  // An item's sizes (image-sizes.js): its thumbnail, then the server's renditions smaller than the
  // image and one at the image's own size (the server never enlarges one, and answers a GIF with
  // itself, animated); the whole ladder when its size is not known.
  app.sizesOf = function (item) {
    const sizes = [[item.edge ? Math.min(item.edge, app.state.thumbnailEdge) : app.state.thumbnailEdge, app.thumbnailURL(item.id)]];
    for (const edge of app.state.renditions) {
      if (item.edge && edge >= item.edge) { sizes.push([item.edge, app.renditionURL(item.id, edge)]); break; }
      sizes.push([edge, app.renditionURL(item.id, edge)]);
    }
    return sizes;
  };

  // The size of its image that the cell of items[index] needs: its frame in device pixels.
  function sizeOf(item, index) {
    const frame = app.state.layout.frames[index] || [0, 0, 0, 0];
    return Gallery.sizeFor(app.sizesOf(item), Gallery.neededEdge(frame[2], frame[3], item.ratio));
  }

  async function imageFailed(cell, id, img) {
    const source = img.getAttribute('src');
    if (!source) return;  // discarded: its src was removed on purpose
    const reason = await app.failureReason(source);
    app.unreachable.set(id, reason || 'This browser cannot show this image');
    // Redrawn if still shown; a cell made later shows the tile without asking again.
    const index = app.indexOf(id);
    if (app.cells.get(id) === cell && cell.image === img && index >= 0) app.fill(cell, app.state.items[index], index);
  }

  // Why an image address failed: the server's one line ({"error": …}), or null when it answers
  // with an image after all (one this browser cannot decode). The address is asked without its
  // ?retry=, which would make the server fetch the image once more.
  app.failureReason = async function (source) {
    try {
      const response = await fetch(source.replace(/\?retry=.*$/, ''), { credentials: 'same-origin' });
      if (response.ok) {
        if (response.body) response.body.cancel();
        return null;
      }
      let answer = null;
      try { answer = await response.json(); } catch (error) { answer = null; }
      return (answer && answer.error) || response.status + ' ' + response.statusText;
    } catch (error) {
      return 'The app could not be reached';
    }
  };
})(window.Gallery, window.Gallery.app);
