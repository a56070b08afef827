// The player's seed for the verifiable shuffle (docs/fair-shuffle.md): the browser proposes
// 32 random hex characters (crypto.getRandomValues) in every form that seats the player (open
// a table, sit, « Jouer maintenant », « Jouer contre les robots », an invitation, a revanche);
// without JavaScript the field stays blank and the site draws one (recorded as the site's).
// Every proposed field of the page holds the same seed: the one the player sees and may change
// in a « Mélange vérifiable : votre graine » box is the one every seat form sends. The seed
// field of one's own table (change it until the start) survives the salle's pushes while the
// player types, and gets a « Au hasard » button; a seed box the player opened stays open.
(function () {
  function randomSeed() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  // One proposal per page: every sit form offers the same seed, so none is a surprise.
  var proposed = randomSeed();
  // What the player is typing in their seed field, kept across pushes until sent.
  var typing = null; // {value, from: the seed the field showed, focused, start, end}

  // The seed boxes (<details data-seed-details>) the player opened, by id, kept across pushes.
  var opened = {};

  function prepare() {
    document.querySelectorAll("input[data-seed-propose]").forEach(function (field) {
      if (!field.value) { field.value = proposed; }
    });
    document.querySelectorAll("details[data-seed-details]").forEach(function (box) {
      if (opened[box.id]) { box.open = true; }
    });
    document.querySelectorAll("button[data-seed-random]").forEach(function (button) {
      button.hidden = false;
    });
    var edit = document.querySelector("input[data-seed-edit]");
    if (edit && typing && edit.defaultValue === typing.from) {
      edit.value = typing.value;
      if (typing.focused) {
        edit.focus();
        try { edit.setSelectionRange(typing.start, typing.end); } catch (e) { /* not a text field */ }
      }
    } else {
      typing = null;
    }
  }

  document.addEventListener("toggle", function (event) {
    var box = event.target;
    if (box.matches && box.matches("details[data-seed-details]") && box.id) {
      opened[box.id] = box.open;
    }
  }, true);
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.matches && field.matches("input[data-seed-propose]")) {
      proposed = field.value;
      document.querySelectorAll("input[data-seed-propose]").forEach(function (other) {
        if (other !== field) { other.value = proposed; }
      });
      return;
    }
    if (!field.matches || !field.matches("input[data-seed-edit]")) { return; }
    typing = {
      value: field.value, from: field.defaultValue, focused: true,
      start: field.selectionStart, end: field.selectionEnd
    };
  });
  document.addEventListener("focusout", function (event) {
    if (typing && event.target.matches && event.target.matches("input[data-seed-edit]")) {
      typing.focused = false;
    }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-seed-random]");
    if (!button) { return; }
    var field = button.form && button.form.querySelector("input[data-seed-edit]");
    if (!field) { return; }
    field.value = randomSeed();
    typing = { value: field.value, from: field.defaultValue, focused: false, start: 0, end: 0 };
  });
  document.addEventListener("submit", function (event) {
    if (event.target.querySelector && event.target.querySelector("input[data-seed-edit]")) {
      typing = null;
    }
  });
  document.addEventListener("DOMContentLoaded", prepare);
  document.addEventListener("htmx:afterSwap", prepare);
  document.addEventListener("htmx:wsAfterMessage", prepare);
  if (document.readyState !== "loading") { prepare(); }
})();
