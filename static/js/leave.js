// Leaving the table is deliberate. While the partie is played (#away-banner's data-partie), a
// header link or the sign-out asks first in the site's own dialog (#leave-dialog), and closing
// or reloading the tab asks the browser's beforeunload question: a seat left empty for a
// minute cancels the partie for all four. Never asked once the partie is over, nor when the
// site itself sends the page away (a cancelled partie, a moderator's kick: data-redirect).
(function () {
  // The returning player's note (« Vous étiez déconnecté·e… ») is read once, then gives its
  // room back to the table: on « Compris », or by itself after a while.
  var returned = document.querySelector(".away-return");
  if (returned) {
    var dismiss = function () { returned.remove(); };
    returned.querySelector("[data-dismiss-return]").addEventListener("click", dismiss);
    setTimeout(dismiss, 20000);
  }

  var dialog = document.getElementById("leave-dialog");
  if (!dialog || !document.querySelector("[data-leave-guard]")) return;
  var leaving = false; // the player confirmed, or the site is sending the page elsewhere
  var onLeave = null; // what the confirmed dialog does: follow the link, send the form

  function inPlay() {
    var banner = document.getElementById("away-banner");
    var status = banner ? banner.dataset.partie : "";
    return !leaving && (status === "playing" || status === "hand_over");
  }
  function ask(go) {
    onLeave = go;
    dialog.returnValue = "";
    dialog.showModal();
  }
  dialog.querySelector("[data-leave-confirm]").addEventListener("click", function () {
    dialog.close("leave");
  });
  dialog.addEventListener("close", function () {
    var go = onLeave;
    onLeave = null;
    if (dialog.returnValue === "leave" && go) {
      leaving = true;
      go();
    }
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest(".site-header a[href]");
    if (!link || link.target === "_blank" || !inPlay()) return;
    // A modified click opens another tab: the table stays.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    ask(function () { window.location.assign(link.href); });
  });
  document.addEventListener("submit", function (event) {
    var form = event.target.closest(".site-header form");
    if (!form || !inPlay()) return;
    event.preventDefault();
    ask(function () { form.submit(); }); // form.submit() fires no submit event
  });
  window.addEventListener("beforeunload", function (event) {
    if (!inPlay()) return;
    event.preventDefault();
    event.returnValue = ""; // older browsers ask only when returnValue is set
  });
  // Before table.js follows a pushed data-redirect (a cancelled partie, a kick).
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (event.detail.message.indexOf("data-redirect") >= 0) { leaving = true; }
  });
})();
