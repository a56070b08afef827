// The turn clock (games/display/table_view.py seat_clock): each running .tclock carries the
// server's time it was rendered at and its deadlines, in ms. The page counts down from the
// moment it got them, so a client clock set wrong changes nothing and a reload shows the
// stored deadline. Swapped-in clocks (htmx out-of-band regions) are picked up at the swap.
(function () {
  var URGENT_MS = 5000;

  function format(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function show(clock, now) {
    if (!clock.dataset.clockOffset) {
      clock.dataset.clockOffset = String(now - Number(clock.dataset.clockNow));
    }
    var serverNow = now - Number(clock.dataset.clockOffset);
    var turnEnds = Number(clock.dataset.clockTurnEnds);
    var deadline = Number(clock.dataset.clockDeadline);
    var turn = clock.querySelector("[data-clock-turn]");
    if (turn) { turn.textContent = format(turnEnds - serverNow); }
    // A decision without a reserve (the deal) ends at its limit: its reserve stays as rendered.
    var reserve = clock.querySelector("[data-clock-reserve]");
    if (reserve && deadline > turnEnds) {
      reserve.textContent = format(deadline - Math.max(serverNow, turnEnds));
    }
    clock.classList.toggle("tclock--reserve", serverNow >= turnEnds);
    var urgent = deadline - serverNow <= URGENT_MS;
    clock.classList.toggle("tclock--urgent", urgent);
    var words = clock.querySelector("[data-clock-urgent]");
    if (words) { words.hidden = !urgent; }
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".tclock[data-clock-deadline]").forEach(function (clock) {
      show(clock, now);
    });
  }

  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, tick);
  });
  setInterval(tick, 250);
  tick();
})();
