"""Standings within a division (docs/rules.md §4).

Vocabulary: a player's *total* is the sum over preliminary rounds of their match points
(team score + team bonuses + own awards and penalties); *wins* counts the matches their
team won; *margin* sums their team's score minus the opponents' over those matches. The
*tiebreak chain* orders equal totals; its last link, the *lot*, is a draw from a
recorded seed so that the order can be reproduced and shown. A *sit-out* is a round a
checked-in player had no seat (§6): it scores the ``sit_out_score`` setting, is neither
a win nor a loss and adds nothing to margin. A player has *played* when they sat in at
least one preliminary match; only they are ranked.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.domain.seating import stable_order

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
class SitOutLine:
    round_number: int
    points: int


def sit_out_points(setting: str | int, played_before: Sequence[RoundLine]) -> int:
    """§6: ``average`` is the points of the matches played before, divided by their
    number, rounded down (0 with none); ``none`` is 0; a number is that number."""
    if setting == "none":
        return 0
    if setting == "average":
        if not played_before:
            return 0
        return sum(r.points for r in played_before) // len(played_before)
    return int(setting)


def sit_out_lines(
    setting: str | int, rounds: Sequence[RoundLine], sat_out: Iterable[int]
) -> tuple[SitOutLine, ...]:
    """Each sit-out round scored from the matches played before that round."""
    return tuple(
        SitOutLine(n, sit_out_points(setting, [r for r in rounds if r.round_number < n]))
        for n in sorted(sat_out)
    )


@dataclass(frozen=True)
class PlayerRecord:
    player: PlayerId
    rounds: Sequence[RoundLine] = field(default_factory=tuple)
    sit_outs: Sequence[SitOutLine] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        return sum(r.points for r in self.rounds) + sum(s.points for s in self.sit_outs)

    @property
    def played(self) -> int:
        return len(self.rounds)

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
    """A player's place. ``rank`` is the chain's order, the lot included: what seeds the
    final. ``shared_rank`` leaves the lot out: players equal on every other link share
    it (``shares``), and it is what players see before the lot decides anything (§4:
    "=3" rather than an arbitrary 3, 4, 5)."""

    rank: int
    record: PlayerRecord
    lot: int
    decided_by_lot: bool
    shared_rank: int
    shares: bool

    @property
    def player(self) -> PlayerId:
        return self.record.player


def lot_order(players: Iterable[PlayerId], seed: int) -> dict[PlayerId, int]:
    """Each player's position in the draw by lot; the same seed gives the same draw."""
    order = sorted(players, key=stable_order)
    random.Random(seed).shuffle(order)
    return {p: i for i, p in enumerate(order)}


def rank(records: Sequence[PlayerRecord], chain: Sequence[str], lot_seed: int) -> list[Standing]:
    """Rank one division by the tiebreak chain; equal players share a rank without lot."""
    lots = lot_order([r.player for r in records], lot_seed)

    # Each record's sums are computed once: a 1,000-player division compares them often.
    values = [
        {"total": r.total, "wins": r.wins, "margin": r.margin, "lot": lots[r.player]}
        for r in records
    ]
    keys = [tuple(v[link] if link == "lot" else -v[link] for link in chain) for v in values]
    # The lot decides between players equal on every link before it; links after the
    # lot never come into play, so they must not hide (or fake) a tie broken by lot.
    before_lot = tuple(chain[: chain.index("lot")]) if "lot" in chain else None
    ties = [tuple(-v[link] for link in before_lot or ()) for v in values]

    # Equal on every link before the lot (every link, without one): sorted by the chain,
    # such players sit together.
    plain = ties if before_lot is not None else keys

    order = sorted(range(len(records)), key=keys.__getitem__)
    result: list[Standing] = []
    for i, index in enumerate(order):
        prev = order[i - 1] if i else None
        nxt = order[i + 1] if i + 1 < len(order) else None
        tied_by_lot = before_lot is not None and (
            (prev is not None and ties[prev] == ties[index])
            or (nxt is not None and ties[nxt] == ties[index])
        )
        shared = prev is not None and keys[prev] == keys[index]
        position = result[-1].rank if shared else i + 1
        level = prev is not None and plain[prev] == plain[index]
        shared_rank = result[-1].shared_rank if level else i + 1
        shares = level or (nxt is not None and plain[nxt] == plain[index])
        record = records[index]
        result.append(
            Standing(position, record, lots[record.player], tied_by_lot, shared_rank, shares)
        )
    return result
