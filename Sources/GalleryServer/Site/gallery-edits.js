// gallery serve's gallery page: edits sent to the server (move, remove, keep, uploads…) and its answers drawn.
(function (Gallery, app) {
  'use strict';
  const { api, say } = Gallery;
  const keepButton = document.getElementById('keep');

  // Draws the answer to a change; a reload started before it must not draw over it.
  function showChange(answer) {
    app.loading = null;
    app.render(answer);
  }

  // Sends a change (once the whole state is here); resolves to whether the server made it.
  app.send = async function (route, body) {
    await app.whole;
    try {
      showChange(await api('POST', app.base + '/' + route + app.query(), body));
      return true;
    } catch (error) {
      say(error.message, true);
      app.load();
      return false;
    }
  };

  app.edit = function (body) { return app.send('edits', body); };

  // Moves `ids` before `before` (null: the end) at once on the page, then saves: where the mouse,
  // a finger and the keys all end.
  app.move = function (ids, before) {
    if (ids.length === 0) return;
    const state = app.state;
    const reordered = Gallery.reorder(state.items, ids, before);
    if (reordered.every(function (item, index) { return item === state.items[index]; })) return;
    // Shown at once in the old frames; the server's answer brings the exact ones.
    app.showState(Object.assign({}, state, { items: reordered }));
    app.edit({ action: 'move', ids: ids, before: before });
  };

  app.remove = function (ids) {
    if (ids.length === 0) return;
    say('Removed ' + Gallery.plural(ids.length, 'image') + ' (Undo brings them back)');
    app.edit({ action: 'remove', ids: ids });
  };

  // Stores the bytes of images the document only links to.
  app.keep = async function (ids) {
    if (ids.length === 0) return;
    if (await app.edit({ action: 'keep', ids: ids })) say('Kept ' + Gallery.plural(ids.length, 'image') + ' in the gallery (Undo takes them out)');
  };

  // What "Keep in gallery" keeps: the selected images not stored, or, when the selection has
  // none, every image not stored.
  app.keepTargets = function () {
    const state = app.state;
    const selected = Array.from(app.selection).filter(function (id) { const index = app.indexOf(id); return index >= 0 && app.isUnstored(state.items[index]); });
    if (selected.length > 0) return { ids: selected.sort(function (a, b) { return app.indexOf(a) - app.indexOf(b); }), isSelection: true };
    return { ids: state.items.filter(app.isUnstored).map(function (item) { return item.id; }), isSelection: false };
  };

  app.showKeep = function () {
    if (!app.state) return;
    keepButton.hidden = app.unstoredCount === 0;
    if (keepButton.hidden) return;
    const chosen = app.keepTargets();
    const label = 'Keep ' + (chosen.isSelection ? 'the ' + Gallery.plural(chosen.ids.length, 'selected image') + ' not stored'
      : (chosen.ids.length === 1 ? 'the image' : 'all ' + chosen.ids.length + ' images') + ' not stored') +
      ' in this gallery (store their bytes in the document)';
    keepButton.title = label;
    keepButton.setAttribute('aria-label', label);
  };

  // Files from the desktop (or the file picker), one request each, in order. Every file that
  // could not be added gets its own line, named once (the server's reason names it already).
  app.upload = async function (files, before) {
    const failures = [];
    for (const file of files) {
      try {
        showChange(await api('POST', app.base + '/uploads' + app.query() + (before ? '&before=' + before : ''), file, {
          headers: { 'Content-Type': file.type || 'application/octet-stream', 'X-File-Name': encodeURIComponent(file.name) },
        }));
      } catch (error) {
        failures.push(error.message.startsWith(file.name + ':') ? error.message : file.name + ': ' + error.message);
        say(failures.join('\n'), true);
      }
    }
  };

  // The images per row, shown live while two fingers pinch (the server's layout for that many).
  app.previewColumns = async function (count, isStillWanted) {
    const request = api('GET', app.base + app.query() + '&columns=' + count);
    app.loading = request;
    try {
      const answer = await request;
      if (app.loading === request && isStillWanted()) app.render(answer);
    } catch (error) {
      say(error.message, true);
    }
  };
})(window.Gallery, window.Gallery.app);
