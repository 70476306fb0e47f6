"""The one bridge between the ORM and the rules.

Each service loads rows, calls ``tournaments.domain``, and writes in one transaction.
Views, admin actions and management commands call these functions and nothing else.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify

from ..models import Activity, Match, Round, Tournament
from . import compiled


class ServiceError(Exception):
    """A refusal with a message for the person who asked; nothing was changed.

    ``status`` is the HTTP status a JSON endpoint answers it with: a well-formed request
    refused by the rules or the state of things is 422 (an invalid POST re-renders with
    422 too), a clash with another client 409, a body no client could send 400."""

    status = 422

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class Conflict(ServiceError):
    """The request clashes with what another client already recorded."""

    status = 409


class NotFound(ServiceError):
    """What the request names does not exist (an unknown table link)."""

    status = 404


class BadRequest(ServiceError):
    """A body no client of ours could have sent (not JSON, not a JSON object)."""

    status = 400


def current_round(tournament: Tournament) -> Round | None:
    """The round being played or about to be: the highest-numbered one (the final once
    it is seated), with its tournament loaded for the clock."""
    return Round.objects.select_related("tournament").filter(tournament=tournament).newest()


def free_slug(name: str, among: QuerySet[Any], fallback: str) -> str:
    """A slug for ``name`` that no row of ``among`` has yet: the name's own, else with
    -2, -3, … after it (``fallback`` for a name with no letters to slug)."""
    base = slugify(name)[:120] or fallback
    slug, n = base, 2
    while among.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def given_reason(reason: str, refusal: str, *, needed: bool = True) -> str:
    """The reason for a change, stripped; a blank one where one is ``needed`` is refused
    with ``refusal`` (what to give)."""
    reason = reason.strip()
    if needed and not reason:
        raise ServiceError(refusal)
    return reason


def locking_matches() -> QuerySet[Match]:
    """Matches read afresh with their round and tournament, the match row locked (the
    match row only: a plain FOR UPDATE would also lock the joined round and tournament
    rows on PostgreSQL, and every table's writers would wait for each other)."""
    return Match.objects.select_for_update(of=("self",)).select_related("round__tournament")


def lock_match(match: Match) -> Match:
    return locking_matches().get(pk=match.pk)


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


def log(
    tournament: Tournament,
    actor: str,
    action: str,
    summary: str,
    *,
    reason: str = "",
    match: Match | None = None,
    at: datetime | None = None,
) -> Activity:
    activity = Activity(
        tournament=tournament,
        actor=actor,
        action=action,
        summary=summary,
        reason=reason,
        match=match,
        at=now_or(at),
    )
    # Activity.objects.create(), compiled once: every write of the hand path logs.
    compiled.insert(activity)
    return activity
