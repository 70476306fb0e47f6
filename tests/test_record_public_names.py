"""Private by default: every public page, JSON answer and CSV meant for
players names a person by the short form ("Marie T.") unless they chose their full name,
and the public series standings leave off (as "a player") whoever chose so. The walk is
tests/test_hidden.py's, over every URL of the public URL modules."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from tests.test_hidden import passes, walk
from tests.test_public_phones import event_after
from tournaments.common.names import UNLISTED, name_key, public_name, short_name
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import Person
from tournaments.core.models.series import Series
from tournaments.core.simulate import simulate
from tournaments.registration.models import Registration
from tournaments.series.services import add_event, create_series

pytestmark = pytest.mark.django_db

FIRST = ["Marie", "Jean-Luc", "Zoë", "Łukasz", "Ann", "Bob", "Cat", "Dan"]
LAST = ["Tremblay", "Côté-Roy", "Ölander", "Nowak", "O'Brien", "Gagnon", "Roy", "Lavoie"]

# Public answers not meant for players, and why their names are whole.
NOT_FOR_PLAYERS = {
    "registrations.signed": "the signed registration list, answered only to the hall's "
    "server holding the event's key: the desk's list, which keeps full names",
}


def test_the_short_form_keeps_the_first_word_and_initials_and_numbers_whole():
    assert short_name("Marie Tremblay") == "Marie T."
    assert short_name("Jean-Luc Côté-Roy") == "Jean-Luc C."
    assert short_name("Zoë van der Berg") == "Zoë v. d. B."
    assert short_name("Cher") == "Cher"
    assert short_name("Player A001") == "Player A001"
    assert short_name("Kai Lee 2") == "Kai L. 2"
    assert public_name("Marie Tremblay", True) == "Marie Tremblay"


def readable(content_type: str, body: str) -> str:
    """What a reader sees of an answer: a JSON answer's values, a page's text unescaped."""
    if "json" in content_type:
        return json.dumps(json.loads(body), ensure_ascii=False)
    return html.unescape(body)


def running_event(make_tournament) -> tuple[Tournament, Series]:
    """Three rounds over and the fourth seated, the players named as people are."""
    t = event_after(make_tournament, 2, 3)
    for n, p in enumerate(Player.objects.filter(tournament=t).order_by("pk")):
        name = f"{FIRST[n % 8]} {LAST[(n * 3) % 8]}"
        Player.objects.filter(pk=p.pk).update(name=name)
        Person.objects.filter(links__player=p).update(name=name, name_key=name_key(name))
    series = create_series("Winter League", points_table="total")
    add_event(series, t)
    return t, series


def finished_event() -> tuple[Tournament, Series]:
    t = simulate(2, seed=11, name="Finished Night")
    series = create_series("Spring League", points_table="total")
    add_event(series, t)
    return t, series


def own_names(t: Tournament) -> dict[str, str]:
    """Each private link's token -> its owner's full name (their own page may show it)."""
    return dict(
        Registration.objects.filter(tournament=t, passes__isnull=False).values_list(
            "passes__token", "player__name"
        )
    )


def people_of(t: Tournament) -> list[Person]:
    return list(Person.objects.filter(links__player__tournament=t).distinct())


def full_names_shown(client, t: Tournament, series: Series) -> dict[str, set[str]]:
    """address -> the full names it shows of people who did not choose them."""
    passes(t)
    mine = own_names(t)
    secret = {
        p.name for p in people_of(t) if not p.public_full_name and short_name(p.name) != p.name
    }
    assert secret
    found: dict[str, set[str]] = {}
    for address, (content_type, body) in walk(client, t, series).items():
        if any(address.endswith(name) for name in NOT_FOR_PLAYERS):
            continue
        text = readable(content_type, body)
        own = {name for token, name in mine.items() if f"/r/{token}/" in address}
        shown = {name for name in secret - own if name in text}
        if shown:
            found[address] = shown
    return found


@pytest.mark.slow  # a walk over every public answer
@pytest.mark.parametrize("state", ["running", "finished"])
def test_no_public_answer_shows_the_full_name_of_a_person_who_did_not_choose_it(
    client, make_tournament, state
):
    t, series = running_event(make_tournament) if state == "running" else finished_event()
    assert full_names_shown(client, t, series) == {}
    # The short forms are there: the standings list everyone, by their public name.
    page = client.get(reverse("public:standings", args=[t.slug]) + "?division=A").content
    some = Player.objects.filter(tournament=t, division="A").first()
    assert html.escape(short_name(some.name)) in page.decode()


@pytest.mark.slow  # the walk above, shown able to fail
def test_a_full_name_chosen_is_shown_and_the_walk_finds_it(client, make_tournament):
    # The check above can fail: once a person chooses their full name, the walk sees it.
    t, series = finished_event()
    chosen = people_of(t)[0]
    Person.objects.filter(pk=chosen.pk).update(public_full_name=True)
    secret_before = {p.name for p in people_of(t)}
    Person.objects.filter(pk__in=[p.pk for p in people_of(t)]).update(public_full_name=True)
    found = full_names_shown_unfiltered(client, t, series, secret_before)
    assert any("/standings/" in a for a, names in found.items() if chosen.name in names)
    assert any("/series/" in a for a, names in found.items() if chosen.name in names)


def full_names_shown_unfiltered(client, t, series, names: set[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for address, (content_type, body) in walk(client, t, series).items():
        text = readable(content_type, body)
        shown = {n for n in names if n in text}
        if shown:
            found[address] = shown
    return found


def test_a_person_left_off_the_series_standings_is_a_player_there_and_keeps_their_row(client):
    t, series = finished_event()
    left = people_of(t)[0]
    Person.objects.filter(pk=left.pk).update(public_listed=False)
    page = html.unescape(
        client.get(reverse("series_public:series", args=[series.slug])).content.decode()
    )
    assert short_name(left.name) not in page and left.name not in page
    assert f"<td>{UNLISTED}</td>" in page
    # Every person keeps a row: no gap that says who.
    assert page.count("<tr>") == len(people_of(t)) + 1
    # The event's own standings still show them by their public name.
    standings = html.unescape(
        client.get(
            reverse("public:standings", args=[t.slug])
            + "?division="
            + Player.objects.get(tournament=t, person_link__person=left).division
        ).content.decode()
    )
    assert short_name(left.name) in standings


def test_the_directors_pages_and_the_halls_sheets_keep_full_names(director_client):
    t, series = finished_event()
    name = people_of(t)[0].name
    assert (
        name in director_client.get(reverse("league:series", args=[series.slug])).content.decode()
    )
    player = Player.objects.filter(tournament=t, person_link__person__name=name).first()
    desk = director_client.get(reverse("director:players", args=[t.slug])).content.decode()
    assert html.escape(player.name) in desk


def test_a_phone_finds_a_short_name_by_the_full_name_typed_and_tells_no_more(client):
    from tournaments.core.phones.reads import search_players

    t, _series = finished_event()
    someone = Player.objects.filter(tournament=t).exclude(name__regex=r"\d").first()
    first, last = someone.name.split()
    found = [f.name for f in search_players(t, f"{first} {last}")]
    assert short_name(someone.name) in found and someone.name not in found
    answer = client.get(reverse("public:find", args=[t.slug]), {"q": last}).content.decode()
    assert last not in answer.replace(first, "")


def test_the_registration_link_leads_to_the_record(client):
    t, _series = finished_event()
    passes(t)
    token, name = next(iter(own_names(t).items()))
    page = client.get(reverse("public:registration", args=[t.slug, token]) + "?pass=1")
    assert reverse("record:page", args=[t.slug, token]) in page.content.decode()
