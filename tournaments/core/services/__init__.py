"""The commands: each one locks its rows, calls the rules (``tournaments.domain``) and
writes in one transaction. Views, admin actions and management commands call these to
change anything; what they only read is ``tournaments.reads``.
"""

from __future__ import annotations

import weakref
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from tournaments.common.errors import BadRequest as BadRequest
from tournaments.common.errors import Conflict as Conflict
from tournaments.common.errors import NotFound as NotFound
from tournaments.common.errors import ServiceError as ServiceError
from tournaments.core.db import compiled
from tournaments.core.logtext import Said
from tournaments.core.models.event import Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.play import Match
from tournaments.core.reads import now_or as now_or


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
    refuse_held(match.pk)
    return locking_matches().get(pk=match.pk)


# The matches each connection holds for a run of hands (``play.holding``): a lock of one
# would read a row the hold has not written yet, and the hold would then write over it.
HELD: weakref.WeakKeyDictionary[Any, set[int]] = weakref.WeakKeyDictionary()


def refuse_held(match_id: int) -> None:
    if match_id in HELD.get(transaction.get_connection(), ()):
        raise RuntimeError("The match is held for a run of its hands: end the hold first.")


def log(
    tournament: Tournament,
    actor: str,
    action: str,
    line: Said,
    *,
    reason: str = "",
    match: Match | None = None,
    at: datetime | None = None,
) -> Activity:
    """Write one line of the activity log. ``line`` is a line's key and its arguments
    (``said("rounds.started", round=...)``), never a sentence already formatted: the log is
    read in each reader's language (logtext.py, loglines.py)."""
    if not isinstance(line, Said):
        raise TypeError("log() takes said(key, ...), not formatted text")
    activity = Activity(
        tournament=tournament,
        actor=actor,
        action=action,
        message=line.key,
        args=line.stored(),
        reason=reason,
        match=match,
        at=now_or(at),
    )
    # Activity.objects.create(), compiled once: every write of the hand path logs.
    compiled.insert(activity)
    return activity
