// gallery serve's gallery page: the viewer's info panel (the i key, or Info): who made the image
// and under what terms, editable, and the photo's basics (taken, camera, exposure, size).
(function (Gallery, app) {
  'use strict';
  const sheet = document.getElementById('info');
  const form = sheet.querySelector('form');
  const fields = ['creator', 'copyright', 'credit', 'license', 'source'];
  const basics = ['taken', 'camera', 'exposure', 'size'];
  let shownId = null;
  let before = {};

  // Opens the panel for the image `id`, over the viewer: the image's own credit in the fields,
  // the gallery's (which fills what they leave empty) as their placeholders.
  app.showInfo = async function (id) {
    shownId = id;
    let info;
    try {
      info = await Gallery.api('GET', app.imageURL(id) + '/info');
    } catch (error) {
      Gallery.say('The image’s details could not be read: ' + error.message, true);
      return;
    }
    if (shownId !== id) return;
    before = info.own || {};
    for (const name of fields) {
      const input = form.elements[name];
      input.value = before[name] || '';
      input.placeholder = (info.gallery || {})[name] ? 'The gallery’s: ' + info.gallery[name] : '';
    }
    for (const name of basics) {
      const row = sheet.querySelector('[data-basic="' + name + '"]');
      row.hidden = !info[name];
      row.querySelector('dd').textContent = info[name] || '';
    }
    sheet.querySelector('.no-basics').hidden = basics.some(function (name) { return info[name]; });
    if (!sheet.open) sheet.showModal();
    form.elements.creator.focus();
  };

  // Save sends only what changed; an emptied field clears that member.
  form.addEventListener('submit', function (event) {
    if (event.submitter && event.submitter.value !== 'save') return;
    const changes = {};
    for (const name of fields) {
      const value = form.elements[name].value.trim();
      if (value !== (before[name] || '')) changes[name] = value;
    }
    if (Object.keys(changes).length > 0) app.edit(Object.assign({ action: 'credit', id: shownId }, changes));
  });
})(window.Gallery, window.Gallery.app);
