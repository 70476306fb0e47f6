"""The end of a round (docs/rules.md §7): time that stays called, the hand in
progress, versioned answers, confirmation and disputes, late sync, director repairs.

Each test is named after a behaviour that failed before this work and holds now.
"""

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.core import replay
from tournaments.core.models.log import Activity
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.phones import reads
from tournaments.core.services import ServiceError, closing, corrections, play, rounds
from tournaments.core.services.players import add_house_player
from tournaments.core.services.tournaments import update_tournament
from tournaments.domain.hands import Hand, Outcome, Seat, Team
from tournaments.series.export import export_results

pytestmark = pytest.mark.django_db


def made(maker: str, tricks: int, alone: bool = False, **kw: object) -> Hand:
    return Hand(Outcome.PLAYED, maker=Seat(maker), alone=alone, maker_tricks=tricks, **kw)


@pytest.fixture
def event(make_tournament):
    """Two tables, round 1 running, started 5 minutes ago."""
    t = make_tournament(tables=2)
    rnd = rounds.draw_first_round(t, by="test", seed=11)
    rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=5))
    return t


def rnd_of(t) -> Round:
    return Round.objects.select_related("tournament").get(tournament=t, number=1)


def match_at(t, table: int = 1) -> Match:
    return Match.objects.select_related("round__tournament").get(
        round__tournament=t, round__number=1, table=table
    )


def run_out(t, minutes: int = 25) -> None:
    """Move the round's start back so its 20-minute limit has passed."""
    Round.objects.filter(tournament=t, number=1).update(
        started_at=timezone.now() - timedelta(minutes=minutes)
    )


def tablet(t, table: int = 1) -> Client:
    client = Client()
    token = TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True).token
    assert client.get(f"/t/{token}/").status_code == 302
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
        "maker_tricks": 3,
        "first_dealer": "N",
    }
    body.update(fields)
    return body


def state(client: Client) -> dict:
    response = client.get("/t/table/state.json")
    assert response.status_code == 200, response.content
    return response.json()


def versioned(client: Client) -> dict:
    m = state(client)["match"]
    return {"hands": m["hands_standing"], "version": m["version"], "match": m["id"]}


def settings_of(t, **changes: object):
    from dataclasses import replace

    return replace(t.rules, **changes)


# --- 1. time called stays called --------------------------------------------------------


def test_raising_the_minutes_after_time_ran_out_is_refused_and_the_state_still_answers(event):
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    assert state(client)["clock"]["time_called"]
    post(client, "answer-call", {"in_progress": True})
    assert (
        post(client, "hands", hand(2, maker="E", maker_tricks=3))[1]["hand"]["phase"] == "at_call"
    )
    with pytest.raises(ServiceError, match="minutes cannot change"):
        update_tournament(
            event, name=event.name, rules=settings_of(event, round_minutes=60), by="d"
        )
    event.refresh_from_db()
    assert event.round_minutes == 20
    data = state(client)  # before: 500 (the at-call hand no longer replayed)
    assert data["match"]["time_called"] and data["match"]["in_tiebreak"]


def test_lowering_the_minutes_below_the_time_played_is_refused_with_422_and_changes_nothing(
    event, director_client
):
    """RULES.md §7: the limit is never put at or before the present moment (the call
    would be recorded in the past and the hands already entered become after-call hands);
    the director calls time instead. Before: accepted, the call placed 2 minutes back."""
    from tests.test_director import settings_post

    client = tablet(event)
    post(client, "hands", hand(1))
    response = director_client.post(
        reverse("director:settings", args=[event.slug]),
        settings_post(name=event.name, round_minutes=3),
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "has run 5 minutes: a limit of 3 minutes would call its time in the past" in page
    assert "call time from the round" in page
    event.refresh_from_db()
    assert event.round_minutes == 20
    data = state(client)
    assert not data["clock"]["time_called"] and not data["match"]["time_called"]
    assert Activity.objects.filter(tournament=event, action="settings").count() == 0
    with pytest.raises(ServiceError, match="would call its time in the past"):
        update_tournament(event, name=event.name, rules=settings_of(event, round_minutes=5), by="d")
    # A limit still ahead of the clock may be lowered.
    update_tournament(event, name=event.name, rules=settings_of(event, round_minutes=8), by="d")
    event.refresh_from_db()
    assert event.round_minutes == 8 and not state(client)["clock"]["time_called"]


def test_a_table_whose_time_was_called_stays_called_when_the_settings_change_anyway(event):
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    state(client)  # the call is seen and written as the table's fact
    match = match_at(event)
    assert match.time_called_at is not None
    # Even a change that slipped past the refusal (written straight to the row) cannot
    # un-call the table: hands still take the phases after the call.
    type(event).objects.filter(pk=event.pk).update(round_minutes=120)
    status, body = post(client, "hands", hand(2, maker="E"))
    # Unanswered, the next hand is taken to be the hand in progress at the call.
    assert status == 201 and body["hand"]["phase"] == "at_call"
    assert state(client)["clock"]["time_called"]


def test_an_extension_after_the_call_is_refused_and_the_call_stays(event):
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    with pytest.raises(ServiceError, match="an extension cannot un-call it"):
        rounds.extend_table(match_at(event), 30, by="director")
    assert match_at(event).extension_seconds == 0
    assert post(client, "answer-call", {"in_progress": True})[0] == 200
    status, body = post(client, "hands", hand(2, maker="E", maker_tricks=3))
    assert status == 201 and body["hand"]["phase"] == "at_call"  # before: 422


def test_a_match_ended_by_time_stays_over_whatever_the_settings(event):
    client = tablet(event)
    post(client, "hands", hand(1))  # NS 1-0
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    match = match_at(event)
    assert match.status == Match.Status.FINISHED and match.winner == "NS"
    with pytest.raises(ServiceError):
        rounds.extend_table(match, 15, by="director")
    type(event).objects.filter(pk=event.pk).update(round_minutes=240)
    data = state(client)
    assert data["match"]["over"] and data["match"]["winner"] == "NS"
    assert match_at(event).status == Match.Status.FINISHED


def test_a_confirmed_result_takes_no_more_hands(event):
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    post(client, "keeper", {"seat": "N"})
    east = next(s["player"] for s in state(client)["seats"] if s["seat"] == "E")
    assert post(client, "confirm", {"agree": True, "by": east})[0] == 200
    type(event).objects.filter(pk=event.pk).update(round_minutes=240)
    status, body = post(client, "hands", hand(2, maker="E"))
    assert status == 422
    match = match_at(event)
    assert (match.status, match.hands_played) == (Match.Status.CONFIRMED, 1)


def test_calling_time_keeps_running_extensions_unless_included(event):
    m1, m2 = match_at(event, 1), match_at(event, 2)
    rounds.extend_table(m2, 10, by="director")
    rounds.call_time(rnd_of(event), by="director")
    m1, m2 = match_at(event, 1), match_at(event, 2)
    now = timezone.now()
    assert m1.time_called_at is not None and m2.time_called_at is None
    assert replay.table_call(m2, now) is None
    assert 14 * 60 < replay.table_remaining(m2, now).total_seconds() <= 25 * 60
    log = Activity.objects.filter(action="call time").get()
    assert "extended tables keep their extension: 2" in log.text


def test_calling_time_including_extended_tables_ends_their_extensions(event):
    rounds.extend_table(match_at(event, 2), 10, by="director")
    rounds.call_time(rnd_of(event), by="director", including_extended=True)
    assert match_at(event, 2).time_called_at is not None


def test_the_board_shows_an_extended_tables_own_countdown(event, director_client):
    rounds.extend_table(match_at(event, 2), 10, by="director")
    rounds.call_time(rnd_of(event), by="director")
    page = director_client.get(reverse("director:board", args=[event.slug, 1])).content.decode()
    row2 = page.split('data-table="2"')[1].split("</tr>")[0]
    row1 = page.split('data-table="1"')[1].split("</tr>")[0]
    assert "Time called" in row1 and "Time called" not in row2
    assert "left" in row2 and "0:00 left" not in row2


def test_a_players_phone_at_an_extended_table_counts_down_with_its_tablet_after_the_call(
    event, client
):
    from tournaments.core.models.rounds import Seating

    rounds.extend_table(match_at(event, 2), 10, by="director")
    rounds.call_time(rnd_of(event), by="director")
    now = timezone.now()
    seat = {
        t: Seating.objects.filter(round=rnd_of(event), table=t).select_related("player")[0]
        for t in (1, 2)
    }
    called = reads.card(event, seat[1].player, now).clock
    extended = reads.card(event, seat[2].player, now).clock
    assert called.kind == "called"
    assert extended.kind == "running"
    assert extended.call_at == replay.coming_call(match_at(event, 2), now)
    assert extended.call_at is not None and extended.call_at > now + timedelta(minutes=10)
    url = reverse("public:card", args=[event.slug, seat[2].player.pk])
    page = client.get(url).content.decode()
    assert "data-clock-state>Time left<" in page


# --- 2. the hand in progress is K+1 --------------------------------------------------------


def test_a_hand_undone_after_the_call_is_entered_again_as_regular_and_the_hand_in_progress_follows(
    event,
):
    client = tablet(event)
    post(client, "hands", hand(1))
    post(client, "hands", hand(2, maker="E", maker_tricks=3))  # 1-1
    run_out(event)
    assert post(client, "undo", {"number": 2, "client_key": "key-2"})[0] == 200
    status, body = post(client, "hands", hand(2, key="again-2", maker="E", maker_tricks=4))
    assert status == 201 and body["hand"]["phase"] == "regular"  # before: at_call
    assert body["state"]["match"]["awaiting_answer"]
    post(client, "answer-call", {"in_progress": True})
    status, body = post(client, "hands", hand(3, maker="N", maker_tricks=3))
    assert status == 201 and body["hand"]["phase"] == "at_call"
    assert body["state"]["match"]["over"] and body["state"]["match"]["winner"] == "NS"


def test_undoing_a_regular_hand_after_the_call_reopens_a_match_that_ended_by_time(event):
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    assert state(client)["match"]["over"]
    post(client, "undo", {"number": 1, "client_key": "key-1"})
    data = state(client)
    # Hand 1 was played before the call: the match waits for it again.
    assert not data["match"]["over"] and data["match"]["next_phase"] == "regular"


# --- 3. versioned answers ----------------------------------------------------------------


def test_a_second_tablet_answering_the_call_differently_gets_409_with_the_state(event):
    one, two = tablet(event), tablet(event)
    post(one, "hands", hand(1))
    run_out(event)
    seen = versioned(two)
    assert post(one, "answer-call", {"in_progress": True, **versioned(one)})[0] == 200
    status, body = post(two, "answer-call", {"in_progress": False, **seen})
    assert status == 409 and body["state"]["match"]["hand_in_progress_at_call"] is True
    # Without naming what it saw, a different answer is refused too (never silently won).
    status, body = post(two, "answer-call", {"in_progress": False})
    assert status == 409
    assert match_at(event).hand_in_progress_at_call is True


def test_the_table_changes_its_answer_naming_the_state_it_saw(event):
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    data = state(client)
    assert data["match"]["over"] and data["match"]["can_change_answer"]
    status, body = post(client, "answer-call", {"in_progress": True, **versioned(client)})
    assert status == 200 and not body["state"]["match"]["over"]
    assert body["state"]["match"]["next_phase"] == "at_call"
    assert Activity.objects.filter(action="change answer").exists()


def test_changing_the_answer_rephases_the_hand_after_the_call(event):
    client = tablet(event)
    post(client, "hands", hand(1))
    post(client, "hands", hand(2, maker="E"))  # 1-1
    run_out(event)
    post(client, "answer-call", {"in_progress": True})
    post(client, "hands", hand(3, maker="E", maker_tricks=1))  # NS +2 -> 3-1, at call
    assert state(client)["match"]["over"]
    # A hand was not in progress after all: hand 3 is a tie-break hand (the score was tied).
    status, body = post(client, "answer-call", {"in_progress": False, **versioned(client)})
    assert status == 200
    assert [h["phase"] for h in body["state"]["hands"]] == ["regular", "regular", "tiebreak"]
    assert body["state"]["match"]["bonuses"] == {"NS": 0, "EW": 0}


def test_a_stale_agreement_gets_409_with_the_state(event):
    client = tablet(event)
    post(client, "first-dealer", {"seat": "N", "keeper": "N"})
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    seen = versioned(client)
    corrections.correct_hand(
        HandEntry.objects.get(number=1, match=match_at(event)),
        made("N", 5),
        by="director",
        reason="It was a march",
    )
    east = next(s["player"] for s in state(client)["seats"] if s["seat"] == "E")
    status, body = post(client, "confirm", {"agree": True, "by": east, **seen})
    assert status == 409 and body["state"]["match"]["score"] == {"NS": 2, "EW": 0}
    assert match_at(event).status == Match.Status.FINISHED


# --- 4. confirmation and disputes ---------------------------------------------------------


def _finished(event) -> tuple[Client, dict]:
    client = tablet(event)
    post(client, "first-dealer", {"seat": "N", "keeper": "N"})
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    return client, {s["seat"]: s["player"] for s in state(client)["seats"]}


def test_an_agreement_after_a_dispute_is_refused_and_the_dispute_stands(event):
    client, names = _finished(event)
    other = tablet(event)
    seen = versioned(other)
    body = {"agree": False, "by": names["E"], "note": "Hand 1 was a euchre", **versioned(client)}
    assert post(client, "confirm", body)[0] == 200
    status, answer = post(other, "confirm", {"agree": True, "by": names["W"], **seen})
    assert status == 409 and answer["state"]["match"]["status"] == "disputed"
    status, answer = post(other, "confirm", {"agree": True, "by": names["W"]})
    assert status == 409
    match = match_at(event)
    assert match.status == Match.Status.DISPUTED and match.dispute_note == "Hand 1 was a euchre"


def test_the_scorekeepers_team_cannot_confirm_its_own_result(event):
    client, names = _finished(event)
    status, body = post(client, "confirm", {"agree": True, "by": names["S"]})
    assert status == 422 and "did not keep score" in body["error"]
    assert post(client, "confirm", {"agree": True, "by": names["W"]})[0] == 200


def _over_without_keeper(event) -> tuple[Client, dict]:
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    return client, {s["seat"]: s["player"] for s in state(client)["seats"]}


def test_no_one_confirms_until_the_table_says_who_kept_score(event):
    client, names = _over_without_keeper(event)
    for seat in "NESW":
        status, body = post(client, "confirm", {"agree": True, "by": names[seat]})
        assert status == 422 and "who kept score" in body["error"]
    assert match_at(event).status == Match.Status.FINISHED
    status, body = post(client, "keeper", {"seat": "E"})
    assert status == 200 and body["state"]["match"]["scorekeeper"] == "E"
    assert post(client, "confirm", {"agree": True, "by": names["W"]})[0] == 422
    assert post(client, "confirm", {"agree": True, "by": names["N"]})[0] == 200
    assert match_at(event).confirmed_by == names["N"]


def test_a_house_player_of_the_keepers_team_never_confirms_his_own_result(event):
    house = add_house_player(event, "Hugo House", "A", by="director")
    seat = Seating.objects.get(round__tournament=event, round__number=1, table=1, position="S")
    seat.player = house
    seat.save(update_fields=["player"])
    client = tablet(event)
    post(client, "first-dealer", {"seat": "N", "keeper": "N"})
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    status, body = post(client, "confirm", {"agree": True, "by": "Hugo House"})
    assert status == 422 and "did not keep score" in body["error"]
    assert match_at(event).status == Match.Status.FINISHED


def test_changing_who_keeps_score_is_logged_and_moves_who_may_confirm(event):
    client, names = _finished(event)  # N keeps score
    before = match_at(event).version
    status, body = post(client, "keeper", {"seat": "W"})
    assert status == 200 and body["state"]["match"]["scorekeeper"] == "W"
    assert body["state"]["match"]["version"] == before + 1
    line = Activity.objects.get(tournament=event, action="scorekeeper")
    assert line.args["seat"] == "W" and line.args["was"] == "N"
    assert post(client, "keeper", {"seat": "W"})[0] == 200  # the same tap again: no line
    assert Activity.objects.filter(tournament=event, action="scorekeeper").count() == 1
    assert post(client, "confirm", {"agree": True, "by": names["E"]})[0] == 422
    assert post(client, "confirm", {"agree": True, "by": names["S"]})[0] == 200


def test_who_kept_score_stays_once_the_result_is_confirmed(event):
    client, names = _finished(event)
    assert post(client, "confirm", {"agree": True, "by": names["E"]})[0] == 200
    status, body = post(client, "keeper", {"seat": "E"})
    assert status == 422 and "confirmed" in body["error"]
    assert match_at(event).scorekeeper == "N"


def test_a_keeper_outside_the_four_seats_is_refused(event):
    client = tablet(event)
    assert post(client, "keeper", {"seat": "X"})[0] == 422
    assert post(client, "keeper", {})[0] == 422
    assert match_at(event).scorekeeper == ""


def test_a_dispute_is_resolved_only_by_the_director_with_a_reason(event):
    client, names = _finished(event)
    post(client, "confirm", {"agree": False, "by": names["E"], "note": "wrong"})
    match = match_at(event)
    with pytest.raises(ServiceError, match="reason"):
        closing.close_match(match, by="director", note="  ")
    closing.close_match(match, by="director", note="Checked with both teams: 1-0 stands")
    match = match_at(event)
    assert match.status == Match.Status.CONFIRMED
    actions = list(
        Activity.objects.filter(match=match).order_by("at", "id").values_list("action", flat=True)
    )
    assert actions[-2:] == ["dispute", "resolve"]


def test_accepting_a_result_needs_a_reason(event, director_client):
    _finished(event)
    url = reverse("director:table_close", args=[event.slug, 1, 1])
    response = director_client.post(url, {"game": 1, "reason": ""})
    assert response.status_code == 422
    assert match_at(event).status == Match.Status.FINISHED


def test_a_correction_of_a_confirmed_match_needs_confirmation_again(event):
    client, names = _finished(event)
    post(client, "confirm", {"agree": True, "by": names["E"]})
    entry = HandEntry.objects.get(match=match_at(event), number=1)
    corrections.correct_hand(entry, made("N", 4), by="director", reason="tricks miscounted")
    match = match_at(event)
    assert match.status == Match.Status.FINISHED and not match.confirmed_by
    entry = HandEntry.objects.get(match=match, number=1, state="standing")
    corrections.correct_hand(entry, made("N", 3), by="director", reason="back to 3", confirm=True)
    match = match_at(event)
    assert match.status == Match.Status.CONFIRMED and match.confirmed_by == "director"


# --- 5. late sync ----------------------------------------------------------------------


def test_backdated_hands_after_the_call_are_bounded_and_flagged(event):
    match = match_at(event)
    play.set_first_dealer(match, Seat.N, by="t")
    rnd = rnd_of(event)
    start = rnd.started_at
    rounds.call_time(rnd, by="director", now=start + timedelta(minutes=2))
    call = match_at(event).time_called_at
    now = call + timedelta(minutes=1)

    def send(n: int, claimed, key: str, at=now):
        return play.record_hand(
            match, made("NESW"[n % 4], 5), client_key=key, by="t", entered_at=claimed, now=at
        )

    first = send(1, start + timedelta(seconds=40), "a")
    assert first.entry.phase == "regular" and first.entry.late_sync
    # 10 s after the previous hand: no hand is played that fast.
    second = send(2, start + timedelta(seconds=50), "b")
    assert second.entry.phase == "at_call" and not second.entry.late_sync
    play.undo_last_hand(match, by="t", now=now)
    # After the grace window: taken as entered at its arrival.
    late = send(2, start + timedelta(seconds=90), "c", at=call + timedelta(minutes=16))
    assert late.entry.phase == "at_call" and not late.entry.late_sync
    play.undo_last_hand(match, by="t", now=now)
    # A claim after the call or in the future is never believed.
    assert send(2, call + timedelta(seconds=5), "d").entry.phase == "at_call"
    match = match_at(event)
    assert match.has_late_sync
    assert Activity.objects.filter(action="late sync").count() == 1


def test_twelve_backdated_hands_cannot_turn_a_result_around(event):
    client = tablet(event)
    post(client, "hands", hand(1, maker="E", maker_tricks=4))  # EW 1
    run_out(event, minutes=21)
    state(client)
    post(client, "answer-call", {"in_progress": False})
    assert state(client)["match"]["over"]
    backdated = (timezone.now() - timedelta(minutes=10)).isoformat()
    for n in range(2, 14):
        post(
            client,
            "hands",
            hand(n, key=f"back{n}", maker="N", maker_tricks=5, entered_at=backdated),
        )
    data = state(client)
    assert data["match"]["score"] == {"NS": 0, "EW": 1} and data["match"]["winner"] == "EW"


def test_the_director_reclassifies_a_late_synced_hand(event):
    match = match_at(event)
    play.set_first_dealer(match, Seat.N, by="t")
    rnd = rnd_of(event)
    start = rnd.started_at
    rounds.call_time(rnd, by="director", now=start + timedelta(minutes=2))
    play.record_hand(
        match,
        made("N", 3),
        client_key="x",
        by="t",
        entered_at=start + timedelta(minutes=1),
        now=start + timedelta(minutes=3),
    )
    entry = HandEntry.objects.get(client_key="x")
    assert entry.late_sync and entry.phase == "regular"
    state = corrections.review_late_sync(entry, accept=False, by="director", reason="clock was off")
    entry.refresh_from_db()
    assert entry.phase == "at_call" and state.over and state.winner is Team.NS
    assert not match_at(event).has_late_sync


# --- 6. director repairs -----------------------------------------------------------------


def test_the_director_fixes_the_first_dealer_and_later_dealers_follow(event):
    client = tablet(event)
    for n in range(1, 4):
        post(client, "hands", hand(n, maker="NESW"[n % 4]))
    match = match_at(event)
    with pytest.raises(ServiceError, match="reason"):
        play.set_first_dealer(match, Seat.E, by="director", director=True)
    play.set_first_dealer(match, Seat.E, by="director", director=True, reason="E dealt first")
    dealers = list(
        HandEntry.objects.filter(match=match, state="standing")
        .order_by("number")
        .values_list("dealer", flat=True)
    )
    assert dealers == ["E", "S", "W"]
    assert state(client)["match"]["dealer"] == "N"
    assert Activity.objects.filter(action="first dealer", reason="E dealt first").exists()


def test_naming_the_first_dealer_asks_no_reason_and_changing_it_does(event, director_client):
    """A paper table's first dealer was asked a reason before anything was recorded."""
    address = reverse("director:table_first_dealer", args=[event.slug, 1, 1])
    page = director_client.get(reverse("director:table", args=[event.slug, 1, 1])).content
    assert b'name="fd-reason"' not in page  # nothing recorded: nothing to justify
    assert director_client.post(address, {"game": 1, "fd-seat": "S"}).status_code == 302
    assert match_at(event).first_dealer == "S"
    page = director_client.get(reverse("director:table", args=[event.slug, 1, 1])).content
    assert b'name="fd-reason"' in page and b"required" in page.split(b'name="fd-reason"')[1][:80]
    refused = director_client.post(address, {"game": 1, "fd-seat": "W", "fd-reason": ""})
    assert refused.status_code == 422 and match_at(event).first_dealer == "S"
    changed = director_client.post(address, {"game": 1, "fd-seat": "W", "fd-reason": "W cut"})
    assert changed.status_code == 302 and match_at(event).first_dealer == "W"
    assert Activity.objects.filter(action="first dealer", reason="W cut").exists()


def test_the_director_inserts_a_missing_hand_and_later_hands_move_up(event):
    client = tablet(event)
    post(client, "hands", hand(1, maker="N"))
    post(client, "hands", hand(2, maker="E"))
    match = match_at(event)
    corrections.insert_hand(
        match, 2, made("S", 5), by="director", reason="hand 2 was never entered"
    )
    standing = list(HandEntry.objects.filter(match=match, state="standing").order_by("number"))
    assert [(h.number, h.maker, h.dealer) for h in standing] == [
        (1, "N", "N"),
        (2, "S", "E"),
        (3, "E", "S"),
    ]
    moved = HandEntry.objects.get(match=match, state="superseded")
    assert moved.number == 2 and moved.replaced_by.number == 3
    assert match_at(event).score_ns == 3


def test_the_director_changes_the_tables_answer_with_a_reason(event, director_client):
    client = tablet(event)
    post(client, "hands", hand(1))
    run_out(event)
    post(client, "answer-call", {"in_progress": False})
    url = reverse("director:table_answer", args=[event.slug, 1, 1])
    assert (
        director_client.post(url, {"ans-in_progress": "yes", "ans-reason": ""}).status_code == 422
    )
    response = director_client.post(url, {"ans-in_progress": "yes", "ans-reason": "N said so"})
    assert response.status_code == 302
    assert match_at(event).hand_in_progress_at_call is True
    assert not match_at(event).is_over


def _play_round_out(t) -> None:
    rnd = rnd_of(t)
    for table in (1, 2):
        match = match_at(t, table)
        play.set_first_dealer(match, Seat.N, by="t")
        for i in range(3):
            play.record_hand(match, made("N", 5, alone=i < 2), client_key=f"r{table}{i}", by="t")
    rounds.finalize_round(rnd, by="director")
    rounds.seat_next_round(t, by="director")


def test_the_director_reopens_the_last_finalized_round_with_typed_confirmation(
    event, director_client
):
    _play_round_out(event)
    url = reverse("director:reopen", args=[event.slug, 1])
    response = director_client.post(url, {"confirm": "round 2", "reason": "wrong winner"})
    assert response.status_code == 422 and rnd_of(event).status == Round.Status.FINISHED
    response = director_client.post(url, {"confirm": "Round 1", "reason": "wrong winner"})
    assert response.status_code == 302
    assert rnd_of(event).status == Round.Status.RUNNING
    assert not Round.objects.filter(tournament=event, number=2).exists()
    rounds.finalize_round(rnd_of(event), by="director")
    assert rounds.seat_next_round(event, by="director").number == 2


def test_a_round_cannot_be_reopened_once_the_next_has_a_hand(event):
    _play_round_out(event)
    nxt = Round.objects.get(tournament=event, number=2)
    rounds.start_round(nxt, by="d")
    m = nxt.matches.get(table=1)
    play.set_first_dealer(m, Seat.N, by="t")
    play.record_hand(m, made("N", 3), client_key="next-1", by="t")
    with pytest.raises(ServiceError, match="already has hands"):
        rounds.reopen_round(rnd_of(event), by="d", reason="too late")


def test_finalize_seed_and_finish_ask_for_confirmation(event, director_client):
    page = director_client.get(reverse("director:round", args=[event.slug, 1])).content.decode()
    finalize = page.split(reverse("director:finalize", args=[event.slug, 1]))[1].split("</form>")[0]
    assert "data-confirm=" in finalize
    final = (Path(settings.BASE_DIR) / "templates/director/final.html").read_text()
    for action in ("director:finish", "director:final_seed"):
        form = final.split(f"{{% url '{action}'")[1].split("</form>")[0]
        assert "data-confirm=" in form


# --- 7. rules fixes ------------------------------------------------------------------------


def test_an_overridden_win_gives_the_overruled_team_no_bonus(event):
    match = match_at(event)
    play.set_first_dealer(match, Seat.N, by="t")
    for i in range(3):  # 10-0 for NS: reach + skunk
        play.record_hand(match, made("N", 5, alone=i < 2), client_key=f"o{i}", by="t")
    assert match_at(event).bonus_ns == 3
    corrections.override_winner(match, Team.EW, by="director", reason="NS reneged unseen")
    match = match_at(event)
    assert (match.winner, match.bonus_ns, match.bonus_ew) == ("EW", 0, 0)
    north = match.round.seats.get(table=1, position="N")
    assert north.bonus == 0 and north.points == 10 + 2  # score + two lone-march awards
    assert north.won is False


def test_a_lone_defender_euchre_scores_the_setting_when_allowed(make_tournament):
    t = make_tournament(1, defend_alone_allowed=True, points_alone_euchre=4)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.get()
    play.set_first_dealer(match, Seat.N, by="t")
    state = play.record_hand(
        match, made("N", 1, defender_alone=Seat.E), client_key="d1", by="t"
    ).state
    assert state.score == {Team.NS: 0, Team.EW: 4}
    data = export_results(t)
    assert data["tournament"]["rules"]["defend_alone_allowed"] is True
    assert data["tournament"]["rules"]["points_alone_euchre"] == 4
    hands = [h for r in data["rounds"] for m in r["matches"] for h in m["hands"]]
    assert hands[0]["defender_alone"] == "E"


def test_defending_alone_is_refused_when_the_setting_is_off(event):
    client = tablet(event)
    status, body = post(client, "hands", hand(1, maker="N", maker_tricks=1, defender_alone="E"))
    assert status == 422 and "defending alone is not allowed" in body["error"]


def test_the_dealers_partner_who_orders_up_must_go_alone_on_the_tablet(event):
    client = tablet(event)
    # Hand 1: dealer N, so S is the dealer's partner.
    body = hand(1, maker="S", dealer_partner_ordered_up=True, alone=False)
    assert post(client, "hands", body)[0] == 422
    body = hand(1, maker="S", dealer_partner_ordered_up=True, alone=True, maker_tricks=5)
    status, answer = post(client, "hands", body)
    assert status == 201 and answer["hand"]["dealer_partner_ordered_up"] is True


def test_cap_at_target_caps_every_game_of_the_final(make_tournament):
    from tournaments.domain.match import PhasedHand, replay
    from tournaments.domain.rules import RuleSettings

    rules = RuleSettings(cap_at_target=True, final_target=10)
    hands = [PhasedHand(made("N", 5, alone=True)) for _ in range(3)]
    state = replay(hands, first_dealer=Seat.N, rules=rules, final=True)
    assert state.score[Team.NS] == 10 and state.over
