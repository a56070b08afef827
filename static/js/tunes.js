// A few notes of the Web Audio API, no file: the table's turn, bet and órdago cues
// (attention.js), the salle's full-table chime (friends.js), the tournament's ready table
// (tournament.js). The browser lets audio start only after a click or a key on the page: the
// page calls wake() then (if the player turned sounds on), and play() resumes a suspended one.
window.barajamosTunes = (function () {
  var audio = null;
  function context() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }
  // notes: [[frequency Hz, start s, length s], ...]
  function play(notes, type) {
    var ctx = context();
    if (!ctx) return;
    notes.forEach(function (note) {
      var start = ctx.currentTime + note[1];
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.type = type || "sine";
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
  // Made or resumed at the page's first click or key, when `wanted()` says sounds are on.
  function wakeWhen(wanted) {
    function wake() { if (wanted()) context(); }
    document.addEventListener("pointerdown", wake, { once: true });
    document.addEventListener("keydown", wake, { once: true });
  }
  return { play: play, wakeWhen: wakeWhen };
})();
