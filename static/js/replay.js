// The partie page's step-by-step replay: ← and → follow the previous / next links (which work
// without this script). Not while typing in a field, nor with a modifier (browser shortcuts).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
  const which = { ArrowLeft: "previous", ArrowRight: "next" }[event.key];
  if (!which) return;
  const link = document.querySelector(`[data-replay-step="${which}"]`);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
