"""Which clubs, events, series and people a signed-in account works, and in what role
(issue 25). Every look-up of a staff page goes through here: the object comes with the
user's role on it in the same query, and an object of a club the user is not staff of is
simply not found (the page answers 404, never its data)."""

from __future__ import annotations

from typing import Any

from django.db.models import CharField, Exists, OuterRef, Q, QuerySet, Subquery, Value

from tournaments.core.models.event import Club, Tournament
from tournaments.core.models.people import Person
from tournaments.core.models.series import Series
from tournaments.core.models.staff import Invitation, Membership
from tournaments.core.roles import DESK, DIRECTOR, OWNER, RANK, Need, allows


def is_staff_member(user: Any) -> bool:
    """Staff of at least one club (a superuser always). The auth backend reads this with
    the user (``snowman_staff``), so asking costs no query on a page."""
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    known = getattr(user, "snowman_staff", None)
    if known is not None:
        return bool(known)
    return Membership.objects.filter(user=user.pk).exists()


def _club_wide() -> QuerySet[Membership]:
    """Memberships that cover every event of their club (an owner's always does)."""
    return Membership.objects.filter(Q(role=OWNER) | Q(events__isnull=True))


# The club-wide role each need asks for, as the roles that meet it.
_MEETS = {DESK: [OWNER, DIRECTOR, DESK], DIRECTOR: [OWNER, DIRECTOR], OWNER: [OWNER]}
_USER_FLAGS = {
    DESK: "snowman_club_desk",
    DIRECTOR: "snowman_club_director",
    OWNER: "snowman_club_owner",
}


def user_flags() -> dict[str, Exists]:
    """For the auth backend's user query (OuterRef pk): staff of any club, and a club-wide
    role meeting each need somewhere. Read with the user, they cost a page no query."""
    flags = {"snowman_staff": Exists(Membership.objects.filter(user=OuterRef("pk")))}
    for need, attr in _USER_FLAGS.items():
        flags[attr] = Exists(_club_wide().filter(user=OuterRef("pk"), role__in=_MEETS[need]))
    return flags


def has_club_role(user: Any, need: Need) -> bool:
    """Does the user hold a club-wide role meeting ``need`` in some club?"""
    if not is_staff_member(user):
        return False
    if user.is_superuser:
        return True
    known = getattr(user, _USER_FLAGS[need], None)
    if known is not None:
        return bool(known)
    return _club_wide().filter(user=user.pk, role__in=_MEETS[need]).exists()


def club_ids(user: Any, need: Need) -> QuerySet[Any]:
    """The ids of the clubs where the user's club-wide role meets ``need``, as a query the
    caller's own query takes as a subquery (no query of its own)."""
    if user.is_superuser:
        return Club.objects.values("pk")
    return _club_wide().filter(user=user.pk, role__in=_MEETS[need]).values("club_id")


def _event_role(user: Any) -> Subquery | Value:
    """The user's role on the tournament of the outer query: the club membership's role
    when it covers every event (or is the owner's) or names this one; else NULL."""
    if user.is_superuser:
        return Value(OWNER, output_field=CharField())
    return Subquery(
        Membership.objects.filter(user=user.pk, club=OuterRef("club_id"))
        .filter(Q(role=OWNER) | Q(events__isnull=True) | Q(events=OuterRef("pk")))
        .values("role")[:1],
        output_field=CharField(),
    )


def _club_role(user: Any, club_field: str = "pk") -> Subquery | Value:
    """The user's club-wide role in the club of the outer query (a membership limited to
    named events is no club-wide role)."""
    if user.is_superuser:
        return Value(OWNER, output_field=CharField())
    return Subquery(
        Membership.objects.filter(user=user.pk, club=OuterRef(club_field))
        .filter(Q(role=OWNER) | Q(events__isnull=True))
        .values("role")[:1],
        output_field=CharField(),
    )


def events_of(user: Any) -> QuerySet[Tournament]:
    """The tournaments the user works, each with ``staff_role``."""
    if not is_staff_member(user):
        return Tournament.objects.none()
    found = Tournament.objects.annotate(staff_role=_event_role(user))
    return found if user.is_superuser else found.filter(staff_role__isnull=False)


def event(user: Any, slug: str) -> Tournament | None:
    """The tournament ``slug`` with the user's ``staff_role`` on it; None when there is
    none or the user is no staff of it (the same answer: another club's event does not
    exist for this user)."""
    # Whether it is a copy a hall publishes comes with it (``reads.public.running_at_hall``).
    return events_of(user).select_related("imported_from").filter(slug=slug).first()


def event_role(user: Any, tournament: Tournament) -> str | None:
    """The user's role on a tournament already loaded (one query; none for a superuser)."""
    known = getattr(tournament, "staff_role", None)
    if known is not None or user.is_superuser:
        return OWNER if user.is_superuser else known
    found = events_of(user).filter(pk=tournament.pk).first()
    return None if found is None else getattr(found, "staff_role", None)


def clubs_of(user: Any, need: Need = DESK) -> list[Club]:
    """The clubs in which the user's club-wide role allows ``need``, each with
    ``staff_role``."""
    if not is_staff_member(user):
        return []
    clubs = Club.objects.annotate(staff_role=_club_role(user))
    return [c for c in clubs if allows(c.staff_role, need)]


def club(user: Any, slug: str, need: Need) -> Club | None:
    """The club ``slug`` when the user's club-wide role allows ``need``."""
    return next((c for c in clubs_of(user, need) if c.slug == slug), None)


def club_role(user: Any, club: Club) -> str | None:
    if user.is_superuser:
        return OWNER
    found = Membership.objects.filter(user=user.pk, club=club).first()
    if found is None:
        return None
    return found.role if found.role == OWNER or not found.events.exists() else None


def series_of(user: Any, need: Need) -> QuerySet[Series]:
    """The series of the clubs where the user's club-wide role allows ``need``."""
    return Series.objects.filter(club__in=[c.pk for c in clubs_of(user, need)])


def people_of(user: Any, need: Need) -> QuerySet[Person]:
    return Person.objects.filter(club__in=[c.pk for c in clubs_of(user, need)])


def may(user: Any, obj: Tournament | Series | Club | None, need: Need) -> bool:
    """What may this user do to this tournament, series or club? True when the user's
    role there allows ``need`` (a superuser: everything)."""
    if obj is None or not is_staff_member(user):
        return False
    if isinstance(obj, Tournament):
        return allows(event_role(user, obj), need)
    club_obj = obj.club if isinstance(obj, Series) else obj
    return allows(club_role(user, club_obj), need)


def staff_of(club: Club) -> list[Membership]:
    return list(
        Membership.objects.filter(club=club)
        .select_related("user")
        .prefetch_related("events")
        .order_by("-role", "user__username")
    )


def open_invitations(club: Club) -> list[Invitation]:
    return list(
        Invitation.objects.filter(club=club, used_at__isnull=True, revoked_at__isnull=True)
        .prefetch_related("events")
        .order_by("-created_at")
    )


def invitation(token: str) -> Invitation | None:
    return Invitation.objects.select_related("club").filter(token=token).first()


def club_events(club: Club) -> list[Tournament]:
    return list(Tournament.objects.filter(club=club).order_by("-created_at"))


def role_rank(role: str | None) -> int:
    return RANK.get(role or "", 0)


def club_invitation(club: Club, pk: int) -> Invitation | None:
    return Invitation.objects.filter(club=club, pk=pk).first()


def club_membership(club: Club, pk: int) -> Membership | None:
    return Membership.objects.filter(club=club, pk=pk).first()
