// Small behaviours of the director console that the CSP keeps out of the templates.
(function () {
  "use strict";

  // A button or form with data-confirm asks before it submits, once its form is valid:
  // "This field is required" comes before "Are you sure?", never after it.
  document.addEventListener("click", function (event) {
    var el = event.target.closest ? event.target.closest("[data-confirm]") : null;
    var form = el && (el.form || el.closest("form"));
    if (form && typeof form.checkValidity === "function" && !form.checkValidity()) {
      event.preventDefault();
      event.stopPropagation();
      form.reportValidity();
      return;
    }
    if (el && !window.confirm(el.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // A link to a closed <details> (e.g. "correct" in the hand log) opens it.
  function openTarget() {
    var id = window.location.hash.slice(1);
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", openTarget);

  // At the check-in desk, after a tap the search box is ready for the next name.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("desk-form")) { return; }
    var q = document.getElementById("desk-q");
    if (q) { q.focus(); q.select(); }
  });
})();

// A stale or refused answer to a table's call (409/422) carries the banner as it now
// stands: show it, with its message, instead of htmx's default of dropping error bodies.
document.addEventListener("htmx:beforeSwap", function (event) {
  var status = event.detail.xhr.status;
  if ((status === 409 || status === 422) && event.detail.target.id === "help-slot") {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
