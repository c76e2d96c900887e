// gallery serve: the document browser — the folder's galleries as tiles, sort, search, Recents,
// new, duplicate, rename, move to Trash, and Recently Deleted with restore.
(function () {
  'use strict';
  const { api, el, say } = Gallery;
  const list = document.getElementById('documents');
  const search = document.getElementById('search');
  const sort = document.getElementById('sort');
  let view = 'all';
  let searchTimer = null;

  const sortKey = 'gallery.sort';
  sort.value = localStorage.getItem(sortKey) || 'name';

  // Answers may arrive out of order (a slow whole listing after the search typed since was
  // answered): only the latest refresh's answer is shown.
  let refreshes = 0;
  async function refresh() {
    const asked = ++refreshes;
    try {
      let show, path;
      if (view === 'trash') {
        show = showTrash;
        path = '/api/trash';
      } else if (view === 'recents') {
        show = showRecents;
        path = '/api/recents';
      } else {
        const query = new URLSearchParams({ sort: sort.value, reverse: sort.value === 'name' ? '0' : '1' });
        if (search.value.trim()) query.set('search', search.value.trim());
        show = showDocuments;
        path = '/api/documents?' + query;
      }
      const answer = await api('GET', path);
      if (asked === refreshes) show(answer);
    } catch (error) {
      if (asked === refreshes) say(error.message, true);
    }
  }

  function showDocuments(documents) {
    list.replaceChildren(...documents.map(tile));
    if (documents.length === 0) {
      list.appendChild(el('p', { className: 'empty-folder', textContent: search.value.trim() ? 'No gallery matches.' : 'No galleries yet. Make one with “New gallery”.' }));
    }
  }

  function showRecents(recents) {
    list.replaceChildren(...recents.map(function (recent) {
      return tile({ name: recent.name, title: null, subtitle: recent.event + ' ' + Gallery.date(recent.date) });
    }));
    if (recents.length === 0) list.appendChild(el('p', { className: 'empty-folder', textContent: 'Nothing opened or changed lately.' }));
  }

  function tile(doc) {
    const href = '/gallery/' + Gallery.path(doc.name);
    const preview = el('a', { className: 'open', href: href, 'aria-label': 'Open ' + (doc.title || doc.name) });
    if (!doc.error) {
      const image = el('img', { alt: '', loading: 'lazy', src: '/api/documents/' + Gallery.path(doc.name) + '/preview' });
      image.addEventListener('error', function () { image.replaceWith(el('span', { className: 'empty', textContent: '▦' })); });
      preview.appendChild(image);
    }
    const meta = doc.subtitle || [
      doc.images != null ? Gallery.plural(doc.images, 'image') : '',
      Gallery.bytes(doc.bytes),
      doc.modified ? 'modified ' + Gallery.date(doc.modified) : '',
    ].filter(Boolean).join(' · ');
    // The name is a link too (for a middle click or a new tab), reached with Tab once: on the preview.
    const name = el('div', { className: 'name' }, [
      el('a', { href: href, tabIndex: -1, textContent: doc.title || doc.name.replace(/\.gallery$/i, '') }),
    ]);
    const about = el('div', { className: 'about' }, [
      name,
      doc.title && doc.title + '.gallery' !== doc.name ? el('div', { className: 'meta', textContent: doc.name }) : null,
      el('div', { className: 'meta', textContent: meta }),
      doc.error ? el('div', { className: 'error', textContent: doc.error }) : null,
    ]);
    const article = el('article', { className: 'doc' + (doc.error ? ' damaged' : ''), dataset: { name: doc.name } }, [
      preview, about,
      el('div', { className: 'actions' }, [
        button('Duplicate', function () { act('POST', doc.name, 'duplicate', 'Duplicated as '); }),
        button('Rename', function () { rename(doc, about); }),
        button('Move to Trash', function () { act('POST', doc.name, 'trash', 'Moved to the Trash: '); }),
      ]),
    ]);
    openOnClick(article, href);
    return article;
  }

  // A click anywhere on a tile opens its gallery, but not one on its links (which open it
  // themselves), its buttons, a rename field, or the end of selecting its text.
  function openOnClick(article, href) {
    article.addEventListener('click', function (event) {
      if (event.button !== 0 || event.target.closest('a, button, input, select, textarea, label')) return;
      const selected = window.getSelection();
      if (selected && !selected.isCollapsed && article.contains(selected.anchorNode)) return;
      if (event.ctrlKey || event.metaKey || event.shiftKey) window.open(href, '_blank', 'noopener');
      else location.assign(href);
    });
  }

  function button(label, action) {
    const element = el('button', { type: 'button', textContent: label });
    element.addEventListener('click', action);
    return element;
  }

  async function act(method, name, action, message) {
    try {
      const answer = await api(method, '/api/documents/' + Gallery.path(name) + '/' + action);
      say(message + answer.name);
      refresh();
    } catch (error) {
      say(error.message, true);
    }
  }

  function rename(doc, about) {
    const input = el('input', { type: 'text', value: doc.name.replace(/\.gallery$/i, ''), 'aria-label': 'New name for ' + doc.name });
    about.replaceChildren(input);
    input.focus();
    input.select();
    let done = false;
    async function commit() {
      if (done) return;
      done = true;
      const wanted = input.value.trim();
      if (!wanted || wanted + '.gallery' === doc.name) return refresh();
      try {
        const answer = await api('POST', '/api/documents/' + Gallery.path(doc.name) + '/rename', { name: wanted });
        say('Renamed to ' + answer.name);
      } catch (error) {
        say(error.message, true);
      }
      refresh();
    }
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') commit();
      if (event.key === 'Escape') { done = true; refresh(); }
    });
    input.addEventListener('blur', commit);
  }

  function showTrash(trashed) {
    list.replaceChildren(...trashed.map(function (doc) {
      const restore = button('Restore', async function () {
        try {
          const answer = await api('POST', '/api/trash/' + Gallery.path(doc.name) + '/restore');
          say('Restored ' + answer.name);
          refresh();
        } catch (error) {
          say(error.message, true);
        }
      });
      return el('article', { className: 'doc trashed', dataset: { name: doc.name } }, [
        el('div', { className: 'about' }, [
          el('div', { className: 'name', textContent: doc.originalName }),
          el('div', { className: 'meta', textContent: doc.deleted ? 'deleted ' + Gallery.date(doc.deleted) : '' }),
        ]),
        el('div', { className: 'actions' }, [restore]),
      ]);
    }));
    if (trashed.length === 0) list.appendChild(el('p', { className: 'empty-folder', textContent: 'Nothing from this folder is in the Trash.' }));
  }

  document.querySelectorAll('.views button').forEach(function (tab) {
    tab.addEventListener('click', function () {
      view = tab.dataset.view;
      document.querySelectorAll('.views button').forEach(function (other) { other.setAttribute('aria-pressed', String(other === tab)); });
      refresh();
    });
  });
  sort.addEventListener('change', function () { localStorage.setItem(sortKey, sort.value); refresh(); });
  search.addEventListener('input', function () { clearTimeout(searchTimer); searchTimer = setTimeout(refresh, 200); });
  // New gallery asks for its name, then opens it (it made Untitled.gallery and stayed here).
  const newDialog = document.getElementById('new-dialog');
  const newName = document.getElementById('new-name');
  document.getElementById('new').addEventListener('click', function () {
    newName.value = 'Untitled';
    newDialog.showModal();
    newName.select();
  });
  // Not a submit button: Enter in the name must create, and a form's Enter takes its first.
  document.getElementById('new-cancel').addEventListener('click', function () { newDialog.close('cancel'); });
  newDialog.addEventListener('close', async function () {
    if (newDialog.returnValue !== 'create' || !newName.value.trim()) return;
    try {
      const answer = await api('POST', '/api/documents', { title: newName.value.trim() });
      location.href = '/gallery/' + encodeURIComponent(answer.name);
    } catch (error) {
      say(error.message, true);
    }
  });
  window.addEventListener('focus', refresh);
  refresh();
})();
