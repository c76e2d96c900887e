// gallery serve's gallery page: live updates (other tabs, the CLI, images arriving), and the start: the last script the page loads.
(function (Gallery, app) {
  'use strict';

  // The server says when the document changed; a state that differs is loaded again.
  const events = new EventSource(app.base + '/events');
  events.addEventListener('change', function (message) {
    const event = JSON.parse(message.data);
    const state = app.state;
    if (!state) return;
    const arriving = state.items.length - app.realCount;
    if (event.version === 'gone') return Gallery.say(app.name + ' is no longer in the folder.', true);
    if (event.version !== state.version || event.arriving !== arriving || state.items.some(function (item) { return item.status === 'loading'; })) app.load();
  });

  app.load();
})(window.Gallery, window.Gallery.app);
