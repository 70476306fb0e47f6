"""A table calls the director (issue 23, part 3).

A tablet or a player's phone raises a request for its table with an optional reason; every
director and desk screen shows the open requests within one poll; the director answers
"on my way" and then "resolved", which the table sees on its next poll. The database keeps
one open request per table (``one_open_help_request_per_table``): a second tap, a second
device or a retry is answered with the request already open. A table that was just helped
waits ``COOLDOWN`` before it can call again, so a stuck finger does not page the director
all evening. Every change is versioned: a director's click that no longer fits (a
colleague answered first) is a 409 with the request as it now stands; the same click
twice is answered as the first.

Each change is logged in the activity log against the table's latest match, which also
changes that one table's state version (``reads/tablet/version.py``), so its next poll
reads the answer, and no other table's. What the screens and the table read of the
requests is ``reads.help_requests``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import Said, of_choice, of_duration, said
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import Match
from tournaments.core.services import Conflict, NotFound, ServiceError, log, now_or
from tournaments.devices.models import HelpRequest
from tournaments.devices.reads import phone_seat

# After a request is resolved the table waits this long before it can call again.
COOLDOWN = timedelta(seconds=60)


class CoolingDown(ServiceError):
    """The table called a moment ago and was answered: it must wait (HTTP 429)."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(message)


@dataclass(frozen=True)
class Raised:
    request: HelpRequest
    duplicate: bool


def _latest_match(tournament_id: int, table: int) -> Match | None:
    return (
        Match.objects.filter(round__tournament_id=tournament_id, table=table)
        .order_by("-round__number", "-game")
        .first()
    )


def _called(request: HelpRequest) -> Said:
    if not request.reason:
        return said("help_requests.table_called_director_2", table=request.table)
    return said(
        "help_requests.table_called_director",
        table=request.table,
        reason=of_choice(HelpRequest.Reason(request.reason).label),
    )


def call_director(
    tournament: Tournament,
    table: int,
    *,
    reason: str,
    by: str,
    now: datetime | None = None,
) -> Raised:
    """Raise a request for ``table``, or answer with the one already open."""
    now = now_or(now)
    if reason and reason not in HelpRequest.Reason.values:
        raise ServiceError(_("Unknown reason."))
    match = _latest_match(tournament.pk, table)
    if match is None:
        raise NotFound(_("There is no table %(table)s in this event.") % {"table": table})
    open_now = HelpRequest.objects.filter(tournament=tournament, table=table).exclude(
        status=HelpRequest.Status.RESOLVED
    )
    existing = open_now.first()
    if existing is not None:
        return Raised(existing, duplicate=True)
    last = (
        HelpRequest.objects.filter(tournament=tournament, table=table, resolved_at__isnull=False)
        .order_by("-resolved_at")
        .first()
    )
    if last is not None and last.resolved_at is not None and now - last.resolved_at < COOLDOWN:
        wait = int((COOLDOWN - (now - last.resolved_at)).total_seconds()) + 1
        raise CoolingDown(
            _("The director just helped this table: you can call again in %(s)s s.") % {"s": wait},
            retry_after=wait,
        )
    try:
        with transaction.atomic():
            request = HelpRequest.objects.create(
                tournament=tournament, table=table, reason=reason, raised_by=by, raised_at=now
            )
            log(
                tournament,
                by,
                "help_called",
                _called(request),
                match=match,
                at=now,
            )
    except IntegrityError:
        # Two devices of one table called at the same instant: the database kept one.
        found = open_now.first()
        if found is None:
            raise
        return Raised(found, duplicate=True)
    return Raised(request, duplicate=False)


def _answer(
    tournament: Tournament,
    pk: int,
    version: int,
    *,
    to: str,
    by: str,
    now: datetime | None,
) -> HelpRequest:
    now = now_or(now)
    with transaction.atomic():
        request = (
            HelpRequest.objects.select_for_update().filter(tournament=tournament, pk=pk).first()
        )
        if request is None:
            raise NotFound(_("No such request."))
        if request.version != version:
            # The same click twice is answered as the first; anything else is stale.
            if request.status == to:
                return request
            raise Conflict(
                _("Table %(table)s's request was already answered: %(status)s.")
                % {"table": request.table, "status": request.get_status_display()}
            )
        if request.status == HelpRequest.Status.RESOLVED:
            raise Conflict(_("This request is already resolved."))
        request.status = to
        request.version += 1
        if to == HelpRequest.Status.COMING:
            request.coming_by, request.coming_at = by, now
            summary = said("help_requests.table_on_way", table=request.table, by=by)
        else:
            request.resolved_by, request.resolved_at = by, now
            summary = said(
                "help_requests.table_call_resolved_after",
                table=request.table,
                by=by,
                took=of_duration(now - request.raised_at),
            )
        request.save()
        log(
            tournament,
            by,
            "help_" + to,
            summary,
            match=_latest_match(tournament.pk, request.table),
            at=now,
        )
    return request


def on_my_way(
    tournament: Tournament, pk: int, version: int, *, by: str, now: datetime | None = None
) -> HelpRequest:
    return _answer(tournament, pk, version, to=HelpRequest.Status.COMING, by=by, now=now)


def resolve(
    tournament: Tournament, pk: int, version: int, *, by: str, now: datetime | None = None
) -> HelpRequest:
    return _answer(tournament, pk, version, to=HelpRequest.Status.RESOLVED, by=by, now=now)


# --- a player's phone -------------------------------------------------------------------


def call_from_phone(
    tournament: Tournament, player_id: int, *, reason: str, now: datetime | None = None
) -> Raised:
    """A player calls the director from their card, for the table they sit at."""
    seat = phone_seat(tournament, player_id)
    if seat.table is None:
        raise ServiceError(_("You are not seated at a table right now."))
    return call_director(tournament, seat.table, reason=reason, by=f"{seat.name} (phone)", now=now)
