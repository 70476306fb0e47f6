"""A partner-aware rating of players from match results (docs/rating.md).

Vocabulary: a player's *rating* is a belief about their skill, a normal distribution
with mean ``mu`` and standard deviation ``sigma`` (the uncertainty). A *pair*'s strength
is the mean of its two players' skills, as the EBU grades pairs with rotating partners.
Each match is won by one pair; the update is the TrueSkill two-team update for that
mean (``beta`` is the spread of one match's performance around a pair's strength, ``tau``
the drift added before every match so a rating never freezes). The *win probability*
of a pair is the chance its performance beats the other's. A new player starts at
``mu0`` with ``sigma0``; sigma shrinks with every match played. Ratings never change a
result: they are read for suggestions only.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

PlayerId = Hashable


@dataclass(frozen=True)
class RatingSettings:
    mu0: float = 25.0
    sigma0: float = 5.0
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    matches: int = 0

    @property
    def conservative(self) -> float:
        """A skill the player very probably has at least (mu - 3 sigma), for ordering."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class MatchResult:
    """One match: the two pairs (each one A and one B player) and whether the first won."""

    pair: tuple[PlayerId, PlayerId]
    opponents: tuple[PlayerId, PlayerId]
    pair_won: bool
    # Where it was played, for a reader that follows a rating over time (domain/expectation):
    # the event and the round. The update reads neither.
    event: Hashable = None
    round: int = 0


def _pdf(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _v(t: float) -> float:
    """Mean shift of a win whose margin is truncated at 0: pdf(t)/cdf(t), stable for t << 0."""
    denom = _cdf(t)
    if denom < 1e-300:
        return -t
    return _pdf(t) / denom


class Ratings:
    """The ratings of every player seen so far; ``update`` applies matches in order."""

    def __init__(self, settings: RatingSettings | None = None) -> None:
        self.settings = settings or RatingSettings()
        self.table: dict[PlayerId, Rating] = {}

    def get(self, player: PlayerId) -> Rating:
        found = self.table.get(player)
        if found is None:
            return Rating(self.settings.mu0, self.settings.sigma0, 0)
        return found

    def _spread(self, players: Iterable[PlayerId], drift: bool) -> float:
        tau2 = self.settings.tau**2 if drift else 0.0
        return math.sqrt(
            self.settings.beta**2 + sum((self.get(p).sigma ** 2 + tau2) / 4 for p in players)
        )

    def win_probability(
        self, pair: tuple[PlayerId, PlayerId], opponents: tuple[PlayerId, PlayerId]
    ) -> float:
        """The chance that ``pair`` beats ``opponents``, from the ratings as they stand."""
        c = self._spread((*pair, *opponents), drift=False)
        diff = sum(self.get(p).mu for p in pair) / 2 - sum(self.get(p).mu for p in opponents) / 2
        return _cdf(diff / c)

    def update(self, match: MatchResult) -> None:
        winners = match.pair if match.pair_won else match.opponents
        losers = match.opponents if match.pair_won else match.pair
        if len({*winners, *losers}) != 4:
            raise ValueError("A match needs four different players.")
        tau2 = self.settings.tau**2
        before = {p: self.get(p) for p in (*winners, *losers)}
        var = {p: r.sigma**2 + tau2 for p, r in before.items()}
        c = self._spread(before, drift=True)
        t = (sum(before[p].mu for p in winners) - sum(before[p].mu for p in losers)) / 2 / c
        v = _v(t)
        w = v * (v + t)
        for players, sign in ((winners, 1.0), (losers, -1.0)):
            for p in players:
                # Each player weighs 1/2 in the pair's strength, hence the 1/2 and 1/4.
                mu = before[p].mu + sign * (var[p] / 2) / c * v
                shrink = max(1.0 - (var[p] / 4) / c**2 * w, 1e-4)
                self.table[p] = Rating(mu, math.sqrt(var[p] * shrink), before[p].matches + 1)

    def update_all(self, matches: Iterable[MatchResult]) -> None:
        for match in matches:
            self.update(match)


def split_divisions(ratings: dict[PlayerId, Rating], share_a: float = 0.5) -> dict[PlayerId, str]:
    """Suggest divisions: the stronger ``share_a`` of the rated players in A, by mu.

    Ties of mu keep the order given, so the caller decides them (e.g. by name).
    """
    if not 0 <= share_a <= 1:
        raise ValueError("The share of division A must be between 0 and 1.")
    ordered = sorted(ratings, key=lambda p: -ratings[p].mu)
    count_a = round(len(ordered) * share_a)
    return {p: ("A" if i < count_a else "B") for i, p in enumerate(ordered)}
