// Players' phones: remembers who this phone belongs to, searches names as they are
// typed, keeps the card (and the ledger and standings) fresh by revalidating with the
// server's ETag, and counts the round clock down locally from the call instant and the
// measured offset to the server's clock. No build step; nothing stored on the server.

import { clockText } from "../shared/time.js";

const slug = document.body.dataset.slug;
const KEY = `snowman:me:${slug}`;
const LARGE = "snowman:large-text";

// --- large text --------------------------------------------------------------------------
function applyLargeText(on) {
  document.documentElement.classList.toggle("large-text", on);
  for (const b of document.querySelectorAll("[data-large-text]")) {
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
}
applyLargeText(localStorage.getItem(LARGE) === "1");
for (const b of document.querySelectorAll("[data-large-text]")) {
  b.addEventListener("click", () => {
    const on = !document.documentElement.classList.contains("large-text");
    localStorage.setItem(LARGE, on ? "1" : "0");
    applyLargeText(on);
  });
}

// --- who am I ----------------------------------------------------------------------------
function remembered() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}
const params = new URLSearchParams(location.search);
const remember = document.querySelector("[data-remember]");
if (remember) {
  localStorage.setItem(KEY, JSON.stringify({
    id: Number(remember.dataset.playerId), name: remember.dataset.playerName,
  }));
}
const me = remembered();
if (me) {
  for (const a of document.querySelectorAll("[data-my-card]")) {
    a.href = `/e/${slug}/me/${me.id}/`;
  }
}
for (const a of document.querySelectorAll("[data-forget]")) {
  a.addEventListener("click", () => localStorage.removeItem(KEY));
}
const findForm = document.querySelector("[data-find]");
if (findForm && me && !params.has("pick") && !params.has("q")) {
  location.replace(`/e/${slug}/me/${me.id}/`);
}

// --- find yourself as you type ---------------------------------------------------------------
function textOf(selector) {
  const t = document.querySelector(selector);
  return t ? t.content.textContent.trim() : "";
}
if (findForm) {
  const input = findForm.querySelector("input[name=q]");
  const out = document.querySelector("[data-find-results]");
  let timer = 0;
  let asked = 0;
  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(async () => {
      const q = input.value.trim();
      const ticket = ++asked;
      if (q.length < 2) { out.replaceChildren(); return; }
      try {
        const r = await fetch(`${findForm.dataset.findUrl}?q=${encodeURIComponent(q)}`,
          { cache: "no-cache" });
        const data = await r.json();
        if (ticket !== asked) { return; }
        if (!r.ok) { const p = document.createElement("p"); p.className = "error";
          p.textContent = data.error; out.replaceChildren(p); return; }
        if (!data.players.length) { const p = document.createElement("p");
          p.textContent = textOf("[data-none-text]"); out.replaceChildren(p); return; }
        const ul = document.createElement("ul");
        ul.className = "found";
        for (const p of data.players) {
          const li = document.createElement("li");
          const a = document.createElement("a");
          a.href = p.url;
          a.textContent = p.name + " ";
          const s = document.createElement("span");
          s.className = "muted";
          s.textContent = (p.house ? textOf("[data-house-text]")
            : `${textOf("[data-division-text]")} ${p.division}`) +
            (p.withdrawn ? ` · ${textOf("[data-withdrawn-text]")}` : "");
          a.append(s);
          li.append(a);
          ul.append(li);
        }
        out.replaceChildren(ul);
      } catch { /* offline: the form still submits */ }
    }, 200);
  });
}

// --- the server's clock ------------------------------------------------------------------
// offset = server time - phone time, from the fastest of a few round trips; re-measured
// every ten minutes and when the phone wakes, never polled per second.
let offset = 0;
async function syncClock() {
  const url = document.body.dataset.nowUrl;
  let best = null;
  for (let i = 0; i < 3; i++) {
    try {
      const t0 = Date.now();
      const r = await fetch(url, { cache: "no-store" });
      const { now_ms: server } = await r.json();
      const t1 = Date.now();
      if (best === null || t1 - t0 < best.rtt) { best = { rtt: t1 - t0, off: server - (t0 + t1) / 2 }; }
    } catch { /* keep the last offset */ }
  }
  if (best) { offset = best.off; document.body.dataset.clockOffset = String(Math.round(offset)); }
}
export function serverNow() { return Date.now() + offset; }

function tickClocks() {
  for (const el of document.querySelectorAll("[data-clock]")) {
    const kind = el.dataset.kind;
    const time = el.querySelector("[data-clock-time]");
    const state = el.querySelector("[data-clock-state]");
    if (kind === "running") {
      const left = (Number(el.dataset.callAt) - serverNow()) / 1000;
      if (left <= 0) {
        time.textContent = "0:00";
        state.textContent = el.dataset.textCalled;
        el.dataset.state = "called";
      } else {
        time.textContent = clockText(left);
      }
    } else if (kind === "paused" || kind === "not_started") {
      time.textContent = clockText(Number(el.dataset.remaining));
    } else {
      time.textContent = "0:00";
    }
  }
  sayClockState();
}

// The clock's seconds are never read out (role="timer" is not live); a change of its state
// (paused, running again, time called, a new round's clock) is said once, with the time.
let saidClock = null;
function sayClockState() {
  const el = document.querySelector("[data-clock]");
  const state = el ? el.querySelector("[data-clock-state]").textContent.trim() : "";
  if (saidClock !== null && state && state !== saidClock) {
    const time = el.dataset.state === "called" ? "" : el.querySelector("[data-clock-time]").textContent;
    announce(`${state} ${time}`.trim());
  }
  saidClock = state;
}

// --- live parts: revalidate, swap when the version changed --------------------------------
// One polite live region says what changed, once: the new seat, the clock's new state.
// What is said in the same moment is said together (a new seat and its round's clock).
let toSay = [];
function announce(text) {
  const a = document.querySelector("[data-announce]");
  if (!a || !text) { return; }
  if (!toSay.length) {
    a.textContent = "";
    window.setTimeout(() => { a.textContent = toSay.join(" "); toSay = []; }, 50);
  }
  toSay.push(text);
}
// Between the call and the next seating the phone asks more often: that is when the
// director seats the next round and the player wants the new table at once. A player
// whose match is over waits for that seat too, often long before the call: at the
// 15-second pace the new seat took up to 15 s to show.
function waitingForSeat() {
  if (document.querySelector('#card[data-match-over="1"]')) { return true; }
  for (const el of document.querySelectorAll("[data-clock]")) {
    const kind = el.dataset.kind;
    if (kind === "called" || kind === "finished") { return true; }
    if (kind === "running" && Number(el.dataset.callAt) <= serverNow()) { return true; }
  }
  return false;
}
function startLive(box) {
  const url = box.dataset.liveUrl;
  const every = Number(box.dataset.liveEvery || "15") * 1000;
  const fast = Number(box.dataset.liveFast || box.dataset.liveEvery || "15") * 1000;
  const pick = box.dataset.livePick;
  let etag = null;
  let busy = false;
  let timer = 0;
  async function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    try {
      // The seat this card shows: a phone behind the player's latest seat is answered with
      // the new seat alone, at once, and asks for the whole card a few seconds later.
      const shown = box.querySelector("#card");
      const headers = { Accept: "text/html" };
      if (shown) { headers["X-Snowman-Seat"] = `${shown.dataset.round || ""}:${shown.dataset.seat || ""}`; }
      const r = await fetch(url, { cache: "no-cache", headers });
      if (!r.ok) { return; }
      const tag = r.headers.get("ETag");
      if (tag && tag === etag) { return; }
      etag = tag;
      const html = await r.text();
      const doc = new DOMParser().parseFromString(html, "text/html");
      const fresh = pick ? doc.querySelector(pick) : doc.body.firstElementChild;
      if (!fresh) { return; }
      const old = pick ? box.querySelector(pick) : box.firstElementChild;
      const before = old ? { round: old.dataset.round, seat: old.dataset.seat } : {};
      // The whole card after the new seat alone keeps the "moved" mark the seat got.
      const wasMoved = old && old.dataset.partial === "1" && old.classList.contains("moved");
      box.replaceChildren(document.importNode(fresh, true));
      const card = box.querySelector("#card");
      if (card && card.dataset.seat && (card.dataset.round !== before.round || card.dataset.seat !== before.seat)) {
        card.classList.add("moved");
        if (navigator.vibrate) { navigator.vibrate([200, 100, 200]); }
        announce(textOf("[data-moved-text]"));
      } else if (card && wasMoved) {
        card.classList.add("moved");
      }
      tickClocks();
      refilter();
    } catch { /* offline: try again on the next beat */ } finally { busy = false; }
  }
  // After the new seat alone, the whole card: each phone at its own moment within a few
  // fast beats, so that 2,000 phones do not all ask for it in the same second.
  function nextBeat() {
    if (box.querySelector('#card[data-partial="1"]')) { return fast * (1 + Math.random() * 3); }
    return waitingForSeat() ? fast : every;
  }
  function beat() {
    poll().finally(() => {
      timer = window.setTimeout(beat, nextBeat());
    });
  }
  beat();
  document.addEventListener("visibilitychange", () => {
    // A poll under way schedules the next beat itself: a second loop would double the asks.
    if (!document.hidden && !busy) { window.clearTimeout(timer); beat(); }
  });
  box.livePoll = poll;
}

const live = document.querySelectorAll("[data-live]");
live.forEach(startLive);
if (document.querySelector("[data-clock]") || live.length) {
  syncClock().then(tickClocks);
  window.setInterval(tickClocks, 250);
  window.setInterval(syncClock, 10 * 60 * 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { syncClock(); } });
}
tickClocks();

// --- filter the standings as you type -------------------------------------------------
function fold(s) {
  return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}
function filterRows(input) {
  const words = fold(input.value).split(/\s+/).filter(Boolean);
  const rows = document.querySelectorAll(`${input.dataset.filter} tr[data-name]`);
  for (const row of rows) {
    row.hidden = !words.every((w) => row.dataset.name.includes(w));
  }
}
function refilter() {
  for (const input of document.querySelectorAll("[data-filter]")) { filterRows(input); }
}
document.addEventListener("input", (e) => {
  const input = e.target.closest("[data-filter]");
  if (input) { filterRows(input); }
});
