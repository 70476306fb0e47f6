"""The one bridge between the ORM and the rules.

Each service loads rows, calls ``tournaments.domain``, and writes in one transaction.
Views, admin actions and management commands call these functions and nothing else.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from ..models import Activity, Match, Round, Tournament


class ServiceError(Exception):
    """A refusal with a message for the person who asked; nothing was changed.

    ``status`` is the HTTP answer a JSON endpoint gives it: 422, the request was
    understood and refused (what the tablet's endpoints answer today), unless a subclass
    says otherwise."""

    status = 422

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class Conflict(ServiceError):
    """The request clashes with what another client already recorded."""

    status = 409


def current_round(tournament: Tournament) -> Round | None:
    """The round being played or about to be: the highest-numbered one (the final once
    it is seated), with its tournament loaded for the clock."""
    return Round.objects.select_related("tournament").filter(tournament=tournament).newest()


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
    return Activity.objects.create(
        tournament=tournament,
        actor=actor,
        action=action,
        summary=summary,
        reason=reason,
        match=match,
        at=now_or(at),
    )
