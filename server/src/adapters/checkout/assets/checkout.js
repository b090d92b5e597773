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
  var slip = document.getElementById('slip');
  var returnTo = page.getAttribute('data-return-to');
  var expiresAt = Date.parse(page.getAttribute('data-expires-at'));
  var shown = page.getAttribute('data-status');
  var unmatched = (page.getAttribute('data-unmatched-amounts') || '').split(',').filter(Boolean).map(Number);
  var REDIRECT_MS = 3000;
  var POLL_MS = 3000;
  var source = null;
  var pollTimer = null;

  function finished(status) {
    return status !== 'pending';
  }

  function baht(satang) {
    var cents = satang % 100;
    return '\u0e3f' + Math.floor(satang / 100).toLocaleString('en-US') + '.' + (cents < 10 ? '0' : '') + cents;
  }

  // Money the bank reported that does not fit: named in place of "waiting", and beside "paid".
  function statusText(status) {
    var text = statusBox.getAttribute('data-' + status);
    if (unmatched.length === 0) return text;
    var notice = statusBox.getAttribute('data-unmatched').replace('{amount}', unmatched.map(baht).join(' + '));
    return status === 'succeeded' ? text + ' ' + notice : notice;
  }

  function show(status, amounts) {
    var changedStatus = status !== shown;
    var changedAmounts = amounts !== undefined && amounts.join(',') !== unmatched.join(',');
    if (!changedStatus && !changedAmounts) return;
    shown = status;
    if (amounts !== undefined) unmatched = amounts;
    page.setAttribute('data-status', status);
    statusBox.className = 'status status-' + (unmatched.length > 0 ? 'unmatched' : status);
    statusBox.textContent = statusText(status);
    qr.hidden = status !== 'pending' || unmatched.length > 0;
    if (slip) slip.hidden = status !== 'pending'; // "I have paid" is for a payment still pending
    if (status === 'succeeded' && returnTo) statusBox.textContent += ' ' + statusBox.getAttribute('data-redirecting');
    if (changedStatus && status === 'succeeded' && returnTo) {
      if (continueLink) continueLink.hidden = false;
      setTimeout(function () {
        window.location.assign(returnTo);
      }, REDIRECT_MS);
    }
  }

  function stop() {
    if (source) source.close();
    source = null;
    clearTimeout(pollTimer);
  }

  function poll() {
    fetch(page.getAttribute('data-status-url'), { headers: { accept: 'application/json' }, cache: 'no-store' })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (body) {
        if (body) show(body.status, body.unmatched_amounts || []);
      })
      .catch(function () {
        /* try again at the next tick */
      })
      .then(function () {
        if (!finished(shown)) pollTimer = setTimeout(poll, POLL_MS);
      });
  }

  function follow() {
    if (finished(shown)) return;
    if (!window.EventSource) return poll();
    source = new EventSource(page.getAttribute('data-events-url'));
    source.addEventListener('status', function (event) {
      var state = JSON.parse(event.data);
      show(state.status, state.unmatched_amounts || []);
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
