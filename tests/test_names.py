"""Names as people read and type them: one fold (``names.fold``) for the search,
the standings filter and the alphabetical order, and no other folding anywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.test_public_phones import event_after
from tournaments.common.names import fold, sort_key
from tournaments.core.models.event import Player
from tournaments.core.models.people import Person
from tournaments.core.phones.reads import search_players

ROOT = Path(__file__).resolve().parent.parent

# Matching a person across events keys the name for the database (Person.name_key, stored
# and indexed): a different question, named here so that no other exception slips in.
OWN_KEY = {"tournaments/core/services/people.py"}


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("lukasz", "Łukasz"),
        ("soren", "Søren"),
        ("obrien", "O'Brien"),
        ("o’brien", "O'Brien"),
        ("o'brien", "O’Brien"),
        ("mary jo", "Mary-Jo"),
        ("jeanluc", "Jean-Luc"),
        ("strasse", "Straße"),
        ("ZOË", "zoe"),
    ],
)
def test_what_a_phone_types_folds_like_the_name_it_means(typed, name):
    assert fold(typed) in fold(name).replace(" ", "") or fold(typed) == fold(name)


def test_the_alphabetical_order_and_the_search_fold_names_the_same_way():
    for name in ("Łukasz", "Søren", "O'Brien", "Mary-Jo", "Ærø", "Zoë"):
        assert sort_key(name) == (fold(name), name)
    assert sorted(["Oscar", "O'Brien", "Oberon"], key=sort_key) == ["Oberon", "O'Brien", "Oscar"]


@pytest.mark.parametrize(
    ("typed", "name"),
    [("lukasz", "Łukasz Nowak"), ("soren", "Søren Kierk"), ("obrien", "Pat O'Brien")]
    + [("o’brien", "Pat O'Brien"), ("OBRIEN pat", "Pat O'Brien"), ("jeanluc", "Jean-Luc Ray")],
)
def test_a_phone_finds_a_player_whose_name_has_letters_or_marks_it_cannot_type(
    client, make_tournament, typed, name
):
    t = make_tournament(1)
    Player.objects.filter(tournament=t, name="Player A001").update(name=name)
    # The full name on public pages: the person chose it (names.public_name).
    Person.objects.filter(links__player__name=name).update(public_full_name=True)
    assert [f.name for f in search_players(t, typed)] == [name]
    found = client.get(reverse("public:find", args=[t.slug]), {"q": typed}).json()
    assert [p["name"] for p in found["players"]] == [name]


def test_the_standings_filter_finds_a_name_typed_without_its_marks(client, make_tournament):
    t = event_after(make_tournament, 1, 1)
    Player.objects.filter(tournament=t, name="Player A001").update(name="Søren O'Brien")
    Person.objects.filter(links__player__name="Søren O'Brien").update(public_full_name=True)
    page = client.get(reverse("public:standings", args=[t.slug]), {"q": "soren o’brien"})
    assert page.content.decode().count("<tr data-name=") == 1
    assert "Søren O&#x27;Brien" in page.content.decode()


# --- no other folding ---------------------------------------------------------------------

FOLDING = re.compile(r"unicodedata\.(normalize|combining)|\bNFK?[CD]\b|[ŁłØøÆæßŒœ]\"?\s*:")


def test_no_code_but_the_name_rule_folds_names_its_own_way():
    offenders = []
    for folder in ("tournaments", "snowman", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or where == "tournaments/common/names.py":
                continue
            if where not in OWN_KEY and FOLDING.search(path.read_text()):
                offenders.append(where)
    assert offenders == []


# The order people read: the database's collation put "Mireille" before "Mélanie" and
# "Ryan" before "Réjean"; every list sorts by the one name rule instead.
READ_ORDER = ["Mélanie Roy", "Mireille Roy", "Réjean Tremblay", "Ryan Tremblay"]


def _named(make_tournament):
    from tournaments.core.services.players import edit_player
    from tournaments.core.services.rounds import draw_first_round

    t = make_tournament(1)
    players = list(Player.objects.filter(tournament=t).order_by("pk"))
    for player, name in zip(players, reversed(READ_ORDER), strict=True):
        edit_player(player, name=name, division=player.division, by="test")
    return t, draw_first_round(t, by="test", seed=3)


def _in_order(page: str) -> list[str]:
    return sorted(READ_ORDER, key=page.index)


def test_the_players_list_sorts_names_as_people_read_them(director_client, make_tournament):
    t, _ = _named(make_tournament)
    page = director_client.get(reverse("director:players", args=[t.slug])).content.decode()
    assert _in_order(page.split('id="players-table"', 1)[1]) == READ_ORDER
    backwards = director_client.get(
        reverse("director:players", args=[t.slug]), {"sort": "-name"}
    ).content.decode()
    assert _in_order(backwards.split('id="players-table"', 1)[1]) == READ_ORDER[::-1]


def test_the_seat_finder_pages_names_as_people_read_them(director_client, make_tournament):
    from tournaments.core.reads import queries

    t, rnd = _named(make_tournament)
    assert [name for _, name in queries.seated_names(rnd, "")] == READ_ORDER
    page = director_client.get(reverse("director:seating", args=[t.slug, 1])).content.decode()
    finder = page.split('id="seat-finder"', 1)[-1] if 'id="seat-finder"' in page else page
    assert _in_order(finder.rsplit("</table>", 1)[0]) == READ_ORDER
