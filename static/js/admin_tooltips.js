// Django's filter_horizontal widget (admin/js/SelectFilter2.js) names its search icons with
// aria-label on a bare <span>, which assistive technologies ignore (axe: aria-prohibited-attr).
// Give them the role their label needs, as the widget builds them on the page's load.
(function () {
  function fix(root) {
    root.querySelectorAll(".help-tooltip[aria-label]:not([role])").forEach(function (icon) {
      icon.setAttribute("role", "img");
    });
  }
  new MutationObserver(function () { fix(document); }).observe(document.documentElement, {
    subtree: true,
    childList: true,
  });
})();
