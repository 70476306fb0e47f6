"""A table calls the director: one open request per table, a cooldown,
"on my way" and "resolved" seen by the table, versioned answers, and who may see what."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.clubs.services import assign
from tournaments.core.models.log import Activity
from tournaments.core.models.play import TableLink
from tournaments.core.services import Conflict, rounds
from tournaments.devices import reads, services
from tournaments.devices.models import HelpRequest

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_tournament):
    t = make_tournament(tables=2)
    rnd = rounds.draw_first_round(t, by="test", seed=11)
    rounds.start_round(rnd, by="test")
    return t


def tablet(t, table: int) -> Client:
    client = Client()
    token = TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True).token
    assert client.get(f"/t/{token}/").status_code == 302
    return client


def call(client: Client, body: object) -> tuple[int, dict]:
    r = client.post("/t/table/help", json.dumps(body), content_type="application/json")
    return r.status_code, r.json()


def staff(django_user_model, name: str, role: str) -> Client:
    account = django_user_model.objects.create_user(name, password="x-long-password-1")
    assign(account, role)
    client = Client()
    client.force_login(account)
    return client


def test_a_tablet_calls_the_director_and_a_second_tap_finds_the_same_request(event):
    client = tablet(event, 1)
    status, body = call(client, {"reason": "dispute"})
    assert status == 201 and body["duplicate"] is False
    assert body["help"]["table"] == 1 and body["help"]["status"] == "open"
    assert body["help"]["reason_label"] == "Dispute"
    status, again = call(client, {"reason": "other"})
    assert status == 200 and again["duplicate"] is True
    assert again["help"]["id"] == body["help"]["id"] and again["help"]["reason"] == "dispute"
    assert HelpRequest.objects.filter(tournament=event).count() == 1
    assert Activity.objects.filter(tournament=event, action="help_called").count() == 1


def test_the_help_page_names_the_calling_tablet_in_the_directors_language(event, django_user_model):
    """Walked at the hall in French: the calls' log said "Par : Table 1 tablet"."""
    call(tablet(event, 1), {"reason": "renege"})
    director = staff(django_user_model, "dora", "director")
    director.cookies["django_language"] = "fr"
    page = director.get(reverse("director:help", args=[event.slug])).content.decode()
    assert "<td>Tablette de la table 1</td>" in page and "Table 1 tablet" not in page


def test_the_database_keeps_one_open_request_per_table(event):
    now = timezone.now()
    HelpRequest.objects.create(tournament=event, table=1, raised_by="x", raised_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        HelpRequest.objects.create(tournament=event, table=1, raised_by="y", raised_at=now)
    # Another table, or a resolved request beside an open one, is fine.
    HelpRequest.objects.create(tournament=event, table=2, raised_by="x", raised_at=now)
    HelpRequest.objects.create(
        tournament=event,
        table=1,
        raised_by="x",
        raised_at=now,
        status="resolved",
        resolved_at=now,
    )


def test_a_bad_reason_or_body_is_refused_and_stores_nothing(event):
    client = tablet(event, 1)
    assert call(client, {"reason": "bored"})[0] == 422
    assert call(client, {"reason": 3})[0] == 422
    r = client.post("/t/table/help", "[1]", content_type="application/json")
    assert r.status_code == 400
    assert not HelpRequest.objects.exists()


def test_without_a_table_session_nobody_calls(event):
    r = Client().post("/t/table/help", "{}", content_type="application/json")
    assert r.status_code == 403
    assert Client().get("/t/table/help.json").status_code == 403
    assert not HelpRequest.objects.exists()


def test_on_my_way_then_resolved_are_seen_by_the_table_and_logged_with_the_time_taken(event):
    client = tablet(event, 1)
    other = tablet(event, 2)
    call(client, {"reason": "renege"})
    t0 = timezone.now()
    assert client.get("/t/table/help.json").json()["help"]["status"] == "open"
    assert other.get("/t/table/help.json").json() == {"help": None}
    etag_other = other.get("/t/table/state.json")["ETag"]
    etag = client.get("/t/table/state.json")["ETag"]
    req = HelpRequest.objects.get()
    services.on_my_way(event, req.pk, req.version, by="dora", now=t0 + timedelta(seconds=20))
    # The table's next poll reads in full (the hint to ask help.json); another table's
    # is still a 304.
    assert client.get("/t/table/state.json", HTTP_IF_NONE_MATCH=etag).status_code == 200
    assert other.get("/t/table/state.json", HTTP_IF_NONE_MATCH=etag_other).status_code == 304
    seen = client.get("/t/table/help.json").json()["help"]
    assert seen["status"] == "coming" and seen["coming_by"] == "dora"
    req.refresh_from_db()
    services.resolve(event, req.pk, req.version, by="dora", now=t0 + timedelta(seconds=95))
    seen = client.get("/t/table/help.json").json()["help"]
    assert seen["status"] == "resolved" and seen["resolved_by"] == "dora"
    line = reads.request_log(event)[0]
    assert line.request.resolved_by == "dora" and line.took.startswith("1 min 3")
    assert any("dora" in a.text for a in Activity.objects.filter(action="help_resolved"))
    # Once resolved a while ago, the table's screen lets it go.
    later = t0 + reads.RESOLVED_SHOWN_FOR + timedelta(seconds=96)
    assert reads.table_request(event.pk, 1, later) is None


def test_a_table_just_helped_waits_before_calling_again(event):
    client = tablet(event, 1)
    call(client, {})
    req = HelpRequest.objects.get()
    services.resolve(event, req.pk, req.version, by="dora")
    r = client.post("/t/table/help", "{}", content_type="application/json")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "call again" in r.json()["error"]
    HelpRequest.objects.update(resolved_at=timezone.now() - services.COOLDOWN)
    assert call(client, {})[0] == 201


def test_a_stale_answer_is_409_and_the_same_answer_twice_is_answered_as_the_first(event):
    call(tablet(event, 1), {})
    req = HelpRequest.objects.get()
    first = services.on_my_way(event, req.pk, 1, by="dora")
    again = services.on_my_way(event, req.pk, 1, by="ed")
    assert again.coming_by == "dora" and again.version == first.version == 2
    services.resolve(event, req.pk, 2, by="ed")
    with pytest.raises(Conflict):
        services.on_my_way(event, req.pk, 2, by="dora")
    assert services.resolve(event, req.pk, 2, by="dora").resolved_by == "ed"


def test_every_director_and_desk_page_polls_the_banner_and_the_roles_see_what_they_should(
    event, django_user_model
):
    director = staff(django_user_model, "dora", "director")
    desk = staff(django_user_model, "dave", "desk")
    call(tablet(event, 2), {"reason": "device"})
    req = HelpRequest.objects.get()
    banner = reverse("director:help_banner", args=[event.slug])
    for client, page in (
        (director, reverse("director:round", args=[event.slug, 1])),
        (desk, reverse("director:desk", args=[event.slug])),
    ):
        assert f'hx-get="{banner}"' in client.get(page).content.decode()
    seen = director.get(banner).content.decode()
    assert "Table 2 calls the director" in seen and "Device trouble" in seen
    assert "On my way" in seen
    desk_seen = desk.get(banner).content.decode()
    assert "Table 2 calls the director" in desk_seen and "On my way" not in desk_seen
    answer = reverse("director:help_answer", args=[event.slug, req.pk, "coming"])
    assert desk.post(answer, {"version": 1}).status_code == 403
    assert Client().get(banner).status_code == 302
    assert Client().post(answer, {"version": 1}).status_code == 302
    # Another table's tablet session opens no director page.
    assert tablet(event, 1).get(banner).status_code == 302
    r = director.post(answer, {"version": 1}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "dora is on the way" in r.content.decode()
    stale = director.post(answer, {"version": 7}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 200  # the same answer again: as the first
    resolve = reverse("director:help_answer", args=[event.slug, req.pk, "resolve"])
    assert director.post(resolve, {"version": 2}).status_code == 302
    late = director.post(answer, {"version": 2}, HTTP_HX_REQUEST="true")
    assert late.status_code == 409 and "already answered" in late.content.decode()
    assert director.post(resolve, {"version": "x"}).status_code == 422
    assert (
        director.post(
            reverse("director:help_answer", args=[event.slug, 999, "resolve"]), {"version": 1}
        ).status_code
        == 404
    )
    assert (
        director.post(
            reverse("director:help_answer", args=[event.slug, req.pk, "nope"]), {"version": 1}
        ).status_code
        == 404
    )
    log = desk.get(reverse("director:help", args=[event.slug])).content.decode()
    assert "Device trouble" in log and "dora" in log


def test_a_request_of_another_event_is_not_found(event, make_tournament, django_user_model):
    other = make_tournament(tables=1, name="Other Night")
    rounds.start_round(rounds.draw_first_round(other, by="test", seed=1), by="test")
    call(tablet(other, 1), {})
    req = HelpRequest.objects.get()
    director = staff(django_user_model, "dora", "director")
    url = reverse("director:help_answer", args=[event.slug, req.pk, "resolve"])
    assert director.post(url, {"version": 1}).status_code == 404
    assert HelpRequest.objects.get().status == "open"


# --- from a player's phone ------------------------------------------------------------


def phone_urls(t, player_id: int) -> tuple[str, str]:
    return (
        reverse("public:help_state", args=[t.slug, player_id]),
        reverse("public:help", args=[t.slug, player_id]),
    )


def test_a_player_calls_the_director_for_their_own_table_from_their_card(event):
    from tournaments.core.models.rounds import Seating

    seat = Seating.objects.filter(round__tournament=event, table=2).select_related("player")[0]
    state_url, call_url = phone_urls(event, seat.player_id)
    phone = Client(enforce_csrf_checks=True)
    r = phone.get(state_url)
    assert r.json() == {"table": 2, "help": None} and "csrftoken" in r.cookies
    token = r.cookies["csrftoken"].value
    assert phone.post(call_url, "{}", content_type="application/json").status_code == 403
    r = phone.post(
        call_url, '{"reason": "dispute"}', content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert r.status_code == 201 and r.json()["help"]["table"] == 2
    req = HelpRequest.objects.get()
    assert req.table == 2 and req.raised_by == f"{seat.player.name} (phone)"
    # The tablet of that table sees the same request; a second call finds it.
    assert tablet(event, 2).get("/t/table/help.json").json()["help"]["id"] == req.pk
    assert call(tablet(event, 2), {})[0] == 200
    assert phone.get(state_url).json()["help"]["status"] == "open"


def test_a_phone_call_names_a_player_of_this_event_who_is_seated(event, make_tournament):
    from tournaments.core.models.event import Player

    other = make_tournament(tables=1, name="Other Night")
    stranger = Player.objects.filter(tournament=other).first()
    state_url, call_url = phone_urls(event, stranger.pk)
    assert Client().get(state_url).status_code == 404
    assert Client().post(call_url, "{}", content_type="application/json").status_code == 404
    assert Client().get(reverse("public:help_state", args=["nope", 1])).status_code == 404
    unseated = make_tournament(tables=1, name="Not Drawn")
    p = Player.objects.filter(tournament=unseated).first()
    state_url, call_url = phone_urls(unseated, p.pk)
    assert Client().get(state_url).json() == {"table": None, "help": None}
    r = Client().post(call_url, "{}", content_type="application/json")
    assert r.status_code == 422 and "not seated" in r.json()["error"]
    assert Client().post(call_url, "[", content_type="application/json").status_code == 400
    assert not HelpRequest.objects.exists()


def test_a_phone_call_past_the_size_limit_answers_a_json_400(event, settings):
    from tournaments.core.models.rounds import Seating

    seat = Seating.objects.filter(round__tournament=event, table=2)[0]
    _state_url, call_url = phone_urls(event, seat.player_id)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = json.dumps({"reason": "dispute", "pad": "x" * 2048})
    r = Client().post(call_url, body, content_type="application/json")
    assert r.status_code == 400 and r.json() == {"error": "The body is too large."}
    assert not HelpRequest.objects.exists()
