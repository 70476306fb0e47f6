// The round countdown: the server's clock is the truth. Each read of the clock endpoint
// gives the seconds left at that instant; between reads the display ticks locally from
// the moment of the read, so every screen in the hall shows the same time. A module
// (deferred, strict), sharing the tablet's clock formatter (static/shared/time.js).
import { clockText as format } from "../shared/time.js";

// The words come from the page, translated by Django ({% translate %} in data-text-*
// attributes, as the phones' card gives its own); a page that gives none (the
// director's console, which is in English) gets these.
var WORDS = {
  "no-round": "No round yet", over: "Round over", "not-started": "Not started",
  called: "Time is called", paused: "Paused", final: "No time limit",
  "final-over": "Final over"
};
function word(el, name) {
  return el.getAttribute("data-text-" + name) || WORDS[name];
}

function Countdown(el) {
  this.el = el;
  this.timeEl = el.querySelector("[data-countdown-time]");
  this.stateEl = el.querySelector("[data-countdown-state]");
  this.roundEl = el.querySelector("[data-countdown-round]");
  this.url = el.getAttribute("data-clock-url");
  this.pollSeconds = parseInt(el.getAttribute("data-poll") || "15", 10);
  this.data = null;
  this.readAt = 0;
  if (el.hasAttribute("data-remaining")) {
    this.apply({
      remaining_seconds: parseFloat(el.getAttribute("data-remaining")),
      paused: el.getAttribute("data-paused") === "1",
      started: el.getAttribute("data-started") === "1",
      called: el.getAttribute("data-called") === "1",
      finished: el.getAttribute("data-finished") === "1",
      server_now: el.getAttribute("data-server-now")
    });
  }
}

Countdown.prototype.apply = function (data) {
  this.data = data;
  this.readAt = Date.now();
  if (this.roundEl && data.round !== undefined) {
    this.roundEl.textContent = data.round || "";
  }
  this.render();
};

Countdown.prototype.fetch = function () {
  var self = this;
  if (!self.url || !window.fetch) { return; }
  window.fetch(self.url, { cache: "no-store", credentials: "same-origin" })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (data) { if (data) { self.apply(data); } })
    .catch(function () { /* keep ticking on the last reading */ });
};

Countdown.prototype.render = function () {
  var d = this.data;
  if (!d) { return; }
  var left = d.remaining_seconds;
  var running = d.started && !d.paused && !d.called && !d.finished && !d.final && d.round !== null;
  if (running) {
    left -= (Date.now() - this.readAt) / 1000;
  }
  var state = "";
  var cls = "running";
  if (d.round === null) {
    state = word(this.el, "no-round"); cls = "idle";
    this.timeEl.textContent = "--:--";
  } else if (d.final) {
    // The final has no time limit (rules §4): nothing counts down, nothing is called.
    state = word(this.el, d.finished ? "final-over" : "final");
    cls = d.finished ? "over" : "idle"; this.timeEl.textContent = "";
  } else if (d.finished) {
    state = word(this.el, "over"); cls = "over"; this.timeEl.textContent = "0:00";
  } else if (!d.started) {
    state = word(this.el, "not-started"); cls = "idle"; this.timeEl.textContent = format(d.limit_seconds || left);
  } else if (d.called || left <= 0) {
    state = word(this.el, "called"); cls = "called"; this.timeEl.textContent = "0:00";
  } else {
    if (d.paused) { state = word(this.el, "paused"); cls = "paused"; }
    this.timeEl.textContent = format(left);
  }
  if (this.stateEl) { this.stateEl.textContent = state; }
  this.el.setAttribute("data-state", cls);
};

function start() {
  var els = document.querySelectorAll("[data-countdown]");
  Array.prototype.forEach.call(els, function (el) {
    var c = new Countdown(el);
    c.fetch();
    window.setInterval(function () { c.render(); }, 250);
    window.setInterval(function () { c.fetch(); }, c.pollSeconds * 1000);
  });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
