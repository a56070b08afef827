// Your turn catches your attention outside the page: the tab's title (« ● À vous — Table 3 »),
// optional sounds (your turn, a bet against you, an órdago) and, while the tab is hidden, a
// notification. The pushed #decision-panel carries data-attention ("turn", "bet", "ordago" or
// ""); the texts come from #attention, rendered by the server. Sounds and notifications are off
// until the player turns them on; the choice is kept in this browser, per player.
(function () {
  var bar = document.getElementById("attention");
  if (!bar) return;

  function key(name) { return "barajamos:" + name + ":" + bar.dataset.user; }
  function isOn(name) {
    try { return localStorage.getItem(key(name)) === "on"; } catch (e) { return false; }
  }
  function remember(name, on) {
    try { localStorage.setItem(key(name), on ? "on" : "off"); } catch (e) { /* private mode */ }
  }
  function show(button, on) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    var onText = button.querySelector("[data-when-on]");
    var offText = button.querySelector("[data-when-off]");
    if (onText) onText.hidden = !on;
    if (offText) offText.hidden = on;
  }

  // Sounds (static/js/tunes.js): [frequency Hz, start s, length s]
  var TUNES = {
    turn: [[660, 0, 0.14], [880, 0.16, 0.2]],
    bet: [[523, 0, 0.12], [659, 0.14, 0.12], [784, 0.28, 0.2]],
    ordago: [[392, 0, 0.25], [311, 0.28, 0.25], [262, 0.56, 0.5]],
  };
  function play(cue) {
    if (TUNES[cue]) window.barajamosTunes.play(TUNES[cue], cue === "ordago" ? "triangle" : "sine");
  }
  window.barajamosTunes.wakeWhen(function () { return isOn("sounds"); });

  var sounds = bar.querySelector("[data-sounds]");
  show(sounds, isOn("sounds"));
  sounds.addEventListener("click", function () {
    var on = !isOn("sounds");
    remember("sounds", on);
    show(sounds, on);
    if (on) play("turn"); // what it will sound like
  });

  // Notifications: permission is asked only when the player clicks « Me prévenir ».
  var notify = bar.querySelector("[data-notify]");
  var blocked = bar.querySelector("[data-notify-blocked]");
  var canNotify = "Notification" in window;
  function notifying() { return canNotify && isOn("notify") && Notification.permission === "granted"; }
  if (canNotify) {
    notify.hidden = false;
    show(notify, notifying());
    blocked.hidden = Notification.permission !== "denied" || !isOn("notify");
    notify.addEventListener("click", function () {
      if (notifying()) {
        remember("notify", false);
        show(notify, false);
        return;
      }
      remember("notify", true);
      Promise.resolve(Notification.requestPermission()).then(function (permission) {
        show(notify, permission === "granted");
        blocked.hidden = permission !== "denied";
      });
    });
  }

  function currentCue() {
    var panel = document.getElementById("decision-panel");
    return panel ? panel.dataset.attention || "" : "";
  }
  var shown = currentCue();
  function update() {
    var cue = currentCue();
    document.title = cue ? bar.dataset.titleTurn : bar.dataset.titleIdle;
    if (cue === shown) return;
    shown = cue;
    if (!cue) return;
    if (isOn("sounds")) play(cue);
    if (document.hidden && notifying()) {
      var note = new Notification(bar.dataset.titleTurn, {
        body: bar.dataset["say" + cue.charAt(0).toUpperCase() + cue.slice(1)] || "",
        tag: "barajamos-turn",
      });
      note.onclick = function () { window.focus(); note.close(); };
    }
  }
  // a push (socket) or the answer to a POST: both swap #decision-panel out of band
  document.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("htmx:afterSettle", update);
  update();
})();
