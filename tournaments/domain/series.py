"""Series points: each event's finish scored by a points table, best N of M counted.

Vocabulary: a *finish* is one person's result in one event of the series (their division,
their place in it, their total points). A *points table* turns a finish into *series
points*: by place in the division (1st, 2nd, ... from a list; places past its end score
its last entry), by the event's total points, or a fixed number for taking part. A
person's series score counts their best ``best_of`` events (all when ``None``).
Tiebreak chain, in order: counted series points, then the best single event's points,
then more events played; people still equal share the rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

PersonId = Hashable
EventId = Hashable

TIEBREAK_CHAIN = ("series points", "best single event", "events played")


@dataclass(frozen=True)
class Finish:
    person: PersonId
    event: EventId
    division: str
    place: int
    total: int


@dataclass(frozen=True)
class PointsTable:
    kind: str  # "place", "total" or "participation"
    place_points: tuple[int, ...] = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    participation: int = 10

    def points(self, finish: Finish) -> int:
        if self.kind == "place":
            if not self.place_points:
                return 0
            index = min(finish.place, len(self.place_points)) - 1
            return self.place_points[index]
        if self.kind == "total":
            return finish.total
        if self.kind == "participation":
            return self.participation
        raise ValueError(f"Unknown points table {self.kind!r}.")


@dataclass(frozen=True)
class EventScore:
    finish: Finish
    points: int
    counted: bool


@dataclass(frozen=True)
class SeriesLine:
    rank: int
    person: PersonId
    points: int
    best: int
    played: int
    events: dict[EventId, EventScore]


def parse_place_points(text: str) -> tuple[int, ...]:
    """``"25,20,16"`` -> (25, 20, 16); refuses anything but non-increasing whole numbers."""
    try:
        values = tuple(int(v) for v in text.replace(" ", "").split(",") if v != "")
    except ValueError:
        raise ValueError("Place points must be whole numbers separated by commas.") from None
    if not values:
        raise ValueError("Give the points of at least the first place.")
    if any(v < 0 for v in values):
        raise ValueError("Place points cannot be negative.")
    if any(b > a for a, b in zip(values, values[1:], strict=False)):
        raise ValueError("A lower place cannot score more than a higher one.")
    return values


def series_standings(
    finishes: Iterable[Finish], table: PointsTable, best_of: int | None
) -> list[SeriesLine]:
    if best_of is not None and best_of < 1:
        raise ValueError("Best N of M needs N of at least 1.")
    by_person: dict[PersonId, list[Finish]] = defaultdict(list)
    for finish in finishes:
        by_person[finish.person].append(finish)
    lines = []
    for person, own in by_person.items():
        scored = [(table.points(f), f) for f in own]
        # Equal points: the earlier-listed event counts, so the choice is reproducible.
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        keep = set(order if best_of is None else order[:best_of])
        events = {f.event: EventScore(f, pts, i in keep) for i, (pts, f) in enumerate(scored)}
        counted = sum(scored[i][0] for i in keep)
        best = max((p for p, _ in scored), default=0)
        lines.append((person, counted, best, len(own), events))
    lines.sort(key=lambda x: (-x[1], -x[2], -x[3]))
    ranked: list[SeriesLine] = []
    for i, (person, counted, best, played, events) in enumerate(lines):
        key = (counted, best, played)
        prev = ranked[-1] if ranked else None
        if prev is not None and (prev.points, prev.best, prev.played) == key:
            rank = prev.rank
        else:
            rank = i + 1
        ranked.append(SeriesLine(rank, person, counted, best, played, events))
    return ranked
