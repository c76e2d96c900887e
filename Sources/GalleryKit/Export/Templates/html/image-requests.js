// The image request queue of both pages (gallery serve's and the HTML export's): which images a
// page asks for, and when. A classic script on window.Gallery (frames.js says why); the grid's and
// the viewer's images go through it.
(function (Gallery) {
  'use strict';

  // gallery serve may answer one image at a time (each is read from the document, or fetched from
  // the web), as may the host of a shared site, and a request the page gives up on still costs it that time: cancelling only closes the
  // connection. So the page asks for at most `parallel` images at once, counting a cancelled one
  // as busy for as long as a request usually takes; the most wanted go first (at most `ahead` of
  // them outside the view, fetched ahead of a scroll); and it never asks for an image it merely
  // passes by: while the view moves (a scroll, paging the viewer), an image must stay wanted for
  // `dwell` ms first. After a jump to the end of a huge gallery, little but the images there is
  // then in the server's way. An urgent image (the viewer's stand-in thumbnail, a few kilobytes,
  // for an image on screen with nothing to show) waits for neither the dwell nor a free place.
  Gallery.ImageRequests = function () {
    const requests = {
      parallel: 4,
      ahead: 2,
      aheadRank: 1e4,       // ranks from here on are images outside the view
      dwell: 120,
      waiting: new Map(),   // img -> { source, rank: () => number (lowest first), since, isUrgent }
      running: new Map(),   // img -> { isAhead, started }
      cancelled: 0,         // requests given up on that the server is probably still answering
      latency: 250,         // how long a request usually takes, in ms (a moving average)
      known: new WeakSet(), // imgs whose load and error the loader listens to
      lastMotion: -Infinity,
      timer: null,
      timerAt: Infinity,
    };

    // Asks for `source` in `img` when its turn comes (`isUrgent`: now).
    function want(img, source, rank, isUrgent) {
      if (!requests.known.has(img)) {
        requests.known.add(img);
        img.addEventListener('load', settled);
        img.addEventListener('error', settled);
      }
      forget(img);
      requests.waiting.set(img, { source: source, rank: rank, since: performance.now(), isUrgent: Boolean(isUrgent) });
      schedule(0);
    }

    // Gives up an image: not asked for, or its request cancelled (removing the src does that, and
    // fires no error event).
    function forget(img) {
      requests.waiting.delete(img);
      img.removeAttribute('src');
      const running = requests.running.get(img);
      if (!running) return;
      requests.running.delete(img);
      const busy = Math.min(requests.latency, 5000) - (performance.now() - running.started);
      if (busy <= 0) return schedule(0);
      requests.cancelled += 1;
      setTimeout(function () { requests.cancelled -= 1; schedule(0); }, busy);
    }

    function settled(event) {
      const running = requests.running.get(event.target);
      if (!running) return;
      requests.running.delete(event.target);
      requests.latency = requests.latency * 0.8 + (performance.now() - running.started) * 0.2;
      schedule(0);
    }

    // The view moved: images wanted from now on wait `dwell` ms.
    function noteMotion() { requests.lastMotion = performance.now(); }

    function schedule(delay) {
      const at = performance.now() + delay;
      if (requests.timer !== null && requests.timerAt <= at) return;
      clearTimeout(requests.timer);
      requests.timerAt = at;
      requests.timer = setTimeout(function () {
        requests.timer = null;
        requests.timerAt = Infinity;
        pump();
      }, delay);
    }

    // Starts the most wanted requests that may start now.
    function pump() {
      const now = performance.now();
      const isStill = now - requests.lastMotion >= requests.dwell;
      const ready = [];
      let nextReady = Infinity;
      for (const [img, wanted] of requests.waiting) {
        if (!img.isConnected) continue;
        if (wanted.isUrgent) start(img, wanted, false, now);
        else if (isStill || now - wanted.since >= requests.dwell) ready.push([wanted.rank(), img, wanted]);
        else nextReady = Math.min(nextReady, wanted.since + requests.dwell, requests.lastMotion + requests.dwell);
      }
      ready.sort(function (a, b) { return a[0] - b[0]; });
      let ahead = 0;
      for (const running of requests.running.values()) if (running.isAhead) ahead += 1;
      for (const [rank, img, wanted] of ready) {
        if (requests.running.size + requests.cancelled >= requests.parallel) break;
        const isAhead = rank >= requests.aheadRank;
        if (isAhead && ahead >= requests.ahead) break;  // the rest are ahead too
        if (isAhead) ahead += 1;
        start(img, wanted, isAhead, now);
      }
      if (nextReady < Infinity) schedule(Math.max(0, nextReady - now));
    }

    function start(img, wanted, isAhead, now) {
      requests.waiting.delete(img);
      requests.running.set(img, { isAhead: isAhead, started: now });
      img.src = wanted.source;
    }

    return { aheadRank: requests.aheadRank, want: want, forget: forget, noteMotion: noteMotion, pump: pump };
  };
})(window.Gallery = window.Gallery || {});
