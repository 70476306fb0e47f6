"""Whole simulated events, checked against an independent reading of docs/rules.md.

The checks below recompute everything from the exported hands without importing the rules
engine: every hand's points, each match's score, end, winner, bonuses and player points,
the standings, the rotation between rounds, the final seeding and the champions.
"""

import io
import json
from collections import defaultdict

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.django_db(transaction=True)

CLOCKWISE = "NESW"
TEAM = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}


def run_simulation(tables: int, seed: int) -> dict:
    out = io.StringIO()
    call_command("simulate", tables=tables, seed=seed, stdout=out)
    slug = out.getvalue().strip()
    exported = io.StringIO()
    call_command("export_results", slug, stdout=exported)
    data = json.loads(exported.getvalue())
    assert data["tournament"]["slug"] == slug
    return data


def expected_bonuses(
    rules: dict, score: dict[str, int], reached: tuple[str, str] | None, winner: str | None
) -> dict[str, int]:
    """The team bonuses of a match as the rules sheet gives them: the winner's, if it
    reached the target in a regular (or at-the-call) hand, and a skunk."""
    bonus = {"NS": 0, "EW": 0}
    if reached and reached[0] == winner:
        skunk = score[OTHER[winner]] == 0
        reach = rules["reach_bonus"] if reached[1] in ("regular", "at_call") else 0
        if skunk and rules["skunk_includes_reach"]:
            bonus[winner] = rules["skunk_bonus"]
        else:
            bonus[winner] = reach + (rules["skunk_bonus"] if skunk else 0)
    return bonus


def hand_points(hand: dict, rules: dict) -> tuple[dict, dict]:
    points, people = {"NS": 0, "EW": 0}, {}
    if hand["outcome"] == "played":
        makers, tricks = TEAM[hand["maker"]], hand["maker_tricks"]
        assert hand["makers"] == makers
        if tricks <= 2:
            points[OTHER[makers]] = rules["points_euchre"]
        elif tricks < 5:
            points[makers] = rules["points_make"]
        elif hand["alone"]:
            points[makers] = rules["points_alone_march"]
            people[hand["maker"]] = rules["alone_march_award"]
        else:
            points[makers] = rules["points_march"]
    elif hand["outcome"] == "renege":
        points[OTHER[TEAM[hand["renege_by"]]]] = rules["points_renege"]
        people[hand["renege_by"]] = rules["renege_penalty"]
    else:
        assert hand["outcome"] == "misdeal" and hand["maker"] is None
    return points, people


def check_match(match: dict, rules: dict, target: int, final: bool) -> dict:
    """Replay one match by hand and compare with the export; return per-seat points."""
    hands = match["hands"]
    assert hands, "every simulated match has hands"
    first = CLOCKWISE.index(hands[0]["dealer"])
    score, people = {"NS": 0, "EW": 0}, defaultdict(int)
    reached = None
    phases = [h["phase"] for h in hands]
    assert phases == sorted(phases, key=["regular", "at_call", "tiebreak"].index)
    assert phases.count("at_call") <= 1
    for i, hand in enumerate(hands):
        assert hand["number"] == i + 1
        assert hand["dealer"] == CLOCKWISE[(first + i) % 4]
        assert reached is None, "no hand after the target was reached"
        if hand["phase"] == "tiebreak":
            assert score["NS"] == score["EW"], "tie-break hands only while tied"
        points, individual = hand_points(hand, rules)
        assert hand["points"] == points
        for team in score:
            score[team] += points[team]
        for seat, p in individual.items():
            people[seat] += 0 if final else p
        if max(score.values()) >= target:
            reached = (max(score, key=score.get), hand["phase"])
    assert match["score"] == score
    assert score["NS"] != score["EW"]
    winner = "NS" if score["NS"] > score["EW"] else "EW"
    if reached is None:
        # Ended by time: the last hand is the one in progress or a tie-break hand.
        assert final is False and phases[-1] in ("at_call", "tiebreak", "regular")
    assert match["winner"] == winner
    if final:
        return {}
    bonus = expected_bonuses(rules, score, reached, winner)
    assert match["bonuses"] == bonus
    expected = {
        str(pid): score[TEAM[seat]] + bonus[TEAM[seat]] + people[seat]
        for seat, pid in match["seats"].items()
    }
    assert match["players"] == expected
    return expected


def check_event(data: dict, tables: int) -> None:
    rules = data["tournament"]["rules"]
    division = {p["id"]: p["division"] for p in data["players"]}
    assert len(division) == 4 * tables
    prelim = data["rounds"]
    assert [r["number"] for r in prelim] == list(range(1, rules["preliminary_rounds"] + 1))

    totals = defaultdict(lambda: [0, 0, 0])  # points, wins, margin
    for rnd in prelim:
        assert len(rnd["matches"]) == tables
        seated = [pid for m in rnd["matches"] for pid in m["seats"].values()]
        assert sorted(seated) == sorted(division)
        for m in rnd["matches"]:
            assert {division[m["seats"][s]] for s in "NE"} == {"A"}
            assert {division[m["seats"][s]] for s in "SW"} == {"B"}
            points = check_match(m, rules, rules["target"], final=False)
            for seat, pid in m["seats"].items():
                team = TEAM[seat]
                totals[pid][0] += points[str(pid)]
                totals[pid][1] += m["winner"] == team
                totals[pid][2] += m["score"][team] - m["score"][OTHER[team]]

    # Rotation between every pair of rounds, from the rule text.
    for before, after in zip(prelim, prelim[1:], strict=False):
        by_table = {m["table"]: m for m in before["matches"]}
        for m in after["matches"]:
            t = m["table"]
            here = by_table[t]
            w = here["winner"]
            aw, bw = (
                (here["seats"]["N"], here["seats"]["S"])
                if w == "NS"
                else (here["seats"]["E"], here["seats"]["W"])
            )
            up = by_table[t % tables + 1]
            down = by_table[(t - 2) % tables + 1]
            incoming_a = up["seats"]["E"] if up["winner"] == "NS" else up["seats"]["N"]
            incoming_b = down["seats"]["W"] if down["winner"] == "NS" else down["seats"]["S"]
            assert m["seats"] == {"N": incoming_a, "E": aw, "S": bw, "W": incoming_b}

    # Standings: sorted by total, wins, margin; the lot only separates full ties.
    for div in ("A", "B"):
        rows = data["standings"][div]
        assert len(rows) == 2 * tables
        keys = []
        for i, row in enumerate(rows):
            assert row["rank"] == i + 1
            assert [row["total"], row["wins"], row["margin"]] == totals[row["player"]]
            assert division[row["player"]] == div
            keys.append((row["total"], row["wins"], row["margin"]))
        assert keys == sorted(keys, reverse=True)
        for i, row in enumerate(rows):
            tied = keys.count(keys[i]) > 1
            assert row["by_lot"] == tied

    final = data["final"]
    a, b = data["standings"]["A"], data["standings"]["B"]
    assert final["seats"] == {
        "N": a[0]["player"],
        "S": a[1]["player"],
        "E": b[0]["player"],
        "W": b[1]["player"],
    }
    wins = {"NS": 0, "EW": 0}
    for game in final["games"]:
        assert max(wins.values()) < rules["final_games_to_win"]
        check_match(game, rules, rules["final_target"], final=True)
        assert max(game["score"].values()) >= rules["final_target"]
        wins[game["winner"]] += 1
    champion_team = max(wins, key=wins.get)
    assert wins[champion_team] == rules["final_games_to_win"]
    assert final["champions"] == {"NS": "A", "EW": "B"}[champion_team]


@pytest.mark.parametrize("tables", [1, 2, 3, 7, pytest.param(100, marks=pytest.mark.slow)])
def test_simulated_event_matches_an_independent_recomputation(tables):
    data = run_simulation(tables, seed=tables * 11)
    check_event(data, tables)


def test_simulated_events_play_time_called_tiebreaks_reneges_and_misdeals():
    data = run_simulation(7, seed=4)
    hands = [h for r in data["rounds"] for m in r["matches"] for h in m["hands"]]
    outcomes = {h["outcome"] for h in hands}
    phases = {h["phase"] for h in hands}
    assert outcomes == {"played", "renege", "misdeal"}
    assert phases == {"regular", "at_call", "tiebreak"}
    assert any(h["alone"] and h["maker_tricks"] == 5 for h in hands)
    assert any(h["maker_tricks"] is not None and h["maker_tricks"] <= 2 for h in hands)


def test_the_same_seed_plays_the_same_event():
    def shape(data: dict) -> list:
        names = {p["id"]: p["name"] for p in data["players"]}
        return [
            ([names[m["seats"][s]] for s in "NESW"], m["hands"], m["score"])
            for r in data["rounds"]
            for m in r["matches"]
        ]

    assert shape(run_simulation(3, seed=8)) == shape(run_simulation(3, seed=8))
    assert shape(run_simulation(3, seed=8)) != shape(run_simulation(3, seed=9))


def test_export_of_an_unknown_tournament_is_a_clear_error():
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_results", "nope")


def test_simulate_refuses_zero_tables():
    with pytest.raises(CommandError, match="between 1 and 2000"):
        call_command("simulate", tables=0, seed=1)


def event_rows(t) -> dict[str, list[str]]:
    """Every row the simulation stored for ``t``, without its database ids (foreign keys by
    what they name) and the wall clock's ``auto_now_add`` stamps: what two runs of the
    same seed must agree on."""
    from tournaments.core.models.event import Player
    from tournaments.core.models.log import Activity
    from tournaments.core.models.play import HandEntry, Match
    from tournaments.core.models.rounds import Seating

    def rows(qs, *named: str) -> list[str]:
        fields = [
            f.attname
            for f in qs.model._meta.concrete_fields
            if not (
                f.primary_key
                or f.is_relation
                or f.name == "client_key"  # names the tournament's id
                or getattr(f, "auto_now_add", False)
            )
        ]
        return sorted(map(repr, qs.values_list(*fields, *named)))

    return {
        "players": rows(Player.objects.filter(tournament=t)),
        "matches": rows(Match.objects.filter(round__tournament=t), "round__number"),
        "hands": rows(
            HandEntry.objects.filter(match__round__tournament=t),
            "match__round__number",
            "match__table",
            "match__game",
            "replaces__number",
        ),
        "seats": rows(Seating.objects.filter(round__tournament=t), "round__number", "player__name"),
        "activity": rows(Activity.objects.filter(tournament=t), "match__table"),
    }


@pytest.mark.parametrize(
    ("tables", "seed", "mess"),
    [(3, 5, {}), (7, 4, {}), (4, 3, {"withdraw": 3, "late": 2, "house": 1, "uneven": True})],
)
def test_a_match_per_transaction_stores_the_event_the_per_hand_path_stores(
    tables, seed, mess, monkeypatch
):
    """The simulation commits a match's hands together (tournaments.simulate says why): the
    event it stores is the one hand-by-hand transactions store, row for row."""
    from django.utils import timezone

    from tournaments.core.models.play import HandEntry
    from tournaments.core.simulate import EPOCH, Simulation

    # A house player is added at the wall clock's time (services.players takes no time
    # for it): the same instant for both runs.
    monkeypatch.setattr(timezone, "now", lambda: EPOCH)
    per_hand = Simulation(tables, seed, "Same", per_match=False, **mess).run()
    per_match = Simulation(tables, seed, "Same", **mess).run()
    assert per_hand.pk != per_match.pk
    hands, matched = event_rows(per_hand), event_rows(per_match)
    assert (
        len(hands["hands"]) == HandEntry.objects.filter(match__round__tournament=per_hand).count()
    )
    for kind in hands:
        assert hands[kind] == matched[kind], kind


@pytest.mark.django_db
def test_a_simulations_commits_skip_the_disk_wait_on_postgresql_and_nothing_else_does():
    # Nobody waits on a simulated match's commit (tournaments/core/db/durability.py); the
    # setting is the connection's, so it must be back when the block ends, or every tablet
    # request that connection serves next would be answered before its hand is on disk.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.core.db.durability import commits_unflushed

    def setting() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return str(cursor.fetchone()[0])

    with CaptureQueriesContext(connection) as sent, commits_unflushed():
        inside = setting() if connection.vendor == "postgresql" else None
    if connection.vendor == "postgresql":
        assert (inside, setting()) == ("off", "on")
    else:
        assert sent.captured_queries == []  # SQLite's commits never wait in WAL mode
