/* Calling the director (docs/tablet-api.md, "Call the director"): one tap, an optional
 * reason, and the answer ("on my way", "resolved") shown from the table's state. A call
 * is not queued: offline, the director cannot hear it, and the screen says to walk over. */

import { openDialog } from "./dialog.js";
import { gettext, interpolate } from "./i18n.js";
import { $ } from "./dom.js";
import { ds, st } from "./store.js";

// The words a person reads, translated by the server (tablet/table.html).
const words = (() => {
  try { return JSON.parse(ds.helpWords || "{}"); } catch (e) { return {}; }
})();
const w = (k, fallback) => words[k] || fallback;
// A resolved call stays on screen this long after the tablet first sees it.
const RESOLVED_SHOWN_MS = 120000;

let changed = () => {};
let note = "";
let noteUntil = 0;
// A message about the call itself (calling, refused, offline) shows this long.
const NOTE_MS = 15000;
const say = (text) => { note = text; noteUntil = Date.now() + NOTE_MS; };
let resolvedSeen = null;

export function onHelp(render) {
  changed = render;
}

const csrfToken = () => {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
};

async function send(reason) {
  say(w("calling", "Calling the director…"));
  changed();
  let res;
  try {
    res = await fetch(ds.helpUrl, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(),
        "Accept": "application/json" },
      body: JSON.stringify({ reason: reason || "" }),
    });
  } catch (e) {
    say(w("offline", "No network: the call did not reach the director. Please walk over."));
    changed();
    return;
  }
  const data = await res.json().catch(() => ({}));
  if (res.ok && data.help) {
    st.help = data.help;
    resolvedSeen = null;
    note = "";
  } else {
    say(data.error || w("failed", "The call did not go through. Please walk over."));
  }
  changed();
}

let lastRead = 0;
let readsSeen = -1;
// A full state read (something at the table changed) is the hint that a call may have
// been answered, or raised from a player's phone; at most this often.
const HINTED_EVERY_MS = 15000;

/* Read the table's call (help.json): on load, every poll while a call is open, and after
 * a full state read now and then. The other 499 tablets ask nothing. */
export async function readHelp() {
  const open = st.help && st.help.status !== "resolved";
  const hinted = st.fullReads !== readsSeen && Date.now() - lastRead > HINTED_EVERY_MS;
  if (st.revoked || !ds.helpStateUrl || (lastRead && !open && !hinted)) return;
  readsSeen = st.fullReads;
  lastRead = Date.now();
  try {
    const res = await fetch(ds.helpStateUrl, { credentials: "same-origin", cache: "no-store",
      headers: { "Accept": "application/json" } });
    if (!res.ok) return;
    const data = await res.json();
    if (data.help && st.help && data.help.id !== st.help.id) resolvedSeen = null;
    st.help = data.help;
    if (data.help && data.help.status !== "resolved") note = "";
    changed();
  } catch (e) { /* offline: the next poll asks again */ }
}

export function helpDialog() {
  const reasons = words.reasons || {};
  openDialog({
    title: w("title", "Call the director"),
    text: w("text", "The director's screens show your table at once. A reason helps (optional)."),
    choices: Object.keys(reasons).map((value) => ({ value, label: reasons[value] })),
    optional: true,
    ok: w("ok", "Call the director"),
    onOk: (reason) => send(reason),
  });
}

/* The call's line under the header, and whether the button may call again. */
export function renderHelp() {
  const node = $("tb-help-status");
  const btn = $("tb-help");
  if (!node || !btn) return;
  const h = st.help;
  if (note && Date.now() > noteUntil) note = "";
  let text = note;
  let open = false;
  if (h && !note) {
    if (h.status === "open") {
      text = h.reason_label
        ? interpolate(gettext("The director is called (%(reason)s)."), { reason: h.reason_label })
        : gettext("The director is called.");
      open = true;
    } else if (h.status === "coming") {
      text = interpolate(gettext("On the way: %(name)s."), { name: h.coming_by });
      open = true;
    } else if (h.status === "resolved") {
      resolvedSeen = resolvedSeen || Date.now();
      if (Date.now() - resolvedSeen < RESOLVED_SHOWN_MS) {
        text = interpolate(gettext("Resolved by %(name)s."), { name: h.resolved_by });
      }
    }
  }
  node.textContent = text;
  node.hidden = !text;
  node.dataset.status = h && !note ? h.status : "";
  btn.disabled = open || !!st.revoked;
}
