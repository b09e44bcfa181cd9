/* celerylab (inlined by site/hooks.py before Material's bundle): the search index is fetched when the reader
   reaches for search, not at every page load. Material requests search/search_index.json as soon as its bundle
   runs (429 KB, 128 KB gzipped, for the Portuguese pages of this course, then the language stemmers): on a phone that download shared the network
   with the page's first paint, for a search most readers never open. The request is held back until the search
   field gets focus (a click, a tap, or Material's keyboard shortcut, which focuses it) or its toggle is tapped;
   a page opened from a search result (?h=...) highlights its terms, so there it goes out at once. */
(function () {
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  var wanted = /[?&]h=/.test(location.search), held = [];
  function want() {
    if (wanted) return;
    wanted = true;
    held.splice(0).forEach(function (request) { send.apply(request[0], request[1]); });
  }
  XMLHttpRequest.prototype.open = function (method, url) {
    this.celerylabIndex = /\/search\/search_index\.json$/.test(String(url).split("?")[0]);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.celerylabIndex && !wanted) {
      held.push([this, arguments]);
      return;
    }
    return send.apply(this, arguments);
  };
  function reaches(event) {
    var target = event.target;
    if (target && target.closest && target.closest("form[name=search], label[for=__search], #__search")) want();
  }
  document.addEventListener("focusin", reaches, true);
  document.addEventListener("pointerdown", reaches, true);
  document.addEventListener("change", reaches, true);
})();
