/* The tablet's state: what the server last sent, the queue of changes not yet sent,
 * the refused ones, and the entry in progress. The queue, the state and the refusals
 * live in localStorage, so a reload (even without network) loses nothing. */

const root = document.getElementById("tablet");
export const ds = root ? root.dataset : {};

export const urls = {
  state: ds.stateUrl, hands: ds.handsUrl, firstDealer: ds.firstDealerUrl,
  undo: ds.undoUrl, answer: ds.answerUrl, confirm: ds.confirmUrl, keeper: ds.keeperUrl,
};

const key = (name) => `snowman.tablet.${ds.scope}.${name}`;

export const load = (name, fallback) => {
  try {
    const raw = localStorage.getItem(key(name));
    return raw === null ? fallback : JSON.parse(raw);
  } catch (e) {
    return fallback;
  }
};

export const store = (name, value) => {
  try {
    localStorage.setItem(key(name), JSON.stringify(value));
  } catch (e) { /* a full store must not stop the table from playing */ }
};

const server = root ? load("state", null) : null;
const offsetMs = root ? load("offset", 0) : 0;

/* Everything that changes while the screen runs, in one place. */
export const st = {
  server,
  queue: root ? load("queue", []) : [],
  refused: root ? load("refused", []) : [],
  // Hands of the current match the server acknowledged: if the server later shows fewer
  // (restored from a backup after the laptop died), they are sent again, same client keys.
  sent: root ? load("sent", []) : [],
  offsetMs,
  // After a reload without network the clock runs on from the state last stored, as of
  // the instant the server read it (not "Not started").
  clockBase: server && server.clock
    ? clockBase(server.clock, Date.parse(server.clock.server_now || server.server_now) - offsetMs)
    : null,
  // The version of the state last read in full (state.json's ETag), sent back with every
  // poll; not kept across a reload, so the first poll reads in full.
  etag: null,
  online: navigator.onLine,
  revoked: null,
  // Another device took the table over (a 403 with "replaced"): this one sends nothing.
  replaced: false,
  // The table's call for the director as help.json last told it (help.js).
  help: null,
  // Full state reads so far: after one, help.js may ask whether the call changed.
  fullReads: 0,
  flushing: false,
  // Counts the answers to our own writes: a poll that crossed one may predate it.
  writes: 0,
  lastMatchId: server && server.match ? server.match.id : null,
};

/* What the clock counts from: while it runs, the absolute instant the table's time is
 * called (server time, ``clock.call_at``), read against the offset measured to the
 * server, so it stays right however long the server answers "not modified"; while
 * paused or called, the seconds left as read at ``readAt`` (local time). */
export function clockBase(c, readAt) {
  return { remaining: c.remaining_seconds, at: readAt || Date.now(),
    callAt: c.call_at ? Date.parse(c.call_at) : null,
    paused: c.paused, limited: c.limited, called: c.time_called, started: c.started };
}

/* The entry being made on the screen. */
export const ui = { maker: null, alone: false, tricks: null, firstDealer: null, keeper: null,
  confirmBy: null, ordered: false, defender: null };

export const saveQueue = () => store("queue", st.queue);

export function resetEntry() {
  ui.maker = null;
  ui.alone = false;
  ui.tricks = null;
  ui.ordered = false;
  ui.defender = null;
}

export const uuid = () => (crypto.randomUUID ? crypto.randomUUID()
  : "k" + Date.now().toString(36) + Math.random().toString(36).slice(2));

export const serverNow = () => new Date(Date.now() + st.offsetMs);
