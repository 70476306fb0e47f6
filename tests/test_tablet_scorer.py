"""The tablet's scorer (static/tablet/rules.js) agrees with the rules (tournaments/domain).

A table of hand inputs (outcome × maker × alone × tricks × lone defender × reneging seat),
each played from starting scores near the target in every phase (regular, the hand in
progress at the call, a tie-break hand) and under several rule sets (the defaults; capped
scores with defending alone and a skunk that includes the reach bonus; the final), is
scored by the Python rules directly and by the JS module in Chromium, and compared: the
hand's points and awards, the score after it, whether it ends the match, the winner, the
bonuses and the next hand's phase.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from tournaments.core.reads.tablet.state import TABLET_RULES, tablet_rules
from tournaments.domain.hands import SEATS, Hand, Outcome, Seat, Team
from tournaments.domain.match import InvalidMatch, Phase, PhasedHand, TimeCall, replay
from tournaments.domain.rules import RuleSettings

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parent.parent / "static"
ORIGIN = "http://snowman.test"

RULE_SETS = {
    "defaults": (RuleSettings(), False),
    "capped, defend alone, skunk includes reach": (
        RuleSettings(
            cap_at_target=True,
            defend_alone_allowed=True,
            skunk_includes_reach=True,
            renege_penalty=-1,
            alone_march_award=2,
        ),
        False,
    ),
    "target 5, reach 0, skunk 3": (
        RuleSettings(target=5, reach_bonus=0, skunk_bonus=3, points_euchre=3),
        False,
    ),
    "final": (RuleSettings(final_target=7), True),
}


def hands() -> list[Hand]:
    """Every hand the tablet can send (the lone defender only where it names a defender)."""
    played = [
        Hand(Outcome.PLAYED, maker, alone, tricks, defender_alone=defender)
        for maker, alone, tricks in itertools.product(SEATS, (False, True), range(6))
        for defender in (None, *maker.team.other.seats)
    ]
    reneges = [Hand(Outcome.RENEGE, renege_by=seat) for seat in SEATS]
    return [*played, *reneges, Hand(Outcome.MISDEAL)]


def prefix(ns: int, ew: int) -> list[PhasedHand]:
    """Regular hands that bring the score to NS ``ns``, EW ``ew`` (one point a make)."""
    make = {t: Hand(Outcome.PLAYED, t.seats[0], maker_tricks=3) for t in Team}
    return [PhasedHand(make[Team.NS])] * ns + [PhasedHand(make[Team.EW])] * ew


def starts(target: int, final: bool) -> list[tuple[list[PhasedHand], TimeCall, Phase]]:
    """Starting points near the target: (hands so far, the time call, the next phase)."""
    near = [(0, 0), (target - 1, target - 1), (target - 1, 0), (0, target - 1)]
    near += [(target - 2, target - 1), (target - 3, target - 2), (target - 1, target - 3)]
    out = []
    for ns, ew in near:
        before = prefix(ns, ew)
        out.append((before, TimeCall(), Phase.REGULAR))
        if final:
            continue
        call = TimeCall(called=True, hand_in_progress=True, regular_through=len(before))
        out.append((before, call, Phase.AT_CALL))
        if ns == ew:
            none = TimeCall(called=True, hand_in_progress=False, regular_through=len(before))
            out.append((before, none, Phase.TIEBREAK))
    return out


def _seat_map(values: dict[Seat, int]) -> dict[str, int]:
    return {seat.value: p for seat, p in values.items() if p}


def _team_map(values: dict[Team, int]) -> dict[str, int]:
    return {"NS": values.get(Team.NS, 0), "EW": values.get(Team.EW, 0)}


def body(hand: Hand) -> dict[str, Any]:
    return {
        "outcome": hand.outcome.value,
        "maker": hand.maker.value if hand.maker else None,
        "alone": hand.alone,
        "maker_tricks": hand.maker_tricks,
        "renege_by": hand.renege_by.value if hand.renege_by else None,
        "defender_alone": hand.defender_alone.value if hand.defender_alone else None,
    }


def cases() -> list[dict[str, Any]]:
    """The table: each case's input for the JS module and the Python rules' answer."""
    table = []
    for name, (rules, final) in RULE_SETS.items():
        # The rules exactly as the server sends them to the tablet (state.json).
        rules_json = tablet_rules(rules, final)
        target = rules.final_target if final else rules.target
        for before, time, phase in starts(target, final):
            start = replay(before, first_dealer=Seat.N, rules=rules, time=time, final=final)
            assert not start.over and start.next_phase is phase, (name, time, start)
            for hand in hands():
                try:
                    after = replay(
                        [*before, PhasedHand(hand, phase)],
                        first_dealer=Seat.N,
                        rules=rules,
                        time=time,
                        final=final,
                    )
                except InvalidMatch:
                    continue  # a lone defender where the rules have none: refused (422)
                scored = after.hands[-1].score
                table.append(
                    {
                        "case": f"{name}; from {_team_map(start.score)} {phase}; {body(hand)}",
                        "rules": rules_json,
                        "before": {"score": _team_map(start.score), "phase": phase.value},
                        "body": body(hand),
                        "expected": {
                            "points": _team_map(scored.points),
                            "individual": _seat_map(scored.individual),
                            "score": _team_map(after.score),
                            "over": after.over,
                            "winner": after.winner.value if after.winner else None,
                            "bonuses": _team_map(after.bonuses),
                            "nextPhase": after.next_phase.value if after.next_phase else None,
                        },
                    }
                )
    return table


RUN_IN_CHROMIUM = """async (cases) => {
  const { afterHand } = await import("/static/tablet/rules.js");
  return cases.map((c) => {
    const r = afterHand(c.before, c.body, c.rules);
    return { points: r.points, individual: r.individual, score: r.score, over: r.over,
      winner: r.winner, bonuses: r.bonuses, nextPhase: r.nextPhase };
  });
}"""


def _serve_static(route: Any) -> None:
    path = route.request.url.removeprefix(ORIGIN)
    if path.startswith("/static/"):
        route.fulfill(
            path=str(STATIC / path.removeprefix("/static/")), content_type="text/javascript"
        )
    else:
        route.fulfill(body="<!doctype html><title>scorer</title>", content_type="text/html")


def test_the_tablets_scorer_agrees_with_the_rules_on_every_hand_near_the_target(page):
    table = cases()
    # Every rule set, every phase and every kind of ending is in the table.
    assert len(table) > 3000
    assert {c["before"]["phase"] for c in table} == {"regular", "at_call", "tiebreak"}
    assert any(
        c["expected"]["over"] and c["expected"]["bonuses"] != {"NS": 0, "EW": 0} for c in table
    )
    assert any(c["expected"]["over"] and c["before"]["phase"] == "tiebreak" for c in table)
    assert any(c["expected"]["nextPhase"] == "tiebreak" for c in table)

    page.route(f"{ORIGIN}/**", _serve_static)
    page.goto(f"{ORIGIN}/")
    got = page.evaluate(
        RUN_IN_CHROMIUM, [{k: c[k] for k in ("rules", "before", "body")} for c in table]
    )
    wrong = [
        f"{c['case']}\n  rules: {c['expected']}\n  tablet: {answer}"
        for c, answer in zip(table, got, strict=True)
        if json.loads(json.dumps(answer)) != c["expected"]
    ]
    assert not wrong, f"{len(wrong)} of {len(table)} cases disagree:\n" + "\n".join(wrong[:10])


def test_the_tablet_gets_every_rule_its_scorer_reads_from_the_rules_dataclass() -> None:
    # static/tablet/rules.js reads rules.<name>; each name comes from RuleSettings (one
    # source for every default), and no rule the scorer reads is left out of state.json.
    script = (Path(__file__).resolve().parent.parent / "static/tablet/rules.js").read_text()
    read = set(re.findall(r"\brules\.([a-z_]+)\b", script)) - {"md"}
    assert read == set(TABLET_RULES)
    assert set(TABLET_RULES) <= {f.name for f in fields(RuleSettings)}
    rules = RuleSettings(final_target=7, skunk_bonus=3)
    assert tablet_rules(rules, final=False)["skunk_bonus"] == 3
    assert tablet_rules(rules, final=True)["target"] == 7
    assert tablet_rules(rules, final=True)["skunk_bonus"] == 0
