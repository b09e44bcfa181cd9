/* celerylab: added (before Material's bundle) only to pages that hold a diagram (site/hooks.py). Material renders
   diagrams with the global `mermaid` when one exists (else it fetches mermaid from a CDN): this global stands in for
   the vendored library (3.5 MB, its `data-library`), which is fetched only when a diagram comes within a screen of
   the viewport; each diagram is drawn by Material (its styles, both palettes) when it comes that near. A lesson
   page no longer downloads, parses and runs mermaid before its first paint.
   It also keeps Material's settings and sizes diagrams for the reader's screen: sequence diagrams wrap their
   messages in lanes of fixed width and keep their natural size (they fit the 688 px column at 1280 px and scroll
   sideways on a phone, see celerylab.css, instead of shrinking their text to ~7 px); flowcharts fit the column on
   a wide screen and keep their natural size on a phone. */
(function () {
  var script = document.currentScript;
  var library = script && script.getAttribute("data-library");
  if (!library || typeof window.mermaid !== "undefined") return;
  var wide = window.matchMedia("(min-width: 45em)").matches;
  var settings = {};
  var claimed = [];
  var loading = null;

  function sized(config) {
    config = Object.assign({}, config);
    config.sequence = Object.assign({}, config.sequence, {
      useMaxWidth: false, wrap: true, width: 120, actorMargin: 30, messageMargin: 32, noteMargin: 8, boxMargin: 6
    });
    config.flowchart = Object.assign({}, config.flowchart, { useMaxWidth: wide });
    return config;
  }

  function load() {
    loading = loading || new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = library;
      tag.onload = function () {
        var real = window.mermaid;
        window.mermaid = stand_in;  // the library set itself as the global: every call keeps coming here
        real.initialize(sized(settings));
        resolve(real);
      };
      tag.onerror = reject;
      document.head.appendChild(tag);
    });
    return loading;
  }

  /* The diagram's source block (Material renders the blocks in order, each from its text). */
  function blockOf(text) {
    var blocks = document.querySelectorAll("pre.mermaid");
    for (var i = 0; i < blocks.length; i++) {
      if (claimed.indexOf(blocks[i]) < 0 && blocks[i].textContent === text) {
        claimed.push(blocks[i]);
        return blocks[i];
      }
    }
    return null;
  }

  function near(block) {
    if (!block || !("IntersectionObserver" in window)) return Promise.resolve();
    return new Promise(function (resolve) {
      var observer = new IntersectionObserver(function (entries) {
        if (entries.some(function (entry) { return entry.isIntersecting; })) {
          observer.disconnect();
          resolve();
        }
      }, { rootMargin: "100% 0px" });
      observer.observe(block);
    });
  }

  var stand_in = {
    initialize: function (config) { settings = config || {}; },
    render: function (id, text) {
      return near(blockOf(text)).then(load).then(function (real) { return real.render(id, text); });
    }
  };
  window.mermaid = stand_in;
})();
