"""Rehearsals: a test run of an event, listed nowhere public, counted nowhere,
marked on every screen, and turned into a real event only before round 1 starts."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests import test_hidden
from tests.urlwalk import patterns_by_namespace
from tournaments.core.models.event import Tournament, TournamentQuerySet
from tournaments.core.models.people import Person, PersonEvent, PersonLink, PersonProposal
from tournaments.core.models.play import TableLink
from tournaments.core.reads import queries
from tournaments.core.reads.people import person_page, rating_history
from tournaments.core.services import ServiceError, rounds
from tournaments.core.services.people import recompute_ratings
from tournaments.core.services.tournaments import create_tournament
from tournaments.core.simulate import simulate
from tournaments.series.reads import series_csv_rows, series_table
from tournaments.series.rehearsal import make_real, make_rehearsal
from tournaments.series.services import add_event, create_series

pytestmark = pytest.mark.django_db

# A page rendered twice differs only by its CSRF token (a new one per response).
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"')


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return CSRF.sub("CSRF", response.content.decode())


def everything_counted(director_client: Client, series_slug: str) -> dict[str, object]:
    """What a rehearsal must leave exactly as it was: the public pages, the series
    standings (page, table, CSV), the people pages and every person's rating."""
    series = queries.public_series(series_slug)
    assert series is not None
    people = list(Person.objects.order_by("pk"))
    return {
        "home": page(Client(), "/"),
        "series page": page(Client(), reverse("series_public:series", args=[series_slug])),
        "series table": series_csv_rows(series_table(series)),
        "series csv": page(director_client, reverse("league:series_csv", args=[series_slug])),
        "people page": page(director_client, reverse("league:people")),
        "person pages": [
            page(director_client, reverse("league:person", args=[p.pk])) for p in people
        ],
        "ratings": list(
            Person.objects.order_by("pk").values_list(
                "pk", "name", "rating_mu", "rating_sigma", "rating_matches"
            )
        ),
        "people rows": (
            Person.objects.count(),
            PersonLink.objects.count(),
            PersonEvent.objects.count(),
            PersonProposal.objects.count(),
        ),
        "rated matches": len(rating_history()),
    }


def test_a_rehearsal_run_end_to_end_leaves_public_pages_series_and_every_rating_as_before(
    director_client,
):
    real = simulate(1, seed=21, name="Club night")
    series = create_series("Winter league")
    add_event(series, real)
    create_tournament("Next Tuesday", by="test")  # an open event the home page lists
    recompute_ratings()
    before = everything_counted(director_client, series.slug)
    assert "Club night" not in before["home"]  # finished: listed no more
    assert "Next Tuesday" in before["home"]  # the capture sees what the page lists

    # The same seed: the rehearsal's players have the real event's players' names, so a
    # leak into people, links or ratings could not hide behind different names.
    rehearsal = simulate(1, seed=21, name="Dress rehearsal", rehearsal=True)
    open_rehearsal = create_tournament("Practice night", by="test", rehearsal=True)
    assert rehearsal.status == Tournament.Status.FINISHED and rehearsal.rehearsal
    assert rehearsal.rounds.count() == real.rounds.count()
    recompute_ratings()
    after = everything_counted(director_client, series.slug)

    for part, value in before.items():
        assert after[part] == value, part
    assert open_rehearsal.name not in after["home"]
    # The rehearsal was really run and is readable where a rehearsal is shown.
    home = page(director_client, reverse("director:home"))
    assert "Dress rehearsal" in home and home.count("data-rehearsal") == 2  # both marked
    assert not PersonLink.objects.filter(player__tournament=rehearsal).exists()


# --- every public page that lists events -----------------------------------------------

# The public URL modules: those tests/test_hidden.py walks, and the club's page with its
# short addresses. There a ``slug`` names one event, except in these patterns (a series).
PUBLIC = test_hidden.PUBLIC_NAMESPACES | {"club_public"}
SERIES_SLUG = {"series_public:series", "club_public:series"}
# A page whose address names an event, a player or a registration is that event's own
# (a rehearsal's is shown, with its banner, to whoever has its link); any other public
# page lists events, and the walk below reads it, a new one as soon as it is added.
ONE_EVENT = {"slug", "player", "token"}


def public_listings(club: str, series: str) -> dict[str, str]:
    """Every public page that names no event in its address: address -> its text."""
    found, unknown = patterns_by_namespace(PUBLIC, set(test_hidden.NOT_PUBLIC) - PUBLIC)
    assert not unknown, unknown
    pages = {}
    for name, kwargs in found:
        filled: dict[str, str] = {}
        for kwarg in kwargs:
            if kwarg == "club":
                filled["club"] = club
            elif kwarg == "slug" and name in SERIES_SLUG:
                filled["slug"] = series
            elif kwarg not in ONE_EVENT:
                pytest.fail(f"{name}: does <{kwarg}> name one event? Teach the walk.")
        if ONE_EVENT & (set(kwargs) - set(filled)):
            continue
        address = reverse(name, kwargs=filled)
        response = Client().get(address, follow=True)
        assert response.status_code == 200, address
        pages[address] = response.content.decode()
    return pages


def test_a_rehearsal_is_listed_on_no_public_page() -> None:
    real = simulate(1, seed=21, name="Club night")
    series = create_series("Winter league")
    add_event(series, real)
    create_tournament("Next Tuesday", by="test")
    simulate(1, seed=21, name="Dress rehearsal", rehearsal=True)
    create_tournament("Practice night", by="test", rehearsal=True)
    pages = public_listings(real.club.slug, series.slug)
    club_page = pages[reverse("club_public:club", args=[real.club.slug])]
    assert (
        "Club night" in club_page and "Next Tuesday" in club_page and "Next Tuesday" in pages["/"]
    )
    for address, text in pages.items():
        assert "Dress rehearsal" not in text and "Practice night" not in text, address


def test_every_public_series_people_and_rating_reader_goes_through_counted(
    director_client, monkeypatch
):
    """Each reader must take its tournaments from ``Tournament.objects.counted()``: with
    counted() answering no event at all, a reader that still shows the real event below
    has gone round it (and would show a rehearsal)."""
    real = simulate(1, seed=21, name="Club night")
    series = create_series("Winter league")
    add_event(series, real)
    create_tournament("Next Tuesday", by="test")
    recompute_ratings()
    person = Person.objects.filter(links__player__tournament=real).first()
    assert person is not None
    assert "Next Tuesday" in page(Client(), "/")
    assert series_table(series).rows and rating_history()
    assert person_page(person).events

    listed = " ".join(public_listings(real.club.slug, series.slug).values())
    assert "Club night" in listed and "Next Tuesday" in listed

    monkeypatch.setattr(TournamentQuerySet, "counted", lambda self: self.none())
    listed = " ".join(public_listings(real.club.slug, series.slug).values())
    assert "Club night" not in listed and "Next Tuesday" not in listed
    assert series_table(series).rows == []
    assert person.name not in page(Client(), reverse("series_public:series", args=[series.slug]))
    assert rating_history() == []
    assert person_page(person).events == []
    assert all(p.events == 0 for p in queries.people_list("", [person.club_id]))
    assert not queries.tournaments_outside([], series.club_id).exists()
    assert not queries.counted_club_tournaments(series.club_id).exists()


def test_a_rehearsal_cannot_join_a_series(director_client):
    rehearsal = create_tournament("Practice", by="test", rehearsal=True)
    series = create_series("League")
    with pytest.raises(ServiceError):
        add_event(series, rehearsal)
    response = director_client.post(
        reverse("league:series_add", args=[series.slug]), {"tournament": rehearsal.pk}
    )
    assert response.status_code == 422
    assert not series.events.exists()


# --- every screen says so ------------------------------------------------------------------

BANNER = "Rehearsal: a test run"
PDF_MARK = "REHEARSAL"


def pdf_pages(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    return [p.extract_text() for p in PdfReader(io.BytesIO(response.getvalue())).pages]


def test_the_rehearsal_banner_is_on_every_screen_and_every_printed_page(director_client):
    t = simulate(1, seed=5, name="Dress rehearsal", rehearsal=True)
    slug = t.slug
    player = t.players.order_by("pk").first()
    assert player is not None
    director_pages = [
        reverse("director:tournament", args=[slug]),
        reverse("director:settings", args=[slug]),
        reverse("director:players", args=[slug]),
        reverse("director:round", args=[slug, 1]),
        reverse("director:standings", args=[slug]),
        reverse("director:desk", args=[slug]),
    ]
    for url in director_pages:
        assert BANNER in page(director_client, url), url
    settings = page(director_client, reverse("director:settings", args=[slug]))
    assert "stays a rehearsal" in settings and "Make this a real event" not in settings
    phone = Client()
    for url in [
        reverse("public:event", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:card", args=[slug, player.pk]),
        reverse("public:ledger", args=[slug, player.pk]),
        reverse("public:projector", args=[slug]),
    ]:
        assert BANNER in page(phone, url), url
    link = TableLink.objects.filter(tournament=t, revoked_at__isnull=True).first()
    assert link is not None
    tablet = Client()
    assert tablet.get(f"/t/{link.token}/").status_code == 302
    assert BANNER in page(tablet, "/t/table/")

    for url in [
        reverse("sheets:standings", args=[slug, "A"]),
        reverse("sheets:seating", args=[slug, 1]),
        reverse("sheets:scoresheets", args=[slug, 1]),
        reverse("sheets:table_cards", args=[slug]),
        reverse("sheets:final", args=[slug]),
        reverse("sheets:prizes", args=[slug]),
    ]:
        texts = pdf_pages(director_client, url)
        assert texts and all(PDF_MARK in text for text in texts), url


def test_a_real_event_shows_no_rehearsal_mark(director_client):
    t = simulate(1, seed=5, name="Club night")
    assert BANNER not in page(director_client, reverse("director:tournament", args=[t.slug]))
    assert BANNER not in page(Client(), reverse("public:event", args=[t.slug]))
    texts = pdf_pages(director_client, reverse("sheets:standings", args=[t.slug, "A"]))
    assert not any(PDF_MARK in text for text in texts)


# --- turning one into the other ---------------------------------------------------------


def registered(name: str, *, rehearsal: bool, names: tuple[str, ...]) -> Tournament:
    from tournaments.core.services.players import register_player

    t = create_tournament(name, by="test", rehearsal=rehearsal)
    for i, n in enumerate(names):
        register_player(t, n, "AB"[i % 2], by="test", checked_in=True)
    return t


NAMES = ("Ann Lee", "Bo Chan", "Cy Diaz", "Di Eng", "Ed Fox", "Flo Gray", "Gus Hu", "Hal Ito")


def test_a_rehearsal_becomes_real_before_round_1_starts_and_its_players_are_linked_then():
    t = registered("Practice", rehearsal=True, names=NAMES)
    assert not PersonLink.objects.filter(player__tournament=t).exists()
    rounds.draw_first_round(t, by="test", seed=3)  # seated, not started: still allowed
    real = make_real(t, by="director")
    assert not real.rehearsal
    assert PersonLink.objects.filter(player__tournament=t).count() == len(NAMES)
    assert queries.counted_tournaments().filter(pk=t.pk).exists()
    assert real.activity.filter(action="rehearsal").exists()


def test_a_rehearsal_stays_one_once_round_1_has_started():
    t = registered("Practice", rehearsal=True, names=NAMES)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    rounds.start_round(rnd, by="test")
    with pytest.raises(ServiceError, match="Round 1 has started"):
        make_real(t, by="director")
    t.refresh_from_db()
    assert t.rehearsal
    assert not PersonLink.objects.filter(player__tournament=t).exists()


def test_a_real_event_becomes_a_rehearsal_only_while_it_has_no_results():
    t = registered("Club night", rehearsal=False, names=NAMES)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    assert make_rehearsal(t, by="director").rehearsal
    make_real(t, by="director")
    rounds.start_round(rnd, by="test")
    with pytest.raises(ServiceError, match="results"):
        make_rehearsal(t, by="director")
    t.refresh_from_db()
    assert not t.rehearsal


def test_a_real_event_in_a_series_cannot_become_a_rehearsal():
    t = registered("Club night", rehearsal=False, names=NAMES)
    add_event(create_series("League"), t)
    with pytest.raises(ServiceError, match="series"):
        make_rehearsal(t, by="director")
    t.refresh_from_db()
    assert not t.rehearsal


def test_the_settings_page_turns_a_rehearsal_real_and_shows_a_refusal(director_client):
    t = registered("Practice", rehearsal=True, names=NAMES)
    url = reverse("director:rehearsal", args=[t.slug])
    settings = reverse("director:settings", args=[t.slug])
    assert "Make this a real event" in page(director_client, settings)
    assert director_client.post(url, {"to": "real"}).status_code == 302
    t.refresh_from_db()
    assert not t.rehearsal
    # Again: refused with the reason on the settings page, nothing changed.
    response = director_client.post(url, {"to": "real"}, follow=True)
    assert "already a real event" in response.content.decode()
    assert director_client.post(url, {"to": "nonsense"}).status_code == 302
    t.refresh_from_db()
    assert not t.rehearsal
    assert Client().post(url, {"to": "rehearsal"}).status_code == 302  # to the login
    t.refresh_from_db()
    assert not t.rehearsal


def test_a_rehearsal_is_chosen_when_creating_the_event(director_client):
    from tournaments.core.forms import TournamentForm

    data = {k: v for k, v in TournamentForm.initial_for(None).items() if v not in (False, None)}
    data.update(name="Dress rehearsal", rehearsal="on")
    response = director_client.post(reverse("director:create"), data)
    assert response.status_code == 302
    assert Tournament.objects.get(name="Dress rehearsal").rehearsal


@pytest.mark.django_db(transaction=True)
def test_turning_real_waits_for_a_round_1_start_in_flight_and_then_refuses():
    """On PostgreSQL: round 1 started in a transaction not yet committed holds the round's
    row; the change waits for it and then sees the round running (never a stale check)."""
    import threading

    from django.db import connection, connections, transaction

    if not connection.features.has_select_for_update_nowait:
        pytest.skip("row locks exist only on PostgreSQL here")
    t = registered("Practice", rehearsal=True, names=NAMES)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    started, release = threading.Event(), threading.Event()

    def start_and_hold() -> None:
        try:
            with transaction.atomic():
                rounds.start_round(rnd, by="test")
                started.set()
                release.wait(10)
        finally:
            connections.close_all()

    worker = threading.Thread(target=start_and_hold)
    worker.start()
    try:
        assert started.wait(10)
        threading.Timer(0.5, release.set).start()
        with pytest.raises(ServiceError, match="Round 1 has started"):
            make_real(t, by="director")
    finally:
        release.set()
        worker.join()
    t.refresh_from_db()
    assert t.rehearsal


def test_a_rehearsal_is_not_exported_as_a_results_file():
    from django.core.management import CommandError, call_command

    t = create_tournament("Practice", by="test", rehearsal=True)
    with pytest.raises(CommandError, match="rehearsal"):
        call_command("export_results", t.slug)
