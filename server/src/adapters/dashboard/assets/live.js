/* global window, document, EventSource, fetch */
// Live lists: the merchant's payment changes arrive as server-sent events; on each, the page fetches its
// server-rendered fragment again (no client-side rendering, no other origin).
(() => {
  const region = document.querySelector('[data-live-fragment]');
  if (!region || !('EventSource' in window)) return;
  let fetching = false;
  let again = false;
  const refresh = async () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const response = await fetch(region.dataset.liveFragment, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
      if (response.ok) region.innerHTML = await response.text();
    } catch {
      // the next change (or reconnect) fetches again
    } finally {
      fetching = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };
  const stream = new EventSource('/dashboard/live');
  stream.addEventListener('change', refresh);
  // A change between the page's rendering and the stream's opening (or during a reconnect) is not missed.
  stream.addEventListener('open', refresh);
})();
