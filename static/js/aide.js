// « Aide » on the decision panel: one line for the lance in play, shown or hidden as this
// device last chose (localStorage). The panel is redrawn at every version, so the choice
// lives on <html data-aide="on"> and the buttons' aria-pressed is set again after each swap.
(function () {
  "use strict";
  var KEY = "barajamos-aide";
  function on() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function show() {
    var state = on();
    document.documentElement.setAttribute("data-aide", state ? "on" : "off");
    document.querySelectorAll("[data-aide-toggle]").forEach(function (button) {
      button.setAttribute("aria-pressed", state ? "true" : "false");
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-aide-toggle]");
    if (!button) return;
    try { window.localStorage.setItem(KEY, on() ? "off" : "on"); } catch (e) { /* private mode */ }
    show();
  });
  document.addEventListener("htmx:afterSettle", show);
  document.addEventListener("htmx:oobAfterSwap", show);
  document.addEventListener("DOMContentLoaded", show);
  show();
})();
