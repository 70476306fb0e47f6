"""Series: named groups of tournaments scored by a points table, best N of M events. The
commands: create one, add or remove an event (what a series shows is ``reads.series``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.models.event import Club, Tournament
from tournaments.core.models.series import Series, SeriesEvent
from tournaments.core.reads import free_slug
from tournaments.core.services import ServiceError, now_or
from tournaments.core.services.tournaments import site_club
from tournaments.domain.series import parse_place_points


def _check(points_table: str, place_points: str, best_of: int | None) -> str:
    if points_table not in Series.Table.values:
        raise ServiceError(_("Choose a points table: place, total or participation."))
    if best_of is not None and best_of < 1:
        raise ServiceError(_("Best N of M needs N of at least 1 (or empty to count every event)."))
    try:
        return ",".join(str(v) for v in parse_place_points(place_points))
    except ValueError as exc:
        raise ServiceError(str(exc)) from None


def create_series(
    name: str,
    *,
    points_table: str = Series.Table.PLACE,
    place_points: str = "25,20,16,13,11,10,9,8,7,6,5,4,3,2,1",
    participation_points: int = 10,
    best_of: int | None = None,
    now: datetime | None = None,
    club: Club | None = None,
) -> Series:
    """A new series of ``club`` (the site's one club when None)."""
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("Give the series a name."))
    place_points = _check(points_table, place_points, best_of)
    if participation_points < 0:
        raise ServiceError(_("Participation points cannot be negative."))
    try:
        with transaction.atomic():
            return Series.objects.create(
                club=club or site_club(),
                name=name,
                slug=free_slug(name, Series.objects.all(), "series"),
                points_table=points_table,
                place_points=place_points,
                participation_points=participation_points,
                best_of=best_of,
                created_at=now_or(now),
            )
    except IntegrityError as exc:
        raise ServiceError(_("Another series took this name meanwhile; try again.")) from exc


def add_event(series: Series, tournament: Tournament, *, now: datetime | None = None) -> bool:
    """Add a tournament to the series; False when it was already in it (nothing changes).
    A series counts its own club's events only, and never a rehearsal."""
    if tournament.club_id != series.club_id:
        raise ServiceError(_("No such event in this series' club."))
    if tournament.rehearsal:
        raise ServiceError(_("A rehearsal counts in no series; make it a real event first."))
    _row, created = SeriesEvent.objects.get_or_create(
        series=series, tournament=tournament, defaults={"added_at": now_or(now)}
    )
    return created


def remove_event(series: Series, tournament: Tournament) -> None:
    SeriesEvent.objects.filter(series=series, tournament=tournament).delete()
