"""A person's record on their private link and the director's copy: who reaches it, the
choices for public pages, the file to take away."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.record_series import person, private_link, series_of_four
from tournaments.clubs.services import assign, create_club
from tournaments.core.models.people import PersonEvent
from tournaments.registration.models import RegistrationPass

pytestmark = pytest.mark.django_db


@pytest.fixture
def nights(db):
    found, _winter, _spring = series_of_four()
    return found


def page(slug: str, token: str, name: str = "page") -> str:
    return reverse(f"record:{name}", args=[slug, token])


def test_the_owners_link_shows_their_record_and_names_others_by_their_public_name(client, nights):
    token = private_link(nights[3], "Ann Archer")
    response = client.get(page(nights[3].slug, token))
    assert response.status_code == 200
    body = response.content.decode()
    assert '<h1 id="record-title">Ann Archer</h1>' in body
    assert "with Cat C., against Bob B. &amp; Dan D." in body
    for name in ("Bob Baker", "Cat Carter", "Dan Dupont"):
        assert name not in body
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_one_persons_link_never_shows_anothers_record(client, nights):
    ann = private_link(nights[3], "Ann Archer")
    bob = private_link(nights[3], "Bob Baker")
    assert "Ann Archer" not in client.get(page(nights[3].slug, bob)).content.decode()
    assert "Bob Baker" not in client.get(page(nights[3].slug, ann)).content.decode()


def test_a_forged_revoked_or_other_events_link_is_not_found(client, nights):
    token = private_link(nights[3], "Ann Archer")
    assert client.get(page(nights[2].slug, token)).status_code == 404
    assert client.get(page(nights[3].slug, "x" * 43)).status_code == 404
    RegistrationPass.objects.filter(token=token).update(revoked_at=timezone.now())
    assert client.get(page(nights[3].slug, token)).status_code == 404
    assert client.get(page(nights[3].slug, token, "json")).status_code == 404


def test_the_director_of_the_club_reads_any_persons_record_and_another_club_does_not(
    django_user_model, nights
):
    ann = person("Ann Archer")
    address = reverse("records:person", args=[ann.pk])
    assert Client().get(address).status_code == 302  # to the sign-in
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    office = Client()
    office.force_login(director)
    assert "Ann Archer" in office.get(address).content.decode()
    stranger = django_user_model.objects.create_user("bea", password="x-long-password-1")
    assign(stranger, "director", create_club("Other club", "other"))
    elsewhere = Client()
    elsewhere.force_login(stranger)
    assert elsewhere.get(address).status_code == 404
    assert elsewhere.get(reverse("records:json", args=[ann.pk])).status_code == 404


def test_a_choice_is_saved_logged_and_a_repeated_one_changes_nothing(client, nights):
    token = private_link(nights[3], "Ann Archer")
    address = page(nights[3].slug, token, "choose")
    response = client.post(address, {"full_name": "on", "listed": "on"})
    assert response.status_code == 302
    ann = person("Ann Archer")
    assert ann.public_full_name and ann.public_listed
    logged = list(PersonEvent.objects.filter(person=ann, action="privacy"))
    assert [e.summary for e in logged] == ["Chose the full name on public pages."]
    assert logged[0].actor == "the person's private link"
    client.post(address, {"full_name": "on", "listed": "on"})
    assert PersonEvent.objects.filter(person=ann, action="privacy").count() == 1
    client.post(address, {})
    ann.refresh_from_db()
    assert not ann.public_full_name and not ann.public_listed
    assert PersonEvent.objects.filter(person=ann, action="privacy").count() == 3


def test_a_bad_filter_is_told_and_the_page_still_answers(client, nights):
    token = private_link(nights[3], "Ann Archer")
    address = page(nights[3].slug, token)
    response = client.get(address, {"since": "2026-05-01", "until": "2026-01-01"})
    assert response.status_code == 422
    assert "The first day comes after the last." in response.content.decode()
    response = client.get(address, {"season": "١٢"})
    assert response.status_code == 422
    response = client.get(address, {"with_person": person("Ann Archer").pk})
    assert "Head-to-head compares with someone you played with or against." in (
        response.content.decode()
    )


def test_the_head_to_head_and_season_are_chosen_on_the_page(client, nights):
    token = private_link(nights[3], "Ann Archer")
    bob = person("Bob Baker")
    body = client.get(page(nights[3].slug, token), {"with_person": bob.pk}).content.decode()
    assert "Head-to-head with Bob B." in body
    assert '<dd id="h2h-together">2 won of 4</dd>' in body
    assert '<dd id="h2h-against">4 won of 8</dd>' in body


def test_the_persons_file_holds_every_row_about_them_and_no_one_elses_contact(client, nights):
    tokens = {name: private_link(nights[3], name) for name in ("Ann Archer", "Bob Baker")}
    response = client.get(page(nights[3].slug, tokens["Ann Archer"], "json"))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    document = json.loads(response.content)
    assert document["format"] == "snowman-person/1"
    assert document["person"]["name"] == "Ann Archer"
    assert [e["total"] for e in document["events"]] == [26, 26, 19, 19]
    assert sum(len(e["rounds"]) for e in document["events"]) == 12
    assert len(document["rating_steps"]) == 12
    assert [a["contact"] for a in document["applications"]] == ["ann@example.com"]
    text = response.content.decode()
    assert "bob@example.com" not in text and "Bob Baker" not in text
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(page(nights[3].slug, tokens["Ann Archer"], "csv")).content.decode()
            )
        )
    )
    assert rows[0] == ["section", "event", "date", "round", "field", "value"]
    assert ["person", "", "", "", "name", "Ann Archer"] in rows
    assert sum(1 for r in rows if r[0] == "round" and r[4] == "points") == 12
    assert not any("bob@example.com" in cell for r in rows for cell in r)
