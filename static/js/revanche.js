// The revanche offer's countdown (templates/games/_revanche.html): the seconds left before it
// lapses, from the server's expiry (epoch ms) and the server's French sentence (%s: seconds).
// Every push renders the panel afresh; this only rewrites its text once a second.
(function () {
  function tick() {
    document.querySelectorAll("[data-revanche-expires]").forEach(function (node) {
      var left = Math.max(0, Math.ceil((Number(node.dataset.revancheExpires) - Date.now()) / 1000));
      node.textContent = node.dataset.leftText.replace("%s", String(left));
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("htmx:wsAfterMessage", tick);
  tick();
})();
