"""Registration before the day: applications from the event's public page,
invitations, the caps and the waitlist, the director's decisions, the player's private
link (also the check-in pass) and the check-in by scan.

Every write to an event's registrations first locks the event's ``RegistrationSettings``
row: applications, withdrawals, decisions, promotions and reorders of one event queue
behind each other, so a promotion racing a withdrawal, or two copies of one application,
each see what the other wrote (PostgreSQL; SQLite has one writer anyway).

Nothing here merges people: an accepted registrant becomes a ``Player`` through
``services.players.register_player``, whose linking proposes close names to the director.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import Joined, said
from tournaments.core.models.event import Division, Player, Tournament
from tournaments.core.reads.players import read_csv_lines
from tournaments.core.services import Conflict, NotFound, ServiceError, log, now_or
from tournaments.core.services.players import register_player, set_checked_in, set_withdrawn
from tournaments.registration.models import (
    PLACE_HOLDING,
    Registration,
    RegistrationAttempt,
    RegistrationPass,
    RegistrationSettings,
    RegistrationStatus,
)
from tournaments.registration.reads import (
    active_named,
    check_application,
    fits,
    folded_name,
    live_token,
    pass_of,
    read_pass,
    status_refusal,
)

Status = RegistrationStatus
MESSAGE_MAX = 500
ONLINE = "online"


class Throttled(ServiceError):
    status = 429


def new_token() -> str:
    return secrets.token_urlsafe(24)


def settings_for(tournament: Tournament) -> RegistrationSettings:
    """The event's registration settings, made (closed, no caps) on first use."""
    found, _created = RegistrationSettings.objects.get_or_create(
        tournament=tournament, defaults={"transfer_key": new_token()}
    )
    return found


def lock_registrations(tournament: Tournament) -> RegistrationSettings:
    """The event's settings row, locked: every registration write of the event takes it
    first, so they queue behind each other."""
    settings_for(tournament)
    return RegistrationSettings.objects.select_for_update().get(tournament=tournament)


def take_queue(reg_settings: RegistrationSettings) -> int:
    number = reg_settings.next_queue
    reg_settings.next_queue = number + 1
    reg_settings.save(update_fields=["next_queue"])
    return number


def _new_pass(registration: Registration, at: datetime) -> RegistrationPass:
    return RegistrationPass.objects.create(
        registration=registration, token=new_token(), created_at=at
    )


# --- the abuse rules -----------------------------------------------------------------------


def throttle(tournament: Tournament, address: str, *, now: datetime | None = None) -> None:
    """Count this request; refuse it past the limits per address and per event. The
    rows are in the database, so every app server process counts the same requests."""
    at = now_or(now)
    per_address, address_window = settings.REGISTRATION_LIMIT_PER_ADDRESS
    per_event, event_window = settings.REGISTRATION_LIMIT_PER_EVENT
    # Counted with its own row in: a burst sent at once read one count and all went on.
    mine = RegistrationAttempt.objects.create(tournament=tournament, address=address[:45], at=at)
    recent = RegistrationAttempt.objects.filter(tournament=tournament)
    if recent.filter(address=address, at__gt=at - timedelta(seconds=address_window)).count() > (
        per_address
    ):
        mine.delete()
        raise Throttled(
            _("Too many registrations from this address; try again later or ask the director.")
        )
    if recent.filter(at__gt=at - timedelta(seconds=event_window)).count() > per_event:
        mine.delete()
        raise Throttled(_("Too many registrations at once for this event; try again in a minute."))
    # Old rows are no use to either count.
    keep = max(address_window, event_window)
    RegistrationAttempt.objects.filter(
        tournament=tournament, at__lt=at - timedelta(seconds=keep)
    ).delete()


# --- places and the waitlist ---------------------------------------------------------------


def _promote(tournament: Tournament, reg_settings: RegistrationSettings, at: datetime) -> list[str]:
    """Promote from the waitlist, in its order, every application that now fits; each
    promotion is logged. In the caller's transaction, under the settings' lock."""
    promoted = []
    for waiting in Registration.objects.filter(tournament=tournament, status=Status.WAITLIST):
        if fits(tournament, reg_settings, waiting.division):
            waiting.status = Status.PENDING
            waiting.save(update_fields=["status"])
            log(
                tournament,
                ONLINE,
                "waitlist",
                said("registration.promoted_from_waitlist_place", name=waiting.name),
                at=at,
            )
            promoted.append(waiting.name)
    return promoted


def save_settings(
    tournament: Tournament,
    *,
    open: bool,
    cap_total: int | None,
    cap_a: int | None,
    cap_b: int | None,
    by: str,
) -> list[str]:
    """Open or close registration and set the caps; a raised cap promotes at once."""
    with transaction.atomic():
        reg_settings = lock_registrations(tournament)
        reg_settings.open, reg_settings.cap_total = open, cap_total
        reg_settings.cap_a, reg_settings.cap_b = cap_a, cap_b
        reg_settings.save(update_fields=["open", "cap_total", "cap_a", "cap_b"])
        caps = [
            said("registration.total", n=n) if label == "total" else f"{label} {n}"
            for label, n in (("total", cap_total), ("A", cap_a), ("B", cap_b))
            if n is not None
        ]
        line = (
            "registration.online_registration_open_caps"
            if open
            else "registration.online_registration_closed_caps"
        )
        what = said(line, caps=Joined(caps) if caps else said("registration.none"))
        # The hall's results offer this form on their page (``queries.registers_at``): a
        # line in their log too moves that page's version, so no phone keeps a stale link.
        played_as = Tournament.objects.filter(pk=tournament.pk).values_list("played_as", flat=True)
        for event in {tournament.pk, *played_as} - {None}:
            log(Tournament(pk=event), by, "registration", what)
        return _promote(tournament, reg_settings, now_or(None))


# --- applying ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    registration: Registration
    token: str
    # False when this was a copy of an application already recorded (the first answer).
    new: bool


def apply(
    tournament: Tournament,
    *,
    name: str,
    division: str,
    contact: str,
    consent: bool,
    client_key: str,
    now: datetime | None = None,
) -> Applied:
    """An application from the public page: a place while one is left under the caps,
    else the waitlist. A copy of it (the same client key) is answered as the first."""
    at = now_or(now)
    client_key = client_key.strip()[:64]
    if not client_key:
        raise ServiceError(_("The form is out of date; open the page again."))
    try:
        with transaction.atomic():
            reg_settings = lock_registrations(tournament)
            first = Registration.objects.filter(tournament=tournament, client_key=client_key)
            if (found := first.first()) is not None:
                return Applied(found, live_token(found), new=False)
            if not reg_settings.open or tournament.status != Tournament.Status.REGISTRATION:
                raise ServiceError(_("Registration for this event is closed."))
            name, division, contact = check_application(name, division, contact)
            if not consent:
                raise ServiceError(
                    _("Registering needs your consent to your results being published.")
                )
            folded = folded_name(name)
            if active_named(tournament, folded).exists():
                raise Conflict(
                    _(
                        "%(name)s has already applied. Use the link from that time, "
                        "or ask the director."
                    )
                    % {"name": name}
                )
            status = Status.PENDING if fits(tournament, reg_settings, division) else Status.WAITLIST
            registration = Registration.objects.create(
                tournament=tournament,
                uid=uuid.uuid4(),
                name=name,
                folded=folded,
                division=division,
                contact=contact,
                consent=True,
                status=status,
                queue=take_queue(reg_settings),
                client_key=client_key,
                created_at=at,
            )
            token = _new_pass(registration, at).token
            line = (
                "registration.applied_online_on_waitlist"
                if status == Status.WAITLIST
                else "registration.applied_online_for_place"
            )
            log(tournament, ONLINE, "apply", said(line, name=name), at=at)
    except IntegrityError:
        # A copy that raced past the lock's first read (another server's): the first
        # one's answer, or a name taken meanwhile.
        found = Registration.objects.filter(tournament=tournament, client_key=client_key).first()
        if found is None:
            raise Conflict(_("%(name)s has already applied.") % {"name": name}) from None
        return Applied(found, live_token(found), new=False)
    return Applied(registration, token, new=True)


def answer_invitation(
    token: str,
    *,
    division: str,
    contact: str,
    consent: bool,
    now: datetime | None = None,
) -> Registration:
    """An invitee takes up the invitation from their link: a place or the waitlist."""
    at = now_or(now)
    registration = pass_of(token).registration
    tournament = registration.tournament
    with transaction.atomic():
        reg_settings = lock_registrations(tournament)
        locked = Registration.objects.select_for_update().get(pk=registration.pk)
        if locked.status != Status.INVITED:
            return locked
        if not reg_settings.open or tournament.status != Tournament.Status.REGISTRATION:
            raise ServiceError(_("Registration for this event is closed."))
        _name, division, contact = check_application(locked.name, division, contact)
        if not consent:
            raise ServiceError(_("Registering needs your consent to your results being published."))
        fitting = fits(tournament, reg_settings, division)
        locked.status = Status.PENDING if fitting else Status.WAITLIST
        locked.division, locked.contact, locked.consent = division, contact, True
        locked.queue = take_queue(reg_settings)
        locked.save(update_fields=["status", "division", "contact", "consent", "queue"])
        line = (
            "registration.took_up_invitation_for"
            if fitting
            else "registration.took_up_invitation_on"
        )
        log(tournament, ONLINE, "apply", said(line, name=locked.name), at=at)
    return locked


def change_application(
    token: str, *, name: str, division: str, now: datetime | None = None
) -> Registration:
    """The player's answer to "please change": back to pending with what they changed."""
    at = now_or(now)
    tournament = pass_of(token).registration.tournament
    with transaction.atomic():
        lock_registrations(tournament)
        locked = Registration.objects.select_for_update().get(passes__token=token)
        if locked.status != Status.CHANGE:
            raise Conflict(_("The director is not waiting for a change to this application."))
        name, division, _contact = check_application(name, division, "")
        folded = folded_name(name)
        if active_named(tournament, folded).exclude(pk=locked.pk).exists():
            raise Conflict(_("%(name)s has already applied.") % {"name": name})
        old = locked.name
        locked.name, locked.folded, locked.division = name, folded, division
        locked.status, locked.message = Status.PENDING, ""
        locked.save(update_fields=["name", "folded", "division", "status", "message"])
        line = said("registration.changed_application", old=old, name=name)
        log(tournament, ONLINE, "apply", line, at=at)
    return locked


# --- the private link ----------------------------------------------------------------------


def withdraw(token: str, *, now: datetime | None = None) -> Registration:
    """One tap from the player's link, before the day: the place frees and the waitlist
    moves up. A second tap (or a copy racing the first) finds it withdrawn: same answer."""
    at = now_or(now)
    tournament = pass_of(token).registration.tournament
    with transaction.atomic():
        reg_settings = lock_registrations(tournament)
        locked = Registration.objects.select_for_update().get(passes__token=token)
        if locked.status == Status.WITHDRAWN:
            return locked
        if locked.status == Status.DECLINED:
            raise Conflict(_("This application was declined; there is nothing to withdraw."))
        if Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.REGISTRATION:
            raise Conflict(_("The event has started: tell the desk or the director."))
        held = locked.status in PLACE_HOLDING
        if locked.player_id is not None:
            set_withdrawn(cast(Player, locked.player), True, by=ONLINE, reason="withdrew online")
        locked.status = Status.WITHDRAWN
        locked.save(update_fields=["status"])
        line = said("registration.withdrew_online", name=locked.name)
        log(tournament, ONLINE, "withdraw", line, at=at)
        if held:
            _promote(tournament, reg_settings, at)
    return locked


# --- the director's decisions --------------------------------------------------------------


def _registration(tournament: Tournament, pk: int) -> Registration:
    found = Registration.objects.select_for_update().filter(tournament=tournament, pk=pk).first()
    if found is None:
        raise NotFound(_("No such application in this event."))
    return found


def decide(
    tournament: Tournament,
    pk: int,
    action: str,
    *,
    by: str,
    message: str = "",
    division: str = "",
    now: datetime | None = None,
) -> Registration:
    """Accept (the registrant becomes a player), ask for a change, or decline; the
    message is what the player reads on their link. A decision already taken is
    answered as it stands."""
    at = now_or(now)
    message = message.strip()[:MESSAGE_MAX]
    with transaction.atomic():
        reg_settings = lock_registrations(tournament)
        reg = _registration(tournament, pk)
        if action == "accept":
            if reg.status == Status.ACCEPTED:
                return reg
            if reg.status not in (Status.PENDING, Status.CHANGE):
                raise Conflict(status_refusal(reg))
            division = (division or reg.division).strip().upper()
            if division not in Division.values:
                raise ServiceError(_("Choose division A or B for %(name)s.") % {"name": reg.name})
            player = register_player(tournament, reg.name, division, by=by, now=at)
            reg.player, reg.division = player, division
            reg.status = Status.ACCEPTED
            summary = said(
                "registration.accepted_application_division", name=reg.name, division=division
            )
        elif action == "change":
            if reg.status == Status.CHANGE and reg.message == message:
                return reg
            if reg.status not in (Status.PENDING, Status.CHANGE):
                raise Conflict(status_refusal(reg))
            if not message:
                raise ServiceError(_("Say what should change: the player reads it."))
            reg.status = Status.CHANGE
            summary = said("registration.asked_change_application", name=reg.name)
        elif action == "decline":
            if reg.status == Status.DECLINED:
                return reg
            if reg.status == Status.WITHDRAWN:
                raise Conflict(status_refusal(reg))
            if not message:
                raise ServiceError(_("Give the reason: the player reads it."))
            held = reg.status in PLACE_HOLDING
            if reg.player is not None:
                # Accepted already: before the day the player is withdrawn (kept, as any
                # withdrawal is); once play has begun that is the Players page's business.
                if (
                    Tournament.objects.get(pk=tournament.pk).status
                    != Tournament.Status.REGISTRATION
                ):
                    raise Conflict(
                        _("The event has started: withdraw the player on the Players page.")
                    )
                if not reg.player.withdrawn:
                    set_withdrawn(reg.player, True, by=by, reason=message)
            reg.status = Status.DECLINED
            summary = said("registration.declined_application", name=reg.name)
        else:
            raise ServiceError(_("Accept, ask for a change, or decline."))
        reg.message, reg.decided_at, reg.decided_by = message, at, by
        reg.save(
            update_fields=["player", "division", "status", "message", "decided_at", "decided_by"]
        )
        log(tournament, by, "registration", summary, reason=message, at=at)
        if action == "decline" and held:
            _promote(tournament, reg_settings, at)
    return reg


def reorder(
    tournament: Tournament, pk: int, position: int, *, reason: str, by: str
) -> list[Registration]:
    """Move a waitlisted application to ``position`` (1 = next in line), with a reason;
    the waitlist is renumbered after the last number given."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Give the reason for changing the waitlist's order."))
    with transaction.atomic():
        reg_settings = lock_registrations(tournament)
        moving = _registration(tournament, pk)
        if moving.status != Status.WAITLIST:
            raise Conflict(_("%(name)s is not on the waitlist.") % {"name": moving.name})
        line = [
            r
            for r in Registration.objects.filter(tournament=tournament, status=Status.WAITLIST)
            if r.pk != moving.pk
        ]
        position = max(1, min(position, len(line) + 1))
        line.insert(position - 1, moving)
        for reg in line:
            reg.queue = take_queue(reg_settings)
            reg.save(update_fields=["queue"])
        log(
            tournament,
            by,
            "waitlist",
            said("registration.moved_place_on_waitlist", name=moving.name, n=position),
            reason=reason,
        )
    return line


def revoke(tournament: Tournament, pk: int, *, by: str, now: datetime | None = None) -> str:
    """Revoke a registration's link (and pass) and give it a new one; returns the token."""
    at = now_or(now)
    with transaction.atomic():
        lock_registrations(tournament)
        reg = _registration(tournament, pk)
        reg.passes.filter(revoked_at__isnull=True).update(revoked_at=at)
        token = _new_pass(reg, at).token
        line = said("registration.revoked_link_new_one", name=reg.name)
        log(tournament, by, "registration", line)
    return token


# --- invitations ----------------------------------------------------------------------------


@dataclass
class InvitationReport:
    invited: list[tuple[str, str]]
    errors: list[tuple[int, str]]


def invite(tournament: Tournament, data: bytes | str, *, by: str) -> InvitationReport:
    """Invitations from a CSV of regulars (``name[,division]``): one private link each;
    every line or none."""
    lines, refusal = read_csv_lines(data, header=("name",))
    report = InvitationReport([], [(0, refusal)] if refusal else [])
    if refusal:
        return report
    rows: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for number, cells in lines:
        if len(cells) > 2:
            report.errors.append((number, "expected name and an optional division."))
            continue
        try:
            name, division, _contact = check_application(
                cells[0], cells[1] if len(cells) > 1 else "", ""
            )
        except ServiceError as exc:
            report.errors.append((number, exc.message))
            continue
        folded = folded_name(name)
        if folded in seen or active_named(tournament, folded).exists():
            report.errors.append((number, f"{name} is already invited or registered."))
            continue
        seen.add(folded)
        rows.append((name, folded, division))
    if not rows and not report.errors:
        report.errors.append((0, "The file has no names."))
    if report.errors:
        return report
    at = now_or(None)
    with transaction.atomic():
        reg_settings = lock_registrations(tournament)
        for name, folded, division in rows:
            reg = Registration.objects.create(
                tournament=tournament,
                uid=uuid.uuid4(),
                name=name,
                folded=folded,
                division=division,
                status=Status.INVITED,
                queue=take_queue(reg_settings),
                created_at=at,
            )
            report.invited.append((name, _new_pass(reg, at).token))
        line = said("registration.invited_players_from_csv", n=len(rows))
        log(tournament, by, "invite", line, at=at)
    return report


# --- check-in by scan (the scan itself is read by ``reads.registration.read_pass``) --------


@dataclass(frozen=True)
class CheckedIn:
    player: Player
    at: datetime
    # Already checked in before this request (a second scan, another desk): unchanged.
    already: bool


def check_in_pass(tournament: Tournament, scanned: str, *, by: str) -> CheckedIn:
    """Check in the pass's player; a second request for the same pass, from this desk or
    another, changes nothing and says when the first one was."""
    scan = read_pass(tournament, scanned)
    if scan.refusal or scan.player is None:
        raise ServiceError(scan.refusal)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=scan.player.pk)
        if player.checked_in and player.checked_in_at is not None:
            return CheckedIn(player, player.checked_in_at, already=True)
        set_checked_in(tournament, [player.pk], True, by=by)
        player.refresh_from_db()
    return CheckedIn(player, cast(datetime, player.checked_in_at), already=False)
