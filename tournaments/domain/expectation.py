"""A player's results against what the rating expected of them.

Before each match the partner-aware rating (``domain/rating.py``) gives each pair a *win
probability* from the four players' ratings as they stood then; a player's *expected
wins* in an event is the sum of their pair's probabilities over their rated matches there,
and their result *versus expectation* is their wins less that sum: +1.5 is a night worth
one and a half wins more than their partners and opponents predicted. The matches are
replayed in the order the ratings replay them, so the figure of an event reads only what
was known before each of its matches, and a *step* records what moved a rating: the match,
the chance given, the result, the rating before and after.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass

from tournaments.domain.rating import MatchResult, PlayerId, Rating, Ratings, RatingSettings


@dataclass(frozen=True)
class Expected:
    """One player's rated matches of one event: how many, how many won, the wins expected."""

    played: int = 0
    won: int = 0
    expected: float = 0.0

    @property
    def surplus(self) -> float:
        """Wins above (or below, negative) what the rating expected."""
        return self.won - self.expected


@dataclass(frozen=True)
class Step:
    """One rated match of one player, and what it did to their rating."""

    event: Hashable
    round: int
    partner: PlayerId
    opponents: tuple[PlayerId, PlayerId]
    won: bool
    chance: float  # the pair's win probability before the match
    before: Rating
    after: Rating

    @property
    def moved(self) -> float:
        return self.after.mu - self.before.mu


def _sides(
    match: MatchResult,
) -> Iterator[tuple[tuple[PlayerId, PlayerId], tuple[PlayerId, PlayerId], bool]]:
    yield match.pair, match.opponents, match.pair_won
    yield match.opponents, match.pair, not match.pair_won


def replay(
    history: Iterable[MatchResult], settings: RatingSettings | None = None
) -> tuple[dict[Hashable, dict[PlayerId, Expected]], dict[PlayerId, list[Step]]]:
    """Every event's figures by player, and every player's steps, oldest first."""
    ratings = Ratings(settings)
    events: dict[Hashable, dict[PlayerId, Expected]] = defaultdict(dict)
    steps: dict[PlayerId, list[Step]] = defaultdict(list)
    for match in history:
        chances = {
            side: ratings.win_probability(side, others) for side, others, _won in _sides(match)
        }
        before = {p: ratings.get(p) for p in (*match.pair, *match.opponents)}
        ratings.update(match)
        for side, others, won in _sides(match):
            for me, partner in ((side[0], side[1]), (side[1], side[0])):
                was = events[match.event].get(me, Expected())
                events[match.event][me] = Expected(
                    was.played + 1, was.won + int(won), was.expected + chances[side]
                )
                steps[me].append(
                    Step(
                        match.event,
                        match.round,
                        partner,
                        others,
                        won,
                        chances[side],
                        before[me],
                        ratings.get(me),
                    )
                )
    return dict(events), dict(steps)


def versus_expectation(
    history: Iterable[MatchResult], event: Hashable, settings: RatingSettings | None = None
) -> dict[PlayerId, Expected]:
    """Each rated player of ``event`` against expectation there."""
    return replay(history, settings)[0].get(event, {})


def most_improved(
    figures: dict[Hashable, dict[PlayerId, Expected]], events: Iterable[Hashable]
) -> dict[PlayerId, float]:
    """Over a series' ``events``: each player's wins above expectation, summed."""
    out: dict[PlayerId, float] = defaultdict(float)
    for event in events:
        for player, figure in figures.get(event, {}).items():
            out[player] += figure.surplus
    return dict(out)
