// Keyboard shortcuts of the table's decisions: each button names its key (aria-keyshortcuts,
// shown in a <kbd>). A key never acts while the player types in a field, nor with a modifier
// (the browser's and the screen reader's own shortcuts).
(function () {
  function isTyping(element) {
    return !!element && (element.isContentEditable || element.matches(
      "textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden])"
    ));
  }

  function buttonFor(key) {
    var buttons = document.querySelectorAll(
      "#decision-panel button[aria-keyshortcuts], #score-screen button[aria-keyshortcuts]"
    );
    for (var i = 0; i < buttons.length; i++) {
      var button = buttons[i];
      if (button.getAttribute("aria-keyshortcuts").toLowerCase() === key
          && !button.disabled && !button.closest("[hidden]")) {
        return button;
      }
    }
    return null;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    if (isTyping(event.target) || !event.key || event.key.length !== 1) return;
    var button = buttonFor(event.key.toLowerCase());
    if (!button) return;
    event.preventDefault();
    // An amount is typed first: the key goes to the field, Entrée then sends it.
    var amount = button.form && button.form.querySelector("input[type=number]");
    if (amount) {
      amount.focus();
      amount.select();
      return;
    }
    button.click();
  });
})();
