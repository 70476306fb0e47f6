// The projector's seating pages: one page of tables at a time, turning every few
// seconds, and carrying on from the same page when htmx refreshes the body.
(function () {
  "use strict";
  var current = 0;
  function turn(step) {
    var pager = document.querySelector("[data-pager]");
    if (!pager) { return; }
    var pages = pager.querySelectorAll("[data-page]");
    if (!pages.length) { return; }
    current = (current + step) % pages.length;
    Array.prototype.forEach.call(pages, function (p, i) { p.hidden = i !== current; });
    var label = pager.querySelector("[data-pager-label]");
    if (label) { label.textContent = pages.length > 1 ? "· " + pages[current].getAttribute("data-page-label") : ""; }
  }
  function start() {
    turn(0);
    window.setInterval(function () { turn(1); }, 10000);
    document.body.addEventListener("htmx:afterSwap", function () { turn(0); });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
