/* global document, HTMLFormElement, setTimeout, setInterval, clearTimeout, window, EventSource, fetch, navigator, Audio, SpeechSynthesisUtterance */
// The dashboard's one script: a confirmation step for forms that ask for one (data-confirm), no double submits, a
// Copy button for recovery codes (data-copy: the list it copies), live lists (Home, Payments) that fetch their
// server-rendered fragment again when one of the merchant's payments changes, and Receive: its keypad, and a sale's
// live status announced with a chime and Thai speech.
// Pages work without it: a form then posts at once.
(function () {
  'use strict';

  function lockButtons(form) {
    form.querySelectorAll('button[type="submit"], button:not([type])').forEach(function (button) {
      button.disabled = true;
    });
  }

  // A dialog of our own (no window.confirm): it reads in the page's language and is styled like the page.
  function confirmFirst(form, question) {
    var dialog = document.createElement('dialog');
    dialog.setAttribute('aria-labelledby', 'confirm-question');
    var text = document.createElement('p');
    text.id = 'confirm-question';
    text.textContent = question;
    var actions = document.createElement('div');
    actions.className = 'actions';
    var cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'cancel';
    cancel.textContent = document.documentElement.lang === 'th' ? 'ยกเลิก' : 'Cancel';
    var ok = document.createElement('button');
    ok.type = 'button';
    ok.className = 'confirm';
    ok.textContent = document.documentElement.lang === 'th' ? 'ยืนยัน' : 'Confirm';
    actions.append(cancel, ok);
    dialog.append(text, actions);
    document.body.append(dialog);
    cancel.addEventListener('click', function () {
      dialog.close();
    });
    dialog.addEventListener('close', function () {
      dialog.remove();
    });
    ok.addEventListener('click', function () {
      form.dataset.confirmed = 'yes';
      dialog.close();
      form.requestSubmit();
    });
    dialog.showModal();
    ok.focus();
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.dataset.submitted === 'yes') {
      event.preventDefault(); // a second click while the first is on its way
      return;
    }
    var question = form.getAttribute('data-confirm');
    if (question && form.dataset.confirmed !== 'yes') {
      event.preventDefault();
      confirmFirst(form, question);
      return;
    }
    form.dataset.submitted = 'yes';
    // After this event, so the clicked button's name and value still go with the form.
    setTimeout(function () {
      lockButtons(form);
    }, 0);
  });

  // Copy buttons: shown only where the clipboard can be written; they copy the codes of their list, one a line.
  document.querySelectorAll('[data-copy]').forEach(function (button) {
    var list = document.getElementById(button.getAttribute('data-copy'));
    if (!list || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var lines = Array.prototype.map.call(list.querySelectorAll('code'), function (code) {
        return code.textContent;
      });
      navigator.clipboard.writeText(lines.join('\n')).then(function () {
        var note = document.getElementById('recovery-copied');
        if (note) note.textContent = button.getAttribute('data-copied');
      });
    });
  });

  // Live lists: the merchant's payment changes arrive as server-sent events; on each, the region named by
  // data-live-fragment is fetched again as the server renders it (no rendering here, no other origin).
  var NEW_PAYMENTS_EVERY_MS = 20000;
  var region = document.querySelector('[data-live-fragment]');
  if (region && 'EventSource' in window) {
    var fetching = false;
    var again = false;
    var refresh = function () {
      if (fetching) {
        again = true;
        return;
      }
      fetching = true;
      fetch(region.getAttribute('data-live-fragment'), { credentials: 'same-origin', headers: { Accept: 'text/html' } })
        .then(function (response) {
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          if (html !== null) region.innerHTML = html;
        })
        .catch(function () {
          // the next change, or the stream's reconnection, fetches again
        })
        .then(function () {
          fetching = false;
          if (again) {
            again = false;
            refresh();
          }
        });
    };
    var stream = new EventSource('/dashboard/live');
    stream.addEventListener('change', refresh);
    // A change between the page's rendering and the stream's opening (or during a reconnection) is not missed.
    stream.addEventListener('open', refresh);
    // Notifications come with status changes; a payment just created (pending) shows at the next look.
    setInterval(function () {
      if (document.visibilityState === 'visible') refresh();
    }, NEW_PAYMENTS_EVERY_MS);
  }
  // Receive: the keypad types into the amount (which stays a plain field without this script).
  var keypad = document.getElementById('keypad');
  var amountField = document.getElementById('amount');
  if (keypad && amountField) {
    keypad.hidden = false;
    keypad.addEventListener('click', function (event) {
      var key = event.target.closest && event.target.closest('button[data-key]');
      if (!key) return;
      var value = amountField.value;
      var typed = key.getAttribute('data-key');
      if (typed === 'erase') value = value.slice(0, -1);
      else if (typed === '.' && value.indexOf('.') >= 0) return;
      else if (/\.\d\d$/.test(value))
        return; // satang have two digits
      else value = (value === '0' && typed !== '.' ? '' : value) + typed;
      amountField.value = value;
    });
  }

  // A sale on Receive: its status from the checkout page's own stream; paid is announced ("ได้รับเงิน 150 บาท").
  var sale = document.getElementById('sale');
  if (sale && 'EventSource' in window) {
    var saleStatus = document.getElementById('sale-status');
    var saleQr = document.getElementById('sale-qr');
    var saleHint = document.getElementById('sale-hint');
    var saleCountdown = document.getElementById('sale-countdown');
    var saleAmount = Number(sale.getAttribute('data-amount'));
    var chime = new Audio(sale.getAttribute('data-chime-url'));
    var saleTimer = null;
    var shown = sale.getAttribute('data-status');
    var announce = function () {
      var played = chime.play();
      if (played && played.catch) played.catch(function () {});
      if (!window.speechSynthesis || !window.SpeechSynthesisUtterance) return;
      var words = 'ได้รับเงิน ' + Math.floor(saleAmount / 100) + ' บาท' + (saleAmount % 100 ? ' ' + (saleAmount % 100) + ' สตางค์' : '');
      var utterance = new SpeechSynthesisUtterance(words);
      utterance.lang = 'th-TH';
      window.speechSynthesis.speak(utterance);
    };
    var showSale = function (status) {
      if (status === shown) return;
      shown = status;
      sale.setAttribute('data-status', status);
      saleStatus.className = 'sale-status status-' + status;
      saleStatus.textContent = sale.getAttribute('data-' + status);
      saleQr.hidden = status !== 'pending';
      saleHint.hidden = status !== 'pending';
      if (status === 'succeeded') announce();
    };
    var tickSale = function () {
      var left = Math.max(0, Math.floor((Date.parse(sale.getAttribute('data-expires-at')) - Date.now()) / 1000));
      saleCountdown.textContent = Math.floor(left / 60) + ':' + (left % 60 < 10 ? '0' : '') + (left % 60);
      if (left === 0 && shown === 'pending') showSale('expired');
      if (shown === 'pending') saleTimer = setTimeout(tickSale, 1000);
    };
    if (shown === 'pending') {
      tickSale();
      var saleStream = new EventSource(sale.getAttribute('data-events-url'));
      saleStream.addEventListener('status', function (event) {
        showSale(JSON.parse(event.data).status);
        if (shown !== 'pending') {
          saleStream.close();
          clearTimeout(saleTimer);
        }
      });
    }
  }
})();
