/* celerylab: loaded (after the vendored mermaid) only on pages that hold a diagram (site/hooks.py adds it).
   Material initialises mermaid itself; this keeps its settings and sizes diagrams for the reader's screen:
   sequence diagrams wrap their messages in lanes of fixed width and keep their natural size (they fit the
   688 px column at 1280 px and scroll sideways on a phone, see celerylab.css, instead of shrinking their text
   to ~7 px); flowcharts fit the column on a wide screen and keep their natural size on a phone. */
(function () {
  if (typeof mermaid === "undefined" || !mermaid.initialize) return;
  var initialize = mermaid.initialize.bind(mermaid);
  var wide = window.matchMedia("(min-width: 45em)").matches;
  mermaid.initialize = function (config) {
    config = Object.assign({}, config);
    config.sequence = Object.assign({}, config.sequence, {
      useMaxWidth: false, wrap: true, width: 120, actorMargin: 30, messageMargin: 32, noteMargin: 8, boxMargin: 6
    });
    config.flowchart = Object.assign({}, config.flowchart, { useMaxWidth: wide });
    return initialize(config);
  };
})();
