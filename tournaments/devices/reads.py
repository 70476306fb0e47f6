"""A table's calls to the director as they read: the open requests and the log on the
director's screens, what the table and the player's phone see (``services.help_requests``
raises and answers them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from tournaments.common.errors import NotFound
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.rounds import Round, Seating
from tournaments.devices.models import HelpRequest

# The table keeps seeing "resolved" this long, then the banner goes away.
RESOLVED_SHOWN_FOR = timedelta(minutes=2)


def duration_text(span: timedelta) -> str:
    seconds = max(0, int(span.total_seconds()))
    return f"{seconds // 60} min {seconds % 60:02d} s"


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
        return duration_text(r.resolved_at - r.raised_at) if r.resolved_at else ""

    @property
    def answered_in(self) -> str:
        r = self.request
        return duration_text(r.coming_at - r.raised_at) if r.coming_at else ""


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
