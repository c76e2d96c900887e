// gallery serve's gallery page: the texts edited in place: a cell's caption and the gallery's title.
(function (Gallery, app) {
  'use strict';
  const { el } = Gallery;
  const titleHeading = document.getElementById('title');

  app.captionEditing = null;  // the id whose caption is being edited: its cell stays in the DOM
  app.titleEditor = null;     // the title's field while it is edited

  app.editCaption = function (cell) {
    const item = app.state.items[app.indexOf(cell.dataset.id)];
    if (!item || item.isPlaceholder || cell.querySelector('.caption-editor')) return;
    const input = el('input', { type: 'text', className: 'caption-editor', value: item.caption || '', 'aria-label': 'Caption of ' + item.alt, maxLength: 10000 });
    app.captionEditing = item.id;
    cell.draggable = false;
    cell.appendChild(input);
    input.focus();
    editInPlace(input, function (save) {
      app.captionEditing = null;
      input.remove();
      // As before the edit: a phone's cells stay undraggable (gallery-grid.js).
      cell.draggable = app.isDraggable(item);
      if (app.cells.get(item.id) === cell) cell.focus({ preventScroll: true });
      if (save && input.value !== (item.caption || '')) app.edit({ action: 'caption', id: item.id, text: input.value });
      app.scheduleWindow();
    });
  };

  // A field edited in place: Enter or leaving it saves, Esc cancels; `finish(save)` runs once.
  function editInPlace(input, finish) {
    let done = false;
    function end(save) {
      if (done) return;
      done = true;
      finish(save);
    }
    input.addEventListener('keydown', function (event) {
      event.stopPropagation();
      if (event.key === 'Enter') { event.preventDefault(); end(true); }
      if (event.key === 'Escape') { event.preventDefault(); end(false); }
    });
    input.addEventListener('click', function (event) { event.stopPropagation(); });
    input.addEventListener('blur', function () { end(true); });
  }

  // The title: click, Enter or F2 edits it in place; Enter or leaving saves, Esc cancels.
  function editTitle() {
    if (!app.state || app.titleEditor) return;
    // The title shown: the state's, or one just saved whose answer has not come yet.
    const before = titleHeading.dataset.title || '';
    const input = el('input', { type: 'text', className: 'title-editor', value: before, placeholder: app.fileName, 'aria-label': 'Gallery title', maxLength: 10000 });
    app.titleEditor = input;
    // While it holds the field, the heading is no button (a button may not contain one).
    titleHeading.removeAttribute('role');
    titleHeading.removeAttribute('tabindex');
    titleHeading.replaceChildren(input);
    input.focus();
    input.select();
    editInPlace(input, function (save) {
      app.titleEditor = null;
      const text = input.value.trim();
      titleHeading.setAttribute('role', 'button');
      titleHeading.tabIndex = 0;
      app.showTitle(save ? text : before);
      if (document.activeElement === input || document.activeElement === document.body) titleHeading.focus();
      // Empty text clears the title: the page then shows the file name.
      if (save && text !== before) app.edit({ action: 'title', text: text });
    });
  }

  // On a phone the bar has room for a few words of the title: the whole of it stands above the
  // images, as a large title (Photos' album), and the bar's shows once that has scrolled away.
  const largeTitle = document.getElementById('large-title');
  app.showTitle = function (title) {
    titleHeading.dataset.title = title;
    titleHeading.textContent = title || app.fileName;
    largeTitle.textContent = titleHeading.textContent;
  };
  const barHeight = document.querySelector('.bar').offsetHeight;
  new IntersectionObserver(function (entries) {
    const entry = entries[entries.length - 1];
    document.body.classList.toggle('large-title-shown', entry.isIntersecting && entry.intersectionRatio >= 0.5);
  }, { rootMargin: (-barHeight) + 'px 0px 0px 0px', threshold: [0, 0.5, 1] }).observe(largeTitle);
  largeTitle.addEventListener('click', editTitle);

  titleHeading.addEventListener('click', editTitle);
  titleHeading.addEventListener('keydown', function (event) {
    if (event.target !== titleHeading) return;
    if (event.key === 'Enter' || event.key === 'F2' || event.key === ' ') { event.preventDefault(); editTitle(); }
  });
})(window.Gallery, window.Gallery.app);
