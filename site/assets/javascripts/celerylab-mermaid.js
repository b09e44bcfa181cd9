/* celerylab: loaded (after the vendored mermaid) only on pages that hold a diagram (site/hooks.py adds it).
   Material initialises mermaid itself; this keeps its settings and draws sequence diagrams at their natural
   size, so on a phone they scroll sideways (see celerylab.css) instead of shrinking their text to ~7 px. */
(function () {
  if (typeof mermaid === "undefined" || !mermaid.initialize) return;
  var initialize = mermaid.initialize.bind(mermaid);
  mermaid.initialize = function (config) {
    config = Object.assign({}, config);
    config.sequence = Object.assign({}, config.sequence, { useMaxWidth: false });
    return initialize(config);
  };
})();
