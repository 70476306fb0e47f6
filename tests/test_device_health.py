"""Device health on the board: each table's device reports when it was
heard from, what it holds unsent and its battery; a silent device is flagged after the
event's N seconds while its round runs (and never between rounds); low battery too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.clubs.services import assign
from tournaments.core.models.play import Match, TableLink
from tournaments.core.reads.console import live_board
from tournaments.core.services import device_health, rounds
from tournaments.domain import health

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_tournament):
    t = make_tournament(tables=2)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=11), by="test")
    return t


def link(t, table: int) -> TableLink:
    return TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True)


def tablet(t, table: int) -> Client:
    client = Client()
    assert client.get(f"/t/{link(t, table).token}/").status_code == 302
    return client


def row(t, table: int, now):
    rnd = t.rounds.select_related("tournament").get(number=t.rounds.count())
    return next(r for r in live_board(rnd, now) if r.table == table)


def heard(t, table: int, at, **figures: object) -> None:
    TableLink.objects.filter(pk=link(t, table).pk).update(seen_at=at, **figures)


def test_the_health_header_is_read_strictly_and_junk_is_ignored():
    assert health.parse_health("unsent=3;battery=45;charging=0") == health.Health(3, 45, False)
    assert health.parse_health("unsent=0") == health.Health(0, None, None)
    for junk in ("", "unsent=x", "battery=140", "unsent=-1", "x" * 200):
        assert health.parse_health(junk) is None


def test_a_poll_carrying_the_report_notes_it_on_the_tables_link(event, django_assert_num_queries):
    client = tablet(event, 1)
    etag = client.get("/t/table/state.json")["ETag"]
    # A 304 stays one query; the report is one UPDATE beside it.
    with django_assert_num_queries(2):
        r = client.get(
            "/t/table/state.json",
            HTTP_IF_NONE_MATCH=etag,
            HTTP_X_SNOWMAN_HEALTH="unsent=3;battery=45;charging=0",
        )
    assert r.status_code == 304
    got = link(event, 1)
    assert (got.unsent, got.battery, got.charging) == (3, 45, False) and got.seen_at
    # Junk is ignored, never a 5xx.
    r = client.get("/t/table/state.json", HTTP_X_SNOWMAN_HEALTH="battery=lots")
    assert r.status_code == 200 and link(event, 1).battery == 45


def test_a_replaced_device_reports_nothing(event):
    old = tablet(event, 1)
    Client().post("/t/", {"code": link(event, 1).code})
    r = old.get("/t/table/state.json", HTTP_X_SNOWMAN_HEALTH="unsent=9")
    assert r.status_code == 403
    assert link(event, 1).unsent is None
    # The report function itself takes only the current device's word.
    device_health.report(link(event, 1).pk, 1, health.Health(5, 50, True), timezone.now())
    assert link(event, 1).unsent is None


def test_a_silent_tablet_is_flagged_after_n_seconds_while_its_round_runs(event):
    t0 = timezone.now()
    heard(event, 1, t0, unsent=2)
    heard(event, 2, t0)
    assert not row(event, 1, t0 + timedelta(seconds=59)).silent
    late = row(event, 1, t0 + timedelta(seconds=61))
    assert late.silent and "tablet silent" in late.attention
    assert late.device.unsent == 2
    # The event's own N.
    device_health.set_silent_after(event, 120, by="dora")
    event.refresh_from_db()
    assert not row(event, 1, t0 + timedelta(seconds=61)).silent
    assert row(event, 1, t0 + timedelta(seconds=121)).silent


def test_a_tablet_never_heard_from_is_silent_n_seconds_after_the_start(event):
    started = event.rounds.get(number=1).started_at
    assert not row(event, 1, started + timedelta(seconds=59)).silent
    assert row(event, 1, started + timedelta(seconds=61)).silent


def test_no_silence_is_flagged_between_rounds_while_paused_or_once_the_match_is_over(event):
    t0 = timezone.now()
    heard(event, 1, t0)
    later = t0 + timedelta(minutes=5)
    rnd = event.rounds.get(number=1)
    rounds.pause_round(rnd, by="test", now=t0 + timedelta(seconds=30))
    assert not row(event, 1, later).silent
    rounds.resume_round(rnd, by="test", now=t0 + timedelta(seconds=40))
    assert row(event, 1, later + timedelta(minutes=1)).silent
    Match.objects.filter(round=rnd, table=1).update(status="confirmed", winner="NS")
    assert not row(event, 1, later + timedelta(minutes=1)).silent


def test_no_silence_before_the_next_round_starts(make_tournament):
    t = make_tournament(tables=1)
    rounds.draw_first_round(t, by="test", seed=1)  # seated, not started
    assert not row(t, 1, timezone.now() + timedelta(hours=1)).silent


def test_a_low_battery_not_charging_needs_attention(event):
    now = timezone.now()
    heard(event, 1, now, battery=15, charging=False)
    heard(event, 2, now, battery=15, charging=True)
    assert "tablet battery low" in row(event, 1, now).attention
    assert "tablet battery low" not in row(event, 2, now).attention


def test_the_board_shows_each_tablets_health(event, django_user_model):
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    c = Client()
    c.force_login(director)
    heard(event, 1, timezone.now() - timedelta(seconds=12), unsent=3, battery=45, charging=True)
    html = c.get(reverse("director:board", args=[event.slug, 1])).content.decode()
    assert "3 not sent" in html and "45% ⚡" in html and "s ago" in html


def test_the_device_settings_are_the_directors_alone(event, django_user_model):
    url = reverse("director:devices", args=[event.slug])
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    desk = django_user_model.objects.create_user("dave", password="x-long-password-1")
    assign(desk, "desk")
    c = Client()
    c.force_login(desk)
    assert c.get(url).status_code == 403
    assert c.post(url, {"silent_after_seconds": 90}).status_code == 403
    assert Client().get(url).status_code == 302
    assert tablet(event, 1).post(url, {"silent_after_seconds": 90}).status_code == 302
    c.force_login(director)
    assert c.get(url).status_code == 200
    event.refresh_from_db()
    good = {"kiosk": "on", "director_pin": event.director_pin}
    for bad in ("5", "x", "99999"):
        assert c.post(url, {**good, "silent_after_seconds": bad}).status_code == 422
    assert c.post(url, {**good, "silent_after_seconds": 90}).status_code == 302
    event.refresh_from_db()
    assert event.silent_after_seconds == 90


@pytest.mark.parametrize(
    "tables", [4, pytest.param(500, marks=pytest.mark.slow)], ids=["4 tables", "500 tables"]
)
def test_the_board_with_device_health_costs_the_same_queries_at_4_and_500_tables(
    make_tournament, django_user_model, django_assert_num_queries, tables
):
    from tests.test_director_queries import BOARD_QUERIES

    t = make_tournament(tables=tables)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=2), by="test")
    now = timezone.now()
    t.rounds.update(started_at=now - timedelta(minutes=10))
    TableLink.objects.filter(tournament=t).update(
        seen_at=now - timedelta(minutes=5), unsent=1, battery=10, charging=False
    )
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    c = Client()
    c.force_login(director)
    with django_assert_num_queries(BOARD_QUERIES):
        html = c.get(reverse("director:board", args=[t.slug, 1])).content.decode()
    assert html.count("tablet silent") == tables and html.count("1 not sent") == tables
    assert html.count("tablet battery low") == tables


# --- kiosk mode's director PIN (part 1) --------------------------------------------------


def pin(client: Client, typed: str):
    return client.post("/t/table/pin", f'{{"pin": "{typed}"}}', content_type="application/json")


def test_the_pin_opens_the_directors_controls_and_five_wrong_lock_that_table(event):
    from tournaments.core.services import kiosk

    event.refresh_from_db()
    right = event.director_pin
    wrong = "0000" if right != "0000" else "1111"
    assert len(right) == 4 and right.isdigit()
    one, two = tablet(event, 1), tablet(event, 2)
    r = pin(one, right)
    assert r.status_code == 200 and r.json()["open_until"]
    for left in (4, 3, 2, 1):
        r = pin(one, wrong)
        assert r.status_code == 422 and r.json()["left"] == left
    r = pin(one, wrong)
    assert r.status_code == 429 and r.json()["locked"] and int(r["Retry-After"]) > 500
    assert pin(one, right).status_code == 429
    # Another table is not locked out.
    assert pin(two, right).status_code == 200
    # Once the while has passed, the right PIN opens again and clears the count.
    TableLink.objects.filter(pk=link(event, 1).pk).update(
        pin_locked_until=timezone.now() - timedelta(seconds=1)
    )
    assert pin(one, right).status_code == 200
    assert link(event, 1).pin_failures == 0
    assert kiosk.TRIES == 5


def test_the_pin_endpoint_needs_the_tables_live_session(event):
    assert Client().post("/t/table/pin", "{}", content_type="application/json").status_code == 403
    old = tablet(event, 1)
    Client().post("/t/", {"code": link(event, 1).code})
    r = pin(old, "1234")
    assert r.status_code == 403 and r.json()["replaced"] is True
    assert pin(tablet(event, 1), "12345678901").status_code == 422  # longer than a PIN


def test_the_console_shows_the_pin_and_the_director_changes_it_and_kiosk_mode(
    event, django_user_model
):
    director = django_user_model.objects.create_user("dora", password="x-long-password-1")
    assign(director, "director")
    c = Client()
    c.force_login(director)
    event.refresh_from_db()
    console = c.get(reverse("director:round", args=[event.slug, 1])).content.decode()
    assert event.director_pin in console and "Tablets in kiosk mode" in console
    url = reverse("director:devices", args=[event.slug])
    for bad in ("12", "abcd", "123456789"):
        r = c.post(url, {"director_pin": bad, "kiosk": "on", "silent_after_seconds": 60})
        assert r.status_code == 422
    r = c.post(url, {"director_pin": "2468", "silent_after_seconds": 60})
    assert r.status_code == 302
    event.refresh_from_db()
    assert event.director_pin == "2468" and event.kiosk is False
    page = tablet(event, 1).get("/t/table/").content.decode()
    assert 'data-kiosk="0"' in page
