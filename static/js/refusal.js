// A refused decision is told in the decision panel (.tpanel__refusal, from the POST's answer).
// The push of the change that made it stale often lands a moment later and renders the panel
// without it: keep the message a few seconds, so the player reads why the click did nothing.
(function () {
  var KEEP_MS = 6000;
  var kept = null; // {text, until}
  function check() {
    var panel = document.getElementById("decision-panel");
    if (!panel) return;
    var shown = panel.querySelector(".tpanel__refusal");
    if (shown && !shown.dataset.kept) {
      kept = { text: shown.textContent, until: Date.now() + KEEP_MS };
    } else if (!shown && kept && Date.now() < kept.until) {
      var copy = document.createElement("p");
      copy.className = "tpanel__refusal";
      copy.dataset.kept = "1"; // already announced: no second alert
      copy.textContent = kept.text;
      panel.insertBefore(copy, panel.firstChild);
    }
  }
  document.addEventListener("htmx:oobAfterSwap", check);
  document.addEventListener("htmx:afterSwap", check);
  document.addEventListener("htmx:wsAfterMessage", check);
})();
