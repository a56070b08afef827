// The salle's socket (htmx ws extension): which page of tables its pushes refresh, and the
// redirect to the table page when the player's table starts. Loaded (defer) before live.js;
// htmx connects the socket at DOMContentLoaded, after every deferred script, so the
// htmx:wsOpen listener below is always in place before the socket opens.
(function () {
  var live = document.getElementById("salle-live");
  if (!live) return;
  var socket = null;
  var socketPage = 1; // the page of tables the socket's pushes show
  var told = 0; // page changes sent up this socket; pushes echo the count they were rendered at
  function shownPage() {
    var salle = document.getElementById("salle");
    return salle && salle.dataset.page ? Number(salle.dataset.page) : 1;
  }
  // Another page of tables came over HTTP (the Tables précédentes / suivantes links, or a
  // form's answer): from now on the pushes refresh that page.
  function tellPage() {
    var page = shownPage();
    if (!socket || page === socketPage) { return; }
    told += 1;
    socketPage = page;
    socket.send(JSON.stringify({ type: "salle.page", page: page, nav: told }));
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    socketPage = Number(live.dataset.page); // the page in the socket's address
    told = 0;
    tellPage();
  });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  document.addEventListener("htmx:afterSwap", tellPage);
  // A push rendered before the socket heard of the last page change would show the old
  // page: drop it (the socket renders the new page next). A redirect always goes through.
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var found = /data-nav="(\d+)"/.exec(event.detail.message);
    var redirect = event.detail.message.indexOf("data-redirect") >= 0;
    if (found && !redirect && Number(found[1]) < told) { event.preventDefault(); }
  });
  // A push re-renders the salle whole: a level chosen in a select (« Niveau des robots »)
  // stays chosen, by the select's id.
  var chosen = {};
  document.addEventListener("htmx:wsBeforeMessage", function () {
    chosen = {};
    document.querySelectorAll("#salle select[id]").forEach(function (select) {
      chosen[select.id] = select.value;
    });
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    Object.keys(chosen).forEach(function (id) {
      var select = document.getElementById(id);
      if (select && select.querySelector('option[value="' + chosen[id] + '"]')) { select.value = chosen[id]; }
    });
  });
  // The host of a full table sees it in the tab's title too (« ● Table complète »), from
  // #salle's data-title-cue, which every push renders afresh.
  function showTitleCue() {
    var salle = document.getElementById("salle");
    var cue = salle && salle.dataset.titleCue;
    document.title = (cue || live.dataset.title) + " · Barajamos";
  }
  // A refusal in #messages speaks of the salle as it was (« Il faut quatre joueurs… »); once
  // a push has shown the salle as it is, and the player had a moment to read it, drop it.
  var messagesShownAt = Date.now();
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "messages") { messagesShownAt = Date.now(); }
  });
  // A new request from the salle makes the last one's messages stale: its answer brings #messages
  // out of band only when it has something to say (templates/games/salle.html, salle-response).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var messages = document.getElementById("messages");
    if (messages && event.target.closest && event.target.closest("#salle")) { messages.replaceChildren(); }
  });
  function dropStaleRefusals() {
    if (Date.now() - messagesShownAt < 2000) { return; }
    document.querySelectorAll("#messages li.error").forEach(function (item) { item.remove(); });
  }
  // « Vous attendez depuis 1:05 »: counted from the server's times (no clock skew), each
  // second; not a live region (a screen reader reads it when asked, not every second).
  function tickWaited() {
    var now = Date.now();
    document.querySelectorAll("[data-waited-since]").forEach(function (node) {
      if (!node.dataset.offset) { node.dataset.offset = String(now - Number(node.dataset.serverNow)); }
      var waited = Math.max(0, Math.floor((now - Number(node.dataset.offset) - Number(node.dataset.waitedSince)) / 1000));
      node.textContent = Math.floor(waited / 60) + ":" + String(waited % 60).padStart(2, "0");
    });
  }
  setInterval(tickWaited, 1000);
  document.addEventListener("htmx:afterSwap", tickWaited);
  document.addEventListener("htmx:wsAfterMessage", tickWaited);
  tickWaited();
  document.addEventListener("htmx:afterSwap", showTitleCue);
  document.addEventListener("htmx:wsAfterMessage", function () {
    showTitleCue();
    dropStaleRefusals();
    var salle = document.getElementById("salle");
    // A pushed #salle carrying data-redirect means: your table has started, go to it.
    if (salle && salle.dataset.redirect) { window.location.assign(salle.dataset.redirect); }
    socketPage = shownPage(); // the socket went back to the last page if there are fewer now
  });
})();
