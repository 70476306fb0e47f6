"""Seating: who can be seated, the round-1 draw and the winner-split rotation (§1, §3).

Vocabulary: a *table* seats four at *seats* N, E, S, W; A players sit N and E, B players
S and W, so team NS (N+S) and team EW (E+W) are each one A and one B player (a *pair*).
Tables are numbered 1..T; *clockwise* is the next number (T wraps to 1),
*counterclockwise* the previous (1 wraps to T). After a round the *winners* stay at
their table but are *split* (they become opponents); the *losers* leave: the A loser
counterclockwise, the B loser clockwise. A *stationary* player (§3.1, marked by the
director) keeps their table and their chair every round: the room is routed around them,
and the seat letters of their table are *turned* (clockwise order and partners opposite
kept) so that their chair keeps its letter; at a turned table the A players no longer
sit N and E, so a seat's division is read from the table (``division_at``).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.domain.hands import SEATS, Seat, Team

PlayerId = Hashable


class SeatingError(ValueError):
    """Seating is refused; the message names exactly what is missing or extra."""


SEAT_DIVISION = {Seat.N: "A", Seat.E: "A", Seat.S: "B", Seat.W: "B"}


@dataclass(frozen=True)
class TableSeating:
    table: int
    seats: dict[Seat, PlayerId]
    # How many steps clockwise the seat letters are turned from the plain layout (A at N
    # and E, B at S and W) so that a stationary player keeps their chair (§3.1); 0 almost
    # everywhere.
    turn: int = 0

    def division_at(self, seat: Seat) -> str:
        return SEAT_DIVISION[seat.clockwise(-self.turn)]

    def team(self, team: Team) -> tuple[PlayerId, PlayerId]:
        a, b = team.seats
        return self.seats[a], self.seats[b]

    def seat_of(self, player: PlayerId) -> Seat | None:
        for seat, pid in self.seats.items():
            if pid == player:
                return seat
        return None


def turn_of(seats: Mapping[Seat, PlayerId], division_of: Mapping[PlayerId, str]) -> int:
    """The turn of a stored table: the steps from N to the first of its two A seats in
    clockwise order (0 when the A players sit N and E, or when the divisions do not
    make a table of two A and two B players)."""
    for k, seat in enumerate(SEATS):
        if (
            division_of.get(seats.get(seat)) == "A"
            and division_of.get(seats.get(seat.clockwise())) == "A"
        ):
            return k
    return 0


def turned(table: int, plain: dict[Seat, PlayerId], turn: int) -> TableSeating:
    """A table laid out plainly (A at N and E), its letters turned ``turn`` steps."""
    return TableSeating(table, {seat.clockwise(turn): pid for seat, pid in plain.items()}, turn)


def stable_order(player: PlayerId) -> tuple[int, object]:
    """A sort key independent of input order: numbers numerically, anything else by repr.

    (Sorting ids by repr would put 10 before 9, so the same seed would seat the same
    players differently once their ids cross a power of ten.)"""
    if isinstance(player, int):
        return (0, player)
    return (1, repr(player))


def _count(n: int, division: str) -> str:
    return f"{n} {division} player" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class Shortfall:
    """Why the checked-in counts do not seat: ``a`` and ``b`` players, so ``up`` tables
    need ``missing`` more (count, division) players; or ``down`` tables (0: no such
    option) leave ``extra`` players over. Said in English by ``shortfall`` and in the
    reader's language by the pages (reads/queries.py)."""

    a: int
    b: int
    up: int
    missing: tuple[tuple[int, str], ...]
    down: int
    extra: tuple[tuple[int, str], ...]


def shortfall_of(a_count: int, b_count: int) -> Shortfall | None:
    """None when the counts seat exactly; otherwise what is missing or extra."""
    if a_count == b_count and a_count >= 2 and a_count % 2 == 0:
        return None
    counts = ((a_count, "A"), (b_count, "B"))
    up = max(2, a_count + a_count % 2, b_count + b_count % 2) // 2
    missing = tuple((up * 2 - n, d) for n, d in counts if up * 2 - n > 0)
    down = min(a_count // 2, b_count // 2)
    if down < 1 or down == up:
        down = 0
    extra = tuple((n - down * 2, d) for n, d in counts if down and n - down * 2 > 0)
    return Shortfall(a_count, b_count, up, missing, down, extra)


def shortfall(a_count: int, b_count: int) -> str | None:
    """None when the counts seat exactly; otherwise what is missing or extra, in English."""
    short = shortfall_of(a_count, b_count)
    if short is None:
        return None
    head = f"Cannot seat {_count(a_count, 'A')} and {_count(b_count, 'B')}: "
    head += "every table needs 2 A and 2 B players. "
    missing = [_count(n, f"more {d}") for n, d in short.missing]
    up = short.up
    options = [f"for {up} table{'s' if up != 1 else ''}, {' and '.join(missing)} needed"]
    if short.down:
        down = short.down
        extra = [_count(n, d) for n, d in short.extra]
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


Placed = Sequence[tuple[PlayerId, int]]
"""Stationary players in the order they were marked, each with the table the director
named for round 1 (§3.1)."""


def draw(
    a_players: Sequence[PlayerId],
    b_players: Sequence[PlayerId],
    rng: random.Random,
    stationary: Placed = (),
) -> list[TableSeating]:
    """Round 1: a random draw, reproducible from the generator's seed; each stationary
    player sits at the table named for them and the others are drawn around them."""
    tables = check_counts(len(a_players), len(b_players))
    a = sorted(a_players, key=stable_order)
    b = sorted(b_players, key=stable_order)
    rng.shuffle(a)
    rng.shuffle(b)
    return _layout(a[: 2 * tables], b[: 2 * tables], stationary)


def _layout(
    a: Sequence[PlayerId], b: Sequence[PlayerId], stationary: Placed = ()
) -> list[TableSeating]:
    """Drawn lists into tables: two A players at N and E, two B players at S and W; a
    stationary player first takes the first free seat of their division at their table
    (in the order marked), and the drawn order fills the rest."""
    count = len(a) // 2
    seats: list[dict[Seat, PlayerId]] = [{} for _ in range(count)]
    division = {p: "A" for p in a} | {p: "B" for p in b}
    placed = set()
    for pid, table in stationary:
        if pid not in division:
            continue  # not seated in this draw (not checked in, or sitting out)
        if not 1 <= table <= count:
            raise SeatingError(
                f"A stationary player is named for table {table}; round 1 seats "
                f"{count} table{'s' if count != 1 else ''}."
            )
        d = division[pid]
        free = [s for s in SEATS if SEAT_DIVISION[s] == d and s not in seats[table - 1]]
        if not free:
            raise SeatingError(f"Table {table} cannot hold more than two stationary {d} players.")
        seats[table - 1][free[0]] = pid
        placed.add(pid)
    rest = {"A": iter(p for p in a if p not in placed), "B": iter(p for p in b if p not in placed)}
    for here in seats:
        for seat in SEATS:
            if seat not in here:
                here[seat] = next(rest[SEAT_DIVISION[seat]])
    return [TableSeating(t + 1, {s: here[s] for s in SEATS}) for t, here in enumerate(seats)]


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
        # Each team holds one A and one B player (at a turned table the letters differ).
        first, second = team.seats
        if self.seating.division_at(first) == "B":
            first, second = second, first
        return self.seating.seats[first], self.seating.seats[second]


def rotate(
    results: Sequence[TableResult], stationary: Sequence[PlayerId] = ()
) -> list[TableSeating]:
    """Seat the next round by the winner-split rotation (§3), routed around the
    stationary players (§3.1, ``stationary`` in the order they were marked).

    Table t keeps its winners (Aw, Bw), split; it receives the A loser of table t+1 and
    the B loser of table t-1. Seats: N = incoming A, S = Bw, E = Aw, W = incoming B;
    then, at a table with a stationary player, the letters are turned so that the first
    marked of them keeps the chair they had.
    """
    by_table = {r.seating.table: r for r in results}
    count = len(by_table)
    if sorted(by_table) != list(range(1, count + 1)):
        raise SeatingError("Every table 1..T must have a result before rotating.")
    marked = {p: i for i, p in enumerate(stationary)}
    losers = {t: r.pair(won=False) for t, r in by_table.items()}
    incoming_a = route({t: pair[0] for t, pair in losers.items()}, marked, -1)
    incoming_b = route({t: pair[1] for t, pair in losers.items()}, marked, +1)
    seating = []
    for t in range(1, count + 1):
        aw, bw = by_table[t].pair(won=True)
        plain = {Seat.N: incoming_a[t], Seat.E: aw, Seat.S: bw, Seat.W: incoming_b[t]}
        here = [(marked[p], seat, p) for seat, p in plain.items() if p in marked]
        turn = 0
        if here:
            _, seat, first = min(here, key=lambda h: h[0])
            chair = by_table[t].seating.seat_of(first)
            assert chair is not None  # a stationary player is at their own table
            turn = (SEATS.index(chair) - SEATS.index(seat)) % 4
        seating.append(turned(t, plain, turn))
    return seating


def route(
    losers: dict[int, PlayerId], stationary: Collection[PlayerId], step: int
) -> dict[int, PlayerId]:
    """Table -> the loser of one division who comes to it (§3.1): a stationary loser
    stays at their table; every other loser goes ``step`` tables on (-1: an A loser,
    counterclockwise; +1: a B loser, clockwise), and on past every table whose incoming
    seat a stationary loser holds. With no stationary loser this is plain §3."""
    count = len(losers)
    held = {t for t, p in losers.items() if p in stationary}
    incoming = {t: losers[t] for t in held}
    for start, pid in losers.items():
        if start in held:
            continue
        t = start
        while True:
            t = (t - 1 + step) % count + 1
            if t not in held:
                break
        incoming[t] = pid
    return incoming


# --- Seating with holes (docs/rules.md §6) -------------------------------------------------
#
# Vocabulary: a *hole* is a rotated seat whose player has withdrawn; a *waiting* player
# is checked in and not seated (a late arrival, or last round's sit-out); a *house*
# player is a stand-in who fills any hole and is never ranked; a *mover* is a loser of
# the last round (the rotation moves them); a *sit-out* has no seat this round. Closing
# a table sends its players to the waiting line; the open tables are renumbered 1..T'.


@dataclass(frozen=True)
class Waiting:
    """A player in line for a seat; a lower ``since`` has waited longer."""

    player: PlayerId
    division: str
    since: float


@dataclass(frozen=True)
class Change:
    """One seat that the rotation alone would not have given its player.

    ``kind``: ``waiting`` (a waiting player fills a hole), ``house`` (a house player
    fills a hole), ``closed`` (a player of a closed table fills a hole) or ``pass-on``
    (a waiting player takes a mover's seat, and the mover sits out)."""

    table: int
    seat: Seat
    out: PlayerId | None
    into: PlayerId
    kind: str


@dataclass(frozen=True)
class NextSeating:
    tables: list[TableSeating]
    changes: list[Change]
    closed: list[int]
    sit_outs: list[PlayerId]
    renumbered: dict[int, int]  # rotated table number -> new table number
    holes: int
    unused_house: list[PlayerId]


def plan_closures(
    rotated: Sequence[TableSeating],
    withdrawn: frozenset[PlayerId],
    waiting: Sequence[Waiting],
    house: Sequence[PlayerId],
    stationary: Collection[PlayerId] = (),
) -> list[int]:
    """The default proposal (§6 step 3): how many tables must close, and which: those
    with the most holes still open once the waiting players (step 1) and the house
    players (step 2) have filled what they can, in the order ``seat_with_holes`` fills
    them; among those, the highest numbers. A table holding a stationary player is never
    proposed (§3.1)."""
    seated = {"A": 0, "B": 0}
    for t in rotated:
        for seat, pid in t.seats.items():
            if pid not in withdrawn:
                seated[t.division_at(seat)] += 1
    line = {"A": 0, "B": 0}
    for w in waiting:
        line[w.division] += 1
    have = {d: seated[d] + line[d] for d in "AB"}
    count = len(rotated)
    keep = 0
    for n in range(count, 0, -1):
        need = sum(max(0, 2 * n - have[d]) for d in "AB")
        if need <= len(house):
            keep = n
            break
    if keep == count:
        return []
    spare_house = len(house)
    left: dict[int, int] = {}
    for t in rotated:
        left[t.table] = 0
        for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
            if t.seats[seat] not in withdrawn:
                continue
            d = t.division_at(seat)
            if line[d]:
                line[d] -= 1
            elif spare_house:
                spare_house -= 1
            else:
                left[t.table] += 1
    candidates = [t for t in rotated if not _holds(t, stationary)]
    order = sorted(candidates, key=lambda t: (-left[t.table], -t.table))
    return sorted(t.table for t in order[: count - keep])


def _holds(table: TableSeating, stationary: Collection[PlayerId]) -> bool:
    return any(pid in stationary for pid in table.seats.values())


def _check_closures(
    rotated: Sequence[TableSeating], closing: set[int], staying: Sequence[PlayerId]
) -> None:
    """Refuses closures of no table, of a stationary player's table, or of every table."""
    unknown = closing - {t.table for t in rotated}
    if unknown:
        raise SeatingError(f"There is no table {min(unknown)} to close.")
    kept_for = sorted(t.table for t in rotated if t.table in closing and _holds(t, staying))
    if kept_for:
        raise SeatingError(
            f"Table {kept_for[0]} holds a stationary player; it stays open (close another)."
        )
    if len(closing) >= len(rotated):
        raise SeatingError("Closing every table leaves nobody seated; keep at least one.")


_Lines = dict[str, list[PlayerId]]


def _closed_lines(
    rotated: Sequence[TableSeating],
    closing: set[int],
    gone: frozenset[PlayerId],
    stand_ins: frozenset[PlayerId],
    house_line: list[PlayerId],
    lots: dict[PlayerId, int],
) -> _Lines:
    """The players of closed tables by division, in the lot's order; the house players
    who stood in at them go back to ``house_line``."""
    closed_line: _Lines = {"A": [], "B": []}
    for t in rotated:
        if t.table in closing:
            for seat, pid in t.seats.items():
                if pid in gone:
                    continue
                if pid in stand_ins:
                    house_line.append(pid)
                else:
                    closed_line[t.division_at(seat)].append(pid)
    for d in "AB":
        closed_line[d].sort(key=lots.__getitem__)
    return closed_line


def _fill_holes(
    kept: Sequence[TableSeating],
    renumbered: dict[int, int],
    gone: frozenset[PlayerId],
    lines: tuple[dict[str, list[Waiting]], _Lines, list[PlayerId]],
    changes: list[Change],
) -> tuple[list[TableSeating], int]:
    """The kept tables under their new numbers, each withdrawn player's seat taken by
    the first of the waiting, closed-table and house lines (``lines``); and how many
    seats no one was left to fill."""
    queue, closed_line, house_line = lines
    tables: list[TableSeating] = []
    holes = 0
    for t in kept:
        new = renumbered[t.table]
        seats = dict(t.seats)
        for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
            if seats[seat] not in gone:
                continue
            d = t.division_at(seat)
            out = seats[seat]
            # The players of closed tables join the waiting players (§6 step 3), so they
            # fill their division's holes before a house player does: a house player
            # who took an A hole a closed table's A player could fill would leave a B
            # hole that only he could fill empty.
            if queue[d]:
                into, kind = queue[d].pop(0).player, "waiting"
            elif closed_line[d]:
                into, kind = closed_line[d].pop(0), "closed"
            elif house_line:
                into, kind = house_line.pop(0), "house"
            else:
                holes += 1
                continue
            seats[seat] = into
            changes.append(Change(new, seat, out, into, kind))
        tables.append(TableSeating(new, seats, t.turn))
    return tables, holes


def _still_in_line(
    queue: dict[str, list[Waiting]], closed_line: _Lines, losers: set[PlayerId]
) -> _Lines:
    """Who is left in line by division: the waiting players, then the closed tables'
    winners, then their losers."""
    return {
        d: [w.player for w in queue[d]]
        + [p for p in closed_line[d] if p not in losers]
        + [p for p in closed_line[d] if p in losers]
        for d in "AB"
    }


def _pass_on(
    tables: list[TableSeating],
    leftovers: _Lines,
    losers: set[PlayerId],
    stand_ins: frozenset[PlayerId],
    staying: Sequence[PlayerId],
    sit_outs_so_far: dict[PlayerId, int],
    lots: dict[PlayerId, int],
    house_line: list[PlayerId],
    changes: list[Change],
) -> list[PlayerId]:
    """Step 5: each player left in line takes a mover's seat, the mover sitting out (a
    stand-in goes back to ``house_line``); returns who sits out."""
    sit_outs: list[PlayerId] = []
    for d in "AB":
        # A house player seated last round gives way to a player left in line wherever
        # the rotation put him, a winner's seat too: he stands in for a missing player,
        # and no player sits out while a stand-in plays in her division.
        # A stationary loser is no mover: the seat they keep is never passed on (§3.1).
        movers = [
            (t.table, seat, t.seats[seat])
            for t in tables
            for seat in (Seat.N, Seat.E, Seat.S, Seat.W)
            if t.division_at(seat) == d
            and (t.seats[seat] in losers or t.seats[seat] in stand_ins)
            and t.seats[seat] not in staying
        ]

        def turn(pid: PlayerId) -> tuple[bool, int, int]:
            # A house player in a mover's seat makes way first: a stand-in never sits out.
            return (pid not in stand_ins, sit_outs_so_far.get(pid, 0), lots[pid])

        movers.sort(key=lambda m: turn(m[2]))
        by_table = {t.table: t for t in tables}
        for pid in leftovers[d]:
            if not movers or (pid in losers and turn(pid) < turn(movers[0][2])):
                sit_outs.append(pid)
                continue
            table, seat, mover = movers.pop(0)
            by_table[table].seats[seat] = pid
            changes.append(Change(table, seat, mover, pid, "pass-on"))
            if mover in stand_ins:
                house_line.append(mover)
            else:
                sit_outs.append(mover)
    return sit_outs


def seat_with_holes(
    results: Sequence[TableResult],
    *,
    withdrawn: Iterable[PlayerId],
    waiting: Sequence[Waiting],
    house: Sequence[PlayerId],
    sit_outs_so_far: dict[PlayerId, int],
    lot_seed: int,
    close: Sequence[int] | None = None,
    house_seated: Iterable[PlayerId] = (),
    stationary: Sequence[PlayerId] = (),
) -> NextSeating:
    """Seat the next round by §6: rotation, then holes filled by waiting players, house
    players and the players of closed tables, then the sit-out passed on to movers.

    ``close`` names the rotated tables the director closes; None takes the default
    proposal. ``house_seated`` names the house players seated last round: at a closed
    table, or in a mover's seat a waiting player takes, they go back to the house
    (they never sit out). Raises SeatingError when the chosen closures leave a hole
    unfilled or close every table.

    ``stationary`` (in the order marked) routes the rotation (§3.1); a stationary player
    who has withdrawn leaves a hole like anyone else. A table holding a stationary player
    is never closed, and a stationary loser never sits out for a waiting player."""
    gone = frozenset(withdrawn)
    stand_ins = frozenset(house_seated)
    staying = [p for p in stationary if p not in gone]
    rotated = rotate(results, staying)
    if close is None:
        close = plan_closures(rotated, gone, waiting, house, staying)
    closing = set(close)
    _check_closures(rotated, closing, staying)
    lots = lot_position([w.player for w in waiting] + _all_players(rotated) + list(house), lot_seed)

    queue: dict[str, list[Waiting]] = {"A": [], "B": []}
    for w in sorted(waiting, key=lambda w: (w.since, lots[w.player])):
        queue[w.division].append(w)
    # Players of closed tables join the line after everyone already waiting.
    house_line = list(house)
    closed_line = _closed_lines(rotated, closing, gone, stand_ins, house_line, lots)

    kept = [t for t in rotated if t.table not in closing]
    renumbered = {t.table: i for i, t in enumerate(kept, start=1)}
    changes: list[Change] = []
    tables, holes = _fill_holes(kept, renumbered, gone, (queue, closed_line, house_line), changes)
    if holes:
        raise SeatingError(
            f"{holes} seat{'s' if holes != 1 else ''} would stay empty: close "
            f"{'more tables' if closing else 'a table'} or add house players."
        )

    # Step 5: whoever is still in line takes a mover's seat; the mover sits out.
    # The movers are the losers of round r, wherever they now sit: at their rotated
    # seat, or in a hole they filled from a closed table. A loser of a closed table left
    # in line is a mover too: they take a seat only from a mover with fewer sit-outs,
    # so that nobody sits out twice while a mover has never sat out.
    losers = {pid for r in results for pid in r.pair(won=False)}
    leftovers = _still_in_line(queue, closed_line, losers)
    sit_outs = _pass_on(
        tables,
        leftovers,
        losers,
        stand_ins,
        staying,
        sit_outs_so_far,
        lots,
        house_line,
        changes,
    )
    changes.sort(key=lambda c: (c.table, "NESW".index(c.seat.value)))
    return NextSeating(
        tables=tables,
        changes=changes,
        closed=sorted(closing),
        sit_outs=sit_outs,
        renumbered=renumbered,
        holes=0,
        unused_house=house_line,
    )


def _all_players(seating: Sequence[TableSeating]) -> list[PlayerId]:
    return [pid for t in seating for pid in t.seats.values()]


def lot_position(players: Iterable[PlayerId], seed: int) -> dict[PlayerId, int]:
    """Each player's place in the recorded lot; the same seed gives the same order."""
    order = sorted(set(players), key=stable_order)
    random.Random(seed).shuffle(order)
    return {p: i for i, p in enumerate(order)}


@dataclass(frozen=True)
class FirstRoundRemedy:
    """A way to seat round 1 with uneven counts (§1, §6)."""

    kind: str  # "sit-out" or "house"
    tables: int
    sit_out_a: int = 0
    sit_out_b: int = 0
    house_a: int = 0
    house_b: int = 0

    @property
    def describe(self) -> str:
        plural = "s" if self.tables != 1 else ""
        if self.kind == "sit-out":
            who = " and ".join(
                f"{n} {d} player{'s' if n != 1 else ''}"
                for n, d in ((self.sit_out_a, "A"), (self.sit_out_b, "B"))
                if n
            )
            return f"{self.tables} table{plural}; {who} sit out round 1."
        need = " and ".join(
            f"{n} house player{'s' if n != 1 else ''} in division {d}"
            for n, d in ((self.house_a, "A"), (self.house_b, "B"))
            if n
        )
        return f"{self.tables} table{plural} with {need}."


def first_round_remedies(a_count: int, b_count: int) -> list[FirstRoundRemedy]:
    """What the director can choose when the counts do not seat exactly."""
    if shortfall(a_count, b_count) is None:
        return []
    remedies = []
    down = min(a_count // 2, b_count // 2)
    if down >= 1:
        remedies.append(FirstRoundRemedy("sit-out", down, a_count - 2 * down, b_count - 2 * down))
    up = max(1, (a_count + 1) // 2, (b_count + 1) // 2)
    remedies.append(
        FirstRoundRemedy("house", up, house_a=2 * up - a_count, house_b=2 * up - b_count)
    )
    return remedies


def house_fill(a_count: int, b_count: int, house_a: int, house_b: int) -> FirstRoundRemedy | None:
    """The house remedy when the director's house players already fill every empty seat
    (none need adding): the counts then seat as they stand, house players counted."""
    for remedy in first_round_remedies(a_count, b_count):
        if remedy.kind == "house" and remedy.house_a <= house_a and remedy.house_b <= house_b:
            return remedy
    return None


def draw_with_remedy(
    a_players: Sequence[PlayerId],
    b_players: Sequence[PlayerId],
    rng: random.Random,
    remedy: FirstRoundRemedy,
    house_a: Sequence[PlayerId] = (),
    house_b: Sequence[PlayerId] = (),
    sit_out: Iterable[PlayerId] | None = None,
    stationary: Placed = (),
) -> tuple[list[TableSeating], list[PlayerId]]:
    """Round 1 with a remedy: (the seating, the players who sit out).

    Who sits out is the director's choice (``sit_out``, exactly the remedy's numbers of
    each division); without one the lot draws them, the last of each shuffled division
    who is not stationary (§3.1). The others are seated as the lot has them either way,
    so choosing the lot's own proposal gives the very seating the lot would."""
    a = sorted(a_players, key=stable_order)
    b = sorted(b_players, key=stable_order)
    rng.shuffle(a)
    rng.shuffle(b)
    sit_outs: list[PlayerId] = []
    if remedy.kind == "sit-out":
        if sit_out is None:
            fixed = {pid for pid, _ in stationary}
            sit_outs = [
                p for players in (a, b) for p in _lot_sit_outs(players, 2 * remedy.tables, fixed)
            ]
        else:
            sit_outs = _chosen_sit_outs(a, b, set(sit_out), remedy)
        a = [p for p in a if p not in sit_outs]
        b = [p for p in b if p not in sit_outs]
    else:
        if len(house_a) < remedy.house_a or len(house_b) < remedy.house_b:
            raise SeatingError("Not enough house players for this remedy.")
        # House players are spread over the room, not stacked at one table.
        a = _spread(a, list(house_a[: remedy.house_a]), rng)
        b = _spread(b, list(house_b[: remedy.house_b]), rng)
    if len(a) != 2 * remedy.tables or len(b) != 2 * remedy.tables:
        raise SeatingError("The remedy no longer fits the checked-in players; reload the page.")
    return _layout(a, b, stationary), sit_outs


def _lot_sit_outs(
    players: Sequence[PlayerId], seats: int, fixed: Collection[PlayerId]
) -> list[PlayerId]:
    """The last of a shuffled division beyond its ``seats``, passing over the stationary
    players (the lot never sits out someone who cannot walk to the waiting line and back)."""
    movable = [p for p in players if p not in fixed]
    return movable[max(0, seats - (len(players) - len(movable))) :]


def _chosen_sit_outs(
    a: Sequence[PlayerId], b: Sequence[PlayerId], chosen: set[PlayerId], remedy: FirstRoundRemedy
) -> list[PlayerId]:
    out_a = [p for p in a if p in chosen]
    out_b = [p for p in b if p in chosen]
    if len(out_a) + len(out_b) != len(chosen):
        raise SeatingError("Only checked-in A and B players (not house players) can sit out.")
    if (len(out_a), len(out_b)) != (remedy.sit_out_a, remedy.sit_out_b):
        raise SeatingError(
            f"Choose {_count(remedy.sit_out_a, 'A')} and {_count(remedy.sit_out_b, 'B')} "
            f"to sit out round 1 ({_count(len(out_a), 'A')} and "
            f"{_count(len(out_b), 'B')} chosen)."
        )
    return out_a + out_b


def _spread(players: list[PlayerId], house: list[PlayerId], rng: random.Random) -> list[PlayerId]:
    result = list(players)
    for h in house:
        result.insert(rng.randrange(len(result) + 1), h)
    return result
