// The projector's seating pages. The server sends every table; this measures the screen
// (what is left under the heading and the clock, beside the QR code) and cuts the tables
// into pages that fit it whole: as many columns as the widest table allows, as many rows
// as the tallest one allows, the type shrunk only when a single table would not fit.
// Pages turn every few seconds (a presenter's clicker or the arrow keys turn them too),
// and the page shown carries on when htmx refreshes the body or the clock grows.
(function () {
  "use strict";
  var MIN_SCALE = 0.7; // 3vh x 0.7 = 2.1vh: still read from the back of a hall
  var current = 0;
  var pages = [];

  function pager() { return document.querySelector("[data-pager]"); }

  function measure(list, tables) {
    // One column as wide as the widest table: that width, and the tallest table.
    list.style.gridTemplateColumns = "max-content";
    var width = 0;
    tables.forEach(function (t) { width = Math.max(width, t.scrollWidth, t.offsetWidth); });
    return width;
  }

  function gaps(list) {
    var style = window.getComputedStyle(list);
    return { row: parseFloat(style.rowGap) || 0, col: parseFloat(style.columnGap) || 0 };
  }

  // How many tables one page holds at a scale of the type: the widest table sets the
  // columns, the tallest the rows.
  function fit(list, tables, scale, height) {
    list.style.setProperty("--proj-scale", String(scale));
    var gap = gaps(list);
    var widest = measure(list, tables);
    var room = list.clientWidth;
    var cols = Math.max(1, Math.floor((room + gap.col) / (widest + gap.col)));
    list.style.gridTemplateColumns = "repeat(" + cols + ", minmax(0, 1fr))";
    var tallest = 0;
    tables.forEach(function (t) { tallest = Math.max(tallest, t.offsetHeight); });
    var rows = Math.max(1, Math.floor((height + gap.row) / (tallest + gap.row)));
    var whole = widest <= room && tallest <= height;
    return { scale: scale, per: cols * rows, whole: whole, cols: cols };
  }

  function layout() {
    var box = pager();
    if (!box) { return; }
    var list = box.querySelector("[data-pager-tables]");
    var tables = Array.prototype.slice.call(list.querySelectorAll(".proj-table"));
    if (!tables.length) { return; }
    tables.forEach(function (t) { t.hidden = false; });
    list.style.maxHeight = "";
    var bottom = parseFloat(window.getComputedStyle(document.querySelector("main")).paddingBottom) || 0;
    var height = window.innerHeight - list.getBoundingClientRect().top - bottom;
    // The largest type that needs the fewest pages: smaller type only where it saves a
    // page turn (a long name that would leave one column half empty), never below the
    // smallest read from the back of the hall.
    var best = null;
    for (var scale = 1; scale >= MIN_SCALE - 1e-9; scale -= 0.1) {
      var f = fit(list, tables, Math.round(scale * 100) / 100, height);
      var pagesNeeded = Math.ceil(tables.length / f.per);
      if (!best || (f.whole && !best.whole) ||
          (f.whole === best.whole && pagesNeeded < Math.ceil(tables.length / best.per))) {
        best = f;
      }
    }
    fit(list, tables, best.scale, height);
    list.style.maxHeight = Math.max(0, height) + "px";
    var per = best.per;
    pages = [];
    for (var i = 0; i < tables.length; i += per) { pages.push(tables.slice(i, i + per)); }
    box.setAttribute("data-pages", String(pages.length));
    box.setAttribute("data-per-page", String(per));
    show(current);
  }

  function show(index) {
    var box = pager();
    if (!box || !pages.length) { return; }
    current = ((index % pages.length) + pages.length) % pages.length;
    pages.forEach(function (page, i) {
      page.forEach(function (t) { t.hidden = i !== current; });
    });
    box.setAttribute("data-page", String(current + 1));
    var label = box.querySelector("[data-pager-label]");
    var words = box.getAttribute("data-text-page") || "page {c} of {n}";
    if (label) {
      label.textContent = pages.length > 1
        ? "· " + words.replace("{c}", String(current + 1)).replace("{n}", String(pages.length))
        : "";
    }
  }

  var timer = null;
  function restartTimer() {
    var box = pager();
    var seconds = box ? parseInt(box.getAttribute("data-pager-seconds") || "10", 10) : 10;
    if (timer) { window.clearInterval(timer); }
    timer = window.setInterval(function () { show(current + 1); }, seconds * 1000);
  }

  function start() {
    layout();
    restartTimer();
    document.body.addEventListener("htmx:afterSwap", layout);
    var pending = null;
    function later() {
      if (pending) { window.cancelAnimationFrame(pending); }
      pending = window.requestAnimationFrame(function () { pending = null; layout(); });
    }
    window.addEventListener("resize", later);
    // The clock grows when the round starts and shrinks when it ends: the room left for
    // the tables changes with it.
    var head = document.querySelector(".proj-head");
    if (head && window.ResizeObserver) { new window.ResizeObserver(later).observe(head); }
    if (document.fonts && document.fonts.ready) { document.fonts.ready.then(later); }
    document.addEventListener("keydown", function (e) {
      var step = { ArrowRight: 1, PageDown: 1, " ": 1, ArrowLeft: -1, PageUp: -1 }[e.key];
      if (!step || !pages.length) { return; }
      e.preventDefault();
      show(current + step);
      restartTimer();
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
