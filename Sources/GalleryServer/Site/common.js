// gallery serve: helpers both pages share, the first part of window.Gallery (frames.js says why
// the scripts are classic ones sharing that object). Text from documents (titles, captions,
// errors, URLs) is untrusted: it reaches the page only through textContent and attributes, never
// as markup.
'use strict';

Object.assign(window.Gallery = window.Gallery || {}, {
  // Calls the app's API; resolves to the JSON answer, or rejects with an Error whose message is
  // the server's one line.
  async api(method, path, body, options) {
    const init = { method: method, headers: {}, credentials: 'same-origin' };
    if (body instanceof Blob || body instanceof ArrayBuffer) {
      init.body = body;
      Object.assign(init.headers, (options && options.headers) || {});
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(path, init);
    let answer = null;
    try { answer = await response.json(); } catch (error) { answer = null; }
    if (!response.ok) {
      throw new Error((answer && answer.error) || (response.status + ' ' + response.statusText));
    }
    return answer;
  },

  // An element with properties and children: el('p', { className: 'x', textContent: t }, [child]).
  el(tag, properties, children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(properties || {})) {
      if (key === 'dataset') Object.assign(element.dataset, value);
      else if (key.startsWith('aria-') || key === 'role') element.setAttribute(key, value);
      else element[key] = value;
    }
    for (const child of children || []) if (child) element.appendChild(child);
    return element;
  },

  bytes(count) {
    if (count == null) return '';
    const units = ['bytes', 'KB', 'MB', 'GB'];
    let value = count, unit = 0;
    while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
    return (unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)) + ' ' + units[unit];
  },

  date(text) {
    if (!text) return '';
    const date = new Date(text);
    return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) + ' ' +
      date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  },

  plural(count, word) { return count + ' ' + word + (count === 1 ? '' : 's'); },

  // Shows a message in the page's status line (errors in red), cleared after a while.
  say(message, isError) {
    const status = document.getElementById('status');
    if (!status) return;
    status.textContent = message || '';
    status.classList.toggle('error', !!isError);
    clearTimeout(Gallery.sayTimer);
    if (message) Gallery.sayTimer = setTimeout(function () { status.textContent = ''; }, isError ? 8000 : 4000);
  },

  path(name) { return encodeURIComponent(name); },
});
