// The table's quick phrases (docs/phrases.md): a phrase newly in the log (pushed, or the answer
// to one's own) is shown in a bubble at its speaker's seat for a few seconds and said in the
// table's live region (#announcer); the same phrase arriving twice (the answer and the push)
// is kept once. At the table page and at the salle's « Votre table » before the partie.
(function () {
  var seen = 0;  // the newest phrase shown: older ones (a page load, a mute undone) stay quiet
  // The salle shows the log only once its player sits: what was said before is not news.
  var logKnown = !!document.getElementById("talk-log");

  function talk() { return document.getElementById("table-talk"); }

  function seconds() {
    var section = talk();
    var value = section ? parseInt(section.getAttribute("data-bubble-seconds"), 10) : 6;
    return (isNaN(value) ? 6 : value) * 1000;
  }

  // At every place the page shows the speaker's seat (the felt, the talk section's own ring).
  function bubble(entry) {
    var section = talk();
    var places = ((section && section.getAttribute("data-seats")) || "#table-seats").split(",");
    var number = entry.getAttribute("data-seat");
    places.forEach(function (place) {
      var seat = document.querySelector(place.trim() + ' [data-seat="' + number + '"]');
      if (!seat) return;
      var old = seat.querySelector(".talk-bubble");
      if (old) old.remove();
      var shown = document.createElement("span");
      shown.className = "talk-bubble";
      shown.setAttribute("aria-hidden", "true");  // #announcer says it
      shown.textContent = entry.getAttribute("data-text");
      seat.appendChild(shown);
      setTimeout(function () { shown.remove(); }, seconds());
    });
  }

  function announce(entry) {
    var announcer = document.getElementById("announcer");
    if (announcer) announcer.textContent = entry.getAttribute("data-announce");
  }

  function newest(update) {
    var log = document.getElementById("talk-log");
    if (!log) return;
    if (!logKnown) { logKnown = true; update = false; }
    var kept = {};
    Array.prototype.forEach.call(log.querySelectorAll("li[data-pk]"), function (entry) {
      var pk = parseInt(entry.getAttribute("data-pk"), 10);
      if (kept[pk]) { entry.remove(); return; }
      kept[pk] = true;
      if (pk <= seen) return;
      seen = pk;
      if (!update) return;
      bubble(entry);
      announce(entry);
      log.scrollTop = log.scrollHeight;
    });
  }

  newest(false);
  ["htmx:wsAfterMessage", "htmx:afterSettle", "htmx:oobAfterSwap"].forEach(function (name) {
    document.addEventListener(name, function () { newest(true); });
  });
  // The refusals (not seated 403, a hand under way 422, the pace 429) carry the note to show.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var section = talk();
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if ([403, 422, 429].indexOf(status) >= 0 && section && section.contains(event.detail.elt)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
