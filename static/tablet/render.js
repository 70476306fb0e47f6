/* Drawing the screen from view(): the clock, the network line, the seats, the scores,
 * the entry, the end of the match, where to go next, the history and the refusals. */

import { poll } from "./api.js";
import { renderHelp } from "./help.js";
import { $, SEAT_NAMES, TEAM_NAMES, el, show, signed, swap } from "./dom.js";
import { SEATS, afterHand, otherTeam, partnerOf, teamOf } from "./rules.js";
import { serverNow, st, store, ui } from "./store.js";
import { beforeNext, describe, individualOf, nameAt, pointsText, seatInfo, view } from "./view.js";
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
export function renderClock() {
  const node = $("tb-clock");
  const v = st.server;
  if (!v || !v.match) { node.textContent = "--:--"; return; }
  if (v.match.final) { node.textContent = v.round ? v.round.label : "Final"; return; }
  if (v.round && v.round.status === "finished") { node.textContent = "Over"; return; }
  if (!st.clockBase || !st.clockBase.started) { node.textContent = "Not started"; return; }
  const left = remainingNow();
  node.classList.toggle("tb-clock-low", left !== null && left <= 120);
  node.classList.toggle("tb-clock-paused", !!st.clockBase.paused);
  if (st.clockBase.called || left === 0) {
    node.textContent = "Time";
    if (!st.clockBase.called && !calledLocally && st.online) {
      // The server calls time; ask it at once rather than at the next poll.
      calledLocally = true;
      setTimeout(poll, 300);
    }
    return;
  }
  calledLocally = false;
  node.textContent = (st.clockBase.paused ? "Paused " : "") + clockText(left);
}

function renderNet() {
  const node = $("tb-net");
  const waiting = st.queue.length;
  let text;
  let cls;
  if (st.replaced) { text = "Replaced"; cls = "bad"; }
  else if (st.revoked) { text = "Link revoked"; cls = "bad"; }
  else if (!st.online) {
    text = waiting ? `Offline · ${waiting} not yet sent` : "Offline";
    cls = "bad";
  } else if (waiting) { text = `Sending ${waiting}…`; cls = "warn"; }
  else { text = "Online · all sent"; cls = "ok"; }
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
    swap(btn,
      el("span", { class: "tb-seat-pos", text: SEAT_NAMES[seat] }),
      el("span", { class: "tb-seat-name", text: info.player || "—" }),
      el("span", { class: "tb-seat-tags" },
        info.division ? el("span", { class: "tb-mark", text: info.division }) : null,
        dealer ? el("span", { class: "tb-chip", text: "Dealer" }) : null,
        individual ? el("span", { class: "tb-chip tb-chip-ind", text: signed(individual) })
          : null),
    );
    const parts = [`${SEAT_NAMES[seat]}: ${info.player || "empty seat"}`];
    if (info.division) parts.push(`division ${info.division}`);
    parts.push(`team ${TEAM_NAMES[teamOf(seat)]}`);
    if (dealer) parts.push("deals this hand");
    if (individual) parts.push(`individual ${signed(individual)}`);
    if (mode === "start") parts.push("tap to make first dealer");
    if (mode === "entry") parts.push("tap if this player made trump");
    btn.setAttribute("aria-label", parts.join(", "));
  }
  const centre = $("tb-centre");
  centre.textContent = m && m.dealer && !m.over
    ? `Hand ${m.next_number} · ${nameAt(v, m.dealer)} deals` : "";
}

function renderScores(v) {
  const m = v && v.match;
  for (const team of ["NS", "EW"]) {
    $(`tb-score-${team}`).textContent = m ? String(m.score[team]) : "0";
    $(`tb-score-${team}`).setAttribute("aria-label",
      `${TEAM_NAMES[team]} score ${m ? m.score[team] : 0}`);
    const names = v && v.seats ? v.seats.filter((s) => s.team === team)
      .map((s) => `${s.player || "—"}${s.division ? ` (${s.division})` : ""}`) : [];
    $(`tb-team-players-${team}`).textContent = names.join(" & ");
    $(`tb-team-${team}`).classList.toggle("tb-leading",
      !!(m && m.score[team] > m.score[otherTeam(team)]));
  }
}

function renderEntry(v) {
  const m = v.match;
  $("tb-entry-h").textContent = `Hand ${m.next_number} · ${nameAt(v, m.dealer)} deals`
    + (m.next_phase === "tiebreak" ? " · tie-break" : "")
    + (m.next_phase === "at_call" ? " · in progress at the call" : "");
  const partner = m.dealer ? partnerOf(m.dealer) : null;
  // Controls keep their place whatever is chosen: a double tap on Save must not land
  // on a control that moved up under the finger.
  const ordered = $("tb-ordered");
  ordered.disabled = ui.maker === null || ui.maker !== partner;
  ordered.setAttribute("aria-pressed", ui.ordered ? "true" : "false");
  ordered.textContent = ui.ordered ? "Ordered the dealer up ✓ (alone)"
    : "Ordered the dealer up (goes alone)";
  const defenders = $("tb-defenders");
  defenders.hidden = !v.rules.defend_alone_allowed;
  if (v.rules.defend_alone_allowed) {
    const seats = ui.maker === null ? [null, null]
      : SEATS.filter((s) => teamOf(s) !== teamOf(ui.maker));
    swap(defenders, ...seats.map((s) => el("button", {
      type: "button", class: "tb-toggle tb-big", disabled: s === null,
      "aria-pressed": s !== null && ui.defender === s ? "true" : "false",
      text: s === null ? "A defender went alone" : `${nameAt(v, s)} defended alone`,
      onclick: () => { ui.defender = ui.defender === s ? null : s; render(); },
    })));
  }
  const alone = $("tb-alone");
  alone.disabled = ui.maker === null || ui.ordered;
  alone.setAttribute("aria-pressed", ui.alone ? "true" : "false");
  alone.textContent = ui.alone ? "Alone ✓" : "Alone";
  for (const b of document.querySelectorAll("#tb-tricks button")) {
    const t = Number(b.dataset.tricks);
    b.disabled = ui.maker === null;
    b.setAttribute("aria-pressed", ui.tricks === t ? "true" : "false");
    b.setAttribute("aria-label", `${t} trick${t === 1 ? "" : "s"}`);
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
  if (ui.maker === null) return "Tap the player who made trump.";
  if (!ready) {
    return `${nameAt(v, ui.maker)} made trump${ui.alone ? " alone" : ""}: `
      + "how many tricks did the makers take?";
  }
  const body = { outcome: "played", maker: ui.maker, alone: ui.alone,
    maker_tricks: ui.tricks, dealer_partner_ordered_up: ui.ordered,
    defender_alone: ui.tricks <= 2 ? ui.defender : null };
  const s = afterHand(beforeNext(v.match), body, v.rules);
  const after = s.score;
  // A euchre scores for the other team: it must not look like a make (a 2-for-3 mis-tap).
  const euchre = ui.tricks <= 2;
  return (euchre ? `EUCHRE: the defenders (${TEAM_NAMES[otherTeam(teamOf(ui.maker))]})`
    + " score. " : `${TEAM_NAMES[teamOf(ui.maker)]} score. `)
    + `${describe(v, body)} → ${pointsText(v, s.points, s.individual)}. `
    + `Score after: NS ${after.NS} – EW ${after.EW}.`
    + (s.over ? " This ends the match." : "");
}

function renderStart(v) {
  $("tb-start-choice").textContent = ui.firstDealer
    ? `${nameAt(v, ui.firstDealer)} (${SEAT_NAMES[ui.firstDealer]}) deals first.`
    : "No dealer chosen yet.";
  $("tb-start-save").disabled = !ui.firstDealer;
  swap($("tb-keeper"), ...SEATS.map((s) => el("button", {
    type: "button", class: `tb-choice-btn tb-${teamOf(s).toLowerCase()}`,
    "aria-pressed": ui.keeper === s ? "true" : "false",
    text: nameAt(v, s), "aria-label": `${nameAt(v, s)} keeps score`,
    onclick: () => { ui.keeper = ui.keeper === s ? null : s; render(); },
  })));
}

function renderEnd(v) {
  const m = v.match;
  const winner = m.winner;
  let result = winner
    ? `${TEAM_NAMES[winner]} win ${m.score[winner]}–${m.score[otherTeam(winner)]}.`
    : `Final score ${m.score.NS}–${m.score.EW}.`;
  if (m.final && v.final) {
    result = `Game ${m.game}: ${result} Games: NS ${v.final.wins.NS} – EW ${v.final.wins.EW}.`;
  }
  if (m.pending_result) result += " (Final once the hands are sent.)";
  $("tb-end-h").textContent = m.final ? `Game ${m.game} over` : "Match over";
  $("tb-end-result").textContent = result;
  const rows = [];
  for (const s of v.seats) {
    const bonus = (m.bonuses || {})[s.team] || 0;
    const reason = (m.bonus_reasons || {})[s.team];
    const points = s.points !== null && s.points !== undefined ? s.points
      : m.score[s.team] + bonus + (s.individual || 0);
    rows.push(el("tr", { class: `tb-${s.team.toLowerCase()}` },
      el("th", { scope: "row" }, `${s.player || "—"} `,
        el("span", { class: "tb-mark", text: s.division || "" }),
        el("span", { class: "tb-sr", text: ` ${TEAM_NAMES[s.team]}` })),
      el("td", { text: String(m.score[s.team]) }),
      el("td", { text: bonus ? `${signed(bonus)}${reason ? ` (${reason})` : ""}` : "0" }),
      el("td", { text: s.individual ? signed(s.individual) : "0" }),
      el("td", { class: "tb-points", text: m.final ? "—" : String(points) })));
  }
  swap($("tb-end-rows"), ...rows);

  const status = m.status;
  const done = status === "confirmed" || status === "disputed";
  show("tb-confirm", !done && !m.pending_result && !m.final);
  const keeper = st.keepers[m.id];
  const confirmers = v.seats.filter((s) => !keeper || s.team !== teamOf(keeper));
  const other = keeper ? TEAM_NAMES[otherTeam(teamOf(keeper))] : "the other team";
  $("tb-confirm-help").textContent = `A player of ${other} (who did not keep score) `
    + "checks the result and taps their name:";
  const who = $("tb-confirm-who");
  swap(who, ...confirmers.map((s) => el("button", {
    type: "button", class: `tb-choice-btn tb-${s.team.toLowerCase()}`,
    "aria-pressed": ui.confirmBy === s.player ? "true" : "false",
    text: s.player, "aria-label": `I am ${s.player}`,
    onclick: () => { ui.confirmBy = s.player; render(); },
  })));
  $("tb-agree").disabled = !ui.confirmBy;
  $("tb-dispute").disabled = !ui.confirmBy;
  $("tb-agree").textContent = ui.confirmBy ? `Agree (${ui.confirmBy})` : "Agree";
  let confirmed = "";
  if (status === "confirmed") confirmed = `Confirmed by ${m.confirmed_by || "the director"}.`;
  if (status === "disputed") {
    confirmed = `Disputed by ${m.confirmed_by}: “${m.dispute_note}”. The director has been `
      + "told and will come to the table.";
  }
  if (m.pending_confirm) confirmed += " (Not yet sent.)";
  $("tb-confirmed").textContent = confirmed;
  show("tb-change-answer", !!m.can_change_answer && !m.pending);
  $("tb-confirmed").className = `tb-confirmed tb-${status}`;
}

let announcedNext = null;
function renderNext(v) {
  const next = v.next_round;
  show("tb-next", !!next);
  if (!next) return;
  if (announcedNext !== next.id) {
    // Bring "where to go" to the top of the screen once, when it first appears.
    announcedNext = next.id;
    setTimeout(() => $("tb-next").scrollIntoView({ block: "start" }), 0);
  }
  $("tb-next-h").textContent = `${next.label}: where to go`;
  swap($("tb-moves"), ...next.moves.map((mv) => {
    if (!mv.table) return el("li", { text: `${mv.player}: not seated in ${next.label}.` });
    const stay = mv.table === v.table ? " (stay here)" : "";
    return el("li", { class: `tb-${(mv.team || "").toLowerCase()}` },
      el("strong", { text: mv.player }),
      ` → table ${mv.table}${stay}, seat ${mv.seat} (${SEAT_NAMES[mv.seat]}), `
      + `partner ${mv.partner || "—"}`
      + (mv.opponents.length ? `; against ${mv.opponents.join(" & ")}` : ""));
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
      text: h.state === "undone" ? "undo not yet sent" : "not yet sent" }));
    if (h.state === "undone") badges.push(el("span", { class: "tb-badge", text: "undone" }));
    if (h.state === "superseded") {
      badges.push(el("span", { class: "tb-badge", text: "corrected" }));
    }
    if (h.phase === "tiebreak") badges.push(el("span", { class: "tb-badge", text: "tie-break" }));
    if (h.phase === "at_call") {
      badges.push(el("span", { class: "tb-badge", text: "at the call" }));
    }
    items.push(el("li", { class: `tb-hand tb-hand-${state}`, value: String(h.number) },
      el("span", { class: "tb-hand-no", text: `#${h.number}` }),
      el("span", { class: "tb-hand-desc" },
        el("span", { class: "tb-hand-what", text: describe(v, h) }),
        el("span", { class: "tb-hand-dealer", text: ` · dealer ${nameAt(v, h.dealer, h)}` })),
      el("span", { class: "tb-hand-pts", text: pts }),
      el("span", { class: "tb-hand-run",
        text: run && h.state === "standing" ? `${run.NS}–${run.EW}` : "" }),
      ...badges));
  }
  if (!items.length) items.push(el("li", { class: "tb-hand-none", text: "No hands yet." }));
  swap(list, ...items);
}

function renderRefused() {
  const list = $("tb-refused");
  list.hidden = !st.refused.length;
  swap(list, ...st.refused.map((r) => el("li", { "data-id": r.id },
    el("span", { text: `${r.label} was not saved: ${r.error}` }),
    el("button", { type: "button", class: "tb-big", "aria-label": `Dismiss: ${r.label}`,
      text: "OK",
      onclick: () => {
        st.refused = st.refused.filter((x) => x.id !== r.id);
        store("refused", st.refused);
        render();
      } }))));
}

function banner(v) {
  if (st.replaced) return st.revoked;
  if (st.revoked) {
    return `${st.revoked}${st.queue.length ? ` ${st.queue.length} entries are kept on this tablet `
      + "and are sent once it is linked again." : ""}`;
  }
  const m = v && v.match;
  if (m && m.final && v.final && !m.over) {
    const w = v.final.wins;
    const done = v.final.games.filter((g) => g.winner).map((g) =>
      `Game ${g.game}: ${TEAM_NAMES[g.winner]} won ${g.score_ns}–${g.score_ew}.`);
    return `${done.length ? done.join(" ") + " " : ""}Final, game ${m.game}: games won `
      + `NS ${w.NS} – EW ${w.EW} (first to ${v.final.games_to_win}).`;
  }
  if (!m || m.over) return "";
  if (st.clockBase && st.clockBase.paused) return "The director has paused the round.";
  if (m.in_tiebreak && m.time_called) {
    return "Tie-break: the score is tied. Play hands until one leaves it untied.";
  }
  if (m.time_called && m.next_phase === "at_call" && m.hand_in_progress_at_call) {
    return "Time is called: finish the hand in progress and enter it.";
  }
  if (m.time_called && !m.awaiting_answer) return "Time is called.";
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
    ? `${v.round.label} · game ${m.game}` : v.round.label;

  let mode = "wait";
  let wait = "";
  if (!v) wait = "Loading the table…";
  else if (!m) wait = "There is no match at this table yet. Wait for the director to seat it.";
  else if (m.over) mode = "end";
  else if (!m.first_dealer) mode = "start";
  else if (!m.open) {
    wait = v.round.status === "seated"
      ? `${v.round.label} has not started. Wait for the director to start the clock.`
      : `${v.round.label} is closed.`;
  } else if (m.awaiting_answer) mode = "call";
  else mode = "entry";
  if (st.revoked) mode = mode === "end" ? "end" : "wait";

  show("tb-start", mode === "start");
  show("tb-call", mode === "call");
  show("tb-entry", mode === "entry");
  show("tb-end", mode === "end");
  show("tb-wait", !!wait);
  $("tb-wait-text").textContent = wait;

  renderSeats(v, mode);
  renderScores(v);
  const prompt = { start: "Tap the first dealer.", entry: "Tap the player who made trump.",
    call: "Time is called.", end: "", wait: "" }[mode];
  $("tb-prompt").textContent = prompt;
  if (v) {
    if (mode === "start") renderStart(v);
    if (mode === "entry") renderEntry(v);
    show("tb-entry-change-answer", mode === "entry" && !!m.can_change_answer && !m.pending);
    if (mode === "end") renderEnd(v);
    renderNext(v);
    renderHistory(v);
  }
  const undoable = !!(m && v.hands.length && m.open && !st.revoked
    && m.status !== "confirmed" && m.status !== "disputed");
  $("tb-undo").disabled = !undoable;
  $("tb-undo").hidden = !undoable;
}
