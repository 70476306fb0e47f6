"""Clubs: the migration into one club, invitations by a one-time link, the
owner's staff page, the public club page and its short addresses, the demo's club."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.clubs import services
from tournaments.clubs.services import assign
from tournaments.core.models.event import Club, Tournament
from tournaments.core.models.people import Person
from tournaments.core.models.series import Series
from tournaments.core.models.staff import Invitation, Membership
from tournaments.core.roles import DESK, DIRECTOR, OWNER, ensure_groups
from tournaments.core.services import ServiceError
from tournaments.core.simulate import demo_event
from tournaments.series.services import add_event, create_series

pytestmark = pytest.mark.django_db
BEFORE = [("tournaments", "0015_prizes")]
CLUB_TABLES = {"Club", "Membership", "Invitation"}


def counts() -> dict[str, int]:
    return {
        m.__name__: m.objects.count()
        for m in apps.get_app_config("tournaments").get_models()
        if m.__name__ not in CLUB_TABLES
    }


@pytest.mark.slow  # every migration run on a database of its own
@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_every_row_and_role_of_a_real_database_into_one_club(
    django_user_model,
):
    from django.contrib.auth.models import Permission

    # A database as a hall laptop holds it: the demo event, and a series of simulated
    # events with their people; a director, a desk and a superuser.
    now = timezone.now()
    demo = demo_event(3, "Snowman Demo Open", round_started=now)
    series = create_series("Winter League", points_table="total")
    for seed in (1, 2):
        add_event(series, demo_event(2, f"Night {seed}", round_started=now, seed=seed))
    add_event(series, demo)
    ensure_groups(Group, Permission)
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    director.groups.add(Group.objects.get(name="director"))
    desk = django_user_model.objects.create_user("dave", password="x-long-password-1")
    desk.groups.add(Group.objects.get(name="desk"))
    django_user_model.objects.create_superuser("root", "r@example.com", "x")
    nobody = django_user_model.objects.create_user("nobody", password="x-long-password-1")
    before = counts()
    assert before["Tournament"] == 3 and before["Person"] > 0 and before["HandEntry"] > 0

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("tournaments"))

    assert counts() == before
    club = Club.objects.get()
    assert (club.name, club.slug) == ("Snowman club", "club")
    for model in (Tournament, Series, Person):
        assert set(model.objects.values_list("club_id", flat=True)) == {club.pk}, model
    roles = dict(Membership.objects.values_list("user__username", "role"))
    assert roles == {"dora": DIRECTOR, "dave": DESK, "root": OWNER}
    assert not Membership.objects.filter(user=nobody).exists()
    # And the hall laptop runs as before: the director opens the console and the demo.
    client = Client()
    client.force_login(director)
    assert client.get(reverse("director:tournament", args=[demo.slug])).status_code == 200
    assert Client().get(f"/e/{demo.slug}/").status_code == 200


@pytest.fixture
def club(db) -> Club:
    return services.create_club("Alpha club", "alpha")


@pytest.fixture
def owner(django_user_model, club):
    user = django_user_model.objects.create_user("olga", password="x-long-password-1")
    assign(user, OWNER, club)
    client = Client()
    client.force_login(user)
    return client


def invite_link(owner: Client, club: Club, **form: object) -> str:
    response = owner.post(reverse("clubs:staff", args=[club.slug]), form)
    assert response.status_code == 302
    invitation = Invitation.objects.filter(club=club).first()
    page = owner.get(reverse("clubs:staff", args=[club.slug])).content.decode()
    link = reverse("join", args=[invitation.token])
    assert link in page  # shown on the staff page, to copy
    return link


def test_an_owner_invites_a_desk_who_joins_signed_in_and_the_link_then_works_no_more(
    owner, club, django_user_model
):
    event = demo_event(2, "Alpha Open", round_started=timezone.now(), club=club)
    link = invite_link(owner, club, role=DESK, note="Dave at the desk")
    dave = django_user_model.objects.create_user("dave", password="x-long-password-1")
    client = Client()
    client.force_login(dave)
    assert "Join Alpha club as Desk" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    assert Membership.objects.get(user=dave).role == DESK
    assert client.get(reverse("director:desk", args=[event.slug])).status_code == 200
    assert client.get(reverse("director:settings", args=[event.slug])).status_code == 403
    other = Client()
    other.force_login(django_user_model.objects.create_user("eve", password="x-long-password-1"))
    refused = other.post(link)
    assert refused.status_code == 410
    assert "already used; each link works once" in refused.content.decode()
    assert not Membership.objects.filter(user__username="eve").exists()


def test_a_director_invited_for_one_event_makes_an_account_and_runs_that_event_only(owner, club):
    now = timezone.now()
    mine = demo_event(2, "Alpha Open", round_started=now, club=club)
    other = demo_event(2, "Alpha Cup", round_started=now, club=club, seed=4)
    link = invite_link(owner, club, role=DIRECTOR, events=[mine.pk])
    newcomer = Client()
    form = newcomer.get(link).content.decode()
    assert "Make the account and join" in form and "Alpha Open" in form
    response = newcomer.post(
        link,
        {
            "username": "nina",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code == 302
    membership = Membership.objects.get(user__username="nina")
    assert membership.role == DIRECTOR and list(membership.events.all()) == [mine]
    assert newcomer.get(reverse("director:tournament", args=[mine.slug])).status_code == 200
    assert newcomer.get(reverse("director:tournament", args=[other.slug])).status_code == 404
    assert newcomer.get(reverse("clubs:staff", args=[club.slug])).status_code == 404


def test_a_revoked_or_unknown_link_is_refused_with_a_clear_message(owner, club, django_user_model):
    link = invite_link(owner, club, role=DESK)
    invitation = Invitation.objects.get(club=club)
    revoke = reverse("clubs:revoke", args=[club.slug, invitation.pk])
    assert owner.post(revoke).status_code == 302
    client = Client()
    client.force_login(django_user_model.objects.create_user("dave", password="x-long-pass-1"))
    refused = client.post(link)
    assert refused.status_code == 410 and "was revoked" in refused.content.decode()
    unknown = client.get(reverse("join", args=["no-such-token"]))
    assert unknown.status_code == 410 and "not valid" in unknown.content.decode()
    assert not Membership.objects.filter(user__username="dave").exists()


def test_an_invalid_invitation_re_renders_with_422_and_makes_no_link(owner, club):
    response = owner.post(reverse("clubs:staff", args=[club.slug]), {"role": "king"})
    assert response.status_code == 422
    assert not Invitation.objects.exists()


def test_the_link_is_e_mailed_when_a_mail_server_is_configured(owner, club, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    owner.post(
        reverse("clubs:staff", args=[club.slug]), {"role": DESK, "email": "dave@example.com"}
    )
    token = Invitation.objects.get(club=club).token
    assert len(mail.outbox) == 1 and token in mail.outbox[0].body
    assert mail.outbox[0].to == ["dave@example.com"]


def test_the_link_is_not_e_mailed_on_a_hall_laptop_with_no_mail_server(owner, club, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "localhost"
    page = owner.get(reverse("clubs:staff", args=[club.slug])).content.decode()
    assert 'name="email"' not in page
    owner.post(reverse("clubs:staff", args=[club.slug]), {"role": DESK, "email": "d@example.com"})
    assert Invitation.objects.filter(club=club).count() == 1 and not mail.outbox


def test_an_owner_removes_staff_who_then_opens_nothing(owner, club, django_user_model):
    event = demo_event(2, "Alpha Open", round_started=timezone.now(), club=club)
    dora = django_user_model.objects.create_user("dora", password="x-long-password-1")
    membership = assign(dora, DIRECTOR, club)
    client = Client()
    client.force_login(dora)
    assert client.get(reverse("director:tournament", args=[event.slug])).status_code == 200
    # A director may not manage staff; the owner may.
    assert client.get(reverse("clubs:staff", args=[club.slug])).status_code == 403
    assert owner.post(reverse("clubs:remove", args=[club.slug, membership.pk])).status_code == 302
    assert not Membership.objects.filter(user=dora).exists()
    response = client.get(reverse("director:tournament", args=[event.slug]))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_an_owner_cannot_remove_themself(owner, club):
    mine = Membership.objects.get(user__username="olga")
    owner.post(reverse("clubs:remove", args=[club.slug, mine.pk]))
    assert Membership.objects.filter(pk=mine.pk).exists()


def test_an_owner_creates_events_and_series_in_their_club(owner, club):
    from tournaments.core.forms import TournamentForm

    form = {k: v for k, v in TournamentForm.initial_for(None).items() if v not in (False, None)}
    response = owner.post(reverse("director:create"), {**form, "name": "Spring Open"})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Spring Open").club == club
    owner.post(
        reverse("league:series_list"),
        {
            "name": "Spring League",
            "points_table": "place",
            "place_points": "10,8,6",
            "participation_points": 10,
        },
    )
    assert Series.objects.get(name="Spring League").club == club


def test_the_club_page_lists_its_own_events_and_series_and_its_short_addresses_redirect(
    club, client
):
    now = timezone.now()
    running = demo_event(2, "Alpha Open", round_started=now, club=club)
    finished = demo_event(2, "Alpha Past", round_started=now, club=club, seed=3)
    Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.FINISHED)
    series = create_series("Alpha League", club=club)
    beta = services.create_club("Beta club", "beta")
    theirs = demo_event(2, "Beta Open", round_started=now, club=beta, seed=5)
    page = client.get("/alpha/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index("Alpha Open") < text.index("Past events") < text.index("Alpha Past")
    assert "Alpha League" in text and "Beta Open" not in text
    short = client.get(f"/alpha/{running.slug}/")
    assert short.status_code == 302 and short["Location"] == f"/e/{running.slug}/"
    assert client.get(f"/alpha/series/{series.slug}/")["Location"] == f"/series/{series.slug}/"
    assert client.get(f"/alpha/{theirs.slug}/").status_code == 404
    assert client.get(f"/beta/series/{series.slug}/").status_code == 404
    assert client.get("/no-such-club/").status_code == 404
    # The printed addresses keep answering.
    assert client.get(f"/e/{running.slug}/").status_code == 200


@pytest.mark.parametrize(
    "slug", ["admin", "director", "e", "p", "t", "series", "join", "results", "jsi18n"]
)
def test_a_club_address_is_never_one_of_the_sites_own_paths(slug):
    with pytest.raises(ServiceError):
        services.create_club("Sneaky", slug)


def test_every_first_part_of_the_sites_own_addresses_is_reserved():
    """A club named after one of the site's paths would lose its page to it (/results/ is
    where halls publish, /jsi18n/ the tablets' catalogue)."""
    from django.conf import settings
    from django.urls import URLResolver, get_resolver

    firsts = {"static", settings.STATIC_URL.strip("/")}
    patterns = list(get_resolver().url_patterns)
    while patterns:
        p = patterns.pop()
        first = str(p.pattern).split("/")[0]
        if first and "<" not in first:
            firsts.add(first)
        elif not str(p.pattern) and isinstance(p, URLResolver):
            patterns.extend(p.url_patterns)  # an include at the root: its first parts count
    assert {"results", "jsi18n", "admin", "director"} <= firsts
    assert firsts <= services.RESERVED_SLUGS, firsts - services.RESERVED_SLUGS


def test_a_tournament_slug_is_unique_within_its_club_by_a_constraint(club):
    t = demo_event(2, "Alpha Open", round_started=timezone.now(), club=club)
    names = {c.name for c in Tournament._meta.constraints}
    assert "tournament_slug_unique_in_club" in names
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(club=club, name="Again", slug=t.slug, lot_seed=1)


def test_the_demo_makes_one_club_and_its_director_owns_it():
    call_command("seed_demo", "--tables", "2", stdout=StringIO())
    club = Club.objects.get()
    membership = Membership.objects.get(user__username="director")
    assert membership.club == club and membership.role == OWNER
    assert Tournament.objects.get().club == club


def test_an_account_may_hold_a_different_role_in_each_club(django_user_model):
    now = timezone.now()
    alpha = services.create_club("Alpha club", "alpha")
    beta = services.create_club("Beta club", "beta")
    a = demo_event(2, "Alpha Open", round_started=now, club=alpha)
    b = demo_event(2, "Beta Open", round_started=now, club=beta, seed=5)
    user = django_user_model.objects.create_user("sam", password="x-long-password-1")
    assign(user, DIRECTOR, alpha)
    assign(user, DESK, beta)
    client = Client()
    client.force_login(user)
    assert client.get(reverse("director:settings", args=[a.slug])).status_code == 200
    assert client.get(reverse("director:settings", args=[b.slug])).status_code == 403
    assert client.get(reverse("director:desk", args=[b.slug])).status_code == 200
    home = client.get(reverse("director:home")).content.decode()
    assert "Alpha Open" in home and "Beta Open" in home and "Club" in home


def test_the_table_code_throttle_counts_in_the_database_every_process_shares(client):
    client.post("/t/", {"code": "ZZZZZZ"})
    with connection.cursor() as cursor:
        cursor.execute("SELECT cache_key FROM snowman_cache")
        keys = [key for (key,) in cursor.fetchall()]
    assert len(keys) == 1 and "snowman:table-code:127.0.0.1:" in keys[0]


def test_the_export_carries_the_club_and_an_import_joins_the_importing_club_only():
    import json

    from tournaments.series.export import export_results
    from tournaments.series.results_import import import_event

    now = timezone.now()
    alpha = services.create_club("Alpha club", "alpha")
    beta = services.create_club("Beta club", "beta")
    source = demo_event(2, "Alpha Open", round_started=now, club=alpha)
    doc = export_results(source)  # a running event (its file says so)
    assert doc["tournament"]["club"] == {"name": "Alpha club", "slug": "alpha"}
    doc["tournament"]["slug"] = "alpha-open-copy"
    data = json.dumps(doc)
    series = create_series("Beta League", club=beta)
    alpha_people = set(Person.objects.filter(club=alpha).values_list("pk", flat=True))
    outcome = import_event(data, by="test", series=series, ratings=False)
    assert outcome.tournament.club == beta
    linked = set(
        Person.objects.filter(links__player__tournament=outcome.tournament).values_list(
            "club_id", flat=True
        )
    )
    assert linked == {beta.pk}
    assert set(Person.objects.filter(club=alpha).values_list("pk", flat=True)) == alpha_people
    with pytest.raises(ServiceError):
        import_event(data, by="test", series=create_series("Alpha League", club=alpha))
