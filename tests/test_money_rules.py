"""The money rules (tournaments/domain/money.py) on numbers worked by hand: no database."""

from __future__ import annotations

import pytest

from tournaments.domain.money import (
    FiftyFifty,
    MoneyError,
    Movement,
    PayoutLine,
    Placed,
    PotRules,
    Winners,
    money_text,
    parse_money,
    payout,
    pot_awards,
    pot_winners,
    purse,
    reconcile,
    round_down,
    side_pots,
)
from tournaments.domain.prizes import HandLine, SeatLine, SubstitutionLine


def test_amounts_round_down_to_the_clubs_cash() -> None:
    assert round_down(1299, 100) == 1200
    assert round_down(1299, 25) == 1275
    assert round_down(1299, 1) == 1299
    with pytest.raises(MoneyError):
        round_down(100, 10)


def test_the_purse_is_fees_less_refunds_less_the_house_plus_sponsors() -> None:
    # 64 fees of $10, two refunded, 10% to the house, a $100 sponsor.
    p = purse(64_000, 2_000, 10_000, 1_000)
    assert p.net_fees == 62_000
    assert p.house == 6_200
    assert p.total == 62_000 - 6_200 + 10_000 == 65_800
    # The house's share rounds down to the cent: the players never lose a cent to it.
    assert purse(999, 0, 0, 1_000).house == 99
    with pytest.raises(MoneyError):
        purse(1_000, 2_000, 0, 0)


A = [
    Placed("a1", "Ann", "A", (50, 4)),
    Placed("a2", "Bea", "A", (48, 3)),
    Placed("a3", "Cy", "A", (40, 3)),  # Cy and Dot tie on the money line (third place)
    Placed("a4", "Dot", "A", (40, 3)),
    Placed("a5", "Eve", "A", (30, 2)),
]
SCHEDULE = [
    PayoutLine("place", "A", 1, percent=5_000),
    PayoutLine("place", "A", 2, percent=3_000),
    PayoutLine("place", "A", 3, fixed=1_050),
]


def test_places_pay_their_share_of_the_purse_rounded_to_the_cash_unit() -> None:
    result = payout(10_050, SCHEDULE, A, ties="chain", unit=100)
    got = [(a.name, a.places, a.cents) for a in result.awards]
    # 50% of $100.50 = $50.25 -> $50; 30% = $30.15 -> $30; $10.50 fixed -> $10.
    assert got == [("Ann", (1,), 5_000), ("Bea", (2,), 3_000), ("Cy", (3,), 1_000)]
    assert result.paid == 9_000
    assert result.left == 1_050


def test_a_tie_on_the_money_line_shares_the_places_it_covers() -> None:
    result = payout(10_000, SCHEDULE, A, ties="share", unit=25)
    got = [(a.name, a.places, a.cents, a.shared_by) for a in result.awards]
    # Third ($10.50) and fourth ($0) pooled: $5.25 each, a multiple of a quarter.
    assert got[2:] == [("Cy", (3, 4), 525, 2), ("Dot", (3, 4), 525, 2)]
    assert result.paid == 5_000 + 3_000 + 1_050
    # In dollars each share rounds down to $5 and the 50 cents stay in the purse.
    dollars = payout(10_000, SCHEDULE, A, ties="share", unit=100)
    assert [a.cents for a in dollars.awards][2:] == [500, 500]
    assert dollars.left == 10_000 - 5_000 - 3_000 - 1_000


def test_a_withdrawn_player_takes_no_money_and_the_place_goes_to_the_next() -> None:
    field = [Placed("a1", "Ann", "A", (50, 4), withdrawn=True), *A[1:]]
    result = payout(10_000, SCHEDULE, field, ties="chain", unit=100)
    assert [a.name for a in result.awards] == ["Bea", "Cy", "Dot"]


def test_a_schedule_paying_more_than_the_purse_is_refused() -> None:
    with pytest.raises(MoneyError):
        payout(1_000, [PayoutLine("place", "A", 1, fixed=2_000)], A, ties="chain", unit=1)
    with pytest.raises(MoneyError):
        PayoutLine("place", "A", 1, percent=10, fixed=10)


def test_a_shared_prize_and_the_finals_pair_split_equally() -> None:
    lines = [
        PayoutLine("prize", prize="Most lone marches", fixed=2_000),
        PayoutLine("final", fixed=5_000),
    ]
    prizes = [Winners("Most lone marches", "", ((("a1", "Ann"),), (("b1", "Gus"),)))]
    final = Winners("", "", ((("a1", "Ann"), ("a2", "Bea")),))
    result = payout(20_000, lines, [], ties="share", unit=100, prizes=prizes, final=final)
    got = [(a.what, a.name, a.cents) for a in result.awards]
    assert got == [
        ("prize", "Ann", 1_000),
        ("prize", "Gus", 1_000),
        ("final", "Ann", 2_500),
        ("final", "Bea", 2_500),
    ]


M1, M2 = (1, 1), (1, 2)
SEATS = [
    SeatLine(M1, "N", "ann", 0, 0),
    SeatLine(M1, "S", "eve", 0, 0),  # Eve took Bea's seat from hand 3
    SeatLine(M1, "E", "cy", 0, 0),
    SeatLine(M1, "W", "dot", 0, 0),
    SeatLine(M2, "N", "gus", 0, 0),
    SeatLine(M2, "S", "hal", 0, 0),
    SeatLine(M2, "E", "ida", 0, 0),
    SeatLine(M2, "W", "jo", 0, 0),
]
SUBS = [SubstitutionLine(M1, "S", 3, "bea")]
HANDS = [
    HandLine(M1, 1, "played", "S", True, 5),  # Bea alone, a march
    HandLine(M1, 2, "played", "E", False, 2),  # Cy & Dot euchred
    HandLine(M1, 3, "played", "S", True, 1),  # Eve alone, euchred: loner and one fine
    HandLine(M1, 4, "renege", renege_by="N"),  # Ann reneged
    HandLine(M2, 1, "played", "N", True, 3),  # Gus alone, made with 3
    HandLine(M2, 2, "played", "N", True, 5),  # Gus alone, a march
    HandLine(M2, 3, "misdeal"),
]
RULES = PotRules(loner=100, euchre=25, renege=50)


def test_side_pots_are_counted_from_the_hands_for_whoever_held_the_seat() -> None:
    pots = side_pots(RULES, SEATS, HANDS, SUBS)
    owed = {p: (o.loners, o.euchred, o.reneges, o.cents) for p, o in pots.owed.items()}
    assert owed == {
        "bea": (1, 0, 0, 100),
        "cy": (0, 1, 0, 25),
        "dot": (0, 1, 0, 25),
        "eve": (1, 1, 0, 125),
        "ann": (0, 0, 1, 50),
        "gus": (2, 0, 0, 200),
    }
    assert pots.basket == 400
    assert pots.fines == 25 * 3 + 50


def test_the_basket_may_take_only_lone_hands_made() -> None:
    made = side_pots(PotRules(loner=100, loner_made_only=True), SEATS, HANDS, SUBS)
    assert made.basket == 300  # Eve's euchred loner pays nothing
    assert "eve" not in made.owed or made.owed["eve"].loner_cents == 0


def test_a_corrected_hand_moves_its_pot() -> None:
    corrected = [*HANDS[:1], HandLine(M1, 2, "played", "E", False, 3), *HANDS[2:]]
    assert side_pots(RULES, SEATS, corrected, SUBS).fines == 25 + 50


def test_the_pot_goes_to_the_most_lone_marches_shared_or_to_a_draw() -> None:
    pots = side_pots(RULES, SEATS, HANDS, SUBS)
    eligible = [("ann", "Ann"), ("bea", "Bea"), ("gus", "Gus"), ("hal", "Hal")]
    marchers = pot_winners("lone_marches", pots, eligible, None)
    assert marchers == (("bea", "Bea"), ("gus", "Gus"))  # one march each: they share
    assert [a.cents for a in pot_awards("Loner basket", 400, marchers, 25)] == [200, 200]
    assert [a.cents for a in pot_awards("Fines", 125, marchers, 25)] == [50, 50]
    drawn = pot_winners("draw", pots, eligible, 7)
    assert drawn == pot_winners("draw", pots, list(reversed(eligible)), 7)
    assert len(drawn) == 1
    with pytest.raises(MoneyError):
        pot_winners("draw", pots, eligible, None)


def test_the_fifty_fifty_draw_is_reproduced_from_its_seed() -> None:
    draw = FiftyFifty(tickets=40, sales=4_000, seed=12345, unit=100)
    assert 1 <= draw.ticket <= 40
    assert FiftyFifty(40, 4_000, 12345, 100).ticket == draw.ticket
    assert FiftyFifty(41, 4_100, 12345, 100).prize == 2_000  # $20.50 -> $20


def test_the_reconciliation_shows_the_drawer_and_its_discrepancy() -> None:
    moves = [
        Movement("fee", 1_000, True, "desk1"),
        Movement("fee", 1_000, True, "desk2"),
        Movement("fee", 1_000, False, "desk2"),
        Movement("refund", 1_000, True, "desk1"),
        Movement("sponsor", 5_000, False, "dir"),
        Movement("fines", 150, True, "desk2"),
        Movement("payout", 3_000, True, "dir"),
        Movement("waiver", 0, True, "desk1"),
    ]
    rec = reconcile(moves, owed=75, counted=None)
    assert rec.expected == 1_000 + 1_000 - 1_000 + 150 - 3_000 == -1_850
    assert rec.by_taker == {"desk1": 0, "desk2": 1_150, "dir": -3_000}
    assert rec.other_in == 6_000
    assert rec.discrepancy is None
    counted = reconcile(moves, owed=75, counted=-1_900)
    assert counted.discrepancy == -50


def test_amounts_are_read_and_written_as_dollars_and_cents() -> None:
    assert parse_money("10") == 1_000
    assert parse_money("7.5") == 750
    assert parse_money("$7,25") == 725
    assert parse_money(".25") == 25
    for bad in ("", "-1", "1.234", "ten", "١٢", "1e3", "99999999"):
        with pytest.raises(MoneyError):
            parse_money(bad)
    assert money_text(123_45) == "123.45"
    assert money_text(-5) == "-0.05"
