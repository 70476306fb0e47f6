/* Talking to the server (docs/tablet-api.md): polling the table's state and sending the
 * queue in order. A lost answer, a reload or a double tap never records a hand twice:
 * the server drops retries by client key and refuses a second entry for a hand. */

import { clockBase, resetEntry, saveQueue, st, store, ui, urls, uuid } from "./store.js";
import { gettext, interpolate } from "./i18n.js";
import { healthHeader } from "./health.js";
import { describe, view } from "./view.js";

let changed = () => {};

/* What to call when the screen must be drawn again (render.js). */
export function onChange(render) {
  changed = render;
}

const csrfToken = () => {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
};

async function request(url, options) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), 10000);
  try {
    return await fetch(url, Object.assign({ credentials: "same-origin", signal: ctl.signal,
      cache: "no-store" }, options));
  } finally {
    clearTimeout(timer);
  }
}

const post = (url, body) => request(url, {
  method: "POST",
  headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(),
    "Accept": "application/json" },
  body: JSON.stringify(body),
});

const isJson = (res) => (res.headers.get("Content-Type") || "").includes("application/json");

/* Take a state the server sent. ``etag`` is the version of a full poll's answer; any
 * other state (the answer to a write) has none, so the next poll reads in full. */
function acceptState(state, sentAt, receivedAt, etag = null) {
  if (!state) return;
  st.etag = etag;
  const server = st.server;
  if (sentAt && receivedAt && state.server_now) {
    // Half the round trip is the best guess for when the server read its clock.
    st.offsetMs = Date.parse(state.server_now) - (sentAt + receivedAt) / 2;
    store("offset", st.offsetMs);
  }
  // An answer about an older match (a queued hand sent late) must not replace the
  // screen of the table's current match.
  if (server && server.match && state.match && state.match.id !== server.match.id
      && state.match.id < server.match.id) return;
  if (!state.next_round && server && server.next_round && server.match && state.match
      && server.match.id === state.match.id) state.next_round = server.next_round;
  // The answer to a hand leaves out who sits where (a hand never changes it): keep the
  // names this tablet knows for the match; the poll after the queue is sent has them.
  const known = server && server.match && state.match && server.match.id === state.match.id
    ? server.seats : [];
  for (const s of state.seats || []) {
    if ("player" in s) continue;
    const k = known.find((x) => x.seat === s.seat);
    s.player = k ? k.player : null;
    s.division = k ? k.division : null;
    s.house = k ? !!k.house : false;
  }
  if (!("earlier_holders" in state) && known.length) {
    state.earlier_holders = server.earlier_holders || [];
  }
  st.server = state;
  store("state", state);
  st.clockBase = clockBase(state.clock, receivedAt);
  const id = state.match ? state.match.id : null;
  if (id !== st.lastMatchId) {
    st.lastMatchId = id;
    resetEntry();
    ui.firstDealer = null;
    ui.keeper = null;
    ui.confirmBy = null;
  }
}

// When the browser knows it has no network, waiting for its "online" event is cheaper
// than failing; when it only thinks it has one (venue Wi-Fi without internet), the
// requests themselves fail and the queue waits.
const knownOffline = () => navigator.onLine === false;

export function setOnline(value) {
  st.online = value;
}

let polling = false;
let pollAgain = false;
let lastRoundTrip = 0;

/* How long to wait before the next poll: ``every`` ms, or twice the last poll's round
 * trip when the server answers slowly (the round turnover, when 2,000 phones want their
 * new cards at once): 500 tablets then ask less often instead of queueing 304s in front
 * of the cards, and ask every 3 s again as soon as answers are quick. */
export const pollDelay = (every) => Math.max(every, 2 * lastRoundTrip);

/* One poll at a time: when the server is slow (the round turnover), a poll every 3 s
 * must not pile a second request on top of the one it has not answered yet. A poll
 * asked for meanwhile (after a write) runs once the current one is answered. */
export async function poll() {
  if (polling) {
    pollAgain = true;
    return;
  }
  polling = true;
  try {
    do {
      pollAgain = false;
      await pollOnce();
    } while (pollAgain);
  } finally {
    polling = false;
  }
}

async function pollOnce() {
  if (knownOffline()) {
    setOnline(false);
    changed();
    return;
  }
  const sentAt = Date.now();
  const mark = st.writes;
  let res;
  // The server answers 304 after one query when nothing the table shows changed.
  const headers = { "Accept": "application/json" };
  if (st.etag) headers["If-None-Match"] = st.etag;
  const health = healthHeader();
  if (health) headers["X-Snowman-Health"] = health;
  try {
    res = await request(urls.state, { headers });
  } catch (e) {
    setOnline(false);
    changed();
    return;
  }
  if (res.status === 403) {
    const data = await res.json().catch(() => ({}));
    st.revoked = data.error || gettext("This tablet is no longer linked to the table.");
    if (data.replaced) replaced();
    setOnline(true);
    changed();
    return;
  }
  lastRoundTrip = Date.now() - sentAt;
  if (res.status === 304) {
    // Nothing changed: the state, the clock's call instant and the measured offset stand.
    st.revoked = null;
    setOnline(true);
    changed();
    if (st.queue.length) flush();
    return;
  }
  if (!res.ok) {
    changed();
    return;
  }
  st.revoked = null;
  setOnline(true);
  const data = await res.json();
  // A poll that crossed one of our own writes may predate it: the next poll is current.
  st.fullReads += 1;
  if (mark === st.writes) {
    acceptState(data, sentAt, Date.now(), res.headers.get("ETag"));
    recover(data);
  }
  changed();
  if (st.queue.length) flush();
}

async function refreshCsrf() {
  try {
    await request(urls.state, { headers: { "Accept": "application/json" } });
  } catch (e) { /* offline: the next flush tries again */ }
}

function queueLabel(q) {
  if (q.kind === "hand") {
    const v = view();
    return interpolate(gettext("Hand %(n)s (%(hand)s)"),
      { n: q.body.number, hand: v ? describe(v, q.body) : q.body.outcome });
  }
  if (q.kind === "undo") return interpolate(gettext("Undo of hand %(n)s"), { n: q.body.number });
  if (q.kind === "answer") return gettext("The answer about the hand in progress");
  if (q.kind === "first-dealer") return gettext("The first dealer");
  if (q.kind === "keeper") return gettext("Who keeps score");
  if (q.kind === "confirm") return q.body.agree ? gettext("The confirmation") : gettext("The dispute");
  return gettext("An entry");
}

/* Keep what the server acknowledged for the match, to resend it if the server loses it. */
function remember(q, status) {
  if (q.kind === "hand") {
    // A resend answered 200 found the hand already there: nothing was lost.
    const resent = q.resend && status === 200;
    st.sent = st.sent.filter((s) => s.match === q.match && s.key !== q.body.client_key);
    if (!resent) st.sent.push({ match: q.match, key: q.body.client_key, number: q.body.number,
      url: q.url, body: q.body });
  } else if (q.kind === "undo") {
    st.sent = st.sent.filter((s) => s.match !== q.match || s.number < q.body.number);
  } else {
    return;
  }
  store("sent", st.sent);
}

/* Hands this tablet had stored that the server no longer has (it was restored from a
 * backup): send them again in order, with their own client keys, so none is lost and
 * none doubled (the server answers a key it knows as the first time). */
const resentKeys = new Set();
function recover(state) {
  if (!state || !state.match || st.queue.length) return;
  const have = new Set((state.hands || []).map((h) => h.client_key));
  const lost = st.sent
    .filter((s) => s.match === state.match.id && !have.has(s.key) && !resentKeys.has(s.key)
      && s.number > (state.hands || []).length)
    .sort((a, b) => a.number - b.number);
  for (const s of lost) {
    resentKeys.add(s.key);
    st.queue.push({ id: uuid(), kind: "hand", url: s.url, body: s.body, match: s.match,
      queued_at: Date.now(), resend: true });
  }
  if (lost.length) saveQueue();
}

/* Another device took the table over with its code: nothing this tablet still holds may
 * reach the table, now or if it is ever linked again. What was not sent is shown as not
 * sent (to be entered on the new device), and the acknowledged hands are forgotten so no
 * recovery resends them over the new device's. */
function replaced() {
  st.replaced = true;
  for (const q of st.queue) {
    st.refused.push({ id: q.id, label: queueLabel(q),
      error: gettext("another device keeps this table's score now: enter it there.") });
  }
  st.queue = [];
  saveQueue();
  store("refused", st.refused);
  st.sent = [];
  store("sent", st.sent);
}

function drop(q) {
  st.queue = st.queue.filter((x) => x.id !== q.id);
  saveQueue();
}

/* Send one entry; "stop" when the queue must wait (offline, revoked, server trouble). */
async function sendFirst(q) {
  const sentAt = Date.now();
  let res;
  try {
    res = await post(q.url, q.body);
    if (res.status === 403 && !isJson(res)) {
      // Django's CSRF refusal is an HTML page: fetch a fresh token, try once more.
      await refreshCsrf();
      res = await post(q.url, q.body);
    }
  } catch (e) {
    setOnline(false);
    return "stop";
  }
  setOnline(true);
  if (res.ok) {
    const data = await res.json().catch(() => ({}));
    drop(q);
    remember(q, res.status);
    st.writes += 1;
    acceptState(data.state, sentAt, Date.now());
    return "sent";
  }
  if (res.status === 403) {
    const data = isJson(res) ? await res.json().catch(() => ({})) : {};
    if (data.revoked || !isJson(res)) {
      st.revoked = data.error || gettext("This tablet's table session has ended.");
      if (data.replaced) replaced();
      return "stop";
    }
  }
  if (res.status >= 500 || res.status === 429 || res.status === 408) return "stop";
  // 400, 403 (another table's match), 409 or 422: this entry can never be stored.
  const data = await res.json().catch(() => ({}));
  // A stale answer comes back with the current state: show it at once.
  if (res.status === 409 && data.state) {
    st.writes += 1;
    acceptState(data.state, sentAt, Date.now());
  }
  drop(q);
  st.refused.push({ id: q.id, label: queueLabel(q),
    error: data.error || interpolate(gettext("Refused (%(status)s)."), { status: res.status }) });
  store("refused", st.refused);
  return "refused";
}

export async function flush() {
  if (st.flushing || st.revoked) return;
  if (knownOffline()) {
    setOnline(false);
    changed();
    return;
  }
  st.flushing = true;
  changed();
  try {
    while (st.queue.length) {
      if (await sendFirst(st.queue[0]) === "stop") break;
    }
  } finally {
    st.flushing = false;
    changed();
  }
  if (!st.queue.length) poll();
}

export function enqueue(kind, url, body, matchId) {
  st.queue.push({ id: uuid(), kind, url, body, match: matchId, queued_at: Date.now() });
  saveQueue();
  changed();
  flush();
}
