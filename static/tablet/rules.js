/* The rules the tablet's preview needs, as tournaments/domain scores them (hands.py
 * score_hand, match.py replay and team_bonuses): what a hand is worth, the running score,
 * whether a hand ends the match and the winner's bonuses. The server scores for real;
 * tests/test_tablet_scorer.py runs a generated table of hands through this module in
 * Chromium and through the Python rules, and compares.
 *
 * Vocabulary: a *body* is a hand as the tablet sends it (outcome, maker, alone,
 * maker_tricks, renege_by, defender_alone); *rules* is state.rules; a *phase* is
 * "regular", "at_call" (the hand in progress when time was called) or "tiebreak". */

export const SEATS = ["N", "E", "S", "W"];

export const teamOf = (seat) => (seat === "N" || seat === "S" ? "NS" : "EW");
export const otherTeam = (team) => (team === "NS" ? "EW" : "NS");
export const clockwise = (seat, steps) => SEATS[(SEATS.indexOf(seat) + steps) % 4];
export const partnerOf = (seat) => clockwise(seat, 2);
export const dealerFor = (first, number) => (first ? clockwise(first, number - 1) : null);

/* Team points and individual awards of one hand (score_hand). The rules of the final
 * carry no awards (the server sends them as 0), as the final scores none. */
export function scoreHand(body, rules) {
  const points = { NS: 0, EW: 0 };
  const individual = {};
  if (body.outcome === "played") {
    const makers = teamOf(body.maker);
    if (body.maker_tricks <= 2) {
      points[otherTeam(makers)] = body.defender_alone && rules.defend_alone_allowed
        ? rules.points_alone_euchre : rules.points_euchre;
    } else if (body.maker_tricks < 5) points[makers] = rules.points_make;
    else if (body.alone) {
      points[makers] = rules.points_alone_march;
      if (rules.alone_march_award) individual[body.maker] = rules.alone_march_award;
    } else points[makers] = rules.points_march;
  } else if (body.outcome === "renege") {
    points[otherTeam(teamOf(body.renege_by))] = rules.points_renege;
    if (rules.renege_penalty) individual[body.renege_by] = rules.renege_penalty;
  }
  return { points, individual };
}

/* The bonuses of docs/rules.md §2.3 for the winner that reached the target (team_bonuses). */
export function teamBonuses(score, reached, winner, rules) {
  const bonuses = { NS: 0, EW: 0 };
  if (!winner || !reached || reached.team !== winner) return bonuses;
  const team = reached.team;
  const reach = reached.phase === "tiebreak" ? 0 : (rules.reach_bonus || 0);
  const skunk = score[otherTeam(team)] === 0;
  if (skunk && rules.skunk_includes_reach) bonuses[team] = rules.skunk_bonus || 0;
  else bonuses[team] = reach + (skunk ? rules.skunk_bonus || 0 : 0);
  return bonuses;
}

/* The match after one more hand. ``before``: {score, phase, timeCalled, inProgress}, the
 * server's state for the next hand (score, next_phase, time_called,
 * hand_in_progress_at_call). Time ends the match after the hand in progress at the call
 * (or, when none was, after any hand) once the score is untied (docs/rules.md §7). The
 * tablet does not know K, so a regular hand re-entered after the call (an undo of a hand
 * entered before it) is previewed as if time were not called; the server's answer then
 * says. */
export function afterHand(before, body, rules) {
  const { points, individual } = scoreHand(body, rules);
  const score = { NS: before.score.NS, EW: before.score.EW };
  for (const team of ["NS", "EW"]) {
    score[team] += points[team];
    if (rules.cap_at_target) score[team] = Math.min(score[team], rules.target);
  }
  const phase = before.phase || "regular";
  let reached = null;
  for (const team of ["NS", "EW"]) {
    if (!reached && score[team] >= rules.target) reached = { team, phase };
  }
  const pastCall = phase !== "regular";
  const over = !!reached || (pastCall && score.NS !== score.EW);
  const winner = over ? (score.NS > score.EW ? "NS" : "EW") : null;
  return {
    points, individual, score, over, winner,
    bonuses: teamBonuses(score, reached, winner, rules),
    nextPhase: over ? null : (pastCall ? "tiebreak" : phase),
  };
}
