"""docs/rules.md §2.1: every row of the hand table, and entries that cannot be made."""

import pytest

from tournaments.domain.hands import Hand, InvalidHand, Outcome, Seat, Team, score_hand
from tournaments.domain.rules import RuleSettings

pytestmark = pytest.mark.db_independent  # pure rules, no database

RULES = RuleSettings()


def played(maker: Seat, tricks: int, alone: bool = False) -> Hand:
    return Hand(Outcome.PLAYED, maker=maker, alone=alone, maker_tricks=tricks)


@pytest.mark.parametrize("tricks", [3, 4])
@pytest.mark.parametrize("alone", [False, True])
def test_makers_taking_three_or_four_tricks_score_one(tricks, alone):
    score = score_hand(played(Seat.E, tricks, alone), RULES)
    assert score.points == {Team.NS: 0, Team.EW: 1}
    assert score.individual == {}


def test_march_with_partner_scores_two():
    score = score_hand(played(Seat.S, 5), RULES)
    assert score.points == {Team.NS: 2, Team.EW: 0}
    assert score.individual == {}


def test_lone_march_scores_four_and_awards_the_lone_player_one():
    score = score_hand(played(Seat.W, 5, alone=True), RULES)
    assert score.points == {Team.NS: 0, Team.EW: 4}
    assert score.individual == {Seat.W: 1}


@pytest.mark.parametrize("tricks", [0, 1, 2])
@pytest.mark.parametrize("alone", [False, True])
def test_euchre_gives_defenders_two_points(tricks, alone):
    score = score_hand(played(Seat.N, tricks, alone), RULES)
    assert score.points == {Team.NS: 0, Team.EW: 2}
    assert score.individual == {}


def test_renege_gives_the_other_team_two_and_penalises_the_reneging_player():
    score = score_hand(Hand(Outcome.RENEGE, renege_by=Seat.S), RULES)
    assert score.points == {Team.NS: 0, Team.EW: 2}
    assert score.individual == {Seat.S: -2}


def test_misdeal_scores_nothing():
    score = score_hand(Hand(Outcome.MISDEAL), RULES)
    assert score.points == {Team.NS: 0, Team.EW: 0}
    assert score.individual == {}


def test_custom_point_settings_change_the_values_not_the_code():
    rules = RuleSettings(
        points_make=2,
        points_march=3,
        points_alone_march=5,
        points_euchre=4,
        points_renege=3,
        alone_march_award=2,
        renege_penalty=-3,
    )
    assert score_hand(played(Seat.N, 3), rules).points[Team.NS] == 2
    assert score_hand(played(Seat.N, 5), rules).points[Team.NS] == 3
    assert score_hand(played(Seat.N, 5, True), rules).individual == {Seat.N: 2}
    assert score_hand(played(Seat.N, 1), rules).points[Team.EW] == 4
    assert score_hand(Hand(Outcome.RENEGE, renege_by=Seat.E), rules).individual == {Seat.E: -3}


def test_the_final_gives_no_individual_points():
    assert score_hand(played(Seat.N, 5, True), RULES, individual=False).individual == {}
    assert (
        score_hand(Hand(Outcome.RENEGE, renege_by=Seat.N), RULES, individual=False).individual == {}
    )


@pytest.mark.parametrize(
    "hand, message",
    [
        (Hand(Outcome.PLAYED, maker_tricks=3), "who made trump"),
        (Hand(Outcome.PLAYED, maker=Seat.N), "between 0 and 5"),
        (Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=6), "between 0 and 5"),
        (Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=-1), "between 0 and 5"),
        (Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=3, renege_by=Seat.E), "renege"),
        (Hand(Outcome.RENEGE), "who reneged"),
        (Hand(Outcome.RENEGE, renege_by=Seat.N, maker_tricks=2), "only who reneged"),
        (Hand(Outcome.MISDEAL, maker=Seat.N), "scores nothing"),
    ],
)
def test_impossible_entries_are_refused_with_a_message(hand, message):
    with pytest.raises(InvalidHand, match=message):
        hand.validate()


def test_dealers_partner_who_orders_up_must_go_alone():
    hand = Hand(Outcome.PLAYED, maker=Seat.S, maker_tricks=3, dealer_partner_ordered_up=True)
    with pytest.raises(InvalidHand, match="must go alone"):
        hand.validate(dealer=Seat.N)
    Hand(
        Outcome.PLAYED, maker=Seat.S, maker_tricks=3, alone=True, dealer_partner_ordered_up=True
    ).validate(dealer=Seat.N)


def test_only_the_dealers_partner_can_be_recorded_as_ordering_up_the_dealer():
    hand = Hand(
        Outcome.PLAYED, maker=Seat.E, maker_tricks=3, alone=True, dealer_partner_ordered_up=True
    )
    with pytest.raises(InvalidHand, match="dealer's partner"):
        hand.validate(dealer=Seat.N)


def test_seats_partner_and_clockwise_order():
    assert [s.partner for s in Seat] == [Seat.S, Seat.W, Seat.N, Seat.E]
    assert Seat.W.clockwise() is Seat.N
    assert Seat.N.team is Team.NS and Seat.E.team is Team.EW
