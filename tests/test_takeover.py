"""Taking a table over with its code: the code on the card, typed at
/t/ on any device; the director re-issues it; a device that was replaced is told so and
nothing it still holds reaches the table."""

from __future__ import annotations

import json
from io import BytesIO

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tournaments.clubs.services import assign
from tournaments.core.models.play import Match, TableLink
from tournaments.core.reads.tablet.link import shown
from tournaments.core.services import rounds, table_codes
from tournaments.devices.models import HelpRequest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttle(monkeypatch):
    cache.clear()
    # One window of the code throttle for the whole test, however long it takes.
    monkeypatch.setattr("tournaments.core.views.tablet._window", lambda: 7)
    yield
    cache.clear()


@pytest.fixture
def event(make_tournament):
    t = make_tournament(tables=2)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=11), by="test")
    return t


def live(t, table: int) -> TableLink:
    return TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True)


def by_qr(t, table: int) -> Client:
    client = Client()
    assert client.get(f"/t/{live(t, table).token}/").status_code == 302
    return client


def by_code(code: str, client: Client | None = None, **extra: str):
    client = client or Client()
    return client, client.post("/t/", {"code": code}, **extra)


def post(client: Client, path: str, body: object) -> tuple[int, dict]:
    r = client.post(f"/t/table/{path}", json.dumps(body), content_type="application/json")
    return r.status_code, r.json()


def hand(number: int, key: str) -> dict:
    return {
        "client_key": key,
        "number": number,
        "outcome": "played",
        "maker": "N",
        "maker_tricks": 3,
        "first_dealer": "N",
    }


def test_every_seated_table_has_a_short_unique_code(event):
    codes = list(TableLink.objects.filter(tournament=event).values_list("code", flat=True))
    assert len(codes) == 2 and len(set(codes)) == 2
    for code in codes:
        assert len(code) == 6 and set(code) <= set(table_codes.ALPHABET)
    assert shown("K7MQ2P") == "K7M Q2P"
    assert table_codes.normalise(" k7m-q2p ") == "K7MQ2P"


def test_the_code_typed_at_t_opens_the_tables_screen_in_any_case_with_spaces(event):
    code = live(event, 2).code
    client, r = by_code(f"{code[:3].lower()} {code[3:]}")
    assert r.status_code == 302 and r["Location"] == "/t/table/"
    state = client.get("/t/table/state.json").json()
    assert state["table"] == 2
    assert live(event, 2).device == 2
    assert Client().get("/t/").status_code == 200


def test_a_wrong_code_is_refused_and_ten_wrong_codes_make_the_device_wait(event):
    for _ in range(10):
        _, r = by_code("ZZZZZZ")
        assert r.status_code == 422 and "Unknown table code" in r.content.decode()
    _, r = by_code(live(event, 1).code)
    assert r.status_code == 429 and "Too many wrong codes" in r.content.decode()
    assert live(event, 1).device == 1
    # Another address is not held up.
    _, r = by_code(live(event, 1).code, REMOTE_ADDR="10.0.0.9")
    assert r.status_code == 302


def test_a_full_cache_does_not_wipe_an_addresss_used_up_tries(event):
    """The database cache culls a third of its rows once it holds too many: tries of
    many addresses (or anything else cached) must not delete the ones already used."""
    for _ in range(10):
        assert by_code("ZZZZZZ", REMOTE_ADDR="10.0.0.1")[1].status_code == 422
    for n in range(400):
        cache.set(f"zz-elsewhere:{n}", 1, 600)
    _, r = by_code(live(event, 1).code, REMOTE_ADDR="10.0.0.1")
    assert r.status_code == 429
    assert live(event, 1).device == 1


@pytest.mark.slow  # a burst of threads, each with a connection of its own
@pytest.mark.django_db(transaction=True)
def test_wrong_codes_sent_all_at_once_get_ten_tries_and_no_more(make_tournament, monkeypatch):
    """Codes guessed in a burst (many requests in flight together, over several app
    servers or threads): a count read and then written let every request of the burst
    read the same count, and each went on to try its code."""
    import contextlib
    import threading

    from django.db import connection

    from tournaments.common.errors import NotFound

    make_tournament(tables=2)
    burst = 16
    together = threading.Barrier(burst, timeout=3)

    def slow_lookup(typed: str, **kwargs: object) -> TableLink:
        # Every request of the burst is looking its code up at the same moment.
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait()
        raise NotFound("Unknown table code. Check it with the director.")

    monkeypatch.setattr(table_codes, "take_over", slow_lookup)
    answers: list[int] = []

    def guess(n: int) -> None:
        try:
            answers.append(Client().post("/t/", {"code": f"ZZZZ{n:02d}"}).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(burst)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(answers) == [422] * 10 + [429] * (burst - 10)


def test_a_takeover_replaces_every_earlier_session_at_every_endpoint(event):
    old = by_qr(event, 1)
    assert post(old, "hands", hand(1, "a1"))[0] == 201
    new, r = by_code(live(event, 1).code)
    assert r.status_code == 302
    match = Match.objects.get(round__tournament=event, table=1)
    bodies = {
        "hands": hand(2, "a2"),
        "first-dealer": {"seat": "E"},
        "keeper": {"seat": "E"},
        "undo": {"number": 1},
        "answer-call": {"in_progress": True},
        "confirm": {"agree": True, "by": "x"},
        "help": {"reason": "device"},
    }
    for path, body in bodies.items():
        status, data = post(old, path, body)
        assert status == 403 and data["replaced"] is True, path
        assert "took this table over" in data["error"]
    for path in ("state.json", "help.json"):
        r = old.get(f"/t/table/{path}")
        assert r.status_code == 403 and r.json()["replaced"] is True
    # A 304 is never answered to the replaced device, whatever ETag it holds.
    etag = new.get("/t/table/state.json")["ETag"]
    assert old.get("/t/table/state.json", HTTP_IF_NONE_MATCH=etag).status_code == 403
    assert old.get("/t/table/").status_code == 403
    assert list(match.hands.values_list("client_key", flat=True)) == ["a1"]
    assert not HelpRequest.objects.exists()
    # The new device reads what the server acknowledged and carries on.
    assert [h["client_key"] for h in new.get("/t/table/state.json").json()["hands"]] == ["a1"]
    assert post(new, "hands", hand(2, "b2"))[0] == 201


def test_a_reissued_code_opens_nothing_and_the_device_keeping_score_keeps_the_table(event):
    old_code = live(event, 1).code
    holder, _ = by_code(old_code)
    new_code = table_codes.reissue_code(event, 1, by="dora")
    assert new_code != old_code
    _, r = by_code(old_code)
    assert r.status_code == 422
    assert holder.get("/t/table/state.json").status_code == 200
    _, r = by_code(new_code)
    assert r.status_code == 302
    assert holder.get("/t/table/state.json").json()["replaced"] is True


def test_revoking_the_link_gives_the_new_link_a_new_code(event):
    before = live(event, 1).code
    rounds.revoke_link(event, 1, by="dora")
    after = live(event, 1).code
    assert after and after != before
    assert by_code(before)[1].status_code == 422


def test_the_director_reissues_a_code_and_only_the_director_may(event, django_user_model):
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    desk = django_user_model.objects.create_user("dave", password="x-long-password-1")
    assign(desk, "desk")
    url = reverse("director:table_code", args=[event.slug, 1, 2])
    before = live(event, 2).code
    for client in (Client(), by_qr(event, 2)):
        assert client.post(url).status_code == 302  # to the sign-in page
    c = Client()
    c.force_login(desk)
    assert c.post(url).status_code == 403
    assert live(event, 2).code == before
    c.force_login(director)
    assert c.get(url).status_code == 405
    assert c.post(reverse("director:table_code", args=[event.slug, 1, 9])).status_code == 404
    r = c.post(url)
    assert r.status_code == 302 and live(event, 2).code != before
    page = c.get(reverse("director:table", args=[event.slug, 1, 2])).content.decode()
    assert shown(live(event, 2).code) in page and "Re-issue the code" in page


def test_the_table_card_prints_the_code_beside_the_qr(event, django_user_model):
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    c = Client()
    c.force_login(director)
    r = c.get(reverse("sheets:table_cards", args=[event.slug]))
    data = b"".join(r.streaming_content) if r.streaming else r.content
    pages = [p.extract_text() for p in PdfReader(BytesIO(data)).pages]
    for table, text in enumerate(pages, start=1):
        assert shown(live(event, table).code) in text
        assert "type the table code at http://testserver/t/" in text
