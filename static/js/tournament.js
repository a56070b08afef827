// The tournament page's live part (#tournament-live, polled by htmx): when it first carries
// your table (data-table-url: its page once the partie started, or the key of its « Je suis
// là » form while it waits for you), the tab's title says so and, if you turned the sounds on at a
// table (static/js/attention.js keeps that choice in this browser, per player), a short tune
// plays. The link itself is in the page, announced as an alert.
(function () {
  var told = "";
  var idle = document.title;
  function tune() {
    var live = document.getElementById("tournament-live");
    try {
      if (localStorage.getItem("barajamos:sounds:" + live.dataset.user) !== "on") return;
    } catch (e) { return; }
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    var ctx = new Context();
    [[660, 0, 0.14], [880, 0.16, 0.2], [990, 0.38, 0.25]].forEach(function (note) {
      var start = ctx.currentTime + note[1];
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = note[0];
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + note[2]);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(start);
      osc.stop(start + note[2] + 0.05);
    });
  }
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
