// Every push (and every POST answer) replaces the table's regions whole, out of band. Keep what
// the player was doing in them: the cards checked for the discard, an amount typed, the focused
// control. When the panel newly offers decisions (your turn), focus its first action.
(function () {
  // The regions the player acts in (the score screen holds the host's "Distribuer"), and the
  // hand log, read by keyboard.
  var KEPT = ["my-hand", "decision-panel", "hand-log", "score-screen"];
  var saved = {};
  // The amount typed, with the lance it was typed for: a new lance's field starts afresh.
  var typed = {};

  function lanceTitle() {
    var title = document.querySelector("#lance-status .lance-status__title");
    return title ? title.textContent.trim() : "";
  }

  function formType(control) {
    var field = control.form && control.form.querySelector("input[name=type]");
    var amount = control.form && control.form.querySelector("input[type=hidden][name=amount]");
    return (field ? field.value : "") + ":" + (amount ? amount.value : "");
  }

  // A control's identity across renders: a card box by its card, a field by its id, a button
  // by what its form posts.
  function identity(control) {
    if (!control || control === document.body) return null;
    if (control.matches("input[type=checkbox]")) return "card:" + control.value;
    if (control.matches(".partie-over__title")) return "partie-over"; // kept across pushes
    if (control.id) return "id:" + control.id;
    if (control.matches("button")) return "button:" + formType(control);
    return null;
  }

  function find(region, key) {
    var controls = region.querySelectorAll("input, button, [tabindex]");
    for (var i = 0; i < controls.length; i++) {
      if (identity(controls[i]) === key) return controls[i];
    }
    return null;
  }

  function actions(region) {
    return region.querySelectorAll("button[type=submit]");
  }

  // Whether the page has shown the end of the partie (its result is focused once, when it comes).
  var overShown = !!document.querySelector(".partie-over");

  // Facing an órdago, a stray Enter must not end the partie: the cautious answer comes first.
  function cautious(region) {
    if (region.id !== "decision-panel" || region.dataset.attention !== "ordago") return null;
    var refuse = region.querySelector("form:has(input[name=type][value=refuse]) button[type=submit]");
    return refuse || null;
  }

  function isTyping(element) {
    return !!element && (element.isContentEditable || element.matches(
      "textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden])"
    ));
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.matches && field.matches("#decision-panel input[type=number]")) {
      typed[field.id] = { value: field.value, lance: lanceTitle() };
    }
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var region = event.detail.target;
    if (KEPT.indexOf(region.id) < 0) return;
    var active = document.activeElement;
    var focused = active && region.contains(active);
    saved[region.id] = {
      old: region,
      checked: Array.prototype.map.call(
        region.querySelectorAll("input[type=checkbox]:checked"),
        function (box) { return box.value; }
      ),
      focus: focused ? identity(active) : null,
      hadFocus: focused,
      hadActions: actions(region).length > 0,
      scrollTop: region.scrollTop,
    };
  });

  function restore(id) {
    var was = saved[id];
    var region = document.getElementById(id);
    if (!region || region === was.old) return false;
    delete saved[id];
    region.scrollTop = was.scrollTop;
    was.checked.forEach(function (code) {
      var box = region.querySelector("input[type=checkbox][value='" + CSS.escape(code) + "']");
      if (box) box.checked = true;
    });
    region.querySelectorAll("input[type=number]").forEach(function (field) {
      var kept = typed[field.id];
      if (!kept || kept.lance !== lanceTitle() || kept.value === field.value) return;
      var n = Number(kept.value);
      if (kept.value === "" || (n >= Number(field.min) && n <= Number(field.max))) {
        field.value = kept.value;
      }
    });
    var first = cautious(region) || actions(region)[0];
    var control = was.focus && find(region, was.focus);
    // A new decision, or the next one right after yours (your Mus closed the round: your
    // discard), takes the focus.
    var gained = first && !first.closest("[hidden]") && (!was.hadActions || (was.hadFocus && !control));
    var active = document.activeElement;
    var over = id === "score-screen" && region.querySelector(".partie-over__title");
    if (over && !overShown) {
      overShown = true;
      // The partie just ended: its result and final score first, the revanche beside them
      // (never a button below that scrolls the result away).
      over.focus({ preventScroll: true });
      // The page's top when the result is in its first half (the scoreboard stays in view).
      var y = region.querySelector(".partie-over").getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: y < window.innerHeight / 2 ? 0 : y - 8 });
    } else if (control) {
      control.focus({ preventScroll: true });
    } else if (gained && !isTyping(active)) {
      // Your turn: the discard starts with the cards to pick, any other decision with its
      // first button.
      var card = id === "decision-panel" && document.querySelector("#my-hand input[type=checkbox]");
      (card || first).focus();
    } else if (was.hadFocus && (!active || active === document.body)) {
      // The control is gone (your decision was taken): stay in the region, not at the page's top.
      region.setAttribute("tabindex", "-1");
      region.focus({ preventScroll: true });
    }
    return true;
  }

  // On a phone the panel sticks to the bottom of the screen: when it is taller than the room
  // left under your cards, scroll the page (the header and score go up) rather than cover them.
  function uncoverCards() {
    var panel = document.getElementById("decision-panel");
    var hand = document.getElementById("my-hand");
    if (!panel || !hand || getComputedStyle(panel).position !== "sticky") return;
    var covered = hand.getBoundingClientRect().bottom - panel.getBoundingClientRect().top;
    if (covered > 0) window.scrollBy(0, covered + 4);
  }

  document.addEventListener("htmx:oobAfterSwap", function () {
    Object.keys(saved).forEach(restore);
    uncoverCards();
  });

  // A page opened on your turn starts there too (without scrolling: the table first).
  var panel = document.getElementById("decision-panel");
  var first = panel && (cautious(panel) || actions(panel)[0]);
  if (first && (!document.activeElement || document.activeElement === document.body)) {
    (document.querySelector("#my-hand input[type=checkbox]") || first).focus({ preventScroll: true });
  }
  uncoverCards();
})();
