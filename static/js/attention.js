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

  // Sounds: a few notes of the Web Audio API, no file. The browser lets audio start only after
  // a click or a key on the page: the context is made or resumed then.
  var audio = null;
  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }
  // [frequency Hz, start s, length s]
  var TUNES = {
    turn: [[660, 0, 0.14], [880, 0.16, 0.2]],
    bet: [[523, 0, 0.12], [659, 0.14, 0.12], [784, 0.28, 0.2]],
    ordago: [[392, 0, 0.25], [311, 0.28, 0.25], [262, 0.56, 0.5]],
  };
  function play(cue) {
    var ctx = audioContext();
    if (!ctx || !TUNES[cue]) return;
    TUNES[cue].forEach(function (note) {
      var start = ctx.currentTime + note[1];
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = cue === "ordago" ? "triangle" : "sine";
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
  function wake() { if (isOn("sounds")) audioContext(); }
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });

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
