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

  // A link to a closed <details> (e.g. "correct" in the hand log) opens it.
  function openTarget() {
    var id = window.location.hash.slice(1);
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", openTarget);

  // A region drawn again while the keyboard is in it (the round's board every 3 s, the
  // tables' calls, a check-in tick answered in place) gives the focus back to the same
  // control in the new drawing: a keyboard user is never sent back to the page's top.
  var keep = null;
  function sameControl(el) {
    if (el.id) { return "#" + CSS.escape(el.id); }
    var href = el.getAttribute("href");
    if (href) { return 'a[href="' + CSS.escape(href) + '"]'; }
    var action = el.form && el.form.getAttribute("action");
    if (action) { return 'form[action="' + CSS.escape(action) + '"] ' + el.tagName.toLowerCase(); }
    return null;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var active = document.activeElement;
    keep = target && active && active !== document.body && target.contains(active)
      ? sameControl(active) : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var active = document.activeElement;
    if (keep && (!active || active === document.body || !active.isConnected)) {
      var el = document.querySelector(keep);
      if (el) { el.focus({ preventScroll: true }); }
    }
    keep = null;
  });

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
