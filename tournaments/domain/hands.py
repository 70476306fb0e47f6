"""Seats, teams and the scoring of one hand (docs/rules.md §2.1).

Vocabulary: a *seat* is N, E, S or W, clockwise; partners sit opposite, so team *NS*
is seats N and S and team *EW* is E and W. The *dealer* deals one hand; the deal passes
clockwise after every hand. The *makers* are the team that named trump (the *maker* is
the player who named it); the other team are the *defenders*. A *lone hand* is a maker
playing without their partner. A *march* is the makers taking all five tricks; a
*euchre* is the makers held to two tricks or fewer, scoring for the defenders. A
*renege* (failing to follow suit when able) ends the hand at once: the other team
scores and the reneging player is penalised. A *misdeal* is recorded (the deal moves)
but scores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from tournaments.domain.rules import RuleSettings


class Seat(StrEnum):
    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def team(self) -> Team:
        return Team.NS if self in (Seat.N, Seat.S) else Team.EW

    @property
    def partner(self) -> Seat:
        return SEATS[(SEATS.index(self) + 2) % 4]

    def clockwise(self, steps: int = 1) -> Seat:
        return SEATS[(SEATS.index(self) + steps) % 4]


SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)


class Team(StrEnum):
    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Team:
        return Team.EW if self is Team.NS else Team.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Team.NS else (Seat.E, Seat.W)


class Outcome(StrEnum):
    PLAYED = "played"
    RENEGE = "renege"
    MISDEAL = "misdeal"


class InvalidHand(ValueError):
    """An entry that cannot describe a real hand; the message is shown to the scorekeeper."""


@dataclass(frozen=True)
class Hand:
    """One hand as the scorekeeper enters it."""

    outcome: Outcome
    maker: Seat | None = None
    alone: bool = False
    maker_tricks: int | None = None
    renege_by: Seat | None = None
    # Set when the form records that the dealer's partner ordered the dealer up: the
    # sheet then forces that partner to play alone.
    dealer_partner_ordered_up: bool = False
    # A defender who played without a partner (only where the settings allow it).
    defender_alone: Seat | None = None

    @property
    def makers(self) -> Team | None:
        return self.maker.team if self.maker else None

    def validate(self, dealer: Seat | None = None) -> None:
        if self.outcome is Outcome.PLAYED:
            if self.maker is None:
                raise InvalidHand("Choose the player who made trump.")
            if self.maker_tricks is None or not 0 <= self.maker_tricks <= 5:
                raise InvalidHand("The makers take between 0 and 5 tricks.")
            if self.renege_by is not None:
                raise InvalidHand("A played hand has no renege; enter the renege instead.")
            if self.defender_alone is not None and self.defender_alone.team is self.maker.team:
                raise InvalidHand("The lone defender must be a defender, not a maker.")
            if self.dealer_partner_ordered_up:
                if dealer is not None and self.maker != dealer.partner:
                    raise InvalidHand("Only the dealer's partner can order the dealer up alone.")
                if not self.alone:
                    raise InvalidHand("The dealer's partner who orders up must go alone.")
        elif self.outcome is Outcome.RENEGE:
            if self.renege_by is None:
                raise InvalidHand("Choose the player who reneged.")
            if (
                self.maker_tricks is not None
                or self.alone
                or self.dealer_partner_ordered_up
                or self.defender_alone is not None
            ):
                raise InvalidHand("A renege ends the hand: record only who reneged.")
        elif self.outcome is Outcome.MISDEAL:
            if (
                self.maker is not None
                or self.maker_tricks is not None
                or self.alone
                or self.renege_by is not None
                or self.dealer_partner_ordered_up
                or self.defender_alone is not None
            ):
                raise InvalidHand("A misdeal scores nothing: record no makers, tricks or renege.")
        else:  # pragma: no cover - StrEnum makes this unreachable
            raise InvalidHand(f"Unknown outcome {self.outcome!r}.")


@dataclass(frozen=True)
class HandScore:
    """What a hand is worth: team points and individual awards or penalties."""

    points: dict[Team, int] = field(default_factory=lambda: {Team.NS: 0, Team.EW: 0})
    individual: dict[Seat, int] = field(default_factory=dict)

    @property
    def describe(self) -> str:
        scorers = [f"{t.value} +{p}" for t, p in self.points.items() if p]
        people = [f"{s.value} {p:+d}" for s, p in self.individual.items() if p]
        return ", ".join(scorers + people) or "no points"


def score_hand(hand: Hand, rules: RuleSettings, *, individual: bool = True) -> HandScore:
    """Score one validated hand. The final passes ``individual=False``: no awards there."""
    points = {Team.NS: 0, Team.EW: 0}
    awards: dict[Seat, int] = {}
    if hand.outcome is Outcome.PLAYED:
        assert hand.maker is not None and hand.maker_tricks is not None
        makers = hand.maker.team
        if hand.maker_tricks <= 2:
            lone_defender = hand.defender_alone is not None and rules.defend_alone_allowed
            points[makers.other] = (
                rules.points_alone_euchre if lone_defender else rules.points_euchre
            )
        elif hand.maker_tricks < 5:
            points[makers] = rules.points_make
        elif hand.alone:
            points[makers] = rules.points_alone_march
            if individual and rules.alone_march_award:
                awards[hand.maker] = rules.alone_march_award
        else:
            points[makers] = rules.points_march
    elif hand.outcome is Outcome.RENEGE:
        assert hand.renege_by is not None
        points[hand.renege_by.team.other] = rules.points_renege
        if individual and rules.renege_penalty:
            awards[hand.renege_by] = rules.renege_penalty
    return HandScore(points=points, individual=awards)
