// The salle's friendly parts, after every swap of #salle (pushes included):
// - the private table's invitation link, shown whole (this site's origin + the path) and
//   copied by « Copier le lien », whose « Lien copié ! » stays a few seconds even when a push
//   re-renders the salle meanwhile (the table just opened is pushed to every salle, its host's
//   included, often right after the copy);
// - the « Compléter avec des robots » offer, revealed to every player seated at the table when
//   it has waited long enough (data-reveal-at, epoch ms, from the server), with its title cue
//   and chime;
// - a sound when the host's table gets its fourth player (#salle's data-title-cue appears):
//   off until the player turns it on, remembered in this browser, per player.
(function () {
  var live = document.getElementById("salle-live");
  if (!live) return;
  var toggle = document.getElementById("full-table-sound");
  var key = "barajamos:full-table-sound:" + (toggle ? toggle.dataset.user : "");
  var revealTimer = null;
  var COPIED_MS = 5000;
  var copied = null; // {path, until}: the link last copied, and until when to say so

  function soundOn() {
    try { return localStorage.getItem(key) === "on"; } catch (e) { return false; }
  }
  function showToggle() {
    if (!toggle) return;
    var on = soundOn();
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.querySelector("[data-when-on]").hidden = !on;
    toggle.querySelector("[data-when-off]").hidden = on;
  }
  function chime() {
    window.barajamosTunes.play([[523, 0, 0.25], [659, 0.15, 0.25], [784, 0.3, 0.25]]);
  }
  if (toggle) {
    showToggle();
    toggle.addEventListener("click", function () {
      var on = !soundOn();
      try { localStorage.setItem(key, on ? "on" : "off"); } catch (e) { /* private mode */ }
      showToggle();
      if (on) chime(); // what it will sound like
    });
  }

  var wasFull = null;
  function refresh() {
    var salle = document.getElementById("salle");
    if (!salle) return;
    var full = Boolean(salle.dataset.titleCue);
    if (wasFull === false && full && soundOn()) chime();
    wasFull = full;

    var input = salle.querySelector("[data-invite-path]");
    if (input) input.value = window.location.origin + input.dataset.invitePath;
    showCopied(input);

    var offer = salle.querySelector("[data-reveal-at]");
    if (revealTimer) { clearTimeout(revealTimer); revealTimer = null; }
    if (offer) {
      var wait = Number(offer.dataset.revealAt) - Date.now();
      if (wait <= 0) { reveal(offer); }
      else { revealTimer = setTimeout(function () { reveal(offer); }, wait); }
    }
  }
  // The robots offer shown: in the tab's title too, and a chime the first time for this table
  // (when sounds are on), as for a full table.
  var chimedFor = null;
  function reveal(offer) {
    offer.hidden = false;
    document.title = offer.dataset.offerCue + " · Barajamos";
    var table = offer.closest("[data-table]");
    var id = table ? table.dataset.table : "";
    if (chimedFor !== id && soundOn()) chime();
    chimedFor = id;
  }
  function showCopied(input) {
    if (!input || !copied || Date.now() > copied.until) return;
    if (input.dataset.invitePath !== copied.path) return; // a renewed link was not copied
    var mark = input.closest(".invite-link").querySelector("[data-invite-copied]");
    if (mark) mark.hidden = false;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-invite]");
    if (!button) return;
    var box = button.closest(".invite-link");
    var input = box.querySelector("[data-invite-path]");
    var done = function () {
      copied = { path: input.dataset.invitePath, until: Date.now() + COPIED_MS };
      showCopied(document.querySelector("[data-invite-path]"));
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {
      input.select();
      try { if (document.execCommand("copy")) done(); } catch (e) { /* select it at least */ }
    }
  });
  document.addEventListener("htmx:afterSwap", refresh);
  document.addEventListener("htmx:wsAfterMessage", refresh);
  refresh();
})();
