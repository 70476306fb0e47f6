"""A series as it reads: its events, each person's finishes and the table (best N of M).

An imported past event is read from its recorded standings (``EventResult``); an event run
here, or one the hall publishes as it goes (an imported event not finished), from its
standings, so a series shows a running event as it stands and, to players, as they may see
it (RULES.md §5). A registration copy whose results arrived (``Tournament.played_as``)
counts as those results, not twice. Creating a series and adding or removing events are
``services.series``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from django.utils.translation import pgettext

from tournaments.common.bilingual import tr as _
from tournaments.common.names import UNLISTED, public_name
from tournaments.core.models.event import Tournament
from tournaments.core.models.people import EventResult, Person, PersonLink
from tournaments.core.models.series import Series, SeriesEvent
from tournaments.core.reads.standings import standings
from tournaments.core.reads.visibility import of_event, visible_standings
from tournaments.domain.series import (
    TIEBREAK_CHAIN,
    EventScore,
    Finish,
    PointsTable,
    SeriesLine,
    parse_place_points,
    series_standings,
)

# Per-event columns fit a page up to this many events; past it each row lists the events
# the person played, by number.
PER_EVENT_COLUMNS = 10


def points_table(series: Series) -> PointsTable:
    return PointsTable(
        kind=series.points_table,
        place_points=parse_place_points(series.place_points),
        participation=series.participation_points,
    )


def events_of(series: Series) -> list[Tournament]:
    return [
        se.tournament
        for se in SeriesEvent.objects.filter(
            series=series,
            tournament__in=Tournament.objects.counted().filter(played_as__isnull=True),
        )
        .select_related("tournament__imported_from")
        .order_by("added_at", "id")
    ]


def finishes(
    events: list[Tournament], *, for_players: bool = False, frozen: dict[int, int] | None = None
) -> list[Finish]:
    """Each person's place and total in each event. ``for_players``: an event whose
    standings are hidden counts as it stood after its last visible round (RULES.md §5;
    that round is written into ``frozen`` under the event's id)."""
    done = Tournament.Status.FINISHED
    imported = [t.pk for t in events if hasattr(t, "imported_from") and t.status == done]
    out = [
        Finish(person, tid, division, rank, total)
        for person, tid, division, rank, total in EventResult.objects.filter(
            tournament_id__in=imported, player__person_link__isnull=False
        ).values_list(
            "player__person_link__person_id", "tournament_id", "division", "rank", "total"
        )
    ]
    live = [t for t in events if t.pk not in imported]
    person_of: dict[int, int] = dict(
        PersonLink.objects.filter(player__tournament__in=live).values_list("player_id", "person_id")
    )
    for t in live:
        if for_players:
            vis = of_event(t)
            if vis.through is not None and frozen is not None:
                frozen[t.pk] = vis.through
            table = visible_standings(t, vis)
        else:
            table = standings(t)
        for division, rows in table.items():
            for row in rows:
                if row.player.pk in person_of:
                    out.append(
                        Finish(person_of[row.player.pk], t.pk, division, row.rank, row.record.total)
                    )
    return out


@dataclass(frozen=True)
class PlayedEvent:
    """One event a person played, numbered as the series lists its events (from 1)."""

    number: int
    event: Tournament
    score: EventScore


@dataclass(frozen=True)
class SeriesRow:
    line: SeriesLine
    person: Person
    cells: tuple[EventScore | None, ...]  # per event of the series, in its order
    # Only the events played, so a 100-event series costs what its results cost: the
    # compact layout past PER_EVENT_COLUMNS shows these, a dropped one struck through.
    played: tuple[PlayedEvent, ...] = ()
    # The name the public page shows (``names.public_name``; "a player" for a person who
    # chose to be left off public standings); empty on the director's pages.
    public: str = ""


@dataclass(frozen=True)
class SeriesTable:
    series: Series
    events: list[Tournament]
    rows: list[SeriesRow]
    chain: tuple[str, ...] = TIEBREAK_CHAIN
    # Events shown as they stood after an earlier round (their standings are hidden from
    # players): event id -> that round.
    frozen: dict[int, int] = field(default_factory=dict)

    def frozen_events(self) -> list[tuple[Tournament, int]]:
        return [(t, self.frozen[t.pk]) for t in self.events if t.pk in self.frozen]

    @property
    def per_event(self) -> bool:
        return len(self.events) <= PER_EVENT_COLUMNS

    def shared_ranks(self) -> set[int]:
        seen: dict[int, int] = {}
        for row in self.rows:
            seen[row.line.rank] = seen.get(row.line.rank, 0) + 1
        return {rank for rank, count in seen.items() if count > 1}


def series_table(series: Series, *, for_players: bool = False) -> SeriesTable:
    """The series standings; ``for_players`` (the public page) shows each event as
    players may see it, the director's pages and exports everything."""
    events = events_of(series)
    frozen: dict[int, int] = {}
    lines = series_standings(
        finishes(events, for_players=for_players, frozen=frozen),
        points_table(series),
        series.best_of,
    )
    people = Person.objects.in_bulk([line.person for line in lines])
    # The per-event cells only when the page shows them (a 100-event series would build
    # 200,000 of them for nothing).
    ids = [t.pk for t in events] if len(events) <= PER_EVENT_COLUMNS else []
    numbered = {t.pk: (n, t) for n, t in enumerate(events, 1)} if not ids else {}
    rows = [
        SeriesRow(
            line,
            people[line.person],
            tuple(line.events.get(pk) for pk in ids),
            tuple(
                PlayedEvent(n, t, line.events[t.pk])
                for n, t in sorted(numbered[cast(int, pk)] for pk in line.events)
            )
            if numbered
            else (),
            _public(people[line.person]) if for_players else "",
        )
        for line in lines
    ]
    return SeriesTable(series, events, rows, frozen=frozen)


def _public(person: Person) -> str:
    if not person.public_listed:
        return str(UNLISTED)
    return public_name(person.name, person.public_full_name)


def describe(series: Series) -> str:
    """How the series counts, in the reader's language (or the sheet's two)."""
    if series.points_table == Series.Table.PLACE:
        rule = _(
            "points by place in the division: %(points)s",
            points=series.place_points.replace(",", ", "),
        )
    elif series.points_table == Series.Table.TOTAL:
        rule = _("each event's total points")
    else:
        rule = _("%(n)s points for taking part", n=series.participation_points)
    count = _("best %(n)s events", n=series.best_of) if series.best_of else _("every event")
    # The chain of domain.series.TIEBREAK_CHAIN, in words a reader reads.
    chain = _("series points, then best single event, then events played")
    return _("%(rule)s; counting %(count)s; ties by %(chain)s", rule=rule, count=count, chain=chain)


def series_csv_rows(table: SeriesTable) -> list[list[object]]:
    """The standings as CSV rows, for ``csvcells`` to write (names are anyone's text)."""
    # Read in a spreadsheet, imported by nothing: in the reader's language.
    header = [
        pgettext("CSV header", "rank"),
        pgettext("CSV header", "person"),
        pgettext("CSV header", "points"),
        pgettext("CSV header", "best"),
        pgettext("CSV header", "events"),
    ]
    rows: list[list[object]] = [[*header, *(t.name for t in table.events)]]
    not_counted = " (" + pgettext("CSV cell", "not counted") + ")"
    for row in table.rows:
        cells = []
        for t in table.events:
            score = row.line.events.get(t.pk)
            if score is None:
                cells.append("")
            else:
                mark = "" if score.counted else not_counted
                cells.append(f"{score.points}{mark} [{score.finish.division}{score.finish.place}]")
        rows.append(
            [
                row.line.rank,
                row.person.name,
                row.line.points,
                row.line.best,
                row.line.played,
                *cells,
            ]
        )
    return rows
