"""docs/rules.md §6: seating the next round with holes, round-1 remedies, sit-out points."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.final import entrants
from tournaments.domain.hands import Seat, Team
from tournaments.domain.rules import RuleSettings
from tournaments.domain.seating import (
    SEAT_DIVISION,
    SeatingError,
    TableResult,
    TableSeating,
    Waiting,
    draw_with_remedy,
    first_round_remedies,
    rotate,
    seat_with_holes,
)
from tournaments.domain.standings import PlayerRecord, RoundLine, rank, sit_out_lines

pytestmark = pytest.mark.db_independent  # pure rules, no database


def table(t: int) -> TableSeating:
    return TableSeating(t, {Seat.N: f"A{t}a", Seat.E: f"A{t}b", Seat.S: f"B{t}a", Seat.W: f"B{t}b"})


def results(n: int, winner: Team = Team.NS) -> list[TableResult]:
    return [TableResult(table(t), winner) for t in range(1, n + 1)]


def seat_of(seating, player):
    for t in seating.tables:
        for seat, pid in t.seats.items():
            if pid == player:
                return t.table, seat
    return None


def test_a_waiting_player_fills_the_hole_of_a_withdrawn_player_of_the_same_division():
    plain = rotate(results(3))
    gone = "A2b"  # an A loser: rotated to N of table 1
    out = seat_with_holes(
        results(3),
        withdrawn={gone},
        waiting=[Waiting("late-A", "A", 1.0)],
        house=[],
        sit_outs_so_far={},
        lot_seed=1,
    )
    assert seat_of(out, "late-A") == (1, Seat.N)
    assert [(c.table, c.seat, c.out, c.into, c.kind) for c in out.changes] == [
        (1, Seat.N, gone, "late-A", "waiting")
    ]
    # Every other seat is exactly the rotation's.
    for before, after in zip(plain, out.tables, strict=True):
        for seat in Seat:
            if before.seats[seat] != gone:
                assert after.seats[seat] == before.seats[seat]
    assert out.sit_outs == [] and out.closed == []


def test_the_longest_waiting_player_fills_the_first_hole_and_ties_go_by_the_lot():
    kwargs = dict(withdrawn={"A2b"}, house=[], sit_outs_so_far={}, lot_seed=3)
    out = seat_with_holes(
        results(3), waiting=[Waiting("x", "A", 5.0), Waiting("y", "A", 2.0)], **kwargs
    )
    assert seat_of(out, "y") == (1, Seat.N)
    tie = [Waiting("x", "A", 1.0), Waiting("y", "A", 1.0)]
    first = seat_with_holes(results(3), waiting=tie, **kwargs)
    again = seat_with_holes(results(3), waiting=list(reversed(tie)), **kwargs)
    assert first.tables == again.tables


def test_house_players_fill_holes_that_no_waiting_player_can():
    out = seat_with_holes(
        results(2),
        withdrawn={"B1a"},
        waiting=[Waiting("late-A", "A", 1.0)],
        house=["house-1"],
        sit_outs_so_far={},
        lot_seed=1,
    )
    assert seat_of(out, "house-1") == (1, Seat.S)
    assert [c.kind for c in out.changes if c.into == "house-1"] == ["house"]


def test_without_house_players_the_table_with_most_holes_closes_and_tables_are_renumbered():
    # Two A players of different tables withdraw: 3 tables cannot stay full.
    out = seat_with_holes(
        results(3),
        withdrawn={"A1a", "A3a"},  # winners: they stay at E of tables 1 and 3
        waiting=[],
        house=[],
        sit_outs_so_far={},
        lot_seed=1,
    )
    assert out.closed == [3]
    assert [t.table for t in out.tables] == [1, 2]
    assert out.renumbered == {1: 1, 2: 2}
    seated = {p for t in out.tables for p in t.seats.values()}
    assert not seated & {"A1a", "A3a"}
    assert all(sum(1 for s in t.seats if SEAT_DIVISION[s] == "A") == 2 for t in out.tables)
    # Table 3's two B players have no hole to fill: they take movers' seats (step 5).
    assert len(out.sit_outs) == 2


def test_the_director_may_close_other_tables_and_the_rest_keep_their_order():
    out = seat_with_holes(
        results(4),
        withdrawn={"A1a", "B1a", "A2a", "B2a"},
        waiting=[],
        house=[],
        sit_outs_so_far={},
        lot_seed=1,
        close=[1, 2],
    )
    assert out.closed == [1, 2]
    assert out.renumbered == {3: 1, 4: 2}


def test_closing_every_table_or_too_few_is_refused_with_a_message():
    kwargs = dict(waiting=[], house=[], sit_outs_so_far={}, lot_seed=1)
    with pytest.raises(SeatingError, match="Closing every table"):
        seat_with_holes(results(2), withdrawn={"A1a"}, close=[1, 2], **kwargs)
    with pytest.raises(SeatingError, match="would stay empty"):
        seat_with_holes(results(3), withdrawn={"A1a", "A2a", "A3a"}, close=[], **kwargs)


def test_an_extra_waiting_player_takes_a_movers_seat_and_winners_never_sit_out():
    out = seat_with_holes(
        results(3),
        withdrawn=set(),
        waiting=[Waiting("late-B", "B", 1.0)],
        house=[],
        sit_outs_so_far={"B2b": 1},
        lot_seed=4,
    )
    winners = {f"A{t}a" for t in (1, 2, 3)} | {f"B{t}a" for t in (1, 2, 3)}
    assert len(out.sit_outs) == 1
    assert out.sit_outs[0] not in winners
    # The mover with the fewest sit-outs goes: never B2b, who already sat out.
    assert out.sit_outs[0] != "B2b"
    assert seat_of(out, "late-B")[1] == Seat.W
    assert [c.kind for c in out.changes] == ["pass-on"]


def test_round_one_remedies_offer_sit_outs_or_house_players():
    remedies = first_round_remedies(9, 7)
    kinds = {r.kind: r for r in remedies}
    assert (kinds["sit-out"].tables, kinds["sit-out"].sit_out_a, kinds["sit-out"].sit_out_b) == (
        3,
        3,
        1,
    )
    assert (kinds["house"].tables, kinds["house"].house_a, kinds["house"].house_b) == (5, 1, 3)
    assert "sit out" in kinds["sit-out"].describe
    assert first_round_remedies(8, 8) == []


def test_a_round_one_remedy_seats_every_table_two_a_and_two_b():
    a = [f"a{i}" for i in range(9)]
    b = [f"b{i}" for i in range(7)]
    remedies = {r.kind: r for r in first_round_remedies(9, 7)}
    seating, outs = draw_with_remedy(a, b, random.Random(5), remedies["sit-out"])
    assert len(seating) == 3 and len(outs) == 4
    seating, outs = draw_with_remedy(
        a, b, random.Random(5), remedies["house"], ["hA"], ["hB1", "hB2", "hB3"]
    )
    assert len(seating) == 5 and outs == []
    seated = [p for t in seating for p in t.seats.values()]
    assert len(seated) == len(set(seated)) == 20


def test_sit_out_points_are_the_average_of_matches_played_before_rounded_down():
    lines = (RoundLine(1, 10, 1, 0, True, 5), RoundLine(2, 4, 0, 0, False, -6))
    assert [s.points for s in sit_out_lines("average", lines, [3])] == [7]  # 15 // 2
    assert [s.points for s in sit_out_lines("average", lines, [1])] == [0]
    assert [s.points for s in sit_out_lines("none", lines, [3])] == [0]
    assert [s.points for s in sit_out_lines(6, lines, [3])] == [6]
    record = PlayerRecord("p", lines, sit_out_lines("average", lines, [3]))
    assert (record.total, record.wins, record.margin, record.played) == (22, 1, -1, 2)


def test_the_chain_order_is_free_with_the_lot_last_when_present():
    assert RuleSettings(tiebreaks=("wins", "margin", "total")).errors() == {}
    assert RuleSettings(tiebreaks=("margin", "total", "wins", "lot")).errors() == {}
    assert "tiebreaks" in RuleSettings(tiebreaks=("lot", "total", "wins", "margin")).errors()
    assert "tiebreaks" in RuleSettings(tiebreaks=("total", "wins")).errors()
    assert "sit_out_score" in RuleSettings(sit_out_score="often").errors()


def test_without_the_lot_tied_players_share_a_rank_and_the_final_waits_for_the_director():
    line = RoundLine(1, 10, 0, 0, True, 4)
    records = [PlayerRecord(p, (line,)) for p in ("x", "y", "z")]
    ranked = rank(records, ["total", "wins", "margin"], 1)
    assert [s.rank for s in ranked] == [1, 1, 1]
    pairs = [(s.player, s.rank) for s in ranked]
    entry = entrants(pairs)
    assert entry.finalists == [] and sorted(entry.tied) == ["x", "y", "z"]
    entry = entrants(pairs, ["z", "x", "y"])
    assert entry.finalists == ["z", "x"] and entry.tied == []


def test_a_shared_rank_below_the_cut_does_not_hold_up_the_final():
    pairs = [("a", 1), ("b", 2), ("c", 3), ("d", 3)]
    assert entrants(pairs).finalists == ["a", "b"]


# --- property test over random messy events (item 9) ---------------------------------


@st.composite
def messy_rounds(draw_):
    tables = draw_(st.integers(min_value=1, max_value=8))
    steps = draw_(
        st.lists(
            st.tuples(
                st.integers(0, 3),  # withdrawals this round
                st.integers(0, 3),  # late arrivals
                st.integers(0, 2),  # new house players
                st.randoms(use_true_random=False),
            ),
            min_size=1,
            max_size=5,
        )
    )
    return tables, steps


@settings(max_examples=400, deadline=None)
@given(messy_rounds())
def test_every_seating_with_holes_keeps_the_room_sound(event):
    tables, steps = event
    a = [f"a{i}" for i in range(2 * tables)]
    b = [f"b{i}" for i in range(2 * tables)]
    division = {p: "A" for p in a} | {p: "B" for p in b}
    current = [
        TableSeating(
            t + 1, {Seat.N: a[2 * t], Seat.E: a[2 * t + 1], Seat.S: b[2 * t], Seat.W: b[2 * t + 1]}
        )
        for t in range(tables)
    ]
    withdrawn: set = set()
    waiting: list[Waiting] = []
    house: list = []
    sit_outs: dict = {}
    counter = 0
    for withdraw_n, late_n, house_n, rng in steps:
        seated = [p for t in current for p in t.seats.values()]
        for p in rng.sample(seated, min(withdraw_n, len(seated))):
            withdrawn.add(p)
        for _ in range(late_n):
            counter += 1
            d = rng.choice("AB")
            p = f"late{counter}"
            division[p] = d
            waiting.append(Waiting(p, d, float(counter)))
        for _ in range(house_n):
            counter += 1
            house.append(f"house{counter}")
        res = [TableResult(t, rng.choice([Team.NS, Team.EW])) for t in current]
        movers = {r.pair(won=False)[0] for r in res} | {r.pair(won=False)[1] for r in res}
        try:
            out = seat_with_holes(
                res,
                withdrawn=withdrawn,
                waiting=waiting,
                house=house,
                sit_outs_so_far=sit_outs,
                lot_seed=counter,
                house_seated=[p for t in current for p in t.seats.values() if p.startswith("h")],
            )
        except SeatingError as exc:
            assert "Closing every table" in str(exc)
            return
        seated_now = [p for t in out.tables for p in t.seats.values()]
        assert len(seated_now) == len(set(seated_now)) == 4 * len(out.tables)
        assert not set(seated_now) & withdrawn
        assert [t.table for t in out.tables] == list(range(1, len(out.tables) + 1))
        for t in out.tables:
            for seat, p in t.seats.items():
                # House players count for the division whose seat they fill.
                assert p.startswith("house") or division[p] == SEAT_DIVISION[seat]
        # Nobody sits out a second time while a mover of that round never has.
        for p in out.sit_outs:
            if sit_outs.get(p, 0) >= 1:
                never = [
                    m
                    for m in movers
                    if m in seated_now
                    and division.get(m) == division[p]
                    and sit_outs.get(m, 0) == 0
                    and not m.startswith("house")
                ]
                assert not never, (
                    p,
                    never,
                    out.changes,
                    out.sit_outs,
                    out.closed,
                    sit_outs,
                    [t.seats for t in current],
                )
        assert not [p for p in out.sit_outs if p.startswith("house")]
        # No player sits out while a house player seated last round plays in her division.
        stand_ins = {p for t in current for p in t.seats.values() if p.startswith("h")}
        for t in out.tables:
            for seat, p in t.seats.items():
                if p in stand_ins:
                    d = SEAT_DIVISION[seat]
                    assert not [q for q in out.sit_outs if division.get(q) == d], (p, t.table)
        for p in out.sit_outs:
            sit_outs[p] = sit_outs.get(p, 0) + 1
        used = set(seated_now)
        house = [h for h in out.unused_house if h not in used]
        waiting = [Waiting(p, division[p], -1.0) for p in out.sit_outs if p not in withdrawn] + [
            w for w in waiting if w.player not in used and w.player not in out.sit_outs
        ]
        current = out.tables


def test_the_proposed_closure_is_the_table_with_most_holes_left_after_waiting_players_fill():
    # Table 1 loses two players and table 3 one; one A and one B player are waiting. The
    # waiting players fill table 1's holes (steps 1-2), so table 3 is the one whose hole
    # stays open, and the one proposed (§6 step 3), although table 1 lost more players.
    out = seat_with_holes(
        results(4),
        withdrawn={"A1a", "B1a", "A3a"},  # winners: they stay at tables 1 and 3
        waiting=[Waiting("late-A", "A", 1.0), Waiting("late-B", "B", 1.0)],
        house=[],
        sit_outs_so_far={},
        lot_seed=1,
    )
    assert out.closed == [3]
    assert seat_of(out, "late-A")[0] == 1 and seat_of(out, "late-B")[0] == 1
    assert out.renumbered == {1: 1, 2: 2, 4: 3}


def test_a_house_player_counts_as_filling_before_the_closure_is_proposed():
    # The same room with a house player instead of the waiting B player: the house
    # player takes table 1's B hole, so table 3 still closes.
    out = seat_with_holes(
        results(4),
        withdrawn={"A1a", "B1a", "A3a"},
        waiting=[Waiting("late-A", "A", 1.0)],
        house=["house-1"],
        sit_outs_so_far={},
        lot_seed=1,
    )
    assert out.closed == [3]
    # Table 3's players join the waiting line and fill table 1's holes in their own
    # divisions first (§6 step 3); the house player is not needed once a table closes.
    assert seat_of(out, "house-1") is None and out.unused_house == ["house-1"]
    assert all(c.kind != "house" for c in out.changes)


def test_a_closed_tables_players_fill_their_own_division_before_a_house_player_does():
    # One A hole and three B holes, one house player: closing table 2 leaves an A and
    # a B player of that table to fill. Had the house player taken the A hole first,
    # the last B hole would have stayed empty though the room holds enough players.
    out = seat_with_holes(
        results(4),
        withdrawn={"A1a", "B1b", "B2a", "B3a"},
        waiting=[],
        house=["house-0"],
        sit_outs_so_far={},
        lot_seed=1,
    )
    assert out.closed == [2]
    assert [(c.table, c.seat.value, c.kind) for c in out.changes if c.kind != "pass-on"] == [
        (1, "E", "closed"),
        (2, "S", "house"),
    ]
    seated = [p for t in out.tables for p in t.seats.values()]
    assert len(seated) == len(set(seated)) == 12 and "house-0" in seated


def test_a_house_player_who_won_gives_his_seat_to_a_waiting_player_of_its_division():
    # House Hal stood in at table 1 N (an A seat) and won: winners keep their seats, but a
    # stand-in is not a player to keep. A late A player arrives: she takes Hal's seat,
    # Hal goes back to the house, and nobody sits out.
    first = TableSeating(1, {Seat.N: "house-hal", Seat.E: "A1b", Seat.S: "B1a", Seat.W: "B1b"})
    out = seat_with_holes(
        [TableResult(first, Team.NS), TableResult(table(2), Team.NS)],
        withdrawn=set(),
        waiting=[Waiting("late-A", "A", 1.0)],
        house=[],
        sit_outs_so_far={},
        lot_seed=1,
        house_seated=["house-hal"],
    )
    assert out.sit_outs == [] and out.unused_house == ["house-hal"]
    assert [(c.table, c.out, c.into) for c in out.changes] == [(1, "house-hal", "late-A")]
