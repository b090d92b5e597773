/* global window, document, EventSource, fetch, setTimeout, clearTimeout */
// Follows the payment's status live (server-sent events, polling as the fallback) and updates the server-rendered page.
(function () {
  'use strict';
  var page = document.getElementById('checkout');
  if (!page) return;
  var statusBox = document.getElementById('status');
  var qr = document.getElementById('qr');
  var countdown = document.getElementById('countdown');
  var continueLink = document.getElementById('continue');
  var returnTo = page.getAttribute('data-return-to');
  var expiresAt = Date.parse(page.getAttribute('data-expires-at'));
  var shown = page.getAttribute('data-status');
  var REDIRECT_MS = 3000;
  var POLL_MS = 3000;
  var source = null;
  var pollTimer = null;

  function finished(status) {
    return status !== 'pending';
  }

  function show(status) {
    if (status === shown) return;
    shown = status;
    page.setAttribute('data-status', status);
    statusBox.className = 'status status-' + status;
    statusBox.textContent = statusBox.getAttribute('data-' + status);
    qr.hidden = status !== 'pending';
    if (status === 'succeeded' && returnTo) {
      statusBox.textContent += ' ' + statusBox.getAttribute('data-redirecting');
      if (continueLink) continueLink.hidden = false;
      setTimeout(function () { window.location.assign(returnTo); }, REDIRECT_MS);
    }
  }

  function stop() {
    if (source) source.close();
    source = null;
    clearTimeout(pollTimer);
  }

  function poll() {
    fetch(page.getAttribute('data-status-url'), { headers: { accept: 'application/json' }, cache: 'no-store' })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) { if (body) show(body.status); })
      .catch(function () { /* try again at the next tick */ })
      .then(function () { if (!finished(shown)) pollTimer = setTimeout(poll, POLL_MS); });
  }

  function follow() {
    if (finished(shown)) return;
    if (!window.EventSource) return poll();
    source = new EventSource(page.getAttribute('data-events-url'));
    source.addEventListener('status', function (event) {
      var state = JSON.parse(event.data);
      show(state.status);
      if (finished(state.status)) stop();
    });
    source.onerror = function () {
      // A refused stream is not retried by the browser: poll instead. A dropped one reconnects by itself.
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        poll();
      }
    };
  }

  function tick() {
    var left = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
    var minutes = Math.floor(left / 60);
    var seconds = left % 60;
    countdown.textContent = minutes + ':' + (seconds < 10 ? '0' : '') + seconds;
    if (left === 0 && shown === 'pending') show('expired');
    if (!finished(shown)) setTimeout(tick, 1000);
  }

  if (countdown) tick();
  if (shown === 'succeeded' && returnTo && continueLink) continueLink.hidden = false;
  follow();
})();
