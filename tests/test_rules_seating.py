"""docs/rules.md §1 and §3: who can be seated, the draw, swaps and the winner-split rotation."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.hands import Seat, Team
from tournaments.domain.seating import (
    SeatingError,
    TableResult,
    TableSeating,
    check_counts,
    draw,
    rotate,
    shortfall,
    swap,
)

pytestmark = pytest.mark.db_independent  # pure rules, no database


def table(t: int) -> TableSeating:
    return TableSeating(t, {Seat.N: f"A{t}a", Seat.E: f"A{t}b", Seat.S: f"B{t}a", Seat.W: f"B{t}b"})


def test_worked_example_of_three_tables_matches_the_rules():
    # At every table NS (A?a + B?a) wins; A?b/B?b lose.
    results = [TableResult(table(t), Team.NS) for t in (1, 2, 3)]
    aw = {t: f"A{t}a" for t in (1, 2, 3)}
    bw = {t: f"B{t}a" for t in (1, 2, 3)}
    al = {t: f"A{t}b" for t in (1, 2, 3)}
    bl = {t: f"B{t}b" for t in (1, 2, 3)}
    seating = rotate(results)
    expected = {
        1: ((al[2], bw[1]), (aw[1], bl[3])),
        2: ((al[3], bw[2]), (aw[2], bl[1])),
        3: ((al[1], bw[3]), (aw[3], bl[2])),
    }
    for t in seating:
        assert (t.team(Team.NS), t.team(Team.EW)) == expected[t.table]


def test_one_table_keeps_everyone_and_swaps_partners():
    [new] = rotate([TableResult(table(1), Team.EW)])
    # Winners A1b+B1b split; losers A1a, B1a stay.
    assert new.seats == {Seat.N: "A1a", Seat.E: "A1b", Seat.S: "B1b", Seat.W: "B1a"}
    assert set(new.team(Team.NS)) == {"A1a", "B1b"}


def test_two_tables_send_both_losers_to_the_other_table():
    new = rotate([TableResult(table(1), Team.NS), TableResult(table(2), Team.NS)])
    assert new[0].seats == {Seat.N: "A2b", Seat.E: "A1a", Seat.S: "B1a", Seat.W: "B2b"}
    assert new[1].seats == {Seat.N: "A1b", Seat.E: "A2a", Seat.S: "B2a", Seat.W: "B1b"}


def test_rotation_refuses_a_missing_table():
    with pytest.raises(SeatingError, match="1..T"):
        rotate([TableResult(table(1), Team.NS), TableResult(table(3), Team.NS)])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=60).flatmap(
        lambda t: st.tuples(
            st.just(t), st.lists(st.sampled_from(list(Team)), min_size=t, max_size=t)
        )
    )
)
def test_rotation_properties_for_any_number_of_tables(case):
    count, winners = case
    results = [TableResult(table(t), winners[t - 1]) for t in range(1, count + 1)]
    seating = rotate(results)
    assert [t.table for t in seating] == list(range(1, count + 1))
    everyone = [p for t in seating for p in t.seats.values()]
    assert len(everyone) == len(set(everyone)) == 4 * count  # nobody twice, nobody lost
    for new in seating:
        # Two A players at N/E and two B players at S/W: every team is one A and one B.
        assert {new.seats[Seat.N][0], new.seats[Seat.E][0]} == {"A"}
        assert {new.seats[Seat.S][0], new.seats[Seat.W][0]} == {"B"}
    for old in results:
        t = old.seating.table
        aw, bw = old.pair(won=True)
        al, bl = old.pair(won=False)
        here = seating[t - 1]
        # Winners stay and are split.
        assert here.seat_of(aw) is not None and here.seat_of(bw) is not None
        assert here.seat_of(aw).team is not here.seat_of(bw).team
        # A loser goes counterclockwise, B loser clockwise.
        assert seating[(t - 2) % count].seat_of(al) is Seat.N
        assert seating[t % count].seat_of(bl) is Seat.W


def test_draw_is_reproducible_from_its_seed_and_seats_a_at_n_e_and_b_at_s_w():
    a = [f"A{i}" for i in range(8)]
    b = [f"B{i}" for i in range(8)]
    first = draw(a, b, random.Random(42))
    assert first == draw(list(reversed(a)), b, random.Random(42))
    assert first != draw(a, b, random.Random(43))
    assert len(first) == 4
    for t in first:
        assert t.seats[Seat.N].startswith("A") and t.seats[Seat.E].startswith("A")
        assert t.seats[Seat.S].startswith("B") and t.seats[Seat.W].startswith("B")


@pytest.mark.parametrize(
    "a, b, message",
    [
        (
            10,
            7,
            "For 5 tables, 3 more B players needed; or for 3 tables, 4 A players and "
            "1 B player too many.",
        ),
        (4, 6, "For 3 tables, 2 more A players needed; or for 2 tables, 2 B players too many."),
        (0, 0, "For 1 table, 2 more A players and 2 more B players needed."),
        (
            3,
            3,
            "For 2 tables, 1 more A player and 1 more B player needed; or for 1 table, "
            "1 A player and 1 B player too many.",
        ),
    ],
)
def test_seating_is_refused_naming_the_exact_shortfall(a, b, message):
    assert shortfall(a, b).endswith(message)
    with pytest.raises(SeatingError, match="every table needs 2 A and 2 B"):
        check_counts(a, b)


def test_exact_counts_seat():
    assert shortfall(6, 6) is None
    assert check_counts(6, 6) == 3


def test_swap_exchanges_two_players_of_one_division():
    seating = [table(1), table(2)]
    divisions = {p: p[0] for t in seating for p in t.seats.values()}
    swapped = swap(seating, "A1a", "A2b", divisions)
    assert swapped[0].seats[Seat.N] == "A2b" and swapped[1].seats[Seat.E] == "A1a"


def test_swap_across_divisions_is_refused():
    seating = [table(1)]
    divisions = {p: p[0] for p in table(1).seats.values()}
    with pytest.raises(SeatingError, match="same division"):
        swap(seating, "A1a", "B1a", divisions)


def test_the_draw_depends_on_the_seed_and_the_order_of_ids_not_their_digits():
    # Ids 8..15 and 108..115 are in the same order; the same seed must seat them alike.
    low = draw(list(range(8, 12)), list(range(12, 16)), random.Random(5))
    high = draw(list(range(108, 112)), list(range(112, 116)), random.Random(5))
    assert [{s: p + 100 for s, p in t.seats.items()} for t in low] == [t.seats for t in high]
