// The revanche offer's countdown (templates/jinja2/games/_revanche.html): the seconds left before it
// lapses, from the server's expiry (epoch ms) and the server's French sentence (%s: seconds),
// on the server's clock: the offset between this device's clock and the server's time at the
// render is taken when the panel is first seen (a device clock minutes off counts right).
// Every push renders the panel afresh; this only rewrites its text once a second.
// A page that showed the open offer goes to the new table once it shows the revanche started
// (every answer was yes, this player's too): the socket's redirect usually does it, and this
// covers a redirect missed (the socket reconnecting at that moment renders the panel afresh).
(function () {
  var offerSeen = false;
  function tick() {
    if (document.querySelector("[data-revanche-expires]")) offerSeen = true;
    var started = document.querySelector("#revanche [data-revanche-started]");
    if (offerSeen && started) {
      offerSeen = false; // once
      window.location.assign(started.getAttribute("href"));
      return;
    }
    var now = Date.now();
    document.querySelectorAll("[data-revanche-expires]").forEach(function (node) {
      if (node.dataset.revancheOffset === undefined) {
        node.dataset.revancheOffset = String(now - Number(node.dataset.revancheNow || now));
      }
      var serverNow = now - Number(node.dataset.revancheOffset);
      var left = Math.max(0, Math.ceil((Number(node.dataset.revancheExpires) - serverNow) / 1000));
      var text = node.dataset.leftText.replace("%s", String(left));
      node.textContent = text;
      // Screen readers hear the offer's countdown at a few milestones only (static/js/live.js).
      var said = node.nextElementSibling;
      if (window.barajamosSayAtMilestones) window.barajamosSayAtMilestones(said, left, text);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("htmx:wsAfterMessage", tick);
  tick();
})();
