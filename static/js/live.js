// The live pages' socket (htmx ws extension): a heartbeat, and the countdown of away seats.
(function () {
  // Every data-heartbeat milliseconds, while the socket is open, tell the server this page is
  // alive: a dead network link may never send a close (games.presence).
  var socket = null;
  document.addEventListener("htmx:wsOpen", function (event) { socket = event.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function (event) {
    socket = null;
    // The extension reconnects by itself after an abnormal close (a killed or restarted web
    // process: 1006, 1011-1013); a server or proxy that shuts down cleanly says 1001 "going
    // away": reconnect then too, after a random pause, for a full render of the table.
    var closed = event.detail.event;
    if (closed && closed.code === 1001) {
      setTimeout(event.detail.socketWrapper.reconnect, 500 + Math.random() * 2000);
    }
  });
  var live = document.querySelector("[data-heartbeat]");
  var every = live ? Number(live.dataset.heartbeat) : 0;
  if (every > 0) {
    setInterval(function () {
      if (socket) { socket.send(JSON.stringify({ type: "heartbeat" })); }
    }, every);
  }

  // « dani a perdu la connexion — place gardée 0:42 »: the server renders the seconds left; the
  // page ticks them down from the moment it got them (no clock skew with the server).
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-seconds]").forEach(function (clock) {
      if (!clock.dataset.ends) {
        clock.dataset.ends = String(now + Number(clock.dataset.seconds) * 1000);
      }
      var left = Math.max(0, Math.ceil((Number(clock.dataset.ends) - now) / 1000));
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      clock.textContent = text;
      sayAtMilestones(clock.nextElementSibling, left, text);
      var line = clock.closest("[data-away-line]");
      if (line) tellAway(line, left, text);
    });
    forgetReturned();
  }
  // The away banner is not a live region (its clock ticks four times a second): each line is
  // said once in the table's #announcer when it appears, then at a few milestones only.
  var toldAway = {}; // name -> seconds left when last said
  function say(text) {
    var announcer = document.getElementById("announcer");
    if (announcer) announcer.textContent = text;
  }
  function tellAway(line, left, text) {
    var name = line.dataset.awayName;
    var last = toldAway[name];
    if (last === undefined) {
      say(line.textContent.replace(/\s+/g, " ").trim());
    } else if (MILESTONES.some(function (mark) { return left <= mark && last > mark; })) {
      var banner = document.getElementById("away-banner");
      say(banner.dataset.milestoneText.replace("%(name)s", name).replace("%(clock)s", text));
    } else {
      return;
    }
    toldAway[name] = left;
  }
  function forgetReturned() {
    var shown = {};
    document.querySelectorAll("[data-away-line]").forEach(function (line) { shown[line.dataset.awayName] = true; });
    Object.keys(toldAway).forEach(function (name) { if (!shown[name]) delete toldAway[name]; });
  }
  // A ticking clock inside a live region (the revanche offer's) is hidden from screen readers:
  // its words beside it (data-countdown-said) change at the same milestones only.
  var MILESTONES = [60, 30, 10];
  function sayAtMilestones(said, left, text) {
    if (!said || !said.hasAttribute("data-countdown-said")) return;
    var last = said.dataset.saidLeft ? Number(said.dataset.saidLeft) : Infinity;
    var crossed = MILESTONES.some(function (mark) { return left <= mark && last > mark; });
    if (!said.dataset.saidLeft || crossed) {
      said.dataset.saidLeft = String(left);
      if (crossed) said.textContent = text;
    }
  }
  window.barajamosSayAtMilestones = sayAtMilestones;
  document.addEventListener("htmx:wsAfterMessage", tick);
  setInterval(tick, 250);
  tick();
})();
