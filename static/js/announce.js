// The table's one persistent live region (#announcer, outside every pushed region): after each
// push or POST answer, say what #hand-log's data-announce holds (the newest public word, the
// lances it decided, your turn) when it changed. The regions themselves are re-created on each
// push, and a screen reader says nothing of a live region that is new.
(function () {
  var table = document.getElementById("mus-table");
  var announcer = document.getElementById("announcer");
  if (!table || !announcer) return;

  function current() {
    var log = document.getElementById("hand-log");
    return log ? log.getAttribute("data-announce") || "" : "";
  }

  // What the page showed when loaded is read on screen, not announced.
  var said = current();

  new MutationObserver(function () {
    var text = current();
    if (text === said) return;
    said = text;
    announcer.textContent = text;
  }).observe(table, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-announce"],
  });
})();
