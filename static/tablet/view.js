/* What the screen shows: the server's last state with the queued changes on top, and
 * the words for hands and points. */

import { SEAT_NAMES, signed } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { afterHand, dealerFor, otherTeam, scoreHand } from "./rules.js";
import { st } from "./store.js";

export const seatInfo = (v, seat) => (v && v.seats ? v.seats.find((s) => s.seat === seat)
  : null);

// ``h``, a hand: a seat substituted later in the match is named by who held it then.
export const nameAt = (v, seat, h) => {
  const then = h && (v.earlier_holders || []).find(
    (e) => e.seat === seat && e.from <= h.number && h.number <= e.to);
  if (then) return then.player;
  const s = seatInfo(v, seat);
  return s && s.player ? s.player : SEAT_NAMES[seat];
};

export function describe(v, h) {
  if (h.outcome === "misdeal") return gettext("Misdeal");
  if (h.outcome === "renege") {
    return interpolate(gettext("%(name)s reneged"), { name: nameAt(v, h.renege_by, h) });
  }
  let who;
  if (h.dealer_partner_ordered_up) {
    who = h.alone ? gettext("%(name)s ordered the dealer up alone")
      : gettext("%(name)s ordered the dealer up");
  } else {
    who = h.alone ? gettext("%(name)s made trump alone") : gettext("%(name)s made trump");
  }
  const t = h.maker_tricks;
  const tricks = interpolate(ngettext("%(n)s trick", "%(n)s tricks", t), { n: t });
  let what = tricks;
  if (t <= 2) {
    what = h.defender_alone
      ? interpolate(gettext("%(tricks)s, EUCHRED by %(name)s alone"),
        { tricks, name: nameAt(v, h.defender_alone, h) })
      : interpolate(gettext("%(tricks)s, EUCHRED"), { tricks });
  } else if (t === 5) {
    what = interpolate(h.alone ? gettext("%(tricks)s, lone march")
      : gettext("%(tricks)s, march"), { tricks });
  }
  return interpolate(gettext("%(who)s: %(what)s"),
    { who: interpolate(who, { name: nameAt(v, h.maker, h) }), what });
}

export function pointsText(v, points, individual, h) {
  const parts = [];
  const teams = { NS: gettext("NS"), EW: gettext("EW") };
  for (const team of ["NS", "EW"]) {
    if (points[team]) {
      parts.push(interpolate(gettext("%(team)s +%(points)s"),
        { team: teams[team], points: points[team] }));
    }
  }
  for (const [seat, p] of Object.entries(individual || {})) {
    if (p) {
      parts.push(interpolate(gettext("%(name)s %(points)s"),
        { name: nameAt(v, seat, h), points: signed(p) }));
    }
  }
  return parts.length ? parts.join(", ") : gettext("no points");
}

export function individualOf(v, h) {
  if (!v.rules || h.outcome === "misdeal" || !h.points) return {};
  return scoreHand(h, v.rules).individual;
}

/* The match as it stands before its next hand, for rules.afterHand. */
export const beforeNext = (m) => ({ score: m.score, phase: m.next_phase });

/* The bonus reasons in the tablet's language (the state itself is the same in every language). */
export function bonusReasons(m, rules) {
  const reasons = {};
  for (const team of ["NS", "EW"]) {
    if (!m.bonuses[team]) continue;
    const parts = [];
    if (m.score[team] >= rules.target) {
      parts.push(interpolate(gettext("reached %(target)s"), { target: rules.target }));
    }
    if (m.score[otherTeam(team)] === 0) parts.push(gettext("opponents on 0"));
    reasons[team] = parts.join(", ");
  }
  return reasons;
}

function applyQueued(v, q, sentKeys) {
  const m = v.match;
  const b = q.body;
  if (q.kind === "first-dealer") {
    if (!m.first_dealer) m.first_dealer = b.seat;
    if (!m.scorekeeper && b.keeper) m.scorekeeper = b.keeper;
  } else if (q.kind === "keeper") {
    m.scorekeeper = b.seat;
  } else if (q.kind === "answer") {
    m.hand_in_progress_at_call = b.in_progress;
    m.awaiting_answer = false;
  } else if (q.kind === "undo") {
    const last = v.hands.pop();
    if (last) {
      const entry = v.history.find((h) => h.client_key === last.client_key);
      if (entry) { entry.state = "undone"; entry.pending = true; }
    }
  } else if (q.kind === "confirm") {
    m.status = b.agree ? "confirmed" : "disputed";
    m.confirmed_by = b.by;
    m.dispute_note = b.note || "";
    m.pending_confirm = true;
  } else if (q.kind === "hand" && !sentKeys.has(b.client_key)) {
    if (!m.first_dealer && b.first_dealer) m.first_dealer = b.first_dealer;
    const prev = v.hands.length ? v.hands[v.hands.length - 1].running : { NS: 0, EW: 0 };
    const after = afterHand({ score: prev, phase: v.phase }, b, v.rules);
    v.phase = after.nextPhase;
    const row = Object.assign({}, b, {
      dealer: dealerFor(m.first_dealer, b.number), points: after.points,
      running: after.score, individual: after.individual, state: "standing",
      pending: true, phase: null,
    });
    v.hands.push(row);
    v.history.push(row);
    v.ending = after;
    for (const [seat, p] of Object.entries(after.individual)) {
      const si = seatInfo(v, seat);
      if (si) si.individual += p;
    }
  }
}

export function view() {
  if (!st.server) return null;
  const v = JSON.parse(JSON.stringify(st.server));
  const m = v.match;
  if (!m) return v;
  const sentKeys = new Set(v.history.map((h) => h.client_key));
  v.phase = m.next_phase;
  for (const q of st.queue) if (q.match === m.id) applyQueued(v, q, sentKeys);
  const last = v.hands.length ? v.hands[v.hands.length - 1] : null;
  m.score = last ? Object.assign({}, last.running) : { NS: 0, EW: 0 };
  if (last && last.pending) {
    m.next_phase = v.phase;
    if (v.ending.over) {
      m.over = true;
      m.pending_result = true;
      m.winner = v.ending.winner;
      m.bonuses = v.ending.bonuses;
      m.bonus_reasons = bonusReasons(m, v.rules);
    }
  }
  delete v.phase;
  delete v.ending;
  m.next_number = v.hands.length + 1;
  m.dealer = m.over ? null : dealerFor(m.first_dealer, m.next_number);
  m.pending = st.queue.some((q) => q.match === m.id);
  return v;
}

/* "Round 3" or "Final" in the tablet's language (the state carries the number and kind,
 * so one state serves a tablet in either language). */
export function roundName(r) {
  return r.kind === "final" ? gettext("Final") : interpolate(gettext("Round %(n)s"), { n: r.number });
}
