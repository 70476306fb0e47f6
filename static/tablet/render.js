/* Drawing the screen from view(): the clock, the network line, the seats, the scores,
 * the entry, the end of the match, where to go next, the history and the refusals. */

import { poll } from "./api.js";
import { setKeeper } from "./actions.js";
import { renderHelp } from "./help.js";
import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { $, SEAT_NAMES, TEAM_NAMES, el, markOf, show, signed, swap } from "./dom.js";
import { SEATS, afterHand, otherTeam, partnerOf, teamOf } from "./rules.js";
import { serverNow, st, store, ui } from "./store.js";
import { beforeNext, bonusReasons, describe, individualOf, nameAt, pointsText, roundName,
  seatInfo, view }
  from "./view.js";
import { clockText } from "../shared/time.js";

function remainingNow() {
  const c = st.clockBase;
  if (!c || !c.limited || c.remaining === null) return null;
  if (c.paused || c.called) return c.remaining;
  if (c.callAt !== null && c.callAt !== undefined) {
    return Math.max(0, (c.callAt - serverNow().getTime()) / 1000);
  }
  return Math.max(0, c.remaining - (Date.now() - c.at) / 1000);
}

let calledLocally = false;
// The clock's seconds are never read out (role="timer" is not live); a change of its state
// (started, paused, running again, time called, over) is said once, in a polite region.
let saidClock = null;
function sayClock(state) {
  const node = $("tb-clock");
  if (saidClock !== null && state !== saidClock) {
    const text = state === "running"
      ? `${node.getAttribute("aria-label")}: ${node.textContent}` : node.textContent;
    $("tb-clock-said").textContent = text;
  }
  saidClock = state;
}

export function renderClock() {
  sayClock(drawClock());
}

function drawClock() {
  const node = $("tb-clock");
  const v = st.server;
  if (!v || !v.match) { node.textContent = "--:--"; return "none"; }
  if (v.match.final) {
    node.textContent = v.round ? roundName(v.round) : gettext("Final");
    return "final";
  }
  if (v.round && v.round.status === "finished") {
    node.textContent = pgettext("clock", "Over");
    return "over";
  }
  if (!st.clockBase || !st.clockBase.started) {
    node.textContent = gettext("Not started");
    return "not-started";
  }
  const left = remainingNow();
  node.classList.toggle("tb-clock-low", left !== null && left <= 120);
  node.classList.toggle("tb-clock-paused", !!st.clockBase.paused);
  if (st.clockBase.called || left === 0) {
    node.textContent = pgettext("clock", "Time");
    if (!st.clockBase.called && !calledLocally && st.online) {
      // The server calls time; ask it at once rather than at the next poll.
      calledLocally = true;
      setTimeout(poll, 300);
    }
    return "called";
  }
  calledLocally = false;
  node.textContent = st.clockBase.paused
    ? interpolate(gettext("Paused %(time)s"), { time: clockText(left) }) : clockText(left);
  return st.clockBase.paused ? "paused" : "running";
}

function renderNet() {
  const node = $("tb-net");
  const waiting = st.queue.length;
  let text;
  let cls;
  if (st.replaced) { text = gettext("Replaced"); cls = "bad"; }
  else if (st.revoked) { text = gettext("Link revoked"); cls = "bad"; }
  else if (!st.online) {
    text = waiting ? interpolate(gettext("Offline · %(n)s not yet sent"), { n: waiting })
      : gettext("Offline");
    cls = "bad";
  } else if (waiting) {
    text = interpolate(gettext("Sending %(n)s…"), { n: waiting });
    cls = "warn";
  }
  else { text = gettext("Online · all sent"); cls = "ok"; }
  node.textContent = text;
  node.className = `tb-net tb-net-${cls}`;
}

function renderSeats(v, mode) {
  const m = v && v.match;
  for (const btn of document.querySelectorAll(".tb-seat")) {
    const seat = btn.dataset.seat;
    const info = seatInfo(v, seat) || {};
    const dealer = m && m.dealer === seat;
    let pressed = null;
    if (mode === "start") pressed = ui.firstDealer === seat;
    if (mode === "entry") pressed = ui.maker === seat;
    btn.disabled = !(mode === "start" || mode === "entry");
    if (pressed === null) btn.removeAttribute("aria-pressed");
    else btn.setAttribute("aria-pressed", pressed ? "true" : "false");
    btn.classList.toggle("tb-dealer", !!dealer);
    const individual = info.individual || 0;
    // The spaces keep the words apart for whatever reads the text rather than the layout.
    swap(btn,
      el("span", { class: "tb-seat-pos", text: SEAT_NAMES[seat] }), " ",
      el("span", { class: "tb-seat-name", text: info.player || "—" }), " ",
      el("span", { class: "tb-seat-tags" },
        markOf(info) ? el("span", { class: "tb-mark", text: markOf(info) }) : null, " ",
        dealer ? el("span", { class: "tb-chip", text: gettext("Dealer") }) : null, " ",
        individual ? el("span", { class: "tb-chip tb-chip-ind", text: signed(individual) })
          : null),
    );
    // The name reads the button's words in their order first (a voice user says what
    // they see, WCAG 2.5.3), then what the eye takes from the layout and colours.
    const parts = [info.player
      ? interpolate(gettext("%(seat)s: %(name)s"), { seat: SEAT_NAMES[seat], name: info.player })
      : interpolate(gettext("%(seat)s: empty seat"), { seat: SEAT_NAMES[seat] })];
    if (markOf(info)) parts.push(markOf(info));
    if (dealer) parts.push(gettext("Dealer"));
    if (individual) parts.push(signed(individual));
    if (!info.house && info.division) {
      parts.push(interpolate(gettext("division %(d)s"), { d: info.division }));
    }
    parts.push(interpolate(gettext("team %(team)s"), { team: TEAM_NAMES[teamOf(seat)] }));
    if (individual) {
      parts.push(interpolate(gettext("individual %(points)s"), { points: signed(individual) }));
    }
    if (mode === "start") parts.push(gettext("tap to make first dealer"));
    if (mode === "entry") parts.push(gettext("tap if this player made trump"));
    btn.setAttribute("aria-label", parts.join(", "));
  }
  const centre = $("tb-centre");
  centre.textContent = m && m.dealer && !m.over
    ? interpolate(gettext("Hand %(n)s · %(name)s deals"), { n: m.next_number, name: nameAt(v, m.dealer) })
    : "";
}

function renderScores(v) {
  const m = v && v.match;
  for (const team of ["NS", "EW"]) {
    $(`tb-score-${team}`).textContent = m ? String(m.score[team]) : "0";
    $(`tb-score-${team}`).setAttribute("aria-label",
      interpolate(gettext("%(team)s score %(score)s"),
        { team: TEAM_NAMES[team], score: m ? m.score[team] : 0 }));
    const names = v && v.seats ? v.seats.filter((s) => s.team === team)
      .map((s) => `${s.player || "—"}${markOf(s) ? ` (${markOf(s)})` : ""}`) : [];
    $(`tb-team-players-${team}`).textContent = names.join(" & ");
    $(`tb-team-${team}`).classList.toggle("tb-leading",
      !!(m && m.score[team] > m.score[otherTeam(team)]));
  }
}

function renderEntry(v) {
  const m = v.match;
  const deals = { n: m.next_number, name: nameAt(v, m.dealer) };
  $("tb-entry-h").textContent = m.next_phase === "tiebreak"
    ? interpolate(gettext("Hand %(n)s · %(name)s deals · tie-break"), deals)
    : m.next_phase === "at_call"
      ? interpolate(gettext("Hand %(n)s · %(name)s deals · in progress at the call"), deals)
      : interpolate(gettext("Hand %(n)s · %(name)s deals"), deals);
  const partner = m.dealer ? partnerOf(m.dealer) : null;
  // Controls keep their place whatever is chosen: a double tap on Save must not land
  // on a control that moved up under the finger.
  const ordered = $("tb-ordered");
  ordered.disabled = ui.maker === null || ui.maker !== partner;
  ordered.setAttribute("aria-pressed", ui.ordered ? "true" : "false");
  ordered.textContent = ui.ordered ? gettext("Ordered the dealer up ✓ (alone)")
    : gettext("Ordered the dealer up (goes alone)");
  const defenders = $("tb-defenders");
  defenders.hidden = !v.rules.defend_alone_allowed;
  if (v.rules.defend_alone_allowed) {
    const seats = ui.maker === null ? [null, null]
      : SEATS.filter((s) => teamOf(s) !== teamOf(ui.maker));
    swap(defenders, ...seats.map((s) => el("button", {
      type: "button", class: "tb-toggle tb-big", disabled: s === null,
      "aria-pressed": s !== null && ui.defender === s ? "true" : "false",
      text: s === null ? gettext("A defender went alone")
        : interpolate(gettext("%(name)s defended alone"), { name: nameAt(v, s) }),
      onclick: () => { ui.defender = ui.defender === s ? null : s; render(); },
    })));
  }
  const alone = $("tb-alone");
  alone.disabled = ui.maker === null || ui.ordered;
  alone.setAttribute("aria-pressed", ui.alone ? "true" : "false");
  alone.textContent = ui.alone ? gettext("Alone ✓") : gettext("Alone");
  for (const b of document.querySelectorAll("#tb-tricks button")) {
    const t = Number(b.dataset.tricks);
    b.disabled = ui.maker === null;
    b.setAttribute("aria-pressed", ui.tricks === t ? "true" : "false");
    b.setAttribute("aria-label", interpolate(ngettext("%(n)s trick", "%(n)s tricks", t), { n: t }));
  }
  const ready = ui.maker !== null && ui.tricks !== null;
  $("tb-save").disabled = !ready;
  const preview = previewText(v, ready);
  $("tb-preview").textContent = preview;
  const kind = ready ? (ui.tricks <= 2 ? "euchre" : "make") : "none";
  $("tb-preview").className = `tb-preview tb-preview-${kind}`;
}

/* What the entry will record, in words: who scores, the points, the score after and
 * whether it ends the match (as the rules say: rules.afterHand). */
function previewText(v, ready) {
  if (ui.maker === null) return gettext("Tap the player who made trump.");
  if (!ready) {
    return interpolate(ui.alone
      ? gettext("%(name)s made trump alone: how many tricks did the makers take?")
      : gettext("%(name)s made trump: how many tricks did the makers take?"),
    { name: nameAt(v, ui.maker) });
  }
  const body = { outcome: "played", maker: ui.maker, alone: ui.alone,
    maker_tricks: ui.tricks, dealer_partner_ordered_up: ui.ordered,
    defender_alone: ui.tricks <= 2 ? ui.defender : null };
  const s = afterHand(beforeNext(v.match), body, v.rules);
  const after = s.score;
  // A euchre scores for the other team: it must not look like a make (a 2-for-3 mis-tap).
  const euchre = ui.tricks <= 2;
  const words = {
    team: TEAM_NAMES[euchre ? otherTeam(teamOf(ui.maker)) : teamOf(ui.maker)],
    hand: describe(v, body), points: pointsText(v, s.points, s.individual),
    ns: after.NS, ew: after.EW,
  };
  if (euchre) {
    return interpolate(s.over
      ? gettext("EUCHRE: the defenders (%(team)s) score. %(hand)s → %(points)s. Score after: NS %(ns)s – EW %(ew)s. This ends the match.")
      : gettext("EUCHRE: the defenders (%(team)s) score. %(hand)s → %(points)s. Score after: NS %(ns)s – EW %(ew)s."),
    words);
  }
  return interpolate(s.over
    ? gettext("%(team)s score. %(hand)s → %(points)s. Score after: NS %(ns)s – EW %(ew)s. This ends the match.")
    : gettext("%(team)s score. %(hand)s → %(points)s. Score after: NS %(ns)s – EW %(ew)s."),
  words);
}

function renderStart(v) {
  $("tb-start-choice").textContent = ui.firstDealer
    ? interpolate(gettext("%(name)s (%(seat)s) deals first."),
      { name: nameAt(v, ui.firstDealer), seat: SEAT_NAMES[ui.firstDealer] })
    : gettext("No dealer chosen yet.");
  const keeper = ui.keeper || v.match.scorekeeper;
  $("tb-start-save").disabled = !ui.firstDealer || !keeper;
  swap($("tb-keeper"), ...SEATS.map((s) => el("button", {
    type: "button", class: `tb-choice-btn tb-${teamOf(s).toLowerCase()}`,
    "aria-pressed": keeper === s ? "true" : "false",
    text: nameAt(v, s),
    "aria-label": interpolate(gettext("%(name)s keeps score"), { name: nameAt(v, s) }),
    onclick: () => { ui.keeper = ui.keeper === s ? null : s; render(); },
  })));
}

function renderEnd(v) {
  const m = v.match;
  const winner = m.winner;
  let result = winner
    ? interpolate(gettext("%(team)s win %(won)s–%(lost)s."),
      { team: TEAM_NAMES[winner], won: m.score[winner], lost: m.score[otherTeam(winner)] })
    : interpolate(gettext("Final score %(ns)s–%(ew)s."), { ns: m.score.NS, ew: m.score.EW });
  if (m.final && v.final) {
    result = interpolate(gettext("Game %(game)s: %(result)s Games: NS %(ns)s – EW %(ew)s."),
      { game: m.game, result, ns: v.final.wins.NS, ew: v.final.wins.EW });
  }
  if (m.pending_result) {
    result = interpolate(gettext("%(result)s (Final once the hands are sent.)"), { result });
  }
  $("tb-end-h").textContent = m.final
    ? interpolate(gettext("Game %(game)s over"), { game: m.game }) : gettext("Match over");
  $("tb-end-result").textContent = result;
  const rows = [];
  for (const s of v.seats) {
    const bonus = (m.bonuses || {})[s.team] || 0;
    const reason = m.bonuses ? bonusReasons(m, v.rules)[s.team] : "";
    const points = s.points !== null && s.points !== undefined ? s.points
      : m.score[s.team] + bonus + (s.individual || 0);
    rows.push(el("tr", { class: `tb-${s.team.toLowerCase()}` },
      el("th", { scope: "row" }, `${s.player || "—"} `,
        el("span", { class: "tb-mark", text: markOf(s) }),
        el("span", { class: "tb-sr", text: ` ${TEAM_NAMES[s.team]}` })),
      el("td", { text: String(m.score[s.team]) }),
      el("td", { text: bonus ? (reason ? interpolate(gettext("%(bonus)s (%(reason)s)"),
        { bonus: signed(bonus), reason }) : signed(bonus)) : "0" }),
      el("td", { text: s.individual ? signed(s.individual) : "0" }),
      el("td", { class: "tb-points", text: m.final ? "—" : String(points) })));
  }
  swap($("tb-end-rows"), ...rows);

  const status = m.status;
  const done = status === "confirmed" || status === "disputed";
  show("tb-confirm", !done && !m.pending_result && !m.final);
  // Only the team that did not keep score confirms (RULES §7); until the table says who
  // kept score, nobody is offered (the switch below asks for it).
  const keeper = m.scorekeeper;
  const confirmers = keeper ? v.seats.filter((s) => s.player && s.team !== teamOf(keeper)) : [];
  if (ui.confirmBy && !confirmers.some((s) => s.player === ui.confirmBy)) ui.confirmBy = null;
  $("tb-confirm-help").textContent = keeper
    ? interpolate(gettext("A player of %(team)s (who did not keep score) checks the result and taps their name:"),
      { team: TEAM_NAMES[otherTeam(teamOf(keeper))] })
    : gettext("Who kept score? Tap their name below; a player of the other team then confirms.");
  const who = $("tb-confirm-who");
  swap(who, ...confirmers.map((s) => el("button", {
    type: "button", class: `tb-choice-btn tb-${s.team.toLowerCase()}`,
    "aria-pressed": ui.confirmBy === s.player ? "true" : "false",
    text: s.player, "aria-label": interpolate(gettext("I am %(name)s"), { name: s.player }),
    onclick: () => { ui.confirmBy = s.player; render(); },
  })));
  $("tb-agree").disabled = !ui.confirmBy;
  $("tb-dispute").disabled = !ui.confirmBy;
  $("tb-agree").textContent = ui.confirmBy
    ? interpolate(gettext("Agree (%(name)s)"), { name: ui.confirmBy }) : gettext("Agree");
  let confirmed = "";
  if (status === "confirmed") {
    confirmed = m.confirmed_by
      ? interpolate(gettext("Confirmed by %(name)s."), { name: m.confirmed_by })
      : gettext("Confirmed by the director.");
  }
  if (status === "disputed") {
    confirmed = interpolate(gettext("Disputed by %(name)s: “%(note)s”. The director has been told and will come to the table."),
      { name: m.confirmed_by, note: m.dispute_note });
  }
  if (m.pending_confirm) {
    confirmed = interpolate(gettext("%(result)s (Not yet sent.)"), { result: confirmed });
  }
  $("tb-confirmed").textContent = confirmed;
  show("tb-change-answer", !!m.can_change_answer && !m.pending);
  $("tb-confirmed").className = `tb-confirmed tb-${status}`;
}

/* Who keeps score, and the one-tap switch that names or changes it (logged by the
 * server) while the result is not yet confirmed or disputed. */
function renderKeeper(v, mode) {
  const m = v.match;
  const box = $("tb-keeper-change");
  const done = !m || m.status === "confirmed" || m.status === "disputed" || m.final;
  const shown = !done && !st.revoked && ["entry", "call", "end"].includes(mode);
  show("tb-keeper-change", shown);
  if (!shown) return;
  const keeper = m.scorekeeper;
  if (!keeper) box.open = true;
  $("tb-keeper-now").textContent = keeper
    ? interpolate(gettext("Score kept by %(name)s (%(team)s). Change…"),
      { name: nameAt(v, keeper), team: TEAM_NAMES[teamOf(keeper)] })
    : gettext("Who keeps score? Tap their name.");
  swap($("tb-keeper-switch"), ...SEATS.map((s) => el("button", {
    type: "button", class: `tb-choice-btn tb-${teamOf(s).toLowerCase()}`,
    "aria-pressed": keeper === s ? "true" : "false",
    text: nameAt(v, s),
    "aria-label": interpolate(gettext("%(name)s keeps score"), { name: nameAt(v, s) }),
    onclick: () => { box.open = false; setKeeper(s); },
  })));
}

let announcedNext = null;
let shownMode = null;
function renderNext(v) {
  const next = v.next_round;
  show("tb-next", !!next);
  if (!next) return;
  if (announcedNext !== next.id) {
    // Bring "where to go" to the top of the screen once, when it first appears.
    announcedNext = next.id;
    setTimeout(() => $("tb-next").scrollIntoView({ block: "start" }), 0);
  }
  $("tb-next-h").textContent = interpolate(gettext("%(round)s: where to go"), { round: roundName(next) });
  swap($("tb-moves"), ...next.moves.map((mv) => {
    if (!mv.table) {
      return el("li", { text: interpolate(gettext("%(name)s: not seated in %(round)s."),
        { name: mv.player, round: roundName(next) }) });
    }
    const move = { table: mv.table, seat: SEAT_NAMES[mv.seat], partner: mv.partner || "—",
      opponents: mv.opponents.join(" & ") };
    const stay = mv.table === v.table;
    let where;
    if (mv.opponents.length) {
      where = stay
        ? gettext(" → table %(table)s (stay here), seat %(seat)s, partner %(partner)s; against %(opponents)s")
        : gettext(" → table %(table)s, seat %(seat)s, partner %(partner)s; against %(opponents)s");
    } else {
      where = stay
        ? gettext(" → table %(table)s (stay here), seat %(seat)s, partner %(partner)s")
        : gettext(" → table %(table)s, seat %(seat)s, partner %(partner)s");
    }
    return el("li", { class: `tb-${(mv.team || "").toLowerCase()}` },
      el("strong", { text: mv.player }), interpolate(where, move));
  }));
}

function renderHistory(v) {
  const list = $("tb-hands");
  const items = [];
  const running = new Map(v.hands.map((h) => [h.client_key, h.running]));
  for (const h of [...v.history].reverse()) {
    const run = running.get(h.client_key);
    const state = h.state === "standing" ? (h.pending ? "pending" : "standing") : h.state;
    const pts = pointsText(v, h.points || { NS: 0, EW: 0 }, h.individual
      || individualOf(v, h), h);
    const badges = [];
    if (h.pending) badges.push(el("span", { class: "tb-badge tb-badge-pending",
      text: h.state === "undone" ? gettext("undo not yet sent") : gettext("not yet sent") }));
    if (h.state === "undone") badges.push(el("span", { class: "tb-badge", text: gettext("undone") }));
    if (h.state === "superseded") {
      badges.push(el("span", { class: "tb-badge", text: gettext("corrected") }));
    }
    if (h.phase === "tiebreak") badges.push(el("span", { class: "tb-badge", text: gettext("tie-break") }));
    if (h.phase === "at_call") {
      badges.push(el("span", { class: "tb-badge", text: gettext("at the call") }));
    }
    items.push(el("li", { class: `tb-hand tb-hand-${state}`, value: String(h.number) },
      el("span", { class: "tb-hand-no", text: `#${h.number}` }),
      el("span", { class: "tb-hand-desc" },
        el("span", { class: "tb-hand-what", text: describe(v, h) }),
        el("span", { class: "tb-hand-dealer",
          text: interpolate(gettext(" · dealer %(name)s"), { name: nameAt(v, h.dealer, h) }) })),
      el("span", { class: "tb-hand-pts", text: pts }),
      el("span", { class: "tb-hand-run",
        text: run && h.state === "standing" ? `${run.NS}–${run.EW}` : "" }),
      ...badges));
  }
  if (!items.length) items.push(el("li", { class: "tb-hand-none", text: gettext("No hands yet.") }));
  swap(list, ...items);
}

function renderRefused() {
  const list = $("tb-refused");
  list.hidden = !st.refused.length;
  swap(list, ...st.refused.map((r) => el("li", { "data-id": r.id },
    el("span", { text: interpolate(gettext("%(entry)s was not saved: %(error)s"),
      { entry: r.label, error: r.error }) }),
    el("button", { type: "button", class: "tb-big",
      "aria-label": interpolate(gettext("Dismiss: %(entry)s"), { entry: r.label }),
      text: gettext("OK"),
      onclick: () => {
        st.refused = st.refused.filter((x) => x.id !== r.id);
        store("refused", st.refused);
        render();
      } }))));
}

function banner(v) {
  if (st.replaced) return st.revoked;
  if (st.revoked) {
    if (!st.queue.length) return st.revoked;
    return interpolate(ngettext(
      "%(why)s %(n)s entry is kept on this tablet and is sent once it is linked again.",
      "%(why)s %(n)s entries are kept on this tablet and are sent once it is linked again.",
      st.queue.length), { why: st.revoked, n: st.queue.length });
  }
  const m = v && v.match;
  if (m && m.final && v.final && !m.over) {
    const w = v.final.wins;
    const done = v.final.games.filter((g) => g.winner).map((g) =>
      interpolate(gettext("Game %(game)s: %(team)s won %(ns)s–%(ew)s."),
        { game: g.game, team: TEAM_NAMES[g.winner], ns: g.score_ns, ew: g.score_ew }));
    const now = interpolate(
      gettext("Final, game %(game)s: games won NS %(ns)s – EW %(ew)s (first to %(to)s)."),
      { game: m.game, ns: w.NS, ew: w.EW, to: v.final.games_to_win });
    return [...done, now].join(" ");
  }
  if (!m || m.over) return "";
  if (st.clockBase && st.clockBase.paused) return gettext("The director has paused the round.");
  if (m.in_tiebreak && m.time_called) {
    return gettext("Tie-break: the score is tied. Play hands until one leaves it untied.");
  }
  if (m.time_called && m.next_phase === "at_call" && m.hand_in_progress_at_call) {
    return gettext("Time is called: finish the hand in progress and enter it.");
  }
  if (m.time_called && !m.awaiting_answer) return gettext("Time is called.");
  return "";
}

export function render() {
  renderNet();
  renderHelp();
  renderClock();
  renderRefused();
  const v = view();
  const m = v && v.match;
  const text = banner(v);
  $("tb-banner").textContent = text;
  $("tb-banner").hidden = !text;
  $("tb-banner").classList.toggle("tb-banner-bad", !!st.revoked);
  $("tb-banner").classList.toggle("tb-banner-info", !st.revoked && !!(m && m.final));
  if (v && v.round) $("tb-round").textContent = m && m.final
    ? interpolate(gettext("%(round)s · game %(game)s"), { round: roundName(v.round), game: m.game })
    : roundName(v.round);

  let mode = "wait";
  let wait = "";
  if (!v) wait = gettext("Loading the table…");
  else if (!m) {
    wait = gettext("There is no match at this table yet. Wait for the director to seat it.");
  }
  else if (m.over) mode = "end";
  else if (!m.first_dealer) mode = "start";
  else if (!m.open) {
    wait = v.round.status === "seated"
      ? interpolate(gettext("%(round)s has not started. Wait for the director to start the clock."),
        { round: roundName(v.round) })
      : interpolate(gettext("%(round)s is closed."), { round: roundName(v.round) });
  } else if (m.awaiting_answer) mode = "call";
  else mode = "entry";
  if (st.revoked) mode = mode === "end" ? "end" : "wait";

  show("tb-start", mode === "start");
  show("tb-call", mode === "call");
  if (mode === "call" && shownMode !== "call") {
    // The time call's question may sit below the seats on a phone: bring it into view.
    setTimeout(() => $("tb-call").scrollIntoView({ block: "nearest" }), 0);
  }
  shownMode = mode;
  show("tb-entry", mode === "entry");
  show("tb-end", mode === "end");
  show("tb-wait", !!wait);
  $("tb-wait-text").textContent = wait;

  renderSeats(v, mode);
  renderScores(v);
  const prompt = { start: gettext("Tap the first dealer."),
    entry: gettext("Tap the player who made trump."), call: gettext("Time is called."),
    end: "", wait: "" }[mode];
  $("tb-prompt").textContent = prompt;
  if (v) {
    if (mode === "start") renderStart(v);
    if (mode === "entry") renderEntry(v);
    show("tb-entry-change-answer", mode === "entry" && !!m.can_change_answer && !m.pending);
    if (mode === "end") renderEnd(v);
    renderKeeper(v, mode);
    renderNext(v);
    renderHistory(v);
  }
  const undoable = !!(m && v.hands.length && m.open && !st.revoked
    && m.status !== "confirmed" && m.status !== "disputed");
  $("tb-undo").disabled = !undoable;
  $("tb-undo").hidden = !undoable;
}
