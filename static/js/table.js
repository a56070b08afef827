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
})();
