/* global document, HTMLFormElement, setTimeout */
// The dashboard's one script: a confirmation step for forms that ask for one (data-confirm), and no double submits.
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
})();
