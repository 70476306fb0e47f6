"""The commands: each one locks its rows, calls the rules (``tournaments.domain``) and
writes in one transaction. Views, admin actions and management commands call these to
change anything; what they only read is ``tournaments.reads``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils.text import slugify

from .. import compiled
from ..errors import BadRequest as BadRequest  # the services' refusals, named here too
from ..errors import Conflict as Conflict
from ..errors import NotFound as NotFound
from ..errors import ServiceError as ServiceError
from ..models import Activity, Match, Tournament
from ..reads import now_or as now_or


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
