/* What the people at the table do: each change is queued (api.enqueue) and shown at once. */

import { enqueue } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { SEAT_NAMES } from "./dom.js";
import { openDialog } from "./dialog.js";
import { SEATS, clockwise, scoreHand, teamOf } from "./rules.js";
import { resetEntry, saveQueue, serverNow, st, ui, urls, uuid } from "./store.js";
import { describe, nameAt, pointsText, view } from "./view.js";

let changed = () => {};

/* What to call when an action changed the screen without queueing (render.js). */
export function onAction(render) {
  changed = render;
}

// What an answer, an agreement or a dispute answers: the state the server last sent.
function answered(m) {
  const server = st.server;
  const s = server && server.match && server.match.id === m.id ? server.match : m;
  return { hands: s.hands_standing, version: s.version };
}

function handBody(v, fields) {
  const m = v.match;
  return Object.assign({
    client_key: uuid(), number: m.next_number, match: m.id,
    outcome: "played", maker: null, alone: false, maker_tricks: null, renege_by: null,
    first_dealer: m.first_dealer, entered_at: serverNow().toISOString(),
  }, fields);
}

export function canEnter(v) {
  const m = v && v.match;
  return !!(m && m.open && m.first_dealer && !m.over && !m.awaiting_answer && !st.revoked);
}

export function saveHand() {
  const v = view();
  if (!canEnter(v) || ui.maker === null || ui.tricks === null) return;
  const body = handBody(v, { maker: ui.maker, alone: ui.alone, maker_tricks: ui.tricks,
    dealer_partner_ordered_up: ui.ordered, defender_alone: ui.defender });
  resetEntry();
  enqueue("hand", urls.hands, body, v.match.id);
}

export function renegeDialog() {
  const v = view();
  if (!canEnter(v)) return;
  openDialog({
    title: interpolate(gettext("Renege in hand %(n)s"), { n: v.match.next_number }),
    text: gettext("Who reneged? The hand ends at once."),
    choices: SEATS.map((s) => ({ value: s,
      label: interpolate(gettext("%(name)s (%(seat)s)"), { name: nameAt(v, s), seat: SEAT_NAMES[s] }),
      team: teamOf(s) })),
    preview: (seat) => {
      if (!seat) return "";
      const s = scoreHand({ outcome: "renege", renege_by: seat }, v.rules);
      return interpolate(gettext("%(name)s reneged: %(points)s."),
        { name: nameAt(v, seat), points: pointsText(v, s.points, s.individual) });
    },
    ok: gettext("Save renege"),
    onOk: (seat) => {
      const now = view();
      if (!canEnter(now)) return;
      enqueue("hand", urls.hands, handBody(now, { outcome: "renege", renege_by: seat }),
        now.match.id);
      resetEntry();
    },
  });
}

export function misdealDialog() {
  const v = view();
  if (!canEnter(v)) return;
  const m = v.match;
  openDialog({
    title: interpolate(gettext("Misdeal in hand %(n)s?"), { n: m.next_number }),
    text: interpolate(gettext("%(dealer)s dealt. A misdeal scores nothing; the deal passes to %(next)s."),
      { dealer: nameAt(v, m.dealer), next: nameAt(v, clockwise(m.dealer, 1)) }),
    ok: gettext("Record misdeal"),
    onOk: () => {
      const now = view();
      if (!canEnter(now)) return;
      enqueue("hand", urls.hands, handBody(now, { outcome: "misdeal" }), now.match.id);
      resetEntry();
    },
  });
}

export function undoDialog() {
  const v = view();
  const m = v && v.match;
  if (!m || !v.hands.length || !m.open || st.revoked) return;
  const last = v.hands[v.hands.length - 1];
  openDialog({
    title: interpolate(gettext("Undo hand %(n)s?"), { n: last.number }),
    text: interpolate(last.pending
      ? gettext("%(hand)s (%(points)s). It was not sent yet and is dropped from this tablet.")
      : gettext("%(hand)s (%(points)s). It stays in the history, marked undone."),
    { hand: describe(v, last), points: pointsText(v, last.points, last.individual) }),
    ok: gettext("Undo hand"),
    danger: true,
    onOk: () => {
      const index = st.queue.findIndex((q) => q.kind === "hand" && q.match === m.id
        && q.body.number === last.number);
      if (last.pending && index === st.queue.length - 1) {
        st.queue.splice(index, 1);
        saveQueue();
        changed();
        return;
      }
      // The hand's key names the entry this screen shows: the server refuses the undo
      // (409, with the current state) if that is no longer the last hand, so a queued
      // undo never takes a hand the director or another tablet put there meanwhile.
      enqueue("undo", urls.undo,
        { number: last.number, client_key: last.client_key, match: m.id }, m.id);
    },
  });
}

export function startMatch() {
  const v = view();
  const m = v && v.match;
  const keeper = ui.keeper || m.scorekeeper;
  // Who keeps score is known before the first hand: the other team confirms (RULES §7).
  if (!m || m.first_dealer || !ui.firstDealer || !keeper) return;
  enqueue("first-dealer", urls.firstDealer,
    { seat: ui.firstDealer, match: m.id, keeper }, m.id);
}

/* One tap names (or changes) who keeps score; the server logs a change. */
export function setKeeper(seat) {
  const v = view();
  const m = v && v.match;
  if (!m || st.revoked || m.scorekeeper === seat) return;
  if (m.status === "confirmed" || m.status === "disputed") return;
  ui.confirmBy = null;
  enqueue("keeper", urls.keeper, { seat, match: m.id }, m.id);
}

export function answerCall(inProgress) {
  const v = view();
  const m = v && v.match;
  if (!m || !m.awaiting_answer) return;
  enqueue("answer", urls.answer,
    Object.assign({ in_progress: inProgress, match: m.id }, answered(m)), m.id);
}

export function changeAnswerDialog() {
  const v = view();
  const m = v && v.match;
  if (!m || !m.can_change_answer || st.revoked) return;
  const now = m.hand_in_progress_at_call;
  openDialog({
    title: gettext("Change the answer?"),
    text: now
      ? gettext("The table said a hand was being played when time was called. Change it to: no hand was being played? The hand after the call then counts as a tie-break hand.")
      : gettext("The table said no hand was being played when time was called. Change it to: a hand was being played? The next hand is then the hand in progress."),
    ok: now ? gettext("No hand was being played") : gettext("A hand was being played"),
    danger: true,
    onOk: () => enqueue("answer", urls.answer,
      Object.assign({ in_progress: !now, match: m.id }, answered(m)), m.id),
  });
}

export function confirmResult(agree) {
  const v = view();
  const m = v && v.match;
  if (!m || !m.over || !ui.confirmBy) return;
  const by = ui.confirmBy;
  if (agree) {
    enqueue("confirm", urls.confirm,
      Object.assign({ agree: true, by, note: "", match: m.id }, answered(m)), m.id);
    return;
  }
  openDialog({
    title: gettext("Dispute the result"),
    text: interpolate(gettext("%(name)s: say what is wrong. The director is told and comes to the table."), { name: by }),
    note: true,
    ok: gettext("Send dispute"),
    danger: true,
    onOk: (_, note) => enqueue("confirm", urls.confirm,
      Object.assign({ agree: false, by, note, match: m.id }, answered(m)), m.id),
  });
}
