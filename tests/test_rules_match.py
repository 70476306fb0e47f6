"""docs/rules.md §2.1–2.4: a match replayed from its hands."""

import pytest

from tournaments.domain.hands import Hand, Outcome, Seat, Team
from tournaments.domain.match import (
    NO_CLOCK,
    InvalidMatch,
    Phase,
    PhasedHand,
    TimeCall,
    phases_after,
    replay,
)
from tournaments.domain.rules import RuleSettings

pytestmark = pytest.mark.db_independent  # pure rules, no database

RULES = RuleSettings()
R, AC, TB = Phase.REGULAR, Phase.AT_CALL, Phase.TIEBREAK


def make(maker: str, tricks: int, alone: bool = False, phase: Phase = R) -> PhasedHand:
    return PhasedHand(
        Hand(Outcome.PLAYED, maker=Seat(maker), alone=alone, maker_tricks=tricks), phase
    )


def renege(seat: str, phase: Phase = R) -> PhasedHand:
    return PhasedHand(Hand(Outcome.RENEGE, renege_by=Seat(seat)), phase)


def misdeal(phase: Phase = R) -> PhasedHand:
    return PhasedHand(Hand(Outcome.MISDEAL), phase)


def run(hands, time=NO_CLOCK, rules=RULES, first=Seat.N, final=False):
    return replay(hands, first_dealer=first, rules=rules, time=time, final=final)


def test_deal_passes_clockwise_after_every_hand_including_misdeals_and_reneges():
    state = run([make("N", 3), misdeal(), renege("E"), make("S", 1)], first=Seat.W)
    assert [h.dealer for h in state.hands] == [Seat.W, Seat.N, Seat.E, Seat.S]
    assert state.next_dealer is Seat.W


def test_match_ends_as_soon_as_a_team_reaches_the_target():
    state = run([make("N", 5, alone=True), make("S", 5, alone=True), make("N", 5)])
    assert state.over and state.winner is Team.NS
    assert state.score == {Team.NS: 10, Team.EW: 0}
    with pytest.raises(InvalidMatch, match="after the match ended"):
        run([make("N", 5, True), make("S", 5, True), make("N", 5), make("E", 3)])


def test_scores_are_not_capped_a_team_on_eight_marching_alone_finishes_on_twelve():
    hands = [make("N", 5, True), make("N", 5, True), make("E", 3), make("E", 5, True)]
    state = run(hands)
    assert state.score == {Team.NS: 8, Team.EW: 5}
    state = run(hands + [make("S", 5, True)])
    assert state.score == {Team.NS: 12, Team.EW: 5}


def test_cap_at_target_setting_caps_the_score():
    hands = [make("N", 5, True), make("N", 5, True), make("S", 5, True)]
    assert run(hands, rules=RuleSettings(cap_at_target=True)).score[Team.NS] == 10


def test_reaching_the_target_in_time_earns_the_reach_bonus():
    hands = [make("N", 5, True), make("E", 3), make("N", 5, True), make("S", 5)]
    state = run(hands)
    assert state.winner is Team.NS
    assert state.bonuses == {Team.NS: 1, Team.EW: 0}
    assert state.player_points(Seat.N) == 10 + 1 + 2  # two lone marches by N
    assert state.player_points(Seat.S) == 11
    assert state.player_points(Seat.E) == 1


def test_a_ten_nil_win_earns_reach_plus_skunk():
    state = run([make("N", 5, True), make("S", 5, True), make("N", 5)])
    assert state.bonuses[Team.NS] == 3
    assert state.player_points(Seat.E) == 0


def test_skunk_includes_reach_setting_makes_the_skunk_two_in_total():
    rules = RuleSettings(skunk_includes_reach=True)
    state = run([make("N", 5, True), make("S", 5, True), make("N", 5)], rules=rules)
    assert state.bonuses[Team.NS] == 2


def test_time_called_finishes_the_hand_in_progress_then_the_leader_wins_without_bonus():
    hands = [make("N", 3), make("E", 4), make("S", 4)]
    state = run(hands, time=TimeCall(called=True))
    assert not state.over and state.awaiting_answer and state.next_phase is AC
    answered = run(hands, time=TimeCall(called=True, hand_in_progress=True))
    assert not answered.awaiting_answer and answered.next_phase is AC
    state = run(hands + [make("W", 3, phase=AC)], time=TimeCall(called=True))
    # 2-2 after the hand in progress: still tied, so tie-break hands follow.
    assert not state.over and state.next_phase is TB
    state = run(
        hands + [make("W", 3, phase=AC), make("N", 0, phase=TB)], time=TimeCall(called=True)
    )
    assert state.over and state.winner is Team.EW
    assert state.score == {Team.NS: 2, Team.EW: 4}
    assert state.bonuses == {Team.NS: 0, Team.EW: 0}


def test_no_hand_in_progress_at_the_call_ends_an_untied_match_at_once():
    state = run([make("N", 3)], time=TimeCall(called=True, hand_in_progress=False))
    assert state.over and state.winner is Team.NS
    assert state.bonuses[Team.NS] == 0


def test_reaching_the_target_in_the_hand_in_progress_at_the_call_earns_the_reach_bonus():
    hands = [make("N", 5, True), make("S", 5, True), make("E", 3), make("N", 5, phase=AC)]
    state = run(hands, time=TimeCall(called=True, hand_in_progress=True))
    assert state.over and state.winner is Team.NS
    assert state.bonuses[Team.NS] == 1


def test_reaching_the_target_in_a_tiebreak_hand_earns_no_reach_bonus():
    hands = [
        make("N", 5, True),
        make("N", 5, True),
        make("E", 5, True),
        make("E", 5, True),
        misdeal(AC),
        make("S", 5, phase=TB),
    ]
    state = run(hands, time=TimeCall(called=True, hand_in_progress=True))
    assert state.score == {Team.NS: 10, Team.EW: 8} and state.over
    assert state.bonuses == {Team.NS: 0, Team.EW: 0}


def test_tiebreak_hands_continue_while_misdeals_leave_the_score_tied():
    hands = [make("N", 3), make("E", 3, phase=AC), misdeal(TB)]
    state = run(hands, time=TimeCall(called=True))
    assert not state.over and state.in_tiebreak
    state = run(hands + [renege("N", TB)], time=TimeCall(called=True))
    assert state.over and state.winner is Team.EW
    assert state.individual == {Seat.N: -2}
    assert state.player_points(Seat.N) == 1 - 2
    assert state.player_points(Seat.S) == 1


def test_a_tiebreak_hand_while_untied_is_refused():
    with pytest.raises(InvalidMatch, match="not tied"):
        run([make("N", 3, phase=AC), make("E", 3, phase=TB)], time=TimeCall(called=True))


def test_a_regular_hand_after_the_call_is_refused():
    with pytest.raises(InvalidMatch, match="regular after time was called"):
        run([make("N", 3, phase=AC), make("E", 3)], time=TimeCall(called=True))


def test_only_one_hand_can_be_in_progress_at_the_call():
    with pytest.raises(InvalidMatch, match="only one hand"):
        run([make("N", 3, phase=AC), make("E", 3, phase=AC)], time=TimeCall(called=True))


def test_a_tiebreak_hand_before_the_hand_in_progress_is_refused():
    with pytest.raises(InvalidMatch, match="hand in progress"):
        run([misdeal(TB)], time=TimeCall(called=True, hand_in_progress=True))


def test_renege_ends_the_hand_and_penalises_only_the_reneging_player():
    state = run([renege("E")])
    assert state.score == {Team.NS: 2, Team.EW: 0}
    assert state.player_points(Seat.E) == -2
    assert state.player_points(Seat.W) == 0


def test_the_loser_keeps_their_team_score():
    state = run([make("E", 4), make("N", 5, True), make("S", 5, True), make("N", 3), make("S", 4)])
    assert state.winner is Team.NS
    assert state.player_points(Seat.E) == 1 and state.player_points(Seat.W) == 1
    assert state.margin(Team.EW) == -9


def test_final_games_have_no_bonuses_and_no_individual_points_and_use_the_final_target():
    rules = RuleSettings(final_target=6)
    state = run([make("N", 5, True), make("S", 3), make("N", 4)], rules=rules, final=True)
    assert state.over and state.score[Team.NS] == 6
    assert state.bonuses == {Team.NS: 0, Team.EW: 0}
    assert state.individual == {}


def test_extending_a_state_by_one_hand_is_replaying_every_hand():
    """The hand path applies the new hand to the running state: that must be
    the full replay, hand for hand, in every phase a match can reach."""
    import random

    from tournaments.domain.match import check_next, extend
    from tournaments.domain.simulation import random_hand

    rng = random.Random(22)
    compared = 0
    for trial in range(400):
        first = Seat("NESW"[trial % 4])
        final = trial % 10 == 0
        called_after = None if final or trial % 3 == 0 else rng.randint(0, 8)
        in_progress = rng.choice([None, True, False])
        hands: list[PhasedHand] = []
        state = run([], first=first, final=final)
        while not state.over and len(hands) < 40:
            time = NO_CLOCK
            if called_after is not None and len(hands) >= called_after:
                k = min(called_after, len(hands))
                time = TimeCall(called=True, hand_in_progress=in_progress, regular_through=k)
                # What the table's state was read with, before this hand's time.
                state = run(hands, time=time, first=first, final=final)
                if state.over:
                    break
            hand = random_hand(rng)
            phase = check_next(state, hand)
            if phase is AC:
                time = TimeCall(called=True, hand_in_progress=True, regular_through=k)
            extended = extend(
                state,
                PhasedHand(hand, phase),
                first_dealer=first,
                rules=RULES,
                time=time,
                final=final,
            )
            hands.append(PhasedHand(hand, phase))
            assert extended == run(hands, time=time, first=first, final=final)
            state = extended
            compared += 1
    assert compared > 2000


def test_after_the_call_the_next_hand_is_the_one_in_progress_and_the_rest_are_tie_breaks() -> None:
    hands = [(10, 1), (11, 2), (12, 3), (13, 4)]  # (key, number); K = 2 before the call
    assert phases_after(hands, 2, True) == {12: AC, 13: TB}
    assert phases_after(hands, 2, None) == {12: AC, 13: TB}  # not answered yet: as in progress
    assert phases_after(hands, 2, False) == {12: TB, 13: TB}
    assert phases_after(hands, 4, True) == {}
