"""The check-in desk at the pace of a queue: Enter checks in the single
match, several are listed to choose from, the last check-ins stay with their undo, and a
walk-in is added from the typed name, in a division, checked in at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.test_roles import user
from tournaments.core.models.event import Player
from tournaments.core.models.log import Activity
from tournaments.core.services.players import import_players
from tournaments.core.services.tournaments import create_tournament

HTMX = {"HX-Request": "true"}


def url(name: str, *args: object) -> str:
    return reverse(f"director:{name}", args=args)


@pytest.fixture
def event(db):
    t = create_tournament("Club", by="t")
    import_players(
        t, "Jean-François Bélanger,A\nAnn Lee,A\nAnna Park,B\nAnn Leeds,B\nBob Dunn,B\n", by="t"
    )
    return t


def here(name: str) -> bool:
    return Player.objects.get(name=name).checked_in


def test_enter_checks_in_the_only_match_and_clears_the_box_for_the_next(director_client, event):
    response = director_client.post(url("desk_enter", event.slug), {"q": "belan"}, headers=HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and response["HX-Trigger"] == "deskDone"
    assert "Jean-François Bélanger checked in." in body and "✓ Checked in" in body
    # The last check-ins (with their undo) and the counts come back beside it.
    assert 'id="desk-recent"' in body and body.count('hx-swap-oob="true"') == 2
    assert here("Jean-François Bélanger")
    assert any("Bélanger" in a.text for a in Activity.objects.filter(action="check-in"))


def test_enter_never_guesses_between_two_players(director_client, event):
    response = director_client.post(url("desk_enter", event.slug), {"q": "ann"}, headers=HTMX)
    body = response.content.decode()
    assert "HX-Trigger" not in response
    assert "3 players match “ann”" in body and "Anna Park" in body and "Ann Leeds" in body
    assert not Player.objects.filter(tournament=event, checked_in=True).exists()


def test_enter_on_a_whole_name_picks_it_among_longer_ones(director_client, event):
    response = director_client.post(url("desk_enter", event.slug), {"q": "ann lee"}, headers=HTMX)
    assert response["HX-Trigger"] == "deskDone"
    assert here("Ann Lee") and not here("Ann Leeds")


def test_enter_on_someone_already_here_changes_nothing_and_says_so(director_client, event):
    director_client.post(url("desk_enter", event.slug), {"q": "bob"}, headers=HTMX)
    before = Activity.objects.count()
    again = director_client.post(url("desk_enter", event.slug), {"q": "bob"}, headers=HTMX)
    assert "Bob Dunn was already checked in." in again.content.decode()
    assert Activity.objects.count() == before


def test_the_desk_lists_the_last_check_ins_newest_first_with_their_undo(director_client, event):
    for q in ("bob", "belan", "anna"):
        director_client.post(url("desk_enter", event.slug), {"q": q}, headers=HTMX)
    page = director_client.get(url("desk", event.slug)).content.decode()
    recent = page.split('id="desk-recent"')[1]
    assert (
        recent.index("Anna Park")
        < recent.index("Jean-François Bélanger")
        < recent.index("Bob Dunn")
    )
    assert recent.count(">undo</button>") == 3
    # Undo from that list: the player is no longer here, and leaves the list.
    anna = Player.objects.get(name="Anna Park")
    undone = director_client.post(
        url("checkin", event.slug, anna.pk), {"checked_in": "0", "mode": "desk"}, headers=HTMX
    ).content.decode()
    assert not here("Anna Park")
    assert "Anna Park" not in undone.split('id="desk-recent"')[1].split("</section>")[0]


def test_nobody_found_offers_a_walk_in_under_the_typed_name(director_client, event):
    body = director_client.post(
        url("desk_enter", event.slug), {"q": "Réjean Lévesque"}, headers=HTMX
    ).content.decode()
    assert "Nobody registered matches" in body and 'value="Réjean Lévesque"' in body
    response = director_client.post(
        url("desk_walk_in", event.slug), {"name": "Réjean Lévesque", "division": "B"}, headers=HTMX
    )
    assert response["HX-Trigger"] == "deskDone"
    assert "Réjean Lévesque added to division B and checked in." in response.content.decode()
    walk_in = Player.objects.get(tournament=event, name="Réjean Lévesque")
    assert walk_in.division == "B" and walk_in.checked_in and walk_in.checked_in_at


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "ann lee", "division": "A"}, "already"),
        ({"name": "", "division": "A"}, "required"),
        ({"name": "Zed", "division": "C"}, "valid choice"),
    ],
)
def test_a_walk_in_refused_changes_nothing_and_says_why(director_client, event, data, message):
    count = Player.objects.count()
    response = director_client.post(url("desk_walk_in", event.slug), data, headers=HTMX)
    assert response.status_code == 422 and message in response.content.decode()
    assert Player.objects.count() == count


def test_the_desk_role_checks_in_with_enter_but_adds_no_walk_in(event, django_user_model):
    desk = user(django_user_model, "dave", "desk")
    assert desk.post(url("desk_enter", event.slug), {"q": "bob"}, headers=HTMX).status_code == 200
    assert here("Bob Dunn")
    page = desk.post(url("desk_enter", event.slug), {"q": "nobody"}, headers=HTMX)
    assert "desk-walk-in" not in page.content.decode()
    refused = desk.post(url("desk_walk_in", event.slug), {"name": "Zed", "division": "A"})
    assert refused.status_code == 403 and not Player.objects.filter(name="Zed").exists()


def test_the_desk_page_reads_in_a_fixed_number_of_queries(
    director_client, event, django_assert_num_queries
):
    for q in ("bob", "belan", "anna"):
        director_client.post(url("desk_enter", event.slug), {"q": q}, headers=HTMX)
    director_client.get(url("desk", event.slug), {"q": "ann"})
    with django_assert_num_queries(QUERIES):
        director_client.get(url("desk", event.slug), {"q": "ann"})


QUERIES = 9
