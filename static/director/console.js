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

  // A region drawn again while the keyboard is in it (the round's board every 3 s, the
  // tables' calls, a check-in tick answered in place) gives the focus back to the same
  // control in the new drawing: a keyboard user is never sent back to the page's top.
  // At the check-in desk, the focus goes to the search box, ready for the next name.
  // (Read at beforeSwap: the form that asked is gone from the page once its row is
  // swapped, and an event on it then reaches no listener here.)
  // Kept per request (a table's call may be swapped in meanwhile).
  var keep = new WeakMap();
  function sameControl(el) {
    if (el.id) { return "#" + CSS.escape(el.id); }
    var href = el.getAttribute("href");
    if (href) { return 'a[href="' + CSS.escape(href) + '"]'; }
    var action = el.form && el.form.getAttribute("action");
    if (action) { return 'form[action="' + CSS.escape(action) + '"] ' + el.tagName.toLowerCase(); }
    return null;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    var target = event.detail.target;
    var active = document.activeElement;
    if (source && source.classList && source.classList.contains("desk-form")) {
      keep.set(event.detail.xhr, { selector: "#desk-q", desk: true });
    } else if (target && active && active !== document.body && target.contains(active)) {
      keep.set(event.detail.xhr, { selector: sameControl(active), desk: false });
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var wanted = keep.get(event.detail.xhr);
    var active = document.activeElement;
    var lost = !active || active === document.body || !active.isConnected;
    if (!wanted || !wanted.selector || !(wanted.desk || lost)) { return; }
    var el = document.querySelector(wanted.selector);
    // Already there: the desk may be typing the next name (selecting it would eat a key).
    if (!el || el === active) { return; }
    el.focus({ preventScroll: true });
    if (wanted.desk) { el.select(); }
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
