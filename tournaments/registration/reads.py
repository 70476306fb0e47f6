"""What registration before the day reads: where an application stands, the
player's private link, the close names and suggested divisions beside each application on
the director's page, and a scanned pass as the desk reads it before checking it in.

``services.registration`` holds the commands (apply, withdraw, decide, invite, check in);
everything here only reads, so the pages and the desk's scan run no transaction.
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from tournaments.common.errors import NotFound, ServiceError
from tournaments.common.names import clean_name, fold, name_key, name_refusal
from tournaments.core.models.event import Division, Player, Tournament
from tournaments.core.models.people import Person
from tournaments.core.reads.linking import plan_links
from tournaments.core.roles import DESK_GROUP, DIRECTOR_GROUP
from tournaments.domain.rating import PlayerId, Rating, split_divisions
from tournaments.registration.models import (
    PLACE_HOLDING,
    Registration,
    RegistrationPass,
    RegistrationSettings,
    RegistrationStatus,
)

# Slug characters only (token_urlsafe), so a token fits a URL path and the desk's parser.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{20,64}")


def folded_name(name: str) -> str:
    """The name as the one-application-per-name rule compares it (``names.fold``)."""
    return " ".join(fold(name).split())


def staff_names() -> set[str]:
    """The folded names and usernames of every account with a role in a club (or, as
    before clubs, a role group) or the staff flag."""
    users = get_user_model().objects.filter(
        Q(is_staff=True)
        | Q(is_superuser=True)
        | Q(memberships__isnull=False)
        | Q(groups__name__in=[DIRECTOR_GROUP, DESK_GROUP])
    )
    return {
        folded_name(n)
        for username, first, last in users.values_list("username", "first_name", "last_name")
        for n in (username, f"{first} {last}", first)
        if folded_name(n)
    }


def place_holders(tournament: Tournament) -> QuerySet[Registration]:
    return Registration.objects.filter(tournament=tournament, status__in=PLACE_HOLDING)


def fits(tournament: Tournament, reg_settings: RegistrationSettings, division: str) -> bool:
    """Whether one more application asking for ``division`` fits under the caps."""
    holders = place_holders(tournament)
    if reg_settings.cap_total is not None and holders.count() >= reg_settings.cap_total:
        return False
    cap = {"A": reg_settings.cap_a, "B": reg_settings.cap_b}.get(division)
    return cap is None or holders.filter(division=division).count() < cap


def active_named(tournament: Tournament, folded: str) -> QuerySet[Registration]:
    """The event's applications under this folded name that still hold it."""
    return Registration.objects.filter(
        tournament=tournament,
        folded=folded,
        status__in=[s for s in RegistrationStatus.values if s not in ("declined", "withdrawn")],
    )


def live_token(registration: Registration) -> str:
    token: str = (
        registration.passes.filter(revoked_at__isnull=True).values_list("token", flat=True).first()
        or ""
    )
    return token


def copies_of(results: Tournament) -> QuerySet[Tournament]:
    """On the club site, the registration copies of the event whose results arrived as
    ``results`` (docs/series.md): the events of its club, neither imported nor itself,
    holding the applications its players came from (their uids, which the hall's file
    carries from the signed list), still taking registrations or already following these
    results. From the first file that carries them, one published before the hall's round 1
    included: the club lists the event once from then on (its copy keeps taking
    registrations until the hall starts, ``played``)."""
    uids = Player.objects.filter(tournament=results, registration_uid__isnull=False)
    held = Registration.objects.filter(uid__in=uids.values("registration_uid"))
    taking = Q(played_as__isnull=True, status=Tournament.Status.REGISTRATION)
    return (
        Tournament.objects.filter(club=results.club_id, imported_from__isnull=True)
        .filter(Q(played_as=results) | taking)
        .filter(pk__in=held.values("tournament"))
        .exclude(pk=results.pk)
    )


@dataclass(frozen=True)
class Played:
    """What a registration copy's private link says once its event was played at the hall:
    the results' event and, when she played, the player she is there."""

    results: Tournament
    player: Player | None


def played(registration: Registration) -> Played | None:
    """Where the hall's results of the application's event are (``Tournament.played_as``),
    or None while none arrived or the hall has not drawn round 1: until then her link
    says where her application stands and keeps her pass for the hall's desk."""
    results = registration.tournament.played_as
    if results is None or results.status == Tournament.Status.REGISTRATION:
        return None
    player = Player.objects.filter(tournament=results, registration_uid=registration.uid).first()
    withdrew = registration.status != Registration.Status.ACCEPTED
    if player is not None and not player.checked_in and withdrew:
        # Withdrawn here after the list went to the hall, and never came: the results
        # hold only the list's name, whose card would send her to the desk.
        player = None
    return Played(results, player)


def status_refusal(reg: Registration) -> str:
    # The status is the model's translated label, put into a sentence with a placeholder.
    return _("%(name)s's application is %(status)s.") % {
        "name": reg.name,
        "status": str(reg.get_status_display()).lower(),
    }


def pass_of(token: str) -> RegistrationPass:
    """The live pass of a private link; a revoked or unknown one is refused."""
    if not TOKEN_RE.fullmatch(token):
        raise NotFound(_("No such registration link."))
    found = (
        RegistrationPass.objects.select_related("registration__tournament")
        .filter(token=token)
        .first()
    )
    if found is None:
        raise NotFound(_("No such registration link."))
    if found.revoked_at is not None:
        raise NotFound(_("This link was revoked by the director; ask for the new one."))
    return found


@dataclass(frozen=True)
class Standing:
    """Where an application stands, as its player reads it."""

    status: str
    place: int | None
    of: int | None
    waitlist: int | None


def standing(registration: Registration) -> Standing:
    t = registration.tournament
    if registration.status in PLACE_HOLDING:
        holders = place_holders(t)
        place = holders.filter(queue__lte=registration.queue).count()
        # Read, not made: an event with applications has its settings row already.
        rs = RegistrationSettings.objects.filter(tournament=t).first() or RegistrationSettings()
        of = rs.cap_total or {"A": rs.cap_a, "B": rs.cap_b}.get(registration.division)
        return Standing(registration.status, place, of or holders.count(), None)
    if registration.status == RegistrationStatus.WAITLIST:
        ahead = Registration.objects.filter(
            tournament=t, status=RegistrationStatus.WAITLIST, queue__lte=registration.queue
        ).count()
        return Standing(registration.status, None, None, ahead)
    return Standing(registration.status, None, None, None)


@dataclass(frozen=True)
class Match:
    person_id: int
    name: str
    score: float
    rating: float | None


def close_people(
    tournament: Tournament, registrations: list[Registration]
) -> dict[int, list[Match]]:
    """Per application, the people whose names are close (best first, at most 3): shown
    to the director, never linked until the registrant is accepted (then proposed)."""
    if not registrations:
        return {}
    # An event's applications: matched against its own club's people only.
    club = tournament.club_id
    plan = plan_links([r.name for r in registrations], club)
    ids = {pk for found in plan.close.values() for pk, _ in found}
    people = {p.pk: p for p in Person.objects.filter(pk__in=ids).only("name", "rating_mu")}
    exact: dict[str, list[int]] = {}
    for pk, key in Person.objects.filter(
        merged_into__isnull=True,
        club=club,
        name_key__in={name_key(r.name) for r in registrations},
    ).values_list("pk", "name_key"):
        exact.setdefault(key, []).append(pk)
    out = {}
    for r in registrations:
        found = plan.close.get(name_key(r.name), [])
        out[r.pk] = [
            Match(pk, people[pk].name, score, people[pk].rating_mu)
            for pk, score in found[:3]
            if pk in people
        ]
    return out


def suggested_divisions(
    tournament: Tournament, registrations: list[Registration]
) -> dict[int, str]:
    """A division for each application whose name is exactly one rated person's of the
    event's club: the stronger half of the rated applicants in A (docs/rating.md)."""
    keys = {r.pk: name_key(r.name) for r in registrations}
    by_key: dict[str, list[Person]] = {}
    for person in Person.objects.filter(
        merged_into__isnull=True,
        club=tournament.club_id,
        name_key__in=set(keys.values()),
        rating_mu__isnull=False,
    ):
        by_key.setdefault(person.name_key, []).append(person)
    rated: dict[PlayerId, Rating] = {}
    for pk, key in keys.items():
        found = by_key.get(key, [])
        if len(found) == 1:
            p = found[0]
            rated[pk] = Rating(
                cast(float, p.rating_mu), cast(float, p.rating_sigma), p.rating_matches
            )
    return {cast(int, pk): d for pk, d in split_divisions(rated).items()}


PASS_IN_URL = re.compile(r"/e/([-a-zA-Z0-9_]+)/r/([A-Za-z0-9_-]{20,64})/?(?:[?#].*)?$")


@dataclass(frozen=True)
class Scan:
    """What the desk reads from a scanned pass: the player, or why it is refused."""

    refusal: str
    registration: Registration | None = None
    player: Player | None = None
    checked_in_at: datetime | None = None


def read_pass(tournament: Tournament, scanned: str) -> Scan:
    """The pass's player in this event, or the reason it is refused (read only).

    The token decides, not the address around it: the pass's link names the club site's
    event, and the hall's event that imported the list has a slug of its own (the club
    site keeps the registration event under the club's slug, so the results the hall
    publishes must arrive under another)."""
    scanned = scanned.strip()[:2000]
    url = PASS_IN_URL.search(scanned)
    token = url.group(2) if url else scanned
    if not TOKEN_RE.fullmatch(token):
        return Scan("This is not a pass of Snowman: scan the QR code on the player's link.")
    found = (
        RegistrationPass.objects.select_related("registration__tournament", "registration__player")
        .filter(token=token)
        .first()
    )
    if found is None and url and url.group(1) != tournament.slug:
        # A pass of an event this server may not even know (another club's).
        other = Tournament.objects.filter(slug=url.group(1)).values_list("name", flat=True).first()
        return Scan(f"This pass is for another event ({other or url.group(1)}).")
    if found is None:
        return Scan("Unknown pass: not on this event's registration list.")
    reg = found.registration
    if reg.tournament_id != tournament.pk:
        return Scan(f"This pass is for another event ({reg.tournament.name}).")
    if found.revoked_at is not None:
        return Scan("This pass was revoked; ask for the player's new link.", reg)
    if reg.status != RegistrationStatus.ACCEPTED or reg.player is None:
        return Scan(f"{reg.name} is not accepted ({reg.get_status_display()}).", reg)
    player = reg.player
    if player.withdrawn:
        return Scan(f"{player.name} has withdrawn.", reg, player)
    return Scan("", reg, player, player.checked_in_at if player.checked_in else None)


def key_matches(tournament: Tournament, key: str) -> bool:
    """Whether ``key`` is the event's (compared in constant time); an event that never
    had registration settings has no key."""
    own = (
        RegistrationSettings.objects.filter(tournament=tournament)
        .values_list("transfer_key", flat=True)
        .first()
    )
    return own is not None and hmac.compare_digest(own.encode(), key.encode())


# The longest contact an application keeps (an e-mail address or a telephone number).
CONTACT_MAX = 120


def check_application(name: str, division: str, contact: str) -> tuple[str, str, str]:
    """The application's name, division and contact cleaned, or a refusal: the check every
    way of applying makes, as ``reads.players.check_player`` is the players' (it writes
    nothing)."""
    name = clean_name(name)
    refusal = name_refusal(name)
    if refusal:
        raise ServiceError(refusal)
    if folded_name(name) in staff_names():
        raise ServiceError(_("This name belongs to a staff account; give your own full name."))
    division = division.strip().upper()
    if division not in ("", *Division.values):
        raise ServiceError(_("Ask for division A, B, or let the director decide."))
    contact = " ".join(contact.split())
    if len(contact) > CONTACT_MAX or not contact.isprintable():
        raise ServiceError(
            _("The contact is at most %(n)s printable characters.") % {"n": CONTACT_MAX}
        )
    return name, division, contact


def registrations(tournament: Tournament) -> QuerySet[Registration]:
    """An event's applications in their line's order, each with its live link's token
    (``token``; empty when revoked and not reissued) and its player."""
    live = RegistrationPass.objects.filter(
        registration=OuterRef("pk"), revoked_at__isnull=True
    ).values("token")[:1]
    return (
        Registration.objects.filter(tournament=tournament)
        .annotate(token=Subquery(live))
        .select_related("player")
        .order_by("queue")
    )
