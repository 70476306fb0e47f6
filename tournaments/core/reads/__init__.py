"""What pages, phones, sheets, the projector and the export read: no module here writes.

The helpers below are the ones every reader (and every service) uses."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify

from tournaments.core.models.event import Tournament
from tournaments.core.models.rounds import Round


def current_round(tournament: Tournament) -> Round | None:
    """The round being played or about to be: the highest-numbered one (the final once
    it is seated), with its tournament loaded for the clock."""
    return Round.objects.select_related("tournament").filter(tournament=tournament).newest()


def instant_of(value: object) -> datetime | None:
    """A timestamp column read by a raw cursor (SQLite answers text, PostgreSQL datetimes)."""
    if value is None:
        return None
    parsed = value if isinstance(value, datetime) else parse_datetime(str(value))
    if parsed is not None and timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, UTC)
    return parsed


def now_or(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def free_slug(name: str, among: QuerySet[Any], fallback: str) -> str:
    """A slug for ``name`` that no row of ``among`` has yet: the name's own, else with
    -2, -3, … after it (``fallback`` for a name with no letters to slug)."""
    base = slugify(name)[:120] or fallback
    slug, n = base, 2
    while among.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug
