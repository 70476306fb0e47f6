// Small behaviours of the director console that the CSP keeps out of the templates.
(function () {
  "use strict";

  // A button or form with data-confirm asks before it submits.
  document.addEventListener("click", function (event) {
    var el = event.target.closest ? event.target.closest("[data-confirm]") : null;
    if (el && !window.confirm(el.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // At the check-in desk, after a tap the search box is ready for the next name.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("desk-form")) { return; }
    var q = document.getElementById("desk-q");
    if (q) { q.focus(); q.select(); }
  });
})();
