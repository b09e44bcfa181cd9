/* celerylab: the language switch keeps the reader's section. Both languages of a page have the same headings
   in the same order (lesson pages come from the same cells), so the section travels as its position. */
(function () {
  var HEADINGS = ".md-content h2[id], .md-content h3[id]";
  var PREFIX = "#cl-section-";

  function currentSection() {
    var headings = Array.prototype.slice.call(document.querySelectorAll(HEADINGS));
    var byHash = headings.findIndex(function (h) { return "#" + h.id === decodeURIComponent(location.hash); });
    if (byHash >= 0) return byHash;
    var index = -1;
    headings.forEach(function (h, i) { if (h.getBoundingClientRect().top <= 80) index = i; });
    return index;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.md-select__link[hreflang]");
    if (!link) return;
    var section = currentSection();
    if (section < 0) return;
    link.href = link.href.split("#")[0] + PREFIX + section;
  }, true);

  function restore() {
    var match = location.hash.match(/^#cl-section-(\d+)$/);
    if (!match) return;
    var heading = document.querySelectorAll(HEADINGS)[Number(match[1])];
    if (!heading) return;
    history.replaceState(null, "", "#" + heading.id);
    heading.scrollIntoView();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();

/* Remember where this site's root is, for the not-found page (404.html), which is served at any path. */
(function () {
  var config = document.getElementById("__config");
  if (!config || document.querySelector("base")) return;  // the 404 page: its base is what it reads
  try {
    var base = new URL(JSON.parse(config.textContent).base, location.href).pathname;
    var lang = document.documentElement.lang === "en" ? /en\/?$/ : null;  // English pages: base is <root>/en/
    localStorage.setItem("celerylab-base", lang ? base.replace(lang, "") : base);
  } catch (e) { /* storage may be off: the 404 page falls back to site_url */ }
})();
