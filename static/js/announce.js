// The table's one persistent live region (#announcer, outside every pushed region): after each
// push or POST answer, say what #hand-log's data-announce holds (the newest public word, the
// lances it decided, your turn) when it changed. The regions themselves are re-created on each
// push, and a screen reader says nothing of a live region that is new.
// A push may carry several words at once (robots, the clock, a slow network): the words of the
// hand not said yet (data-words, in order) come first, so none is lost.
(function () {
  var table = document.getElementById("mus-table");
  var announcer = document.getElementById("announcer");
  if (!table || !announcer) return;

  function log() { return document.getElementById("hand-log"); }

  function current() {
    var found = log();
    return found ? found.getAttribute("data-announce") || "" : "";
  }

  function words() {
    var found = log();
    try { return JSON.parse(found.getAttribute("data-words") || "[]"); } catch (e) { return []; }
  }

  function hand() {
    var found = log();
    return found ? found.getAttribute("data-hand") : null;
  }

  // What the page showed when loaded is read on screen, not announced.
  var said = current();
  var saidWords = words().length;
  var saidHand = hand();

  new MutationObserver(function () {
    var text = current();
    if (text === said) return;
    said = text;
    var all = words();
    var from = hand() === saidHand ? saidWords : 0;
    // data-announce starts with the newest word: the ones before it not said yet go first.
    var missed = all.slice(from, Math.max(from, all.length - 1));
    saidWords = all.length;
    saidHand = hand();
    announcer.textContent = missed.concat(text ? [text] : []).join(" ");
  }).observe(table, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-announce"],
  });
})();
