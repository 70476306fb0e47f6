"""Every staff URL, for every identity across two clubs: each answers as the
roles say, and no object of another club is readable or writable: 404, whether it is
named by the URL's slug or by an id inside an own-club URL, GET or POST. A URL pattern
added to a staff URL module without a need here fails the walk."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tests.test_roles import DESK_PAGES
from tests.urlwalk import patterns_by_namespace
from tournaments.clubs import services
from tournaments.clubs.services import assign
from tournaments.core.models.event import Club, Player, Tournament
from tournaments.core.models.people import Person, PersonProposal
from tournaments.core.models.play import HandEntry
from tournaments.core.models.series import Series
from tournaments.core.models.staff import Invitation, Membership
from tournaments.core.roles import DESK, DIRECTOR, OWNER
from tournaments.core.simulate import demo_event
from tournaments.devices.models import HelpRequest
from tournaments.devices.services import call_director
from tournaments.prizes.services import define_prize
from tournaments.series.services import add_event, create_series

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")

# The staff URL modules walked here, and the need of their pages: an event page's need is
# the desk's for DESK_PAGES (tests/test_roles.py), else the director's; the league pages
# (series, people) need a club-wide director; the club's staff pages its owner.
WALKED = {"director", "sheets", "league", "clubs", "money", "records"}
# Namespaces not walked here, and where they are tested instead.
NOT_WALKED = {
    "admin": "test_the_admin_shows_staff_their_own_clubs_rows_only (below)",
    "public": "players' pages, open to all: tests/test_hidden.py walks them",
    "money_public": "a player's own money beside their card: tests/test_hidden.py",
    "series_public": "open to all: tests/test_hidden.py",
    "record": "a person's own record by their private link: tests/test_hidden.py walks it, "
    "tests/test_record_views.py checks who reaches it",
    "club_public": "open to all: tests/test_clubs.py",
    "publish": "a hall's results with a club's own token: "
    "test_publish.py::test_a_token_of_one_club_publishes_into_that_club_only",
    "tablet": "a table's secret link: test_a_tablet_link_reaches_its_own_table_only (below)",
    None: "sign-in, sign-out, language, the invitation link (tests/test_clubs.py)",
}


def need_of(name: str) -> str:
    namespace = name.split(":")[0]
    if namespace == "clubs":
        return OWNER
    if namespace == "league" and name != "league:suggest":
        return "league"
    if name == "records:erase":
        return "league owner"  # the club's owner, club-wide
    if namespace == "records":
        return "league"
    return DESK if name in DESK_PAGES else DIRECTOR


def staff_patterns() -> list[tuple[str, list[str]]]:
    found, unknown = patterns_by_namespace(WALKED, NOT_WALKED)
    assert not unknown, f"URL modules neither walked nor named as tested elsewhere: {unknown}"
    return found


@dataclass
class Side:
    """One club's objects, each a value a URL pattern takes."""

    club: Club
    event: Tournament
    other_event: Tournament
    series: Series
    values: dict[str, dict[str, object]]


def side(club: Club, name: str) -> Side:
    now = timezone.now()
    event = demo_event(2, f"{name} Open", round_started=now, club=club)
    other = demo_event(2, f"{name} Cup", round_started=now, club=club, seed=5)
    series = create_series(f"{name} League", club=club)
    add_event(series, event)
    prize = define_prize(
        event, name="Top", figure="total", highest=True, division="", by="test", now=now
    )
    help_request = call_director(event, 1, reason="other", by="Table 1", now=now).request
    player = Player.objects.filter(tournament=event).order_by("pk").first()
    hand = HandEntry.objects.filter(
        match__round__tournament=event, match__round__number=3, match__table=1
    ).first()
    person = Person.objects.filter(club=club).first()
    candidate = Person.objects.filter(club=club).exclude(pk=person.pk).first()
    proposal = PersonProposal.objects.create(
        person=person, candidate=candidate, score=91.0, created_at=now
    )
    invitation = services.invite(club, DESK, by="test")
    values: dict[str, dict[str, object]] = {
        "*": {
            "slug": event.slug,
            "number": 3,
            "table": 1,
            "pk": player.pk,
            "division": "A",
            "action": "pause",
            "club": club.slug,
            "tslug": event.slug,
        },
        "director:help_answer": {"pk": help_request.pk, "action": "on-my-way"},
        "director:prize_remove": {"pk": prize.pk},
        "director:hand_correct": {"pk": hand.pk if hand else 1},
        "director:hand_late_sync": {"pk": hand.pk if hand else 1},
        "director:table_substitution_correct": {"pk": 1},
        "league:person": {"pk": person.pk},
        "league:person_merge": {"pk": person.pk},
        "league:person_split": {"pk": person.pk},
        "league:proposal": {"pk": proposal.pk},
        "records:person": {"pk": person.pk},
        "records:json": {"pk": person.pk},
        "records:csv": {"pk": person.pk},
        "records:erase": {"pk": person.pk},
        "clubs:revoke": {"pk": invitation.pk},
    }
    for name in ("series", "series_add", "series_import", "series_csv", "series_pdf"):
        values[f"league:{name}"] = {"slug": series.slug}
    values["league:series_remove"] = {"slug": series.slug, "tslug": event.slug}
    return Side(club, event, other, series, values)


def url_of(name: str, kwargs: list[str], target: Side) -> str:
    filled = {**target.values["*"], **target.values.get(name, {})}
    missing = [k for k in kwargs if k not in filled]
    if missing:
        pytest.fail(f"{name}: the walk cannot fill <{missing[0]}>; teach it how")
    return reverse(name, kwargs={k: filled[k] for k in kwargs})


def cross_url(name: str, kwargs: list[str], own: Side, other: Side) -> str | None:
    """``name`` at the own club's event, series or club, with the other club's ids in it
    (a player, a prize, a series' event...): None when the pattern takes no id."""
    ids = [k for k in kwargs if k in ("pk", "tslug")]
    if not ids:
        return None
    mine = {**own.values["*"], **own.values.get(name, {})}
    theirs = {**other.values["*"], **other.values.get(name, {})}
    return reverse(name, kwargs={k: (theirs if k in ids else mine)[k] for k in kwargs})


@pytest.fixture
def world(django_user_model):
    alpha = services.create_club("Alpha club", "alpha")
    beta = services.create_club("Beta club", "beta")
    users = {}

    def make(name: str, club: Club | None, role: str | None, events=()) -> Client:
        account = django_user_model.objects.create_user(name, password="x-long-password-1")
        if role:
            assign(account, role, club, events)
        users[name] = account
        c = Client()
        c.force_login(account)
        return c

    clients = {"owner": make("olga", alpha, OWNER)}
    a, b = side(alpha, "Alpha"), side(beta, "Beta")
    clients |= {
        "director of all": make("dora", alpha, DIRECTOR),
        "director of one event": make("dan", alpha, DIRECTOR, [a.event]),
        "desk": make("dave", alpha, DESK),
        "staff of the other club": make("bea", beta, DIRECTOR),
        "anonymous": Client(),
    }
    make("bob", beta, OWNER)
    # A desk member in each club whose removal the walk tries.
    for s, club in ((a, alpha), (b, beta)):
        make(f"extra-{club.slug}", club, DESK)
        extra = Membership.objects.get(club=club, user=users[f"extra-{club.slug}"])
        s.values["clubs:remove"] = {"pk": extra.pk}
    return a, b, clients, users


def expected_on_own(identity: str, need: str, name: str, target: str) -> str:
    """'ok', 'forbidden' (403), 'missing' (404) or 'login', for an A identity on club A's
    main event (target 'event') or on its other event (target 'other')."""
    if identity == "anonymous":
        return "login"
    if identity == "staff of the other club":
        return "missing"
    event_page = need in (DESK, DIRECTOR)
    if identity == "director of one event":
        if event_page:
            return "missing" if target == "other" else "ok"
        if need == OWNER:
            return "missing"  # no club-wide role: the club's pages do not exist for it
        return "forbidden"
    rank = {"owner": 3, "director of all": 2, "desk": 1}[identity]
    wanted = {OWNER: 3, "league owner": 3, "league": 2, DIRECTOR: 2, DESK: 1}[need]
    return "ok" if rank >= wanted else "forbidden"


def check(response, expected: str, where: str, *, strict_ok: bool) -> None:
    code = response.status_code
    if expected == "login":
        assert code == 302 and response["Location"].startswith(LOGIN), (where, code)
    elif expected == "missing":
        # A POST-only page refuses a GET before any look-up: the same answer for every
        # address, existing or not, so it tells nothing either.
        assert code == 404 or (code == 405 and where[0] == "get"), (where, code)
    elif expected == "forbidden":
        assert code == 403, (where, code)
    else:
        assert code < 500 and code != 403, (where, code)
        assert not response.get("Location", "").startswith(LOGIN), where
        if strict_ok:
            assert code != 404, (where, code)


# Pages with no object in the URL: the lists, the console's home, a new event.
NO_OBJECT = {
    "director:home",
    "director:create",
    "league:series_list",
    "league:people",
    "league:ratings",
}


@pytest.mark.slow  # every staff URL for every identity: thousands of requests
def test_every_staff_url_answers_each_identity_of_two_clubs_as_the_roles_say(world):
    a, b, clients, _ = world
    patterns = staff_patterns()
    assert len(patterns) >= 70
    for method in ("get", "post"):
        for name, kwargs in patterns:
            if name in NO_OBJECT:
                continue
            need = need_of(name)
            own, other_club = url_of(name, kwargs, a), url_of(name, kwargs, b)
            cross = cross_url(name, kwargs, a, b)
            for identity, client in clients.items():
                send = getattr(client, method)
                # GETs come first and change nothing: an allowed page is found (not 404).
                expected = expected_on_own(identity, need, name, "event")
                check(send(own), expected, (method, identity, own), strict_ok=method == "get")
                if identity not in ("anonymous", "staff of the other club"):
                    # Another club's event, series, club: never found. A role that opens
                    # no page of this kind in any club is refused before any look-up (403,
                    # the same for every address, so it tells nothing either).
                    theirs = "forbidden" if expected == "forbidden" else "missing"
                    if need in (DESK, DIRECTOR) or need == OWNER:
                        theirs = "missing"
                    if need == "league owner":
                        # Found among the clubs one directs, then the owner's alone.
                        rank = {"owner": 3, "director of all": 2}.get(identity, 0)
                        theirs = "missing" if rank >= 2 else "forbidden"
                    check(send(other_club), theirs, (method, identity, other_club), strict_ok=False)
                if cross is not None and expected == "ok":
                    check(send(cross), "missing", (method, identity, cross), strict_ok=False)
            if "slug" in kwargs and need in (DESK, DIRECTOR) and name.split(":")[0] != "league":
                other_event = url_of(name, kwargs, a).replace(
                    f"/{a.event.slug}/", f"/{a.other_event.slug}/", 1
                )
                dan = clients["director of one event"]
                check(getattr(dan, method)(other_event), "missing", (method, name), strict_ok=False)


def test_the_lists_show_only_the_users_own_clubs_rows(world):
    a, b, clients, _ = world
    for identity in ("owner", "director of all"):
        client = clients[identity]
        home = client.get(reverse("director:home")).content.decode()
        assert a.event.name in home and b.event.name not in home
        series = client.get(reverse("league:series_list")).content.decode()
        assert a.series.name in series and b.series.name not in series
        people = client.get(reverse("league:people")).content.decode()
        assert not any(
            p.name in people
            for p in Person.objects.filter(club=b.club).exclude(
                name__in=Person.objects.filter(club=a.club).values("name")
            )
        )
    dan = clients["director of one event"].get(reverse("director:home")).content.decode()
    assert a.event.name in dan and a.other_event.name not in dan
    for identity in ("desk", "director of one event"):
        for name in ("league:series_list", "league:people"):
            assert clients[identity].get(reverse(name)).status_code == 403, (identity, name)
    bea = clients["staff of the other club"].get(reverse("director:home")).content.decode()
    assert b.event.name in bea and a.event.name not in bea


def test_ids_of_another_club_in_forms_are_refused_and_change_nothing(world):
    a, b, clients, _ = world
    owner = clients["owner"]
    # A series of club A given club B's event.
    r = owner.post(reverse("league:series_add", args=[a.series.slug]), {"tournament": b.event.pk})
    assert r.status_code == 422
    assert not a.series.events.filter(tournament=b.event).exists()
    # A person of club A merged with a person of club B.
    keep = Person.objects.filter(club=a.club).first()
    gone = Person.objects.filter(club=b.club).first()
    r = owner.post(
        reverse("league:person_merge", args=[keep.pk]), {"other": gone.pk, "reason": "same"}
    )
    assert r.status_code == 422
    gone.refresh_from_db()
    assert gone.merged_into_id is None
    # An invitation naming club B's event.
    r = owner.post(
        reverse("clubs:staff", args=[a.club.slug]), {"role": DESK, "events": [b.event.pk]}
    )
    assert r.status_code == 422
    assert not Invitation.objects.filter(club=a.club, role=DESK, events=b.event).exists()
    # A new event in club B, asked for by club A's owner.
    r = owner.post(reverse("director:create") + "?club=beta", {"name": "Sneaky"})
    assert r.status_code == 404
    assert not Tournament.objects.filter(name="Sneaky").exists()


def test_a_tablet_of_one_club_naming_another_clubs_match_gets_nothing_of_it(world):
    import json

    from tournaments.core.models.play import Match, TableLink

    a, b, _, _ = world
    link = TableLink.objects.filter(tournament=a.event, revoked_at__isnull=True).first()
    tablet = Client()
    assert tablet.get(f"/t/{link.token}/").status_code == 302
    theirs = Match.objects.filter(round__tournament=b.event).first()
    before = HandEntry.objects.filter(match=theirs).count()
    state = tablet.get(f"/t/table/state.json?match={theirs.pk}")
    assert state.status_code != 200 or b.event.name not in state.content.decode()
    assert b.event.name not in state.content.decode()
    for path, body in (
        ("first-dealer", {"seat": "N", "match": theirs.pk}),
        ("undo", {"number": 1, "match": theirs.pk}),
        ("hands", {"number": 1, "key": "cross-club-1", "outcome": "played", "match": theirs.pk}),
    ):
        r = tablet.post(f"/t/table/{path}", json.dumps(body), content_type="application/json")
        assert r.status_code >= 400 and b.event.name not in r.content.decode(), path
    assert HandEntry.objects.filter(match=theirs).count() == before


def test_a_phone_of_one_clubs_event_cannot_open_another_clubs_player(world, client):
    a, b, _, _ = world
    theirs = Player.objects.filter(tournament=b.event).first()
    assert client.get(reverse("public:card", args=[a.event.slug, theirs.pk])).status_code == 404
    assert (
        client.get(reverse("public:help_state", args=[a.event.slug, theirs.pk])).status_code == 404
    )
    before = HelpRequest.objects.count()
    r = client.post(
        reverse("public:help", args=[a.event.slug, theirs.pk]),
        '{"reason": "other"}',
        content_type="application/json",
    )
    assert r.status_code in (404, 422) and b.event.name not in r.content.decode()
    assert HelpRequest.objects.count() == before


def test_the_admin_shows_staff_their_own_clubs_rows_only(world, django_user_model):
    a, b, _, users = world
    dora = users["dora"]
    dora.is_staff = True
    dora.save()
    client = Client()
    client.force_login(dora)
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert a.event.name in listing and b.event.name not in listing
    assert client.get(f"/admin/tournaments/tournament/{b.event.pk}/change/").status_code == 302
    player = Player.objects.filter(tournament=b.event).first()
    assert client.get(f"/admin/tournaments/player/{player.pk}/change/").status_code == 302
    players = client.get("/admin/tournaments/player/?q=").content.decode()
    assert (
        player.name not in players
        or Player.objects.filter(tournament__club=a.club, name=player.name).exists()
    )
    # The filter's choices name no event of the other club either.
    assert b.event.name not in client.get("/admin/tournaments/player/").content.decode()
    root = django_user_model.objects.create_superuser("root", "r@example.com", "x")
    client.force_login(root)
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert a.event.name in listing and b.event.name in listing


def test_a_desk_role_in_another_club_opens_none_of_its_rows_in_the_admin(world, django_user_model):
    """The admin's permissions are the director's group, which a director's role in one
    club brings: a desk role in another club must not open that club's rows with them."""
    a, b, _, _ = world
    xavier = django_user_model.objects.create_user(
        "xavier", password="x-long-password-1", is_staff=True
    )
    assign(xavier, DIRECTOR, a.club)
    assign(xavier, DESK, b.club)
    client = Client()
    client.force_login(xavier)
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert a.event.name in listing and b.event.name not in listing
    theirs = Player.objects.filter(tournament=b.event).order_by("pk").first()
    change = f"/admin/tournaments/player/{theirs.pk}/change/"
    assert client.get(change).status_code == 302
    client.post(change, {"name": "Renamed by a desk"})
    theirs.refresh_from_db()
    assert theirs.name != "Renamed by a desk"
    assert client.get(f"/admin/tournaments/club/{b.club.pk}/change/").status_code == 302
    assert client.get(f"/admin/tournaments/series/{b.series.pk}/change/").status_code == 302


def test_every_admin_list_answers_club_staff_with_their_own_clubs_rows_only(world):
    from django.contrib import admin

    from tournaments.publishing.models import Publication, PublishGrant
    from tournaments.publishing.services import configure, grant

    a, b, _, users = world
    grant("alpha-hall-open", series=a.series, by="test")
    grant("beta-hall-open", series=b.series, by="test")
    configure(b.event, club_url="https://beta.example.com", token="t" * 20, by="test")
    dora = users["dora"]
    dora.is_staff = True
    dora.save()
    client = Client()
    client.force_login(dora)
    for model in admin.site._registry:
        if model._meta.app_label != "tournaments":
            continue
        url = f"/admin/tournaments/{model._meta.model_name}/"
        response = client.get(url)
        assert response.status_code == 200, url
    grants = client.get("/admin/tournaments/publishgrant/").content.decode()
    assert "alpha-hall-open" in grants and "beta-hall-open" not in grants
    assert PublishGrant.objects.count() == 2
    theirs = Publication.objects.get(tournament=b.event)
    assert client.get(f"/admin/tournaments/publication/{theirs.pk}/change/").status_code == 302


def test_only_the_clubs_owner_changes_its_name_or_address_in_the_admin(world):
    a, _, _, users = world
    for name in ("dora", "olga"):
        users[name].is_staff = True
        users[name].save()
    change = f"/admin/tournaments/club/{a.club.pk}/change/"
    director, owner = Client(), Client()
    director.force_login(users["dora"])
    owner.force_login(users["olga"])
    day = {"created_at_0": "2026-01-01", "created_at_1": "10:00:00"}
    director.post(change, {"name": "Taken over", "slug": "taken", **day})
    a.club.refresh_from_db()
    assert (a.club.name, a.club.slug) == ("Alpha club", "alpha")
    # Not a site path either (services.clubs.RESERVED_SLUGS), whoever asks.
    assert owner.post(change, {"name": "Alpha", "slug": "results", **day}).status_code == 200
    a.club.refresh_from_db()
    assert a.club.slug == "alpha"
    assert owner.post(change, {"name": "Alpha Euchre", "slug": "alpha", **day}).status_code == 302
    a.club.refresh_from_db()
    assert a.club.name == "Alpha Euchre"


def test_a_url_pattern_the_walk_cannot_fill_fails_the_walk(world, monkeypatch):
    a, *_ = world
    with pytest.raises(pytest.fail.Exception, match="cannot fill <seat>"):
        url_of("director:new", ["seat"], a)


def test_a_new_url_module_neither_walked_nor_named_fails_the_walk(monkeypatch):
    from tests import test_club_scoping

    monkeypatch.setattr(test_club_scoping, "WALKED", WALKED - {"sheets"})
    with pytest.raises(AssertionError, match="sheets:standings"):
        staff_patterns()


def staff_need(callback: object) -> tuple[str, str | None] | None:
    """The access decorator's mark on a view, however many decorators lie around it."""
    while callback is not None:
        need = getattr(callback, "staff_need", None)
        if need is not None:
            return need
        callback = getattr(callback, "__wrapped__", None)
    return None


def test_every_staff_view_wears_an_access_decorator_matching_its_url():
    unchecked = []

    def visit(patterns: list[object], namespace: str | None) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                visit(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and namespace in WALKED:
                need = staff_need(p.callback)
                converters = set(p.pattern.converters)
                scope = need[0] if need else None
                fits = (
                    (scope == "event" and "slug" in converters)
                    or (scope == "club" and "club" in converters)
                    or scope in ("league", "staff")
                )
                if not fits:
                    unchecked.append(f"{namespace}:{p.name}")

    visit(get_resolver().url_patterns, None)
    assert not unchecked, f"staff URLs whose view no access decorator checks: {unchecked}"


def test_the_decorator_check_finds_a_view_without_one():
    def bare(request):  # a view a new URL might add, scoped by nobody
        return None

    assert staff_need(bare) is None
    from tournaments.core.views.access import event_staff

    assert staff_need(event_staff(DESK)(bare)) == ("event", DESK)
