"""Seating: who can be seated, the round-1 draw and the winner-split rotation (§1, §3).

Vocabulary: a *table* seats four at *seats* N, E, S, W; A players sit N and E, B players
S and W, so team NS (N+S) and team EW (E+W) are each one A and one B player (a *pair*).
Tables are numbered 1..T; *clockwise* is the next number (T wraps to 1),
*counterclockwise* the previous (1 wraps to T). After a round the *winners* stay at
their table but are *split* (they become opponents); the *losers* leave: the A loser
counterclockwise, the B loser clockwise.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from .hands import Seat, Team

PlayerId = Hashable


class SeatingError(ValueError):
    """Seating is refused; the message names exactly what is missing or extra."""


@dataclass(frozen=True)
class TableSeating:
    table: int
    seats: dict[Seat, PlayerId]

    def team(self, team: Team) -> tuple[PlayerId, PlayerId]:
        a, b = team.seats
        return self.seats[a], self.seats[b]

    def seat_of(self, player: PlayerId) -> Seat | None:
        for seat, pid in self.seats.items():
            if pid == player:
                return seat
        return None


def stable_order(player: PlayerId) -> tuple[int, object]:
    """A sort key independent of input order: numbers numerically, anything else by repr.

    (Sorting ids by repr would put 10 before 9, so the same seed would seat the same
    players differently once their ids cross a power of ten.)"""
    if isinstance(player, int):
        return (0, player)
    return (1, repr(player))


def _count(n: int, division: str) -> str:
    return f"{n} {division} player" + ("" if n == 1 else "s")


def shortfall(a_count: int, b_count: int) -> str | None:
    """None when the counts seat exactly; otherwise what is missing or extra."""
    if a_count == b_count and a_count >= 2 and a_count % 2 == 0:
        return None
    head = f"Cannot seat {_count(a_count, 'A')} and {_count(b_count, 'B')}: "
    head += "every table needs 2 A and 2 B players. "
    up = max(2, a_count + a_count % 2, b_count + b_count % 2) // 2
    options = []
    missing = [
        _count(up * 2 - n, f"more {d}")
        for n, d in ((a_count, "A"), (b_count, "B"))
        if up * 2 - n > 0
    ]
    options.append(f"for {up} table{'s' if up != 1 else ''}, {' and '.join(missing)} needed")
    down = min(a_count // 2, b_count // 2)
    if down >= 1 and down != up:
        extra = [
            _count(n - down * 2, d) for n, d in ((a_count, "A"), (b_count, "B")) if n - down * 2 > 0
        ]
        options.append(
            f"for {down} table{'s' if down != 1 else ''}, {' and '.join(extra)} too many"
        )
    text = "; or ".join(options)
    return head + text[0].upper() + text[1:] + "."


def check_counts(a_count: int, b_count: int) -> int:
    """The number of tables, or SeatingError naming the shortfall."""
    message = shortfall(a_count, b_count)
    if message:
        raise SeatingError(message)
    return a_count // 2


def draw(
    a_players: Sequence[PlayerId], b_players: Sequence[PlayerId], rng: random.Random
) -> list[TableSeating]:
    """Round 1: a random draw, reproducible from the generator's seed."""
    tables = check_counts(len(a_players), len(b_players))
    a = sorted(a_players, key=stable_order)
    b = sorted(b_players, key=stable_order)
    rng.shuffle(a)
    rng.shuffle(b)
    return [
        TableSeating(
            t + 1,
            {Seat.N: a[2 * t], Seat.E: a[2 * t + 1], Seat.S: b[2 * t], Seat.W: b[2 * t + 1]},
        )
        for t in range(tables)
    ]


def swap(
    seating: Sequence[TableSeating],
    first: PlayerId,
    second: PlayerId,
    division_of: dict[PlayerId, str],
) -> list[TableSeating]:
    """Swap two players of the same division before a round starts."""
    if first == second:
        raise SeatingError("Choose two different players to swap.")
    if division_of.get(first) != division_of.get(second):
        raise SeatingError("Only two players of the same division can be swapped.")
    found = {first: False, second: False}
    result = []
    for table in seating:
        seats = dict(table.seats)
        for seat, pid in table.seats.items():
            if pid in found:
                seats[seat] = second if pid == first else first
                found[pid] = True
        result.append(TableSeating(table.table, seats))
    if not all(found.values()):
        raise SeatingError("Both players must be seated in this round.")
    return result


@dataclass(frozen=True)
class TableResult:
    """A finished table: its seating and the winning team."""

    seating: TableSeating
    winner: Team

    def pair(self, won: bool) -> tuple[PlayerId, PlayerId]:
        """(A player, B player) of the winners or the losers."""
        team = self.winner if won else self.winner.other
        # A players sit N and E, B players S and W: each team holds one of each.
        a_seat = Seat.N if team is Team.NS else Seat.E
        b_seat = Seat.S if team is Team.NS else Seat.W
        return self.seating.seats[a_seat], self.seating.seats[b_seat]


def rotate(results: Sequence[TableResult]) -> list[TableSeating]:
    """Seat the next round by the winner-split rotation.

    Table t keeps its winners (Aw, Bw), split; it receives the A loser of table t+1 and
    the B loser of table t-1. Seats: N = incoming A, S = Bw, E = Aw, W = incoming B.
    """
    by_table = {r.seating.table: r for r in results}
    count = len(by_table)
    if sorted(by_table) != list(range(1, count + 1)):
        raise SeatingError("Every table 1..T must have a result before rotating.")
    seating = []
    for t in range(1, count + 1):
        aw, bw = by_table[t].pair(won=True)
        incoming_a, _ = by_table[t % count + 1].pair(won=False)
        _, incoming_b = by_table[(t - 2) % count + 1].pair(won=False)
        seating.append(
            TableSeating(t, {Seat.N: incoming_a, Seat.E: aw, Seat.S: bw, Seat.W: incoming_b})
        )
    return seating
