// The tournament page's live part (#tournament-live, polled by htmx): when it first carries
// your table (data-table-url: its page once the partie started, or the key of its « Je suis
// là » form while it waits for you), the tab's title says so and, if you turned the sounds on at a
// table (static/js/attention.js keeps that choice in this browser, per player), a short tune
// plays (static/js/tunes.js). The link itself is in the page, announced as an alert.
(function () {
  var told = "";
  var idle = document.title;
  function soundsOn() {
    var live = document.getElementById("tournament-live");
    try {
      return !!live && localStorage.getItem("barajamos:sounds:" + live.dataset.user) === "on";
    } catch (e) { return false; }
  }
  function tune() {
    if (soundsOn()) window.barajamosTunes.play([[660, 0, 0.14], [880, 0.16, 0.2], [990, 0.38, 0.25]]);
  }
  window.barajamosTunes.wakeWhen(soundsOn);
  function check() {
    var live = document.getElementById("tournament-live");
    if (!live) return;
    var url = live.dataset.tableUrl || "";
    if (url && url !== told) {
      told = url;
      document.title = live.dataset.titleReady;
      tune();
    } else if (!url) {
      told = "";
      document.title = idle;
    }
  }
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSettle", check);
})();
