"""A paper table in a minute: the whole scoresheet keyed in one grid, all or
nothing, under the tablet's rules and versioned 409; a table marked "scored on paper"
raises no silent-tablet alarm and the board says "paper"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.test_roles import user
from tournaments.core.models.log import Activity
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.services import rounds

# A 10-hand sheet NS wins 10-3: maker, alone, tricks (or misdeal).
SHEET = [
    ("N", "", "3"),
    ("E", "", "3"),
    ("N", "", "5"),
    ("E", "", "4"),
    ("S", "", "3"),
    ("W", "", "3"),
    ("N", "", "5"),
    ("misdeal", "", ""),
    ("S", "", "5"),
    ("N", "", "5"),
]


def sheet_data(match: Match, rows=SHEET, **extra: str) -> dict[str, str]:
    data = {
        "client_key": extra.pop("client_key", "sheet-test-1"),
        "version": str(match.version),
        "first_dealer": "E",
        "reason": "Keyed from the paper scoresheet",
        "confirm": "on",
        "game": "1",
        **extra,
    }
    for i, (play, alone, tricks) in enumerate(rows, 1):
        data[f"r{i}-play"] = play
        if alone:
            data[f"r{i}-alone"] = "on"
        data[f"r{i}-tricks"] = tricks
    return data


@pytest.fixture
def running(make_tournament):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    rounds.start_round(rnd, by="test")
    return t, rnd


def sheet_url(t, rnd, table: int = 1) -> str:
    return reverse("director:table_scoresheet", args=[t.slug, rnd.number, table])


def test_a_whole_sheet_keyed_at_once_ends_the_match_with_one_reason(director_client, running):
    t, rnd = running
    match = rnd.matches.get(table=1)
    page = director_client.get(sheet_url(t, rnd)).content.decode()
    assert "Enter from the scoresheet" in page or "enter from the scoresheet" in page
    response = director_client.post(sheet_url(t, rnd), sheet_data(match))
    assert response.status_code == 302, response.content.decode()[:2000]
    match.refresh_from_db()
    assert (match.score_ns, match.score_ew, match.hands_played) == (10, 3, 10)
    assert match.first_dealer == "E" and match.winner == "NS"
    # The signed sheet confirms the result: nothing left for the board to chase.
    assert match.status == Match.Status.CONFIRMED
    entries = HandEntry.objects.filter(match=match)
    assert entries.count() == 10 and set(entries.values_list("source", flat=True)) == {"director"}
    lines = Activity.objects.filter(action="scoresheet")
    assert lines.count() == 1 and lines[0].reason == "Keyed from the paper scoresheet"
    # No reason was asked for the first dealer: it is part of the sheet.
    assert not Activity.objects.filter(action="first dealer").exists()


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        ([("N", "", "3"), ("E", "", "7")], "Some rows need fixing: 2."),
        ([("N", "", "3"), ("", "", "4")], "Some rows need fixing: 2."),
        ([("misdeal", "", "3")], "Some rows need fixing: 1."),
        # The rules refuse a hand after the end: the whole sheet is refused, named.
        ([*SHEET, ("E", "", "3")], "Hand 11:"),
    ],
)
def test_a_wrong_row_refuses_the_whole_sheet_and_names_it(director_client, running, rows, said):
    t, rnd = running
    match = rnd.matches.get(table=1)
    response = director_client.post(sheet_url(t, rnd), sheet_data(match, rows))
    assert response.status_code == 422 and said in response.content.decode()
    match.refresh_from_db()
    assert match.hands_played == 0 and not HandEntry.objects.filter(match=match).exists()
    assert not match.first_dealer


def test_a_stale_grid_is_a_409_with_the_table_as_it_is(director_client, running):
    t, rnd = running
    match = rnd.matches.get(table=1)
    stale = sheet_data(match, SHEET[:2])
    director_client.post(sheet_url(t, rnd), sheet_data(match, SHEET[:1], client_key="other"))
    response = director_client.post(sheet_url(t, rnd), stale)
    assert response.status_code == 409
    assert "changed since this grid was shown" in response.content.decode()
    match.refresh_from_db()
    assert match.hands_played == 1


def test_the_same_sheet_sent_twice_is_entered_once(director_client, running):
    t, rnd = running
    match = rnd.matches.get(table=1)
    data = sheet_data(match, SHEET[:4])
    assert director_client.post(sheet_url(t, rnd), data).status_code == 302
    assert director_client.post(sheet_url(t, rnd), data).status_code == 302
    assert HandEntry.objects.filter(match=match).count() == 4


def test_a_paper_table_says_paper_on_the_board_and_never_tablet_silent(director_client, running):
    t, rnd = running
    # Long after the start, no tablet ever heard: both tables would be "tablet silent".
    rnd.started_at = timezone.now() - timedelta(minutes=15)
    rnd.save(update_fields=["started_at"])
    board = reverse("director:round", args=[t.slug, rnd.number])
    before = director_client.get(board).content.decode()
    assert before.count("tablet silent") >= 2
    marked = director_client.post(
        reverse("director:table_paper", args=[t.slug, rnd.number, 2]), {"on": "1"}
    )
    assert marked.status_code == 302
    after = director_client.get(board).content.decode()
    assert 'class="device-paper">paper<' in after
    assert after.count("tablet silent") == before.count("tablet silent") - 1
    assert Activity.objects.filter(action="paper").count() == 1
    director_client.post(reverse("director:table_paper", args=[t.slug, rnd.number, 2]), {"on": "0"})
    assert "device-paper" not in director_client.get(board).content.decode()


def test_the_desk_may_not_key_a_scoresheet(running, django_user_model):
    t, rnd = running
    desk = user(django_user_model, "dave", "desk")
    match = rnd.matches.get(table=1)
    assert desk.post(sheet_url(t, rnd), sheet_data(match)).status_code == 403
    assert desk.get(sheet_url(t, rnd)).status_code == 403
    assert not HandEntry.objects.filter(match=match).exists()
