"""The final (docs/rules.md §4): seeding and the best-of-three.

Vocabulary: the *finalists* are the top two of division A, partners at N and S, against
the top two of division B at E and W. The final is played in *games*, each a full game
to the final's target with no time limit and no bonuses; the first pair to win the
required number of games are the *champions*.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from tournaments.domain.hands import Seat, Team
from tournaments.domain.seating import SeatingError, TableSeating

PlayerId = Hashable
# The one pairing of the final's teams with the divisions (seed_final seats them so).
DIVISION_OF_TEAM = {Team.NS: "A", Team.EW: "B"}


def seed_final(ranked_a: Sequence[PlayerId], ranked_b: Sequence[PlayerId]) -> TableSeating:
    """A1/A2 at N/S against B1/B2 at E/W; the lists are eligible players in rank order."""
    if len(ranked_a) < 2 or len(ranked_b) < 2:
        raise SeatingError("The final needs two ranked players in each division.")
    return TableSeating(
        1, {Seat.N: ranked_a[0], Seat.S: ranked_a[1], Seat.E: ranked_b[0], Seat.W: ranked_b[1]}
    )


@dataclass(frozen=True)
class Entry:
    """Who enters the final from one division, or the shared rank still to break."""

    finalists: list[PlayerId]
    tied: list[PlayerId]


def entrants(
    ranked: Sequence[tuple[PlayerId, int]], director_order: Sequence[PlayerId] = ()
) -> Entry:
    """The top two of eligible players given as (player, rank) in rank order.

    When players sharing a rank straddle the second place (a chain without the lot),
    the director's order decides; without one covering every tied player, ``tied``
    names them and nobody enters yet (§4)."""
    if len(ranked) < 2:
        return Entry([p for p, _ in ranked], [])
    cut = ranked[1][1]
    group = [p for p, r in ranked if r == cut]
    above = [p for p, r in ranked if r < cut]
    if len(above) + len(group) <= 2:
        return Entry([p for p, _ in ranked[:2]], [])
    order = {p: i for i, p in enumerate(director_order)}
    if not set(group) <= set(order):
        return Entry([], group)
    chosen = sorted(group, key=order.__getitem__)[: 2 - len(above)]
    return Entry(above + chosen, [])


@dataclass(frozen=True)
class FinalState:
    wins: dict[Team, int]
    champions: Team | None
    next_game: int | None


def final_state(game_winners: Sequence[Team | None], games_to_win: int) -> FinalState:
    """``game_winners`` lists each game's winner in order, None for a game in play."""
    wins = {Team.NS: 0, Team.EW: 0}
    champions: Team | None = None
    for number, winner in enumerate(game_winners, start=1):
        if champions is not None:
            raise ValueError(f"Game {number} was played after the final was decided.")
        if winner is None:
            if number != len(game_winners):
                raise ValueError(f"Game {number} is unfinished but a later game exists.")
            return FinalState(wins, None, None)
        wins[winner] += 1
        if wins[winner] >= games_to_win:
            champions = winner
    next_game = None if champions else len(game_winners) + 1
    return FinalState(wins, champions, next_game)
