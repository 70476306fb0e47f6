"""RULES.md §3.1: stationary players keep their table and their chair; the winner-split
rotation is routed around them. Tables worked by hand, then properties over any room."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.hands import SEATS, Seat, Team
from tournaments.domain.seating import (
    FirstRoundRemedy,
    SeatingError,
    TableResult,
    TableSeating,
    Waiting,
    draw,
    draw_with_remedy,
    rotate,
    seat_with_holes,
    turn_of,
)

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def table(t: int) -> TableSeating:
    # A{t}a at N and B{t}a at S (team NS); A{t}b at E and B{t}b at W (team EW).
    return TableSeating(t, {N: f"A{t}a", E: f"A{t}b", S: f"B{t}a", W: f"B{t}b"})


def ns_wins(count: int) -> list[TableResult]:
    """Every table won by NS: A?a and B?a win, A?b and B?b lose."""
    return [TableResult(table(t), Team.NS) for t in range(1, count + 1)]


def seats(seating: list[TableSeating]) -> dict[int, dict[Seat, str]]:
    return {t.table: dict(t.seats) for t in seating}


def test_a_stationary_a_loser_stays_and_the_a_loser_coming_to_them_goes_on_one_table():
    new = seats(rotate(ns_wins(3), ["A2b"]))
    # Plain: A1b -> 3, A2b -> 1, A3b -> 2. A2b stays at 2, so A3b goes on to 1.
    assert new[1] == {N: "A3b", E: "A1a", S: "B1a", W: "B3b"}
    assert new[3] == {N: "A1b", E: "A3a", S: "B3a", W: "B2b"}
    # Table 2 by §3 is N=A2b E=A2a S=B2a W=B1b; A2b sat at E, so the letters turn one step.
    assert new[2] == {E: "A2b", S: "A2a", W: "B2a", N: "B1b"}


def test_the_turned_table_keeps_partners_opposite_and_the_teams_of_the_rotation():
    [_, two, _] = rotate(ns_wins(3), ["A2b"])
    # incoming A + Bw against Aw + incoming B, whatever the letters.
    assert {frozenset(two.team(Team.NS)), frozenset(two.team(Team.EW))} == {
        frozenset({"A2b", "B2a"}),
        frozenset({"A2a", "B1b"}),
    }
    assert two.turn == 1
    assert [two.division_at(s) for s in SEATS] == ["B", "A", "A", "B"]


def test_a_stationary_winner_at_table_1_keeps_their_chair_and_nobody_else_is_rerouted():
    plain = seats(rotate(ns_wins(3)))
    new = seats(rotate(ns_wins(3), ["A1a"]))
    # A1a won at N; §3 seats Aw at E, so table 1's letters turn back one step.
    assert new[1] == {W: "A2b", N: "A1a", E: "B1a", S: "B3b"}
    assert new[2] == plain[2] and new[3] == plain[3]


def test_a_stationary_b_loser_at_table_t_stays_and_the_b_loser_heading_there_goes_on_to_1():
    new = seats(rotate(ns_wins(3), ["B3b"]))
    # Plain B losers: B1b -> 2, B2b -> 3, B3b -> 1. B3b stays, B2b goes past 3 to 1.
    assert new[3] == {N: "A1b", E: "A3a", S: "B3a", W: "B3b"}
    assert new[1][W] == "B2b"
    assert new[2][W] == "B1b"


def test_a_stationary_a_loser_at_table_1_sends_the_a_loser_of_table_2_around_to_t():
    new = seats(rotate(ns_wins(4), ["A1b"]))
    assert {s: p for s, p in new[1].items()}[E] == "A1b"
    assert "A2b" in new[4].values()  # skipped table 1, wrapped to 4
    assert "A3b" in new[2].values() and "A4b" in new[3].values()


def test_adjacent_stationary_losers_are_skipped_together():
    new = seats(rotate(ns_wins(4), ["A1b", "A2b"]))
    # A3b would go to 2; 2 and 1 are held, so on to 4; A4b goes to 3 as usual.
    assert "A1b" in new[1].values() and "A2b" in new[2].values()
    assert "A3b" in new[4].values() and "A4b" in new[3].values()


def test_three_stationary_players_in_both_divisions_worked_by_hand():
    new = seats(rotate(ns_wins(4), ["A2b", "B3b", "A4a"]))
    assert new == {
        1: {N: "A3b", E: "A1a", S: "B1a", W: "B4b"},
        2: {N: "B1b", E: "A2b", S: "A2a", W: "B2a"},
        3: {N: "A4b", E: "A3a", S: "B3a", W: "B3b"},
        4: {N: "A4a", E: "B4a", S: "B2b", W: "A1b"},
    }


def test_two_stationary_at_one_table_the_first_marked_keeps_their_letter():
    first_a = seats(rotate(ns_wins(3), ["A1a", "B1a"]))[1]
    assert first_a[N] == "A1a" and first_a[E] == "B1a"  # B1a keeps the table, not S
    first_b = seats(rotate(ns_wins(3), ["B1a", "A1a"]))[1]
    assert first_b[S] == "B1a" and first_b[E] == "A1a"


def test_two_stationary_a_players_of_one_table_both_keep_their_chairs_when_n_loses():
    # A1a at N loses (EW wins): §3 seats incoming A (A1a) at N and Aw (A1b) at E.
    results = [TableResult(table(1), Team.EW), TableResult(table(2), Team.NS)]
    new = seats(rotate(results, ["A1a", "A1b"]))
    assert new[1][N] == "A1a" and new[1][E] == "A1b"


def test_when_every_loser_of_a_division_is_stationary_nobody_of_it_moves():
    new = seats(rotate(ns_wins(2), ["A1b", "A2b"]))
    assert "A1b" in new[1].values() and "A2b" in new[2].values()
    # The B losers still cross as with two tables.
    assert "B1b" in new[2].values() and "B2b" in new[1].values()


def test_with_one_table_a_stationary_player_keeps_the_chair_and_partners_change():
    [new] = rotate([TableResult(table(1), Team.NS)], ["B1b"])
    assert new.seats[W] == "B1b"
    assert set(new.team(Team.EW)) == {"A1a", "B1b"}


def test_a_turned_table_rotates_again_from_its_letters():
    first = rotate(ns_wins(3), ["A2b"])
    # Round 2 at the turned table 2: team NS (B1b + A2a) wins.
    results = [TableResult(t, Team.NS) for t in first]
    second = seats(rotate(results, ["A2b"]))
    assert second[2][E] == "A2b"
    everyone = [p for t in second.values() for p in t.values()]
    assert len(set(everyone)) == 12


def test_turn_of_reads_a_stored_table_back():
    [_, two, _] = rotate(ns_wins(3), ["A2b"])
    division = {p: p[0] for p in two.seats.values()}
    assert turn_of(two.seats, division) == two.turn == 1
    assert turn_of(table(1).seats, {p: p[0] for p in table(1).seats.values()}) == 0


# --- Holes and closed tables (§6 with stationary players) --------------------------------


def test_a_table_holding_a_stationary_player_is_never_proposed_for_closing():
    # Two players of rotated table 4 have withdrawn: without a mark table 4 closes.
    gone = ["A4a", "B4a"]  # winners: they stay at table 4
    kwargs = dict(withdrawn=gone, waiting=[], house=[], sit_outs_so_far={}, lot_seed=1)
    assert seat_with_holes(ns_wins(4), **kwargs).closed == [4]
    marked = seat_with_holes(ns_wins(4), stationary=["B3b"], **kwargs)
    # B3b stays at 3 and B2b goes on to 4: table 4 now holds no stationary player...
    assert marked.closed == [4]
    held = seat_with_holes(ns_wins(4), stationary=["A4b"], **kwargs)
    # ...but A4b, a stationary loser, holds table 4: the highest other table closes.
    assert held.closed == [3]
    four = next(t for t in held.tables if "A4b" in t.seats.values())
    assert four.table == 3 and four.seats[E] == "A4b"  # renumbered; the chair is kept


def test_closing_a_stationary_players_table_by_hand_is_refused():
    with pytest.raises(SeatingError, match="stationary"):
        seat_with_holes(
            ns_wins(4),
            withdrawn=["A4a", "B4a"],
            waiting=[],
            house=[],
            sit_outs_so_far={},
            lot_seed=1,
            close=[4],
            stationary=["A4b"],
        )


def test_a_stationary_loser_is_never_the_mover_who_sits_out():
    # One waiting A player takes a mover's seat. A3b has never sat out and would be
    # first in line to give up a seat; marked stationary, another mover gives way.
    counts = {"A1b": 1, "A2b": 1, "A3b": 0}
    kwargs = dict(
        withdrawn=[],
        waiting=[Waiting("A9", "A", 0.0)],
        house=[],
        sit_outs_so_far=counts,
        lot_seed=7,
    )
    assert seat_with_holes(ns_wins(3), **kwargs).sit_outs == ["A3b"]
    routed = seat_with_holes(ns_wins(3), stationary=["A3b"], **kwargs)
    assert "A3b" not in routed.sit_outs and len(routed.sit_outs) == 1
    three = next(t for t in routed.tables if t.table == 3)
    assert three.seats[E] == "A3b"


def test_a_hole_at_a_turned_table_is_filled_from_the_right_division():
    # A2b stays turned at table 2 where B2a (a winner, now at W) has withdrawn.
    result = seat_with_holes(
        ns_wins(3),
        withdrawn=["B2a"],
        waiting=[Waiting("A9", "A", 0.0), Waiting("B9", "B", 1.0)],
        house=[],
        sit_outs_so_far={},
        lot_seed=3,
        stationary=["A2b"],
    )
    two = next(t for t in result.tables if t.table == 2)
    assert two.seats[W] == "B9" and two.seats[E] == "A2b"


def test_a_withdrawn_stationary_player_leaves_an_ordinary_hole():
    result = seat_with_holes(
        ns_wins(3),
        withdrawn=["A2b"],
        waiting=[Waiting("A9", "A", 0.0)],
        house=[],
        sit_outs_so_far={},
        lot_seed=3,
        stationary=["A2b"],
    )
    # Plain rotation: A2b's seat is table 1's N, filled by the waiting player.
    one = next(t for t in result.tables if t.table == 1)
    assert one.seats[N] == "A9" and one.turn == 0


# --- Round 1 --------------------------------------------------------------------------


def test_the_draw_seats_each_stationary_player_at_the_named_table():
    a = [f"A{i}" for i in range(8)]
    b = [f"B{i}" for i in range(8)]
    seating = draw(a, b, random.Random(5), [("A3", 1), ("B6", 4), ("A0", 4)])
    by_table = {t.table: t for t in seating}
    assert by_table[1].seats[N] == "A3"
    assert by_table[4].seats[N] == "A0" and by_table[4].seats[S] == "B6"
    everyone = [p for t in seating for p in t.seats.values()]
    assert sorted(everyone) == sorted(a + b)


def test_the_draw_without_stationary_players_is_the_same_draw():
    a = [f"A{i}" for i in range(8)]
    b = [f"B{i}" for i in range(8)]
    assert draw(a, b, random.Random(5)) == draw(a, b, random.Random(5), [])


def test_the_draw_refuses_a_table_the_room_does_not_have_and_a_third_a_player():
    a = [f"A{i}" for i in range(4)]
    b = [f"B{i}" for i in range(4)]
    with pytest.raises(SeatingError, match="table 3; round 1 seats 2 tables"):
        draw(a, b, random.Random(1), [("A1", 3)])
    with pytest.raises(SeatingError, match="more than two stationary A"):
        draw(a, b, random.Random(1), [("A1", 1), ("A2", 1), ("A3", 1)])


def test_the_lot_never_sits_out_a_stationary_player():
    a = [f"A{i}" for i in range(5)]
    b = [f"B{i}" for i in range(4)]
    remedy = FirstRoundRemedy("sit-out", 2, sit_out_a=1)
    for seed in range(30):
        _, out = draw_with_remedy(a, b, random.Random(seed), remedy)
        if out == ["A2"]:
            break
    else:
        pytest.fail("no seed sits A2 out")
    seating, out = draw_with_remedy(a, b, random.Random(seed), remedy, stationary=[("A2", 2)])
    assert out != ["A2"] and len(out) == 1
    assert seating[1].seats[N] == "A2"


# --- Any room -------------------------------------------------------------------------


def next_table(t: int, count: int, step: int) -> int:
    return (t - 1 + step) % count + 1


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_rotation_around_stationary_players_for_any_room(data):
    count = data.draw(st.integers(min_value=1, max_value=12), label="tables")
    a = [f"A{i}" for i in range(2 * count)]
    b = [f"B{i}" for i in range(2 * count)]
    everyone = a + b
    marked = data.draw(
        st.lists(st.sampled_from(everyone), unique=True, max_size=min(6, 2 * count)),
        label="stationary",
    )
    tables = data.draw(
        st.lists(st.integers(1, count), min_size=len(marked), max_size=len(marked)),
        label="named tables",
    )
    division = {p: p[0] for p in everyone}
    try:
        seating = draw(
            a,
            b,
            random.Random(data.draw(st.integers(0, 99))),
            list(zip(marked, tables, strict=True)),
        )
    except SeatingError:
        return  # three stationary players of one division named for one table
    home = {p: (t.table, t.seat_of(p)) for t in seating for p in t.seats.values() if p in marked}
    for _ in range(3):
        winners = data.draw(st.lists(st.sampled_from(list(Team)), min_size=count, max_size=count))
        results = [TableResult(t, winners[t.table - 1]) for t in seating]
        routed = rotate(results, marked)
        plain = rotate(results)
        where = {p: t.table for t in routed for p in t.seats.values()}
        plain_where = {p: t.table for t in plain for p in t.seats.values()}
        assert sorted(where) == sorted(everyone)  # nobody twice, nobody lost
        for t in routed:
            # Two A and two B, A players side by side, partners of different divisions.
            assert turn_of(t.seats, division) == t.turn
            for seat, p in t.seats.items():
                assert t.division_at(seat) == division[p]
            here = [p for p in marked if p in t.seats.values()]
            if not here:
                assert t.turn == 0
            else:
                # The first marked at the table keeps their chair.
                assert t.seat_of(here[0]) == home[here[0]][1]
        held = {
            d: {r.seating.table for r in results if r.pair(won=False)[i] in marked}
            for i, d in enumerate("AB")
        }
        for r in results:
            t = r.seating.table
            for p in r.pair(won=True) + r.pair(won=False):
                if p in marked:
                    assert where[p] == home[p][0] == t
            aw, bw = r.pair(won=True)
            assert where[aw] == where[bw] == t  # winners stay...
            here = next(x for x in routed if x.table == t)
            assert here.seat_of(aw).team is not here.seat_of(bw).team  # ...split
            for i, (d, step) in enumerate((("A", -1), ("B", +1))):
                loser = r.pair(won=False)[i]
                if loser in marked:
                    continue
                to = next_table(t, count, step)
                while to in held[d] and to != t:
                    to = next_table(to, count, step)
                assert where[loser] == to
                if plain_where[loser] not in held[d]:
                    assert where[loser] == plain_where[loser]  # as plain §3
        # The partner of each incoming A loser is the table's B winner (§3 teams).
        for r in results:
            t = r.seating.table
            here = next(x for x in routed if x.table == t)
            aw, bw = r.pair(won=True)
            arriving_a = next(p for p in here.seats.values() if division[p] == "A" and p != aw)
            assert here.seat_of(arriving_a).team is here.seat_of(bw).team
        seating = routed
        home = {
            p: (t.table, t.seat_of(p)) for t in seating for p in t.seats.values() if p in marked
        }


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_holes_closures_and_sit_outs_never_move_a_stationary_player(data):
    count = data.draw(st.integers(min_value=2, max_value=8), label="tables")
    results = [
        TableResult(table(t), data.draw(st.sampled_from(list(Team)))) for t in range(1, count + 1)
    ]
    everyone = [p for r in results for p in r.seating.seats.values()]
    marked = data.draw(st.lists(st.sampled_from(everyone), unique=True, max_size=3))
    gone = data.draw(st.lists(st.sampled_from(everyone), unique=True, max_size=count))
    waiting = [
        Waiting(f"{d}9{i}", d, float(i))
        for i, d in enumerate(data.draw(st.lists(st.sampled_from("AB"), max_size=4)))
    ]
    try:
        new = seat_with_holes(
            results,
            withdrawn=gone,
            waiting=waiting,
            house=[],
            sit_outs_so_far={},
            lot_seed=data.draw(st.integers(0, 9)),
            stationary=marked,
        )
    except SeatingError:
        return  # seats left empty: the director adds house players or closes tables
    staying = [p for p in marked if p not in gone]
    old = {
        p: (r.seating.table, r.seating.seat_of(p))
        for r in results
        for p in staying
        if p in r.seating.seats.values()
    }
    renumbered = {p: new.renumbered[old[p][0]] for p in staying}
    for p in staying:
        assert old[p][0] not in new.closed
        assert p not in new.sit_outs
        here = next(t for t in new.tables if p in t.seats.values())
        assert here.table == renumbered[p]
    # The first marked at each table keeps the chair.
    for t in new.tables:
        first = next((p for p in staying if p in t.seats.values()), None)
        if first is not None:
            assert t.seat_of(first) == old[first][1]
        # Every seat holds a player of the division the (turned) letters give it.
        for seat, p in t.seats.items():
            assert t.division_at(seat) == p[0]
