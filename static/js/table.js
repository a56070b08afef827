// The table answers a stale version with 409 and an illegal action with 422, both carrying the
// fresh regions (out-of-band) and a French message: let htmx swap them instead of dropping them.
(function () {
  if (!window.htmx) return;
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "409", swap: true, error: false },
    { code: "422", swap: true, error: false },
    { code: "403", swap: true, error: true },
    { code: "[45]..", swap: false, error: true },
  ];
  // A pushed #flash carrying data-redirect means: this game was cancelled, or you were signed
  // out by a moderator; go there (the same mechanism as the salle's start).
  document.addEventListener("htmx:wsAfterMessage", function () {
    var flash = document.getElementById("flash");
    if (flash && flash.dataset.redirect) { window.location.assign(flash.dataset.redirect); }
  });

  // A decision goes up the table's open socket rather than as a POST (the server answers it
  // the same way, games.decisions; it costs far less than a request). While the socket is not
  // open, or the form does not validate yet, htmx posts it as usual; without JavaScript the
  // form posts itself.
  var socket = null;
  document.addEventListener("htmx:wsOpen", function (event) { socket = event.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    if (!socket) return;  // known open between htmx:wsOpen and htmx:wsClose
    if (!form || form.tagName !== "FORM") return;
    // « Conseil » (a practice table): asked up the socket too, answered with the hint box.
    if (form.hasAttribute("data-hint") && event.detail.verb === "post") {
      event.preventDefault();
      socket.sendImmediately(JSON.stringify({ type: "hint" }), form);
      return;
    }
    // Only the decisions (the forms posting to the table's act URL) go up the socket: the
    // revanche's and any other form keep their own endpoint.
    var table = form.closest("#mus-table");
    if (!table || form.getAttribute("hx-post") !== table.dataset.actUrl) return;
    if (event.detail.verb !== "post" || !form.checkValidity()) return;
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name === "csrfmiddlewaretoken") return;  // the socket is authenticated and origin-checked
      if (name in fields) {
        fields[name] = [].concat(fields[name], value);
      } else {
        fields[name] = name === "cards" ? [value] : value;
      }
    });
    event.preventDefault();
    socket.sendImmediately(JSON.stringify({ type: "decide", fields: fields }), form);
  });
})();
