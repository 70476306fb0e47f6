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
changes that one table's state version (``services/tablet/version.py``), so its next poll
reads the answer, and no other table's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..models import HelpRequest, Match, Player, Round, Seating, Tournament
from . import Conflict, NotFound, ServiceError, log, now_or

# After a request is resolved the table waits this long before it can call again.
COOLDOWN = timedelta(seconds=60)
# The table keeps seeing "resolved" this long, then the banner goes away.
RESOLVED_SHOWN_FOR = timedelta(minutes=2)


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


def _reason_text(request: HelpRequest) -> str:
    return f" ({request.get_reason_display()})" if request.reason else ""


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
                f"Table {table} called the director{_reason_text(request)}.",
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
            summary = f"Table {request.table}: {by} is on the way."
        else:
            request.resolved_by, request.resolved_at = by, now
            summary = (
                f"Table {request.table}'s call resolved by {by} after "
                f"{_duration(now - request.raised_at)}."
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


def _duration(span: timedelta) -> str:
    seconds = max(0, int(span.total_seconds()))
    return f"{seconds // 60} min {seconds % 60:02d} s"


# --- reads ------------------------------------------------------------------------------


def open_requests(tournament: Tournament) -> list[HelpRequest]:
    """The requests not yet resolved, oldest first (one query)."""
    return list(
        HelpRequest.objects.filter(tournament=tournament)
        .exclude(status=HelpRequest.Status.RESOLVED)
        .order_by("raised_at", "id")
    )


@dataclass(frozen=True)
class LogLine:
    request: HelpRequest

    @property
    def took(self) -> str:
        r = self.request
        return _duration(r.resolved_at - r.raised_at) if r.resolved_at else ""

    @property
    def answered_in(self) -> str:
        r = self.request
        return _duration(r.coming_at - r.raised_at) if r.coming_at else ""


def request_log(tournament: Tournament) -> list[LogLine]:
    """Every request, newest first, with how long the answer and the help took."""
    return [LogLine(r) for r in HelpRequest.objects.filter(tournament=tournament)]


def table_request(tournament_id: int, table: int, now: datetime) -> HelpRequest | None:
    """What the table sees: its open request, or its last one for a while once resolved
    (one query)."""
    latest = (
        HelpRequest.objects.filter(tournament_id=tournament_id, table=table)
        .order_by("-raised_at", "-id")
        .first()
    )
    if latest is None:
        return None
    if latest.resolved_at is not None and now - latest.resolved_at > RESOLVED_SHOWN_FOR:
        return None
    return latest


def request_json(request: HelpRequest | None) -> dict[str, object] | None:
    if request is None:
        return None
    return {
        "id": request.pk,
        "table": request.table,
        "reason": request.reason,
        "reason_label": str(request.get_reason_display()) if request.reason else "",
        "status": request.status,
        "status_label": str(request.get_status_display()),
        "raised_at": request.raised_at.isoformat(),
        "coming_by": request.coming_by,
        "resolved_by": request.resolved_by,
        "version": request.version,
    }


def tablet_words() -> dict[str, object]:
    """The words the tablet's script shows about a call, translated here."""
    return {
        "title": _("Call the director"),
        "text": _("The director's screens show your table at once. A reason helps (optional)."),
        "ok": _("Call the director"),
        "reasons": {value: str(label) for value, label in HelpRequest.Reason.choices},
        "calling": _("Calling the director…"),
        "offline": _("No network: the call did not reach the director. Please walk over."),
        "failed": _("The call did not go through. Please walk over."),
        "open": _("The director is called"),
        "coming": _("On the way:"),
        "resolved": _("Resolved by"),
    }


# --- a player's phone -------------------------------------------------------------------


@dataclass(frozen=True)
class PhoneSeat:
    """Who the phone's card is for, and the table they sit at now (None: not seated)."""

    name: str
    table: int | None


def phone_seat(tournament: Tournament, player_id: int) -> PhoneSeat:
    """The card's player and their table in the latest round; NotFound for a player of
    another event (or none). Two queries."""
    player = Player.objects.filter(tournament=tournament, pk=player_id).first()
    if player is None:
        raise NotFound(_("No such player."))
    rnd = Round.objects.filter(tournament=tournament).newest()
    seat = (
        Seating.objects.filter(round=rnd, player=player).only("table").first()
        if rnd is not None
        else None
    )
    return PhoneSeat(player.name, seat.table if seat is not None else None)


def call_from_phone(
    tournament: Tournament, player_id: int, *, reason: str, now: datetime | None = None
) -> Raised:
    """A player calls the director from their card, for the table they sit at."""
    seat = phone_seat(tournament, player_id)
    if seat.table is None:
        raise ServiceError(_("You are not seated at a table right now."))
    return call_director(tournament, seat.table, reason=reason, by=f"{seat.name} (phone)", now=now)
