// gallery serve's gallery page: a cell's image, asked for through the image requests, and why one failed.
(function (Gallery, app) {
  'use strict';
  const { el } = Gallery;

  app.images = Gallery.ImageRequests();  // the grid's and the viewer's (image-requests.js)

  // The cell's image: its thumbnail, which the server serves from the document or fetches (an
  // image the document does not store). The cell shows a spinner until it loads; if it cannot, the
  // cell becomes an error tile saying why.
  app.image = function (cell, item, isRetry) {
    const img = el('img', { alt: item.alt, decoding: 'async', draggable: false });
    img.fetchPriority = cell.isSeen ? 'high' : 'low';
    img.addEventListener('load', function () { cell.classList.remove('fetching'); });
    img.addEventListener('error', function () { imageFailed(cell, item.id, img); });
    cell.classList.add('fetching');
    cell.image = img;
    app.images.want(img, app.thumbnailURL(item.id) + (isRetry ? '?retry=' + Date.now() : ''), function () { return cell.rank; });
    return img;
  };

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
