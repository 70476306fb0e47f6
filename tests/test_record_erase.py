"""Forgetting a person on request: name and contact removed everywhere, the
results kept under an anonymous player, every other person's standings and ratings the
same byte for byte, the erasure logged without the erased data. Run on both databases."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.record_series import person, private_link, series_of_four
from tournaments.clubs.services import assign
from tournaments.core.models.event import Player
from tournaments.core.models.log import Activity
from tournaments.core.models.people import Person, PersonEvent
from tournaments.core.reads.standings import standings
from tournaments.core.services import ServiceError
from tournaments.core.services.people import recompute_ratings
from tournaments.devices.models import HelpRequest
from tournaments.records.reads import record
from tournaments.records.services import erase
from tournaments.registration.models import Registration
from tournaments.series.reads import series_table

pytestmark = pytest.mark.django_db


def others_figures(nights, series, gone: int) -> bytes:
    """Every other person's standings rows, series rows and rating, as bytes."""
    recompute_ratings()
    person_of = dict(Player.objects.values_list("pk", "person_link__person_id"))
    rows = []
    for t in nights:
        for division, table in standings(t).items():
            for r in table:
                if person_of[r.player.pk] != gone:
                    rows.append(
                        [
                            t.pk,
                            division,
                            person_of[r.player.pk],
                            r.rank,
                            r.record.total,
                            r.record.wins,
                            r.record.margin,
                            sorted(r.by_round.items()),
                        ]
                    )
    for s in series:
        for row in series_table(s).rows:
            if row.person.pk != gone:
                rows.append([s.pk, row.person.pk, row.line.rank, row.line.points, list(row.cells)])
    for pk, mu, sigma, matches in (
        Person.objects.exclude(pk=gone)
        .order_by("pk")
        .values_list("pk", "rating_mu", "rating_sigma", "rating_matches")
    ):
        rows.append([pk, repr(mu), repr(sigma), matches])
    return json.dumps(rows, default=str).encode()


@pytest.fixture
def world(db):
    nights, winter, spring = series_of_four()
    private_link(nights[3], "Bob Baker")
    private_link(nights[3], "Ann Archer")
    return nights, (winter, spring)


def test_erasing_removes_the_name_and_contact_and_keeps_everyone_elses_figures_byte_for_byte(world):
    nights, series = world
    bob = person("Bob Baker")
    before = others_figures(nights, series, bob.pk)
    own_before = [
        (r.rank, r.record.total)
        for t in nights
        for r in standings(t)["B"]
        if r.player.name == "Bob Baker"
    ]
    HelpRequest.objects.create(
        tournament=nights[3], table=1, raised_by="Bob Baker (phone)", raised_at=nights[3].created_at
    )
    erase(bob, by="olga")
    assert others_figures(nights, series, bob.pk) == before
    assert HelpRequest.objects.get().raised_by == f"Anonymous #{bob.pk} (phone)"
    bob.refresh_from_db()
    assert bob.name == f"Anonymous #{bob.pk}"
    # The results stay, under the anonymous player.
    assert [
        (r.rank, r.record.total)
        for t in nights
        for r in standings(t)["B"]
        if r.player.name == bob.name
    ] == own_before
    # The name and the contact are nowhere left.
    assert not Player.objects.filter(name="Bob Baker").exists()
    assert not Registration.objects.filter(contact="bob@example.com").exists()
    assert not Registration.objects.filter(name="Bob Baker").exists()
    for row in Activity.objects.all():
        assert "Bob Baker" not in json.dumps([row.actor, row.args, row.summary, row.reason])
    assert not any("Bob Baker" in e.summary for e in PersonEvent.objects.all())
    # Logged, without what was erased.
    logged = PersonEvent.objects.get(person=bob, action="erased")
    assert logged.actor == "olga" and "Bob" not in logged.summary
    # Ann's record names the anonymous player where Bob sat.
    first = record(person("Ann Archer")).events[0].line.matches[1]
    assert first.partner == f"Anonymous #{bob.pk}"  # nobody's name: shown whole


def test_a_second_erasure_of_the_same_person_is_refused_and_changes_nothing(world):
    bob = person("Bob Baker")
    erase(bob, by="olga")
    count = PersonEvent.objects.count()
    with pytest.raises(ServiceError) as refused:
        erase(bob, by="olga")
    assert refused.value.status == 409
    assert PersonEvent.objects.count() == count


def test_only_the_clubs_owner_erases_and_only_with_the_persons_request_confirmed(
    world, django_user_model
):
    bob = person("Bob Baker")
    address = reverse("records:erase", args=[bob.pk])
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    office = Client()
    office.force_login(director)
    assert office.post(address, {"confirm": "on"}).status_code == 403
    owner = django_user_model.objects.create_user("olga", password="x-long-password-1")
    assign(owner, "owner")
    office.force_login(owner)
    response = office.post(address, {})
    assert response.status_code == 422
    assert "Tick the box to confirm the person&#x27;s request." in response.content.decode()
    assert person("Bob Baker")  # nothing changed
    assert office.post(address, {"confirm": "on"}).status_code == 302
    assert not Person.objects.filter(name="Bob Baker").exists()
    again = office.post(address, {"confirm": "on"})
    assert again.status_code == 409
    assert "This person was erased on" in again.content.decode()
