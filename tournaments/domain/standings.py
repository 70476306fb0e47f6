"""Standings within a division (RULES.md §4).

Vocabulary: a player's *total* is the sum over preliminary rounds of their match points
(team score + team bonuses + own awards and penalties); *wins* counts the matches their
team won; *margin* sums their team's score minus the opponents' over those matches. The
*tiebreak chain* orders equal totals; its last link, the *lot*, is a draw from a
recorded seed so that the order can be reproduced and shown.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

PlayerId = Hashable


@dataclass(frozen=True)
class RoundLine:
    """One player's preliminary match."""

    round_number: int
    team_score: int
    bonus: int
    individual: int
    won: bool
    margin: int

    @property
    def points(self) -> int:
        return self.team_score + self.bonus + self.individual


@dataclass(frozen=True)
class PlayerRecord:
    player: PlayerId
    rounds: Sequence[RoundLine] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        return sum(r.points for r in self.rounds)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.rounds if r.won)

    @property
    def margin(self) -> int:
        return sum(r.margin for r in self.rounds)

    @property
    def bonuses(self) -> int:
        return sum(r.bonus for r in self.rounds)

    @property
    def individual(self) -> int:
        return sum(r.individual for r in self.rounds)


@dataclass(frozen=True)
class Standing:
    rank: int
    record: PlayerRecord
    lot: int
    decided_by_lot: bool

    @property
    def player(self) -> PlayerId:
        return self.record.player


def lot_order(players: Iterable[PlayerId], seed: int) -> dict[PlayerId, int]:
    """Each player's position in the draw by lot; the same seed gives the same draw."""
    order = sorted(players, key=repr)
    random.Random(seed).shuffle(order)
    return {p: i for i, p in enumerate(order)}


def rank(records: Sequence[PlayerRecord], chain: Sequence[str], lot_seed: int) -> list[Standing]:
    """Rank one division by the tiebreak chain; equal players share a rank without lot."""
    lots = lot_order([r.player for r in records], lot_seed)

    def key(record: PlayerRecord) -> tuple[int, ...]:
        return tuple(
            lots[record.player] if link == "lot" else -getattr(record, link) for link in chain
        )

    # The lot decides between players equal on every link before it; links after the
    # lot never come into play, so they must not hide (or fake) a tie broken by lot.
    before_lot = tuple(chain[:chain.index("lot")]) if "lot" in chain else None

    def tie(record: PlayerRecord) -> tuple[int, ...]:
        return tuple(-getattr(record, link) for link in before_lot or ())

    ordered = sorted(records, key=key)
    result: list[Standing] = []
    for i, record in enumerate(ordered):
        before = tie(ordered[i - 1]) if i else None
        after = tie(ordered[i + 1]) if i + 1 < len(ordered) else None
        tied_by_lot = before_lot is not None and tie(record) in (before, after)
        position = result[-1].rank if i and key(ordered[i - 1]) == key(record) else i + 1
        result.append(Standing(position, record, lots[record.player], tied_by_lot))
    return result
