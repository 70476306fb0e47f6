"""A match replayed from its hands (docs/rules.md §2.1–2.4 and the final's games, §4).

Vocabulary: the *first dealer* is chosen at the table (first jack); the *dealer* of
hand k is the seat k-1 steps clockwise from it. The match ends at the *target*, or
when *time is called*: the hand *in progress* at the call (phase ``at_call``) is
finished, then, while the score is tied, *tie-break* hands are played until one leaves
it untied. Hands entered before the call are ``regular``; ``K`` (``regular_through``)
is the highest number ever entered before the call, so hands up to ``K`` stay regular
when undone and entered again, and hand ``K+1`` is the one in progress. The *winner* has the higher
match score; the *reach bonus* goes to a team that reached the target in a regular or
at-call hand, the *skunk bonus* to a winner that reached the target with the opponents
on zero. A player's points for the match are the team's score and bonuses plus the
player's own awards and penalties.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import TypedDict

from tournaments.domain.hands import Hand, HandScore, InvalidHand, Seat, Team, score_hand
from tournaments.domain.rules import RuleSettings


class Phase(StrEnum):
    REGULAR = "regular"
    AT_CALL = "at_call"
    TIEBREAK = "tiebreak"


@dataclass(frozen=True)
class TimeCall:
    """What the table knows about the clock.

    ``hand_in_progress`` is the table's answer to "was a hand being played when time
    was called?"; ``None`` means not answered yet, in which case the next hand entered
    is taken to be that hand.
    """

    called: bool = False
    hand_in_progress: bool | None = None
    # K of docs/rules.md §7: hands numbered up to it were entered before the call.
    regular_through: int = 0


NO_CLOCK = TimeCall()


@dataclass(frozen=True)
class Answers:
    """The state an answer, an agreement or a dispute answers (docs/rules.md §7): the count of
    standing hands and the match's version, as the sender last saw them."""

    hands: int
    version: int


class EntryDetails(TypedDict):
    """What a tablet says of a hand besides the hand itself: its retry key, the number it
    believes comes next, the first dealer if not set yet, and when it was entered."""

    client_key: str
    number: int | None
    first_dealer: Seat | None
    entered_at: datetime | None


@dataclass(frozen=True)
class PhasedHand:
    hand: Hand
    phase: Phase = Phase.REGULAR


@dataclass(frozen=True)
class ScoredHand:
    number: int
    dealer: Seat
    hand: Hand
    phase: Phase
    score: HandScore
    running: dict[Team, int]


class InvalidMatch(ValueError):
    """The hands cannot belong to one match (e.g. a hand recorded after its end)."""


@dataclass(frozen=True)
class MatchState:
    hands: tuple[ScoredHand, ...]
    score: dict[Team, int]
    over: bool
    winner: Team | None
    next_dealer: Seat | None
    next_phase: Phase | None
    time_called: bool
    hand_in_progress: bool | None = None
    bonuses: dict[Team, int] = field(default_factory=dict)
    individual: dict[Seat, int] = field(default_factory=dict)
    # The team that first reached the target and the phase of that hand, if any.
    reached: tuple[Team, Phase] | None = None

    @property
    def tied(self) -> bool:
        return self.score[Team.NS] == self.score[Team.EW]

    @property
    def in_tiebreak(self) -> bool:
        return self.next_phase is Phase.TIEBREAK

    def player_points(self, seat: Seat) -> int:
        team = seat.team
        return self.score[team] + self.bonuses.get(team, 0) + self.individual.get(seat, 0)

    def margin(self, team: Team) -> int:
        return self.score[team] - self.score[team.other]

    @property
    def awaiting_answer(self) -> bool:
        """Time is called and the table has not said whether a hand was in progress."""
        return (
            self.time_called
            and not self.over
            and self.next_phase is Phase.AT_CALL
            and self.hand_in_progress is None
        )


def dealer_for(first_dealer: Seat, number: int) -> Seat:
    return first_dealer.clockwise(number - 1)


def replay(
    hands: Sequence[PhasedHand],
    *,
    first_dealer: Seat,
    rules: RuleSettings,
    time: TimeCall = NO_CLOCK,
    final: bool = False,
) -> MatchState:
    """Replay the hands that stand, in order; raise InvalidMatch if they cannot."""
    return _play(
        hands,
        first_dealer=first_dealer,
        rules=rules,
        time=time,
        final=final,
        score={Team.NS: 0, Team.EW: 0},
        individual={},
        scored=[],
        reached=None,
        seen_call=False,
    )


def extend(
    state: MatchState,
    hand: PhasedHand,
    *,
    first_dealer: Seat,
    rules: RuleSettings,
    time: TimeCall = NO_CLOCK,
    final: bool = False,
) -> MatchState:
    """``replay`` of the hands of ``state`` and then ``hand``, without replaying the hands
    of ``state`` (the hand path: the running state plus the new hand).

    ``state`` is ``replay``'s answer for the same first dealer, rules and final; ``time``
    may say more than it said then (a hand in progress, a later K), which changes none of
    the checks the earlier hands passed, only what follows them."""
    return _play(
        [hand],
        first_dealer=first_dealer,
        rules=rules,
        time=time,
        final=final,
        score=dict(state.score),
        individual=dict(state.individual),
        scored=list(state.hands),
        reached=state.reached,
        seen_call=any(h.phase is not Phase.REGULAR for h in state.hands),
    )


def _check_phase(
    number: int,
    phase: Phase,
    *,
    final: bool,
    seen_call: bool,
    time: TimeCall,
    score: dict[Team, int],
) -> None:
    """Refuses a hand whose phase the clock and the hands before it rule out."""
    if final and phase is not Phase.REGULAR:
        raise InvalidMatch("The final has no time limit: every hand is regular.")
    if phase is Phase.REGULAR and seen_call:
        raise InvalidMatch(f"Hand {number} is marked regular after time was called.")
    if phase is not Phase.REGULAR and not time.called:
        raise InvalidMatch(f"Hand {number} is marked {phase} but time was not called.")
    if phase is Phase.AT_CALL:
        if seen_call:
            raise InvalidMatch(f"Hand {number}: only one hand can be in progress at the call.")
        if time.hand_in_progress is False:
            raise InvalidMatch(
                f"Hand {number} is the hand in progress, but the table said none was."
            )
    if phase is Phase.TIEBREAK:
        if not seen_call and time.hand_in_progress is not False:
            raise InvalidMatch(
                f"Hand {number} is a tie-break hand, but the hand in progress at the call "
                "is not recorded."
            )
        if score[Team.NS] != score[Team.EW]:
            raise InvalidMatch(f"Hand {number} is a tie-break hand but the score is not tied.")


def _next_phase(played: int, time: TimeCall, seen_call: bool) -> Phase:
    """The phase of the next hand of a match not over, ``played`` hands in."""
    if not time.called or played < time.regular_through:
        return Phase.REGULAR
    if not seen_call and time.hand_in_progress is not False:
        return Phase.AT_CALL
    return Phase.TIEBREAK


def _play(
    hands: Sequence[PhasedHand],
    *,
    first_dealer: Seat,
    rules: RuleSettings,
    time: TimeCall,
    final: bool,
    score: dict[Team, int],
    individual: dict[Seat, int],
    scored: list[ScoredHand],
    reached: tuple[Team, Phase] | None,
    seen_call: bool,
) -> MatchState:
    """Play ``hands`` after the ``scored`` ones, whose running totals the rest are."""
    target = rules.final_target if final else rules.target
    for index, entry in enumerate(hands, start=len(scored)):
        number = index + 1
        if reached is not None:
            raise InvalidMatch(f"Hand {number} comes after the match ended at hand {len(scored)}.")
        phase = entry.phase
        _check_phase(number, phase, final=final, seen_call=seen_call, time=time, score=score)
        seen_call = seen_call or phase is not Phase.REGULAR

        dealer = dealer_for(first_dealer, number)
        try:
            entry.hand.validate(dealer)
        except InvalidHand as exc:
            raise InvalidMatch(f"Hand {number}: {exc}") from exc
        if entry.hand.defender_alone is not None and not rules.defend_alone_allowed:
            raise InvalidMatch(f"Hand {number}: defending alone is not allowed here.")
        points = score_hand(entry.hand, rules, individual=not final)
        for team, p in points.points.items():
            score[team] += p
            if rules.cap_at_target:
                score[team] = min(score[team], target)
        for seat, p in points.individual.items():
            individual[seat] = individual.get(seat, 0) + p
        scored.append(ScoredHand(number, dealer, entry.hand, phase, points, dict(score)))
        for team in (Team.NS, Team.EW):
            if score[team] >= target and reached is None:
                reached = (team, phase)

    over = reached is not None or _ended_by_time(scored, score, time, seen_call)
    winner: Team | None = None
    if over:
        winner = Team.NS if score[Team.NS] > score[Team.EW] else Team.EW
    bonuses = team_bonuses(score, reached, winner if over and not final else None, rules)

    next_phase = None if over else _next_phase(len(scored), time, seen_call)
    return MatchState(
        hands=tuple(scored),
        score=score,
        over=over,
        winner=winner,
        next_dealer=None if over else dealer_for(first_dealer, len(scored) + 1),
        next_phase=next_phase,
        time_called=time.called,
        hand_in_progress=time.hand_in_progress,
        bonuses=bonuses,
        individual=individual,
        reached=reached,
    )


def team_bonuses(
    score: dict[Team, int],
    reached: tuple[Team, Phase] | None,
    winner: Team | None,
    rules: RuleSettings,
) -> dict[Team, int]:
    """The bonuses of §2.3 for ``winner`` (None: nobody gets any). The winner gets them
    only if it meets their conditions itself, so a director's override (§2.2) takes
    them from the overruled team without handing them to the other."""
    bonuses = {Team.NS: 0, Team.EW: 0}
    if winner is None or reached is None or reached[0] is not winner:
        return bonuses
    team, phase = reached
    reach = rules.reach_bonus if phase in (Phase.REGULAR, Phase.AT_CALL) else 0
    skunk = score[team.other] == 0
    if skunk and rules.skunk_includes_reach:
        bonuses[team] = rules.skunk_bonus
    else:
        bonuses[team] = reach + (rules.skunk_bonus if skunk else 0)
    return bonuses


def with_winner(state: MatchState, winner: Team, rules: RuleSettings) -> MatchState:
    """The state with the director's overriding winner: the bonuses follow it (§2.2)."""
    if not state.over:
        return state
    return replace(state, bonuses=team_bonuses(state.score, state.reached, winner, rules))


def _ended_by_time(
    scored: Sequence[ScoredHand], score: dict[Team, int], time: TimeCall, seen_call: bool
) -> bool:
    """Time is called, the hand in progress (if any) is done and the score is untied."""
    if not time.called:
        return False
    # Hands numbered up to K were played before the call: until they stand again (after
    # an undo), the hand in progress cannot be done.
    in_progress_done = (seen_call or time.hand_in_progress is False) and len(
        scored
    ) >= time.regular_through
    return in_progress_done and score[Team.NS] != score[Team.EW]


def check_next(state: MatchState, hand: Hand) -> Phase:
    """The phase the next hand takes; raise InvalidHand if it cannot be entered now."""
    if state.over:
        raise InvalidHand("The match is over: no more hands can be entered.")
    assert state.next_dealer is not None and state.next_phase is not None
    hand.validate(state.next_dealer)
    return state.next_phase


def phases_after(
    hands: Sequence[tuple[int, int]], k: int, in_progress: bool | None
) -> dict[int, Phase]:
    """The phases the standing hands after K take for an answer to the time call (§7),
    ``hands`` as (key, number) pairs: hand K+1 is the hand in progress when there was
    one, every later hand a tie-break hand."""
    phases = {}
    for key, number in hands:
        if number <= k:
            continue
        first = number == k + 1
        phases[key] = Phase.AT_CALL if first and in_progress is not False else Phase.TIEBREAK
    return phases
