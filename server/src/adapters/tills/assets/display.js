/* global window, document, EventSource, Audio, SpeechSynthesisUtterance, setTimeout, clearTimeout */
// The customer display: follows the till's state (server-sent events), shows the static QR, a pending payment's QR
// with its time left, or the outcome for 8 s; a payment received is announced with a chime and Thai speech.
(function () {
  'use strict';
  var page = document.getElementById('display');
  if (!page) return;
  var OUTCOME_MS = 8000;
  var idle = document.getElementById('idle');
  var pending = document.getElementById('pending');
  var outcome = document.getElementById('outcome');
  var outcomeText = document.getElementById('outcome-text');
  var payAmount = document.getElementById('pay-amount');
  var payQr = document.getElementById('pay-qr');
  var countdown = document.getElementById('countdown');
  var soundButton = document.getElementById('sound');
  var chime = new Audio(page.getAttribute('data-chime-url'));
  var state = JSON.parse(page.getAttribute('data-state'));
  // What ended before this page opened is not announced again.
  var seen = state.latest ? state.latest.payment_id + ':' + state.latest.status : '';
  var showingOutcome = null;
  var tickTimer = null;

  function baht(satang) {
    var cents = satang % 100;
    return '\u0e3f' + Math.floor(satang / 100).toLocaleString('en-US') + '.' + (cents < 10 ? '0' : '') + cents;
  }

  // "ได้รับเงิน 150 บาท" (and its satang, if any), in Thai whatever the page's language.
  function spoken(satang) {
    var words = 'ได้รับเงิน ' + Math.floor(satang / 100) + ' บาท';
    return satang % 100 ? words + ' ' + (satang % 100) + ' สตางค์' : words;
  }

  function announce(satang) {
    var played = chime.play();
    if (played && played.catch) played.catch(function () {});
    if (!window.speechSynthesis || !window.SpeechSynthesisUtterance) return;
    var utterance = new SpeechSynthesisUtterance(spoken(satang));
    utterance.lang = 'th-TH';
    var voice = window.speechSynthesis.getVoices().filter(function (v) {
      return v.lang && v.lang.replace('_', '-').indexOf('th') === 0;
    })[0];
    if (voice) utterance.voice = voice;
    window.speechSynthesis.speak(utterance);
  }

  function tick() {
    clearTimeout(tickTimer);
    if (!state.pending) return;
    var left = Math.max(0, Math.floor((Date.parse(state.pending.expires_at) - Date.now()) / 1000));
    countdown.textContent = Math.floor(left / 60) + ':' + (left % 60 < 10 ? '0' : '') + (left % 60);
    if (left === 0) {
      var expired = state.pending;
      state.pending = null;
      return showOutcome('expired', expired.amount);
    }
    tickTimer = setTimeout(tick, 1000);
  }

  function render() {
    if (showingOutcome) return;
    var waiting = state.pending;
    page.setAttribute('data-view', waiting ? 'pending' : 'idle');
    outcome.hidden = true;
    idle.hidden = Boolean(waiting);
    pending.hidden = !waiting;
    if (waiting) {
      payAmount.textContent = baht(waiting.amount);
      if (payQr.getAttribute('src') !== waiting.qr_image) payQr.setAttribute('src', waiting.qr_image);
      tick();
    }
  }

  function showOutcome(status, amount) {
    clearTimeout(showingOutcome);
    page.setAttribute('data-view', status);
    idle.hidden = true;
    pending.hidden = true;
    outcome.hidden = false;
    outcome.className = 'panel outcome outcome-' + status;
    outcomeText.textContent = page.getAttribute('data-' + (status === 'succeeded' ? 'paid' : status)) + ' ' + baht(amount);
    if (status === 'succeeded') announce(amount);
    showingOutcome = setTimeout(function () {
      showingOutcome = null;
      render();
    }, OUTCOME_MS);
  }

  function receive(next) {
    var ended = next.latest ? next.latest.payment_id + ':' + next.latest.status : '';
    state = next;
    if (ended && ended !== seen) {
      seen = ended;
      return showOutcome(next.latest.status, next.latest.amount);
    }
    render();
  }

  // Browsers play sound only after a touch: the button asks for one, once.
  soundButton.hidden = false;
  soundButton.addEventListener('click', function () {
    chime.play().catch(function () {});
    if (window.speechSynthesis && window.SpeechSynthesisUtterance) window.speechSynthesis.speak(new SpeechSynthesisUtterance(''));
    soundButton.textContent = page.getAttribute('data-sound-on');
    soundButton.disabled = true;
  });

  if (!window.EventSource) return;
  var source = new EventSource(page.getAttribute('data-events-url'));
  source.addEventListener('open', function () {
    page.setAttribute('data-streaming', 'yes');
  });
  source.addEventListener('state', function (event) {
    receive(JSON.parse(event.data));
  });
  // The till was closed or its URL rolled: the page itself now says so.
  source.addEventListener('gone', function () {
    source.close();
    window.location.reload();
  });
  source.onerror = function () {
    // A stream at the end of its lifetime reconnects by itself; a refused one (closed till, rolled URL) is not retried.
    if (source.readyState === EventSource.CLOSED)
      setTimeout(function () {
        window.location.reload();
      }, 3000);
  };
  render();
})();
