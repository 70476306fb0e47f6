"""Clubs and their staff (issue 25): the site's club, memberships, one-time invitations."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.core.models.event import Club, Tournament
from tournaments.core.models.staff import Invitation, Membership, StaffRole
from tournaments.core.roles import DESK, DESK_GROUP, DIRECTOR_GROUP, OWNER, RANK, ensure_groups
from tournaments.core.services import ServiceError, now_or
from tournaments.core.services.tournaments import site_club

# The hall laptop's one club, and the club migration 0016 moved every existing row into.
# A club's slug is the first part of its public addresses (/<club>/<event>/): never one
# of the site's own first parts (tests/test_clubs.py reads them from the URLs).
RESERVED_SLUGS = frozenset(
    "admin accounts lang jsi18n director t e p series static join c results".split()  # noqa: SIM905
)


def create_club(name: str, slug: str = "", *, now: datetime | None = None) -> Club:
    name = name.strip()
    if not name:
        raise ServiceError(_("Give the club a name."))
    slug = slugify(slug or name)[:40]
    if not slug or slug in RESERVED_SLUGS:
        raise ServiceError(
            _("“%(slug)s” cannot be a club's address; choose another.") % {"slug": slug}
        )
    try:
        with transaction.atomic():
            return Club.objects.create(name=name, slug=slug, created_at=now_or(now))
    except IntegrityError as exc:
        raise ServiceError(
            _("Another club already has the address “%(slug)s”.") % {"slug": slug}
        ) from exc


def _club_events(club: Club, events: Iterable[Any]) -> list[Tournament]:
    """The named events, each of ``club``: an id of another club's event is refused as
    if it did not exist."""
    ids = {getattr(e, "pk", e) for e in events}
    found = list(Tournament.objects.filter(club=club, pk__in=ids))
    if len(found) != len(ids):
        raise ServiceError(_("No such event in this club."))
    return found


def set_membership(
    user: Any, club: Club, role: str, events: Iterable[Any] = (), *, now: datetime | None = None
) -> Membership:
    """Make ``user`` ``role`` of ``club`` (replacing any role there), for ``events`` only
    when some are named (an owner's role is never limited)."""
    if role not in StaffRole.values:
        raise ServiceError(_("Choose owner, director or desk."))
    named = [] if role == OWNER else _club_events(club, events)
    with transaction.atomic():
        membership, _created = Membership.objects.update_or_create(
            user=user, club=club, defaults={"role": role, "created_at": now_or(now)}
        )
        membership.events.set(named)
    return membership


def remove_member(club: Club, membership_id: int, *, by: Any) -> None:
    with transaction.atomic():
        membership = (
            Membership.objects.select_for_update().filter(club=club, pk=membership_id).first()
        )
        if membership is None:
            raise ServiceError(_("No such staff member in this club."))
        if membership.user_id == getattr(by, "pk", None):
            raise ServiceError(_("You cannot remove yourself; another owner can."))
        membership.delete()


def invite(
    club: Club,
    role: str,
    events: Iterable[Any] = (),
    *,
    by: str,
    note: str = "",
    now: datetime | None = None,
) -> Invitation:
    if role not in StaffRole.values:
        raise ServiceError(_("Choose owner, director or desk."))
    named = [] if role == OWNER else _club_events(club, events)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            club=club,
            token=secrets.token_urlsafe(24),
            role=role,
            note=note.strip()[:120],
            created_by=by,
            created_at=now_or(now),
        )
        invitation.events.set(named)
    return invitation


def revoke_invitation(club: Club, invitation_id: int, *, now: datetime | None = None) -> None:
    with transaction.atomic():
        n = Invitation.objects.filter(
            club=club, pk=invitation_id, used_at__isnull=True, revoked_at__isnull=True
        ).update(revoked_at=now_or(now))
    if not n:
        raise ServiceError(_("That link was already used or revoked."))


def accept_invitation(token: str, user: Any, *, now: datetime | None = None) -> Membership:
    """The signed-in ``user`` takes the link's role in its club; a link works once. An
    account that is already staff of the club keeps the higher of the two roles."""
    at = now_or(now)
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().filter(token=token).first()
        if invitation is None:
            raise ServiceError(_("This invitation link is not valid."))
        if invitation.revoked_at is not None:
            raise ServiceError(
                _("This invitation was revoked; ask the club's owner for a new one.")
            )
        if invitation.used_at is not None:
            raise ServiceError(_("This invitation was already used; each link works once."))
        current = Membership.objects.filter(user=user, club=invitation.club_id).first()
        if current is not None and _outranks(current, invitation):
            membership = current
        else:
            membership = set_membership(
                user,
                invitation.club,
                invitation.role,
                list(invitation.events.values_list("pk", flat=True)),
                now=at,
            )
        invitation.used_by = user
        invitation.used_at = at
        invitation.save(update_fields=["used_by", "used_at"])
    return membership


def _outranks(current: Membership, invitation: Invitation) -> bool:
    if RANK[current.role] != RANK[invitation.role]:
        return RANK[current.role] > RANK[invitation.role]
    # Same role: a club-wide membership is wider than one for named events.
    return not current.events.exists()


def assign(user: Any, role: str, club: Any = None, events: Any = ()) -> Any:
    """Make ``user`` ``role`` of ``club`` (the site's club when None: the hall laptop's
    one club), limited to ``events`` when given; returns the membership. The admin's
    group of the same name comes with it (model permissions for the admin)."""
    if role not in RANK:
        raise ValueError(f"role must be one of {', '.join(RANK)}, not {role!r}")
    ensure_groups(Group, Permission)
    group = DESK_GROUP if role == DESK else DIRECTOR_GROUP
    user.groups.add(Group.objects.get(name=group))
    return set_membership(user, club or site_club(), role, events)
