"""The tablet's endpoints (docs/tablet-api.md): links, table scope, hands, time and the end."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Seating
from tournaments.core.reads import queries
from tournaments.core.services import Conflict, corrections, play, rounds
from tournaments.core.services.tablet import (
    COOKIE,
    SESSION_SECONDS,
    Forbidden,
    TableScope,
    live_link,
    scope_of,
    session_value,
)
from tournaments.domain.hands import Hand, Outcome, Seat, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_tournament):
    """Two tables, round 1 drawn and running."""
    t = make_tournament(tables=2)
    rnd = rounds.draw_first_round(t, by="test", seed=11)
    rounds.start_round(rnd, by="test")
    return t


def link(t, table: int) -> TableLink:
    return TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True)


def tablet(t, table: int, client: Client | None = None) -> Client:
    client = client or Client()
    response = client.get(f"/t/{link(t, table).token}/")
    assert response.status_code == 302
    return client


def post(client: Client, path: str, body: object) -> tuple[int, dict]:
    response = client.post(f"/t/table/{path}", json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def hand(number: int, key: str | None = None, **fields: object) -> dict:
    body = {
        "client_key": key or f"key-{number}",
        "number": number,
        "outcome": "played",
        "maker": "N",
        "alone": False,
        "maker_tricks": 3,
        "renege_by": None,
        "first_dealer": "N",
    }
    body.update(fields)
    return body


def state(client: Client) -> dict:
    response = client.get("/t/table/state.json")
    assert response.status_code == 200
    return response.json()


# --- links and sessions -----------------------------------------------------------------


def test_link_tokens_are_long_random_and_one_live_per_table(event):
    tokens = list(TableLink.objects.filter(tournament=event).values_list("token", flat=True))
    assert len(tokens) == 2 and len(set(tokens)) == 2
    # token_urlsafe(32) is 256 bits of os.urandom, 43 characters of base64.
    assert all(len(token) >= 43 for token in tokens)


def test_opening_a_link_trades_the_token_for_a_session_and_drops_it_from_the_address(event):
    client = Client()
    response = client.get(f"/t/{link(event, 2).token}/")
    assert response.status_code == 302
    assert response["Location"] == "/t/table/"
    cookie = client.cookies[COOKIE]
    assert cookie.value.startswith(f"{event.pk}:2:{link(event, 2).pk}:")
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/t/table/"
    assert cookie["max-age"] == SESSION_SECONDS
    page = client.get("/t/table/")
    assert page.status_code == 200
    assert link(event, 2).token not in page.content.decode()
    assert state(client)["table"] == 2


def test_a_forged_altered_or_stale_table_cookie_opens_nothing(event, monkeypatch):
    other = link(event, 2)
    forged = Client()
    forged.cookies[COOKIE] = f"{event.pk}:2:{other.pk}"
    assert forged.get("/t/table/state.json").status_code == 403
    # A real cookie for table 1, edited to say table 2: the signature no longer holds.
    altered = tablet(event, 1)
    value = altered.cookies[COOKIE].value
    altered.cookies[COOKIE] = value.replace(
        f"{event.pk}:1:{link(event, 1).pk}", f"{event.pk}:2:{other.pk}"
    )
    assert altered.get("/t/table/state.json").status_code == 403
    # Past its age the cookie is refused, however well signed.
    stale = tablet(event, 1)
    assert stale.get("/t/table/state.json").status_code == 200
    from django.core import signing

    later = signing.time.time() + SESSION_SECONDS + 60
    monkeypatch.setattr(signing.time, "time", lambda: later)
    assert stale.get("/t/table/state.json").status_code == 403


def test_an_unknown_token_is_not_found(event):
    assert Client().get("/t/not-a-real-token/").status_code == 404


def test_a_revoked_link_no_longer_opens_and_its_sessions_end(event):
    client = tablet(event, 1)
    old = link(event, 1)
    new = rounds.revoke_link(event, 1, by="director")
    assert Client().get(f"/t/{old.token}/").status_code == 403
    response = client.get("/t/table/state.json")
    assert response.status_code == 403 and response.json()["revoked"] is True
    assert client.get("/t/table/").status_code == 403
    own = Match.objects.get(round__tournament=event, table=1)
    for body in (hand(1), hand(1, match=own.pk)):
        status, answer = post(client, "hands", body)
        assert status == 403 and answer["revoked"] is True
    assert not HandEntry.objects.filter(match=own).exists()
    # The reissued link serves the same table.
    fresh = Client()
    assert fresh.get(f"/t/{new.token}/").status_code == 302
    assert state(fresh)["table"] == 1


def test_the_link_check_inside_the_lock_agrees_with_the_session_check(event):
    live = link(event, 1)
    scopes = [
        TableScope(event.pk, 1, live.pk),
        TableScope(event.pk, 2, live.pk),
        TableScope(event.pk + 1, 1, live.pk),
        TableScope(event.pk, 1, live.pk + 99),
    ]

    def agree() -> list[bool]:
        verdicts = []
        for scope in scopes:
            try:
                scope_of(session_value(scope))
                by_session = True
            except Forbidden:
                by_session = False
            in_query = (
                Match.objects.annotate(ok=live_link(scope)).values_list("ok", flat=True).first()
            )
            assert bool(in_query) == by_session, scope
            verdicts.append(by_session)
        return verdicts

    assert agree() == [True, False, False, False]
    rounds.revoke_link(event, 1, by="director")
    assert agree() == [False, False, False, False]


@pytest.mark.parametrize(
    "path", ["hands", "first-dealer", "keeper", "undo", "answer-call", "confirm"]
)
def test_every_endpoint_needs_a_table_session(event, path):
    client = Client()
    assert client.get("/t/table/state.json").status_code == 403
    assert client.get("/t/table/").status_code == 403
    status, body = post(client, path, {})
    assert status == 403 and "error" in body


def test_a_session_for_one_table_cannot_read_or_write_another(event):
    client = tablet(event, 1)
    other = Match.objects.get(round__tournament=event, table=2)
    assert client.get(f"/t/table/state.json?match={other.pk}").status_code == 403
    assert client.get("/t/table/state.json?match=abc").status_code == 422
    assert client.get(f"/t/table/state.json?match={2**70}").status_code == 403
    assert post(client, "hands", hand(1, match=2**70))[0] == 403
    status, _ = post(client, "hands", hand(1, match=other.pk))
    assert status == 403
    assert post(client, "first-dealer", {"seat": "N", "match": other.pk})[0] == 403
    assert post(client, "undo", {"number": 1, "match": other.pk})[0] == 403
    assert not other.hands.exists() and other.first_dealer == ""
    # A key already used at table 2 cannot be replayed into table 1 either.
    tablet_2 = tablet(event, 2)
    assert post(tablet_2, "hands", hand(1, key="shared"))[0] == 201
    status, body = post(client, "hands", hand(1, key="shared"))
    assert status == 409 and "another table" in body["error"]


def test_csrf_stays_on_and_the_cookie_comes_with_the_state(event):
    client = Client(enforce_csrf_checks=True)
    client.get(f"/t/{link(event, 1).token}/")
    assert (
        client.post(
            "/t/table/hands", json.dumps(hand(1)), content_type="application/json"
        ).status_code
        == 403
    )
    client.get("/t/table/state.json")
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/t/table/hands",
        json.dumps(hand(1)),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 201


# --- hands ------------------------------------------------------------------------------


def test_a_hand_is_stored_once_and_a_retry_of_its_key_adds_nothing(event):
    client = tablet(event, 1)
    status, body = post(client, "hands", hand(1))
    assert status == 201
    assert body["hand"]["number"] == 1 and body["hand"]["points"] == {"NS": 1, "EW": 0}
    assert body["state"]["match"]["score"] == {"NS": 1, "EW": 0}
    status, again = post(client, "hands", hand(1))
    assert status == 200 and again["duplicate"] is True
    assert HandEntry.objects.filter(match__table=1).count() == 1


def test_two_entries_for_the_same_hand_are_refused_never_both_kept(event):
    first, second = tablet(event, 1), tablet(event, 1)
    assert post(first, "hands", hand(1, key="tablet-a"))[0] == 201
    status, body = post(second, "hands", hand(1, key="tablet-b", maker="E"))
    assert status == 409 and "already recorded (by another tablet?)" in body["error"]
    assert state(second)["match"]["score"] == {"NS": 1, "EW": 0}
    assert HandEntry.objects.filter(match__table=1).count() == 1


@pytest.mark.parametrize(
    "body",
    [
        {"outcome": "played", "maker": "N", "maker_tricks": 6},
        {"outcome": "played", "maker": "N"},
        {"outcome": "played", "maker_tricks": 3},
        {"outcome": "played", "maker": "X", "maker_tricks": 3},
        {"outcome": "played", "maker": "N", "maker_tricks": "3"},
        {"outcome": "played", "maker": "N", "maker_tricks": 3.5},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "alone": "yes"},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "renege_by": "E"},
        {"outcome": "renege"},
        {"outcome": "renege", "renege_by": "E", "maker_tricks": 2},
        {"outcome": "misdeal", "maker": "N"},
        {"outcome": "bogus"},
        {"outcome": ["played"]},
        {"outcome": "played", "maker": ["N"], "maker_tricks": 3},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "entered_at": "yesterday"},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "entered_at": "2026-01-01T10:00"},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "entered_at": 12},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "number": -1},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "client_key": ""},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "client_key": "k" * 65},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "client_key": 5},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "match": "abc"},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "match": {"id": 1}},
        {"outcome": "played", "maker": "N", "maker_tricks": 3, "first_dealer": "Q"},
    ],
)
def test_impossible_or_malformed_hands_answer_422_and_store_nothing(event, body):
    client = tablet(event, 1)
    payload = {"client_key": "k1", "first_dealer": "N", **body}
    status, answer = post(client, "hands", payload)
    assert status == 422, answer
    assert answer["error"]
    assert not HandEntry.objects.exists()


@pytest.mark.parametrize("raw", [b"not json", b"[1, 2]", b'"text"', b"\xff\xfe", b"[" * 100_000])
def test_a_body_that_is_not_a_json_object_answers_400(event, raw):
    client = tablet(event, 1)
    response = client.post("/t/table/hands", raw, content_type="application/json")
    assert response.status_code == 400


def test_a_body_past_the_size_limit_answers_a_json_400_and_stores_nothing(event, settings):
    # Django's own answer was its HTML error page (the tablet reads JSON) and a traceback
    # in the server's log.
    client = tablet(event, 1)
    body = json.dumps(hand(1, "big", first_dealer="N", pad="x" * 2048)).encode()
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    for path in ("/t/table/hands", "/t/table/help"):
        response = client.post(path, body, content_type="application/json")
        assert response.status_code == 400
        assert response.json() == {"error": "The body is too large."}
    assert not HandEntry.objects.exists()


def test_the_first_hand_needs_a_first_dealer_and_the_deal_passes_clockwise(event):
    client = tablet(event, 1)
    status, body = post(client, "hands", hand(1, first_dealer=None))
    assert status == 422 and "first dealer" in body["error"]
    status, body = post(client, "first-dealer", {"seat": "W"})
    assert status == 200 and body["state"]["match"]["dealer"] == "W"
    assert post(client, "first-dealer", {"seat": "Z"})[0] == 422
    post(
        client,
        "hands",
        hand(1, first_dealer=None, outcome="misdeal", maker=None, maker_tricks=None),
    )
    data = state(client)
    assert [h["dealer"] for h in data["hands"]] == ["W"]
    assert data["match"]["dealer"] == "N"
    status, body = post(client, "first-dealer", {"seat": "E"})
    assert status == 422 and "cannot change" in body["error"]


def test_undo_must_name_the_last_hand_and_the_undone_entry_stays_in_history(event):
    client = tablet(event, 1)
    post(client, "hands", hand(1))
    post(client, "hands", hand(2, maker="E", maker_tricks=5, alone=True))
    status, body = post(client, "undo", {"number": 1, "client_key": "key-1"})
    assert status == 409 and "last hand is 2" in body["error"]
    assert body["state"]["match"]["hands_standing"] == 2
    # The last hand's key with another number: the screen disagrees with itself.
    status, body = post(client, "undo", {"number": 1, "client_key": "key-2"})
    assert status == 409 and "last hand is 2" in body["error"]
    assert HandEntry.objects.get(client_key="key-2").state == "standing"
    assert post(client, "undo", {"number": "2", "client_key": "key-2"})[0] == 422
    assert post(client, "undo", {"number": 2, "client_key": 2})[0] == 422
    status, body = post(client, "undo", {"number": 2, "client_key": "key-2"})
    assert status == 200
    data = body["state"]
    assert data["match"]["score"] == {"NS": 1, "EW": 0}
    assert [(h["number"], h["state"]) for h in data["history"]] == [(1, "standing"), (2, "undone")]
    assert [h["number"] for h in data["hands"]] == [1]
    assert data["match"]["next_number"] == 2


def made(maker: str, tricks: int) -> Hand:
    return Hand(outcome=Outcome.PLAYED, maker=Seat(maker), maker_tricks=tricks)


def table_match(t) -> Match:
    return Match.objects.get(round__tournament=t, table=1)


def test_an_undo_queued_before_the_director_corrected_the_hand_undoes_nothing(event):
    client = tablet(event, 1)
    post(client, "hands", hand(1))
    _, body = post(client, "hands", hand(2, maker="E"))
    shown = body["state"]["hands"][-1]  # the hand the tablet offers to undo
    entry = HandEntry.objects.get(client_key=shown["client_key"])
    corrections.correct_hand(entry, made("E", 4), by="director", reason="E made 4 tricks")
    undo = {"number": 2, "client_key": shown["client_key"]}
    status, body = post(client, "undo", undo)
    assert status == 409 and "director changed this match's hands" in body["error"]
    assert body["state"]["match"]["score"] == {"NS": 1, "EW": 1}
    corrected = HandEntry.objects.get(match=table_match(event), number=2, state="standing")
    assert corrected.source == "director" and corrected.maker_tricks == 4
    # The service refuses it under its lock, whoever calls it.
    with pytest.raises(Conflict):
        play.undo_last_hand(table_match(event), by="t", expected=(2, shown["client_key"]))
    assert HandEntry.objects.filter(state="undone").count() == 0
    # Undoing the hand it now shows works.
    shown = body["state"]["hands"][-1]
    status, body = post(client, "undo", {"number": 2, "client_key": shown["client_key"]})
    assert status == 200 and body["state"]["match"]["hands_standing"] == 1


def test_an_undo_of_a_hand_undone_and_entered_again_since_undoes_nothing(event):
    client, other = tablet(event, 1), tablet(event, 1)
    post(client, "hands", hand(1))
    post(client, "hands", hand(2))  # the tablet shows hand 2 as NS 1
    play.undo_last_hand(table_match(event), by="director", reason="wrong", director=True)
    assert post(other, "hands", hand(2, key="again-2", maker="E", maker_tricks=5))[0] == 201
    status, body = post(client, "undo", {"number": 2, "client_key": "key-2"})
    assert status == 409 and "already undone" in body["error"]
    assert body["state"]["match"]["score"] == {"NS": 1, "EW": 2}
    assert HandEntry.objects.get(client_key="again-2").state == "standing"


def test_an_undo_without_the_hands_key_from_an_older_screen_is_refused_with_the_state(event):
    # A number alone cannot tell the hand the tablet saw from one that took its number.
    client = tablet(event, 1)
    post(client, "hands", hand(1))
    status, body = post(client, "undo", {"number": 1})
    assert status == 409 and "does not say which hand" in body["error"]
    assert body["state"]["match"]["hands_standing"] == 1
    assert HandEntry.objects.get(client_key="key-1").state == "standing"


def test_a_queued_hand_after_the_director_inserted_one_is_told_the_director_changed_them(event):
    client = tablet(event, 1)
    post(client, "hands", hand(1))
    post(client, "hands", hand(2))
    corrections.insert_hand(table_match(event), 1, made("E", 3), by="director", reason="missed")
    status, body = post(client, "hands", hand(3, key="queued-3"))
    assert status == 409
    assert "director changed this match's hands" in body["error"]
    assert "another tablet" not in body["error"]
    assert body["state"]["match"]["next_number"] == 4
    assert not HandEntry.objects.filter(client_key="queued-3").exists()


def test_a_queued_hand_after_the_director_undid_the_one_before_gets_409_and_the_state(event):
    client = tablet(event, 1)
    post(client, "hands", hand(1))
    post(client, "hands", hand(2))
    play.undo_last_hand(table_match(event), by="director", reason="entered twice", director=True)
    status, body = post(client, "hands", hand(3, key="queued-3"))
    assert status == 409
    assert "The next hand is hand 2, not 3" in body["error"]
    assert body["state"]["match"]["next_number"] == 2
    assert not HandEntry.objects.filter(client_key="queued-3").exists()


def test_undo_locks_its_match_once_and_checks_table_and_link_in_that_lock(event):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = tablet(event, 1)
    match = Match.objects.get(round__tournament=event, table=1)
    post(client, "hands", hand(1, match=match.pk))
    with CaptureQueriesContext(connection) as queries:
        status, _ = post(client, "undo", {"number": 1, "client_key": "key-1", "match": match.pk})
    assert status == 200
    sql = [q["sql"] for q in queries.captured_queries]
    undo_part = sql[: next(i for i, q in enumerate(sql) if "UPDATE" in q) + 1]
    match_reads = [q for q in undo_part if 'FROM "tournaments_match"' in q]
    # One read of the match before undoing: the lock, which also checks the link is live
    # (no separate session check, no lookup of the named match).
    assert len(match_reads) == 1 and "EXISTS" in match_reads[0], undo_part
    post(client, "hands", hand(1, key="again", match=match.pk))
    TableLink.objects.filter(tournament=event, table=1).update(revoked_at=timezone.now())
    status, body = post(client, "undo", {"number": 1, "client_key": "again", "match": match.pk})
    assert status == 403 and body["revoked"] is True
    assert HandEntry.objects.get(match=match, client_key="again").state == "standing"


def test_the_state_says_which_seat_a_house_player_holds(event):
    from tournaments.core.models.event import Player
    from tournaments.core.models.rounds import Seating

    seat = Seating.objects.get(round__tournament=event, table=1, position="S")
    hal = Player.objects.create(
        tournament=event, name="House Hal", division=seat.player.division, house=True
    )
    seat.player = hal
    seat.save(update_fields=["player"])
    seats = {s["seat"]: s for s in state(tablet(event, 1))["seats"]}
    assert seats["S"]["player"] == "House Hal" and seats["S"]["house"] is True
    assert not any(seats[p]["house"] for p in "NEW")


def test_a_lone_march_and_a_renege_show_awards_and_penalties_per_seat(event):
    client = tablet(event, 1)
    post(client, "hands", hand(1, maker="E", alone=True, maker_tricks=5))
    post(client, "hands", {"client_key": "r", "number": 2, "outcome": "renege", "renege_by": "S"})
    data = state(client)
    assert data["match"]["score"] == {"NS": 0, "EW": 6}
    individual = {s["seat"]: s["individual"] for s in data["seats"]}
    assert individual == {"N": 0, "E": 1, "S": -2, "W": 0}


def test_the_state_reports_clock_seats_and_notes_the_tablets_contact(event):
    client = tablet(event, 1)
    data = state(client)
    assert data["round"]["number"] == 1 and data["table"] == 1
    assert [s["seat"] for s in data["seats"]] == ["N", "E", "S", "W"]
    assert {s["division"] for s in data["seats"]} == {"A", "B"}
    clock = data["clock"]
    assert clock["limited"] and clock["started"] and not clock["time_called"]
    assert 0 < clock["remaining_seconds"] <= 20 * 60
    assert clock["server_now"] and not clock["paused"]
    assert Match.objects.get(round__tournament=event, table=1).last_contact_at is not None


def test_the_state_is_read_with_a_fixed_number_of_queries(event, django_assert_max_num_queries):
    client = tablet(event, 1)
    for n in range(1, 6):
        post(client, "hands", hand(n, key=f"q{n}", maker="NESW"[n % 4], maker_tricks=1 + n % 5))
    with django_assert_max_num_queries(14):
        state(client)


def _without_clock_readings(answer: dict) -> dict:
    answer = json.loads(json.dumps(answer))
    answer.pop("server_now")
    answer["clock"].pop("server_now")
    answer["clock"].pop("remaining_seconds")
    return answer


def test_a_hand_is_answered_with_the_state_a_poll_reads_in_a_fixed_number_of_queries(
    event, django_assert_num_queries
):
    client = tablet(event, 1)
    match = Match.objects.get(round__tournament=event, table=1)
    assert post(client, "first-dealer", {"seat": "N", "match": match.pk})[0] == 200
    post(client, "hands", hand(1, key="u1", maker="E", maker_tricks=5, match=match.pk))
    post(client, "undo", {"number": 1, "client_key": "u1", "match": match.pk})
    for n in range(1, 4):
        # The lock (which checks the link too) with the match's entries, the insert, the
        # match's update, and the savepoint around them: none of it grows with the room
        # (6 before the entries were read with the lock).
        with django_assert_num_queries(5):
            status, body = post(client, "hands", hand(n, key=f"a{n}", match=match.pk))
        assert status == 201
    # Built from what recording read, the answer is what a fresh poll reads, history
    # (the undone entry) included, but for who sits where, which a hand never changes.
    polled = state(client)
    names = {
        s.position: s.player.name
        for s in Seating.objects.filter(round_id=match.round_id, table=1).select_related("player")
    }
    assert [s["player"] for s in polled["seats"]] == [names[s["seat"]] for s in polled["seats"]]
    for seat in polled["seats"]:
        del seat["player"], seat["division"], seat["house"]
    assert polled.pop("earlier_holders") == []  # who held a seat before: seating too
    assert _without_clock_readings(body["state"]) == _without_clock_readings(polled)
    assert [h["state"] for h in body["state"]["history"]] == [
        "undone",
        "standing",
        "standing",
        "standing",
    ]
    # A retry reads the state afresh and says the same.
    status, again = post(client, "hands", hand(3, key="a3", match=match.pk))
    assert status == 200 and again["duplicate"] is True
    assert _without_clock_readings(again["state"]) == _without_clock_readings(body["state"])


# --- time, tie-break and the end ------------------------------------------------------


def test_a_hand_entered_offline_before_the_call_stays_a_regular_hand(event):
    client = tablet(event, 1)
    before = timezone.now()
    rnd = event.rounds.get(number=1)
    rounds.call_time(rnd, by="director")
    body = hand(1, entered_at=before.isoformat())
    status, answer = post(client, "hands", body)
    assert status == 201 and answer["hand"]["phase"] == "regular"
    assert answer["state"]["match"]["awaiting_answer"] is True


def test_time_called_with_a_hand_in_progress_then_a_tie_broken_by_a_tiebreak_hand(event):
    client = tablet(event, 1)
    post(client, "hands", hand(1, maker="N", maker_tricks=3))  # NS 1
    rounds.call_time(event.rounds.get(number=1), by="director")
    data = state(client)
    assert data["clock"]["time_called"] and data["clock"]["remaining_seconds"] == 0
    assert data["match"]["awaiting_answer"]
    assert post(client, "answer-call", {"in_progress": "yes"})[0] == 422
    status, body = post(client, "answer-call", {"in_progress": True})
    assert status == 200 and body["state"]["match"]["next_phase"] == "at_call"
    status, body = post(client, "hands", hand(2, maker="E", maker_tricks=4))  # 1-1
    assert body["hand"]["phase"] == "at_call"
    match = body["state"]["match"]
    assert match["tied"] and match["in_tiebreak"] and not match["over"]
    status, body = post(client, "hands", hand(3, maker="W", maker_tricks=1))  # NS +2
    assert body["hand"]["phase"] == "tiebreak"
    match = body["state"]["match"]
    assert match["over"] and match["winner"] == "NS" and match["score"] == {"NS": 3, "EW": 1}
    assert match["bonuses"] == {"NS": 0, "EW": 0}


def test_the_end_shows_bonuses_points_and_the_other_team_confirms_or_disputes(event):
    client = tablet(event, 1)
    post(client, "keeper", {"seat": "N"})
    for n in range(1, 4):  # 4 + 4 + 2 = 10-0: reach and skunk
        post(client, "hands", hand(n, maker="N", alone=n < 3, maker_tricks=5))
    data = state(client)
    match = data["match"]
    assert match["over"] and match["score"] == {"NS": 10, "EW": 0}
    assert match["bonuses"] == {"NS": 3, "EW": 0}
    assert "opponents on 0" in match["bonus_reasons"]["NS"]
    points = {s["seat"]: s["points"] for s in data["seats"]}
    assert points == {"N": 15, "S": 13, "E": 0, "W": 0}
    assert post(client, "hands", hand(4))[0] == 422
    east = next(s["player"] for s in data["seats"] if s["seat"] == "E")
    assert post(client, "confirm", {"agree": True, "by": "Someone Else"})[0] == 422
    assert post(client, "confirm", {"agree": False, "by": east, "note": ""})[0] == 422
    status, body = post(
        client, "confirm", {"agree": False, "by": east, "note": "Hand 2 was not alone"}
    )
    assert status == 200 and body["state"]["match"]["status"] == "disputed"
    assert Match.objects.get(round__tournament=event, table=1).status == "disputed"
    # docs/rules.md §7: a dispute stands until the director resolves it; a later agreement
    # is refused (409) with the current state.
    status, body = post(client, "confirm", {"agree": True, "by": east, "note": ""})
    assert status == 409 and body["state"]["match"]["status"] == "disputed"
    assert Match.objects.get(round__tournament=event, table=1).status == "disputed"


def test_after_an_override_the_tablet_gives_the_bonuses_to_the_overriding_winner(event):
    # RULES §2.2: a 10-0 win overridden to the other team gives no bonus to anyone.
    client = tablet(event, 1)
    for n in range(1, 4):  # 4 + 4 + 2 = 10-0: reach and skunk
        post(client, "hands", hand(n, maker="N", alone=n < 3, maker_tricks=5))
    match = table_match(event)
    corrections.override_winner(match, Team.EW, by="director", reason="NS reneged unseen")
    stored = dict(
        Seating.objects.filter(round_id=match.round_id, table=1).values_list("position", "points")
    )
    assert stored == {"N": 12, "S": 10, "E": 0, "W": 0}  # score + N's two lone marches
    data = state(client)
    shown = data["match"]
    assert shown["winner"] == "EW" and shown["score"] == {"NS": 10, "EW": 0}
    assert shown["bonuses"] == {"NS": 0, "EW": 0} and shown["bonus_reasons"] == {}
    assert {s["seat"]: s["points"] for s in data["seats"]} == stored
    # The answer to a retried hand, built from what recording read, says the same.
    status, body = post(client, "hands", hand(3, maker="N", maker_tricks=5))
    assert status == 200 and body["duplicate"] is True
    assert body["state"]["match"]["bonuses"] == {"NS": 0, "EW": 0}
    assert {s["seat"]: s["points"] for s in body["state"]["seats"]} == stored
    # And the director's table page's replay.
    replayed, _ = queries.match_state_or_error(table_match(event))
    assert replayed is not None and replayed.bonuses.get(Team.NS, 0) == 0


def test_after_the_next_round_is_seated_each_player_learns_where_to_go(event):
    clients = {table: tablet(event, table) for table in (1, 2)}
    for table, c in clients.items():
        for n in range(1, 4):
            post(c, "hands", hand(n, key=f"t{table}-{n}", alone=n < 3, maker_tricks=5))
        post(c, "keeper", {"seat": "N"})
        post(c, "confirm", {"agree": True, "by": state(c)["seats"][1]["player"]})
    rnd = event.rounds.get(number=1)
    rounds.finalize_round(rnd, by="director")
    rounds.seat_next_round(event, by="director")
    data = state(clients[1])
    assert data["round"]["number"] == 1 and data["match"]["over"]
    nxt = data["next_round"]
    assert nxt["number"] == 2 and len(nxt["moves"]) == 4
    winners = {s["player"] for s in data["seats"] if s["team"] == "NS"}
    for move in nxt["moves"]:
        assert move["table"] in (1, 2) and move["seat"] in "NESW" and move["partner"]
        if move["player"] in winners:
            assert move["table"] == 1  # winners stay, split
    rounds.start_round(event.rounds.get(number=2), by="director")
    data = state(clients[1])
    assert data["round"]["number"] == 2 and data["next_round"] is None
    assert data["match"]["next_number"] == 1 and not data["match"]["over"]


def test_a_hand_queued_for_an_earlier_round_is_never_recorded_into_the_next(event):
    client = tablet(event, 1)
    old = Match.objects.get(round__tournament=event, table=1)
    for n in range(1, 4):
        post(client, "hands", hand(n, alone=n < 3, maker_tricks=5))
    status, body = post(client, "hands", hand(4, key="late", match=old.pk))
    assert status == 422 and "over" in body["error"]


def test_the_service_worker_is_served_under_the_tablet_path():
    response = Client().get("/t/sw.js")
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]


def test_a_session_older_than_the_round_still_works_for_the_new_round_links(event):
    # The same link serves every round: a session keeps working after reseating.
    client = tablet(event, 1)
    assert state(client)["round"]["number"] == 1
    assert TableLink.objects.filter(tournament=event, revoked_at__isnull=True).count() == 2
    assert timezone.now() - link(event, 1).created_at < timedelta(minutes=5)


def test_the_final_is_served_at_table_one_without_a_clock_game_after_game(make_tournament):
    from tournaments.core.services.standings import seed_final

    t = make_tournament(tables=2, preliminary_rounds=1)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=5), by="test")
    clients = {table: tablet(t, table) for table in (1, 2)}
    for table, c in clients.items():
        for n in range(1, 4):
            post(c, "hands", hand(n, key=f"r1-{table}-{n}", alone=n < 3, maker_tricks=5))
        post(c, "keeper", {"seat": "N"})
        post(c, "confirm", {"agree": True, "by": state(c)["seats"][1]["player"]})
    rounds.finalize_round(t.rounds.get(number=1), by="director")
    seed_final(t, by="director")

    final = state(clients[1])
    assert final["round"]["kind"] == "final" and final["match"]["final"] is True
    assert final["clock"]["limited"] is False and final["clock"]["remaining_seconds"] is None
    assert final["final"]["wins"] == {"NS": 0, "EW": 0}
    for n in range(1, 4):
        status, _ = post(clients[1], "hands", hand(n, key=f"f1-{n}", alone=n < 3, maker_tricks=5))
        assert status == 201
    game_two = state(clients[1])
    assert game_two["match"]["game"] == 2 and game_two["match"]["next_number"] == 1
    assert game_two["final"]["wins"] == {"NS": 1, "EW": 0}
    assert all(s["individual"] == 0 for s in game_two["seats"])

    elsewhere = state(clients[2])
    assert elsewhere["round"]["number"] == 1 and elsewhere["match"]["over"]
    moves = elsewhere["next_round"]["moves"]
    assert elsewhere["next_round"]["kind"] == "final" and len(moves) == 4
    assert all(m["table"] in (None, 1) for m in moves)


def test_the_state_reads_only_its_own_tables_seats_however_big_the_room(make_tournament):
    from tournaments.core.reads.tablet.state import table_seats
    from tournaments.core.simulate import Simulation

    t = make_tournament(12)
    rnd = rounds.draw_first_round(t, by="test", seed=2)
    match = rnd.matches.get(table=5)
    assert sorted(s.position for s in table_seats(match, None)) == ["E", "N", "S", "W"]
    sim = Simulation(12, seed=2)
    sim.tournament = t
    sim.play_round(rnd)
    nxt = rounds.seat_next_round(t, by="test")
    rows = table_seats(match, nxt)
    here = {s.player_id for s in rows if s.round_id == rnd.pk}
    upcoming = [s for s in rows if s.round_id == nxt.pk]
    assert len(here) == 4 and {s.player_id for s in upcoming} >= here
    # The winners stay, the losers go one table each way: three tables, not twelve.
    assert {s.table for s in upcoming} == {4, 5, 6}
    assert len(upcoming) == 12
    # Compiled once per connection, the rows are the ORM's: the same seats in
    # the same order, each with its player built as select_related builds it.
    here_orm = Seating.objects.filter(round_id=rnd.pk, table=5).select_related("player")
    going_to = Seating.objects.filter(
        round=nxt, player_id__in=[s.player_id for s in here_orm]
    ).values("table")
    orm = [
        *here_orm,
        *Seating.objects.filter(round=nxt, table__in=going_to).select_related("player"),
    ]
    assert [vars_of(s) for s in rows] == [vars_of(s) for s in orm]
    assert [vars_of(s.player) for s in rows] == [vars_of(s.player) for s in orm]


def vars_of(obj: object) -> dict:
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


def test_a_substituted_seat_is_named_for_each_hand_by_who_held_it_then(event):
    from tournaments.core.models.event import Player
    from tournaments.core.services.substitutions import Signed, replace_substitute, substitute

    client = tablet(event, 1)
    for n in (1, 2, 3):
        assert post(client, "hands", hand(n, first_dealer="N" if n == 1 else None))[0] == 201
    match = Match.objects.get(round__tournament=event, table=1)
    north = Seating.objects.get(round=match.round, table=1, position="N").player
    division = north.division
    first = Player.objects.create(tournament=event, name="Sub One", division=division)
    second = Player.objects.create(tournament=event, name="Sub Two", division=division)
    state = client.get("/t/table/state.json").json()
    assert state["earlier_holders"] == []
    sub = substitute(match, "N", 3, first, Signed("director", "ill"))
    assert post(client, "hands", hand(4, key="k4"))[0] == 201
    substitute(match, "N", 5, second, Signed("director", "left too"))
    state = client.get("/t/table/state.json").json()
    assert state["seats"][0]["player"] == "Sub Two"
    assert state["earlier_holders"] == [
        {"seat": "N", "from": 1, "to": 2, "player": north.name},
        {"seat": "N", "from": 3, "to": 4, "player": "Sub One"},
    ]
    # The latest change corrected from the same hand: the seat's holder now is who
    # really sat there, and the earlier ranges stand.
    latest = sub.__class__.objects.get(match=match, from_hand=5)
    other = Player.objects.create(tournament=event, name="Sub Real", division=division)
    replace_substitute(latest, other, Signed("director", "it was Real"))
    state = client.get("/t/table/state.json").json()
    assert state["seats"][0]["player"] == "Sub Real"
    assert [e["player"] for e in state["earlier_holders"]] == [north.name, "Sub One"]
