"""The tablet's conditional state read (docs/tablet-api.md, "Conditional read"): an ETag
from one query, 304 when nothing the table shows changed, never a 304 that hides a
change or a revoked link."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.test_tablet import hand, post, tablet
from tournaments.core.models.event import Player
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.services import rounds, substitutions
from tournaments.domain.clock import CONTACT_EVERY


@pytest.fixture
def event(make_tournament):
    """Two tables, round 1 drawn and running."""
    t = make_tournament(tables=2)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=11), by="test")
    return t


STATE = "/t/table/state.json"


def read(client: Client, etag: str | None = None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(STATE, **headers)


def etag_of(client: Client) -> str:
    response = read(client)
    assert response.status_code == 200 and response["ETag"]
    return response["ETag"]


def changed(client: Client, etag: str) -> bool:
    """Whether a tablet holding ``etag`` gets a new state (200) rather than 304."""
    response = read(client, etag)
    assert response.status_code in (200, 304)
    return response.status_code == 200


def match_at(t, table: int, number: int = 1) -> Match:
    return Match.objects.get(round__tournament=t, round__number=number, table=table)


def play_out(t, clients: dict[int, Client]) -> None:
    """Every table wins 10-0 and confirms; round 1 is finalized."""
    for table, c in clients.items():
        for n in range(1, 4):
            post(c, "hands", hand(n, key=f"t{table}-{n}", alone=n < 3, maker_tricks=5))
        east = read(c).json()["seats"][1]["player"]
        post(c, "keeper", {"seat": "N"})
        assert post(c, "confirm", {"agree": True, "by": east})[0] == 200
    rounds.finalize_round(t.rounds.get(number=1), by="director")


def test_a_tablet_holding_the_current_state_gets_304_and_keeps_the_etag(event, monkeypatch):
    client = tablet(event, 1)
    etag = etag_of(client)
    response = read(client, etag)
    assert response.status_code == 304 and response["ETag"] == etag and not response.content
    # Nothing moved, so a full read half a minute later gives the same ETag: the clock's
    # readings (server_now, the seconds left) are not part of it.
    later = timezone.now() + timedelta(seconds=30)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert etag_of(client) == etag


def test_a_hand_at_another_table_does_not_change_this_tables_etag(event):
    here, there = tablet(event, 1), tablet(event, 2)
    etag = etag_of(here)
    assert post(there, "hands", hand(1, first_dealer="N"))[0] == 201
    assert post(there, "hands", hand(2))[0] == 201
    assert not changed(here, etag)


def test_a_hand_at_this_table_changes_the_etag_and_the_new_state_shows_it(event):
    client, other = tablet(event, 1), tablet(event, 1)
    etag = etag_of(client)
    assert post(other, "hands", hand(1, first_dealer="N"))[0] == 201
    response = read(client, etag)
    assert response.status_code == 200 and response.json()["match"]["hands_standing"] == 1
    assert response["ETag"] != etag
    assert not changed(client, response["ETag"])


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda t: rounds.pause_round(t.rounds.get(number=1), by="d"), id="pause"),
        pytest.param(
            lambda t: rounds.extend_table(match_at(t, 1), 5, by="d", reason="late"),
            id="extension",
        ),
        pytest.param(lambda t: rounds.call_time(t.rounds.get(number=1), by="d"), id="time call"),
        pytest.param(
            lambda t: rounds.revoke_link(t, 2, by="d"), id="another table's relink (room-level)"
        ),
    ],
)
def test_a_director_action_that_changes_the_tables_state_changes_its_etag(event, change):
    client = tablet(event, 1)
    etag = etag_of(client)
    change(event)
    assert changed(client, etag)


def test_a_resume_after_a_pause_changes_the_etag_again(event):
    client = tablet(event, 1)
    rounds.pause_round(event.rounds.get(number=1), by="d")
    paused = etag_of(client)
    assert read(client).json()["clock"]["paused"]
    rounds.resume_round(event.rounds.get(number=1), by="d")
    assert changed(client, paused)


def test_an_extension_at_another_table_does_not_change_this_tables_etag(event):
    client = tablet(event, 1)
    etag = etag_of(client)
    rounds.extend_table(match_at(event, 2), 5, by="d", reason="late")
    assert not changed(client, etag)


def test_a_substitution_at_this_table_changes_the_etag(event):
    client = tablet(event, 1)
    assert post(client, "hands", hand(1, first_dealer="N"))[0] == 201
    etag = etag_of(client)
    match = match_at(event, 1)
    seat = Seating.objects.get(round=match.round, table=1, position="N")
    seated = Seating.objects.filter(round=match.round).values("player_id")
    newcomer = Player.objects.create(
        tournament=event, name="Late Arrival", division=seat.player.division, checked_in=True
    )
    assert not Player.objects.filter(pk=newcomer.pk, pk__in=seated).exists()
    substitutions.substitute(match, "N", 2, newcomer, substitutions.Signed("d", "ill"))
    response = read(client, etag)
    assert response.status_code == 200
    assert response.json()["seats"][0]["player"] == "Late Arrival"


def test_a_confirmation_changes_the_etag(event):
    client = tablet(event, 1)
    post(client, "keeper", {"seat": "N"})
    for n in range(1, 4):
        post(client, "hands", hand(n, alone=n < 3, maker_tricks=5))
    data = read(client).json()
    etag = etag_of(client)
    assert post(client, "confirm", {"agree": True, "by": data["seats"][1]["player"]})[0] == 200
    response = read(client, etag)
    assert response.status_code == 200 and response.json()["match"]["status"] == "confirmed"


def test_seating_the_next_round_changes_every_tables_etag(event):
    clients = {table: tablet(event, table) for table in (1, 2)}
    play_out(event, clients)
    etags = {table: etag_of(c) for table, c in clients.items()}
    rounds.seat_next_round(event, by="director")
    for table, c in clients.items():
        response = read(c, etags[table])
        assert response.status_code == 200 and response.json()["next_round"]["number"] == 2
    rounds.start_round(event.rounds.get(number=2), by="director")
    assert changed(clients[1], etag_of(clients[1])) is False
    assert read(clients[1]).json()["round"]["number"] == 2


def test_the_tables_time_limit_passing_answers_in_full_once(event, monkeypatch):
    """The one change that comes with time alone: the ETag carries the call instant."""
    rnd = event.rounds.get(number=1)
    limit = timedelta(minutes=event.round_minutes)
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - limit + timedelta(seconds=1))
    client = tablet(event, 1)
    before = read(client)
    assert not before.json()["match"]["time_called"] and before.json()["clock"]["call_at"]
    assert not changed(client, before["ETag"])
    # The server's clock moves past the call, as it would a second later.
    later = timezone.now() + timedelta(seconds=1.2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    after = read(client, before["ETag"])
    assert after.status_code == 200 and after.json()["match"]["time_called"]
    assert not changed(client, after["ETag"])


def test_an_etag_with_its_call_instant_forged_into_the_future_is_harmless_to_others(event):
    here, there = tablet(event, 1), tablet(event, 2)
    digest = etag_of(here).strip('"').split("-")[0]
    assert changed(there, f'"{digest}-0"')


def test_a_revoked_link_gets_403_never_304(event):
    client = tablet(event, 1)
    etag = etag_of(client)
    rounds.revoke_link(event, 1, by="director")
    response = read(client, etag)
    assert response.status_code == 403 and response.json()["revoked"] is True


def test_a_read_naming_a_match_is_answered_in_full(event):
    client = tablet(event, 1)
    etag = etag_of(client)
    response = client.get(f"{STATE}?match={match_at(event, 1).pk}", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and "ETag" not in response


def test_a_304_costs_one_query(event, django_assert_num_queries):
    client = tablet(event, 1)
    for n in range(1, 4):
        post(client, "hands", hand(n, first_dealer="N"))
    etag = etag_of(client)
    with django_assert_num_queries(1):
        assert read(client, etag).status_code == 304


def test_a_304_notes_the_tablets_contact_once_a_minute_with_one_more_query(
    event, django_assert_num_queries
):
    client = tablet(event, 1)
    etag = etag_of(client)
    long_ago = timezone.now() - CONTACT_EVERY - timedelta(seconds=1)
    Match.objects.filter(pk=match_at(event, 1).pk).update(last_contact_at=long_ago)
    with django_assert_num_queries(2):
        assert read(client, etag).status_code == 304
    assert match_at(event, 1).last_contact_at > long_ago
    with django_assert_num_queries(1):
        assert read(client, etag).status_code == 304


def test_the_full_read_costs_what_it_did_before_the_etag(event, django_assert_num_queries):
    client = tablet(event, 1)
    for n in range(1, 6):
        post(client, "hands", hand(n, key=f"q{n}", maker="NESW"[n % 4], maker_tricks=1 + n % 5))
    etag_of(client)  # notes the contact: the read below does not write
    # The version query replaces the link check the read made before it.
    with django_assert_num_queries(FULL_READ_QUERIES):
        assert read(client).status_code == 200


FULL_READ_QUERIES = 5
