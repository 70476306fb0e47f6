"""docs/rules.md §4: the tiebreak chain, the lot, the final's seeding and its best of three."""

import pytest

from tournaments.domain.final import final_state, seed_final
from tournaments.domain.hands import Seat, Team
from tournaments.domain.seating import SeatingError
from tournaments.domain.standings import PlayerRecord, RoundLine, lot_order, rank

pytestmark = pytest.mark.db_independent  # pure rules, no database

CHAIN = ("total", "wins", "margin", "lot")


def record(pid: str, *lines: tuple[int, int, int, bool, int]) -> PlayerRecord:
    return PlayerRecord(
        pid,
        tuple(
            RoundLine(i + 1, score, bonus, ind, won, margin)
            for i, (score, bonus, ind, won, margin) in enumerate(lines)
        ),
    )


def test_total_is_team_score_plus_bonuses_plus_individual_points_over_rounds():
    r = record("p", (10, 1, 1, True, 4), (6, 0, -2, False, -4))
    assert (r.total, r.wins, r.margin, r.bonuses, r.individual) == (16, 1, 0, 1, -1)


def test_higher_total_ranks_first():
    ranked = rank([record("a", (5, 0, 0, False, -5)), record("b", (11, 1, 0, True, 5))], CHAIN, 1)
    assert [s.player for s in ranked] == ["b", "a"]
    assert [s.rank for s in ranked] == [1, 2]


def test_equal_totals_are_broken_by_wins_then_margin():
    a = record("a", (10, 0, 0, False, -1))  # 10, 0 wins
    b = record("b", (9, 1, 0, True, 2))  # 10, 1 win, margin 2
    c = record("c", (9, 1, 0, True, 5))  # 10, 1 win, margin 5
    ranked = rank([a, b, c], CHAIN, 1)
    assert [s.player for s in ranked] == ["c", "b", "a"]
    assert not any(s.decided_by_lot for s in ranked)


def test_a_full_tie_is_drawn_by_lot_reproducibly_and_marked():
    players = [record(p, (7, 0, 0, True, 2)) for p in "abcd"]
    first = rank(players, CHAIN, 99)
    assert [s.player for s in first] == [s.player for s in rank(players[::-1], CHAIN, 99)]
    assert all(s.decided_by_lot for s in first)
    assert [s.rank for s in first] == [1, 2, 3, 4]
    orders = {tuple(s.player for s in rank(players, CHAIN, seed)) for seed in range(30)}
    assert len(orders) > 1  # the seed matters


def test_without_lot_in_the_chain_tied_players_share_a_rank():
    players = [
        record("a", (7, 0, 0, True, 2)),
        record("b", (7, 0, 0, True, 2)),
        record("c", (3, 0, 0, False, -2)),
    ]
    ranked = rank(players, ("total", "wins", "margin"), 1)
    assert [s.rank for s in ranked] == [1, 1, 3]


def test_players_equal_on_every_link_but_the_lot_share_the_rank_players_see():
    """After round 1 the lot ordered three equal players 3, 4, 5: they are "=3"."""
    players = [
        record("top", (10, 2, 0, True, 9)),
        record("two", (10, 1, 0, True, 6)),
        *(record(p, (7, 0, 0, True, 2)) for p in "xyz"),
        record("last", (3, 0, 0, False, -2)),
    ]
    ranked = rank(players, CHAIN, 5)
    assert [s.rank for s in ranked] == [1, 2, 3, 4, 5, 6]  # the lot's order seeds the final
    assert [s.shared_rank for s in ranked] == [1, 2, 3, 3, 3, 6]
    assert [s.shares for s in ranked] == [False, False, True, True, True, False]
    assert [s.decided_by_lot for s in ranked] == [False, False, True, True, True, False]


def test_with_the_lot_before_a_link_only_the_links_before_it_make_a_shared_rank():
    a = record("a", (7, 0, 0, True, 2))  # equal totals; margins differ after the lot
    b = record("b", (7, 0, 0, True, 5))
    ranked = rank([a, b], ("total", "lot", "margin"), 3)
    assert [s.shared_rank for s in ranked] == [1, 1] and all(s.shares for s in ranked)


def test_without_lot_the_shared_rank_is_the_rank():
    players = [record(p, (7, 0, 0, True, 2)) for p in "ab"] + [record("c", (1, 0, 0, False, 0))]
    ranked = rank(players, ("total", "wins", "margin"), 1)
    assert [(s.rank, s.shared_rank, s.shares) for s in ranked] == [
        (1, 1, True),
        (1, 1, True),
        (3, 3, False),
    ]


def test_the_chain_order_is_configurable():
    a = record("a", (9, 1, 0, True, 1))  # total 10, margin 1
    b = record("b", (10, 0, 0, False, 3))  # total 10, margin 3, no win
    assert [s.player for s in rank([a, b], ("total", "wins", "margin", "lot"), 1)] == ["a", "b"]
    assert [s.player for s in rank([a, b], ("total", "margin", "wins", "lot"), 1)] == ["b", "a"]


def test_lot_order_depends_only_on_the_seed_and_the_players():
    assert lot_order([3, 1, 2], 5) == lot_order([1, 2, 3], 5)


def test_final_seats_the_top_two_a_against_the_top_two_b():
    seating = seed_final(["A1", "A2", "A3"], ["B1", "B2"])
    assert seating.seats == {Seat.N: "A1", Seat.S: "A2", Seat.E: "B1", Seat.W: "B2"}
    with pytest.raises(SeatingError):
        seed_final(["A1"], ["B1", "B2"])


def test_first_pair_to_win_two_games_are_champions():
    assert final_state([Team.NS, Team.NS], 2).champions is Team.NS
    state = final_state([Team.NS, Team.EW], 2)
    assert state.champions is None and state.next_game == 3
    assert final_state([Team.NS, Team.EW, Team.EW], 2).champions is Team.EW
    assert final_state([Team.NS, None], 2).next_game is None
    with pytest.raises(ValueError, match="after the final was decided"):
        final_state([Team.NS, Team.NS, Team.EW], 2)


def test_with_the_lot_before_a_link_the_lot_mark_follows_the_links_before_it():
    a = record("a", (9, 1, 0, True, 1))  # total 10, 1 win
    b = record("b", (10, 0, 0, False, 3))  # total 10, no win: only the lot separates them
    c = record("c", (4, 0, 0, False, -3))  # alone on 4
    ranked = rank([a, b, c], ("total", "lot", "wins"), 1)
    marks = {s.player: s.decided_by_lot for s in ranked}
    assert marks == {"a": True, "b": True, "c": False}
