/* global document, Redoc */
// Renders the contract with Redoc; kept out of the HTML so the page needs no inline script.
var element = document.getElementById('reference');
Redoc.init(
  element.getAttribute('data-spec-url'),
  {
    hideHostname: false,
    expandResponses: '200',
    theme: { typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } } },
  },
  element,
);
