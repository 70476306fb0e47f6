"""RULES.md §3.1 through the services and the director's pages: a stationary player is
marked with a reason, seated at the named table in round 1 and kept at their table and
chair by every later seating while the room rotates around them."""

import os
from pathlib import Path

import pytest
from django.urls import reverse

from tests.test_attendance import finish
from tournaments.core.models.event import Player
from tournaments.core.models.log import Activity
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.reads.rounds import plan_next_round, seating_of
from tournaments.core.services import ServiceError, rounds
from tournaments.core.services.players import set_withdrawn
from tournaments.core.services.stationary import end_stationary, mark_stationary
from tournaments.domain.hands import Team
from tournaments.domain.seating import TableResult, rotate


def player(t, name: str) -> Player:
    return Player.objects.get(tournament=t, name=name)


def seat_of(rnd: Round, p: Player) -> tuple[int, str]:
    row = Seating.objects.get(round=rnd, player=p)
    return row.table, row.position


@pytest.fixture
def event(make_tournament):
    return make_tournament(3, preliminary_rounds=5, target=2)


def test_the_draw_seats_a_stationary_player_at_the_named_table_and_keeps_their_chair(event):
    t = event
    ann = player(t, "Player A003")
    mark_stationary(t, ann, reason="wheelchair", table=2, by="test")
    r1 = rounds.draw_first_round(t, by="test", seed=11)
    home = seat_of(r1, ann)
    assert home == (2, "N")
    # NS wins round 1 (Ann wins), EW wins round 2 and 3 (Ann loses): she never moves.
    rnd = r1
    for maker in ("N", "E", "E", "N"):
        finish(rnd, maker)
        rnd = rounds.seat_next_round(t, by="test")
        assert seat_of(rnd, ann) == home
        assert rnd.seats.count() == 12
    # The rounds as stored read back as the rotation the rules route.
    assert StationaryMark.objects.get(player=ann).from_round == 1


def test_the_next_round_is_the_rotation_routed_around_the_mark(event):
    t = event
    r1 = rounds.draw_first_round(t, by="test", seed=11)
    finish(r1, "E")  # EW wins everywhere: the A players at N lose
    loser = Player.objects.get(pk=Seating.objects.get(round=r1, table=2, position="N").player_id)
    mark_stationary(t, loser, reason="low vision", by="test")
    results = [TableResult(s, Team.EW) for s in seating_of(r1)]
    expected = rotate(results, [loser.pk])
    plain = rotate(results)
    plan = plan_next_round(t)
    assert plan.seating.tables == expected != plain
    # The A loser of table 3, whom plain §3 sends to table 2, goes on to table 1.
    moved = Seating.objects.get(round=r1, table=3, position="N").player_id
    assert (moved, 2, 1) in plan.rerouted
    r2 = rounds.seat_next_round(t, by="test")
    assert seat_of(r2, loser) == (2, "N")
    assert seat_of(r2, Player.objects.get(pk=moved))[0] == 1


def test_marking_needs_a_reason_and_is_logged_with_it(event):
    t = event
    ann = player(t, "Player A001")
    with pytest.raises(ServiceError, match="reason"):
        mark_stationary(t, ann, reason="  ", by="test")
    mark_stationary(t, ann, reason="knee surgery", by="test")
    line = Activity.objects.filter(tournament=t, action="stationary").get()
    assert line.reason == "knee surgery"
    with pytest.raises(ServiceError, match="already stationary"):
        mark_stationary(t, ann, reason="again", by="test")


def test_default_tables_are_1_then_2_and_a_third_a_player_at_one_table_is_refused(event):
    t = event
    first = mark_stationary(t, player(t, "Player A001"), reason="r", by="test")
    second = mark_stationary(t, player(t, "Player A002"), reason="r", by="test")
    assert (first.table, second.table) == (1, 2)
    mark_stationary(t, player(t, "Player A003"), reason="r", table=1, by="test")
    with pytest.raises(ServiceError, match="two stationary A"):
        mark_stationary(t, player(t, "Player A004"), reason="r", table=1, by="test")


def test_a_named_table_the_room_does_not_have_refuses_the_draw_and_seats_nothing(event):
    t = event
    mark_stationary(t, player(t, "Player B001"), reason="r", table=4, by="test")
    with pytest.raises(ServiceError, match="table 4; round 1 seats 3 tables"):
        rounds.draw_first_round(t, by="test", seed=1)
    assert not Round.objects.filter(tournament=t).exists()


def test_a_mark_during_the_event_keeps_the_current_table_and_an_unseated_player_is_refused(
    event,
):
    t = event
    r1 = rounds.draw_first_round(t, by="test", seed=11)
    bob = Player.objects.get(pk=Seating.objects.get(round=r1, table=3, position="W").player_id)
    mark = mark_stationary(t, bob, reason="cane", by="test")
    assert (mark.table, mark.from_round) == (3, 2)
    late = Player.objects.create(tournament=t, name="Late", division="A", checked_in=True)
    with pytest.raises(ServiceError, match="no seat in round 1"):
        mark_stationary(t, late, reason="r", by="test")


def test_ending_the_mark_needs_a_reason_and_the_player_rotates_again(event):
    t = event
    ann = player(t, "Player A001")
    mark_stationary(t, ann, reason="r", table=1, by="test")
    r1 = rounds.draw_first_round(t, by="test", seed=11)
    finish(r1, "E")  # Ann (at N) loses
    with pytest.raises(ServiceError, match="reason"):
        end_stationary(t, ann, reason="", by="test")
    mark = end_stationary(t, ann, reason="feels better", by="test")
    assert mark.until_round == 2
    r2 = rounds.seat_next_round(t, by="test")
    # Plain §3: the A loser of table 1 goes counterclockwise to table 3.
    assert seat_of(r2, ann) == (3, "N")


def test_a_withdrawn_player_cannot_be_marked(event):
    t = event
    ann = player(t, "Player A001")
    set_withdrawn(ann, True, by="test", reason="left")
    with pytest.raises(ServiceError, match="withdrawn"):
        mark_stationary(t, ann, reason="r", by="test")


def test_the_director_marks_and_ends_a_stationary_seat_on_the_players_page(director_client, event):
    t = event
    ann = player(t, "Player A002")
    url = reverse("director:player_stationary", args=[t.slug, ann.pk])
    refused = director_client.post(url, {"action": "mark", "stationary-reason": ""})
    assert refused.status_code == 422
    assert not StationaryMark.objects.exists()
    done = director_client.post(
        url, {"action": "mark", "stationary-reason": "walker", "stationary-table": "3"}
    )
    assert done.status_code == 302
    page = director_client.get(reverse("director:player_edit", args=[t.slug, ann.pk]))
    assert b"Stationary at table 3 from round 1." in page.content
    assert b"walker" in page.content
    ended = director_client.post(url, {"action": "end", "ending-reason": "moved tables"})
    assert ended.status_code == 302
    assert StationaryMark.objects.get(player=ann).end_reason == "moved tables"


# --- A simulated event, and the results file ------------------------------------------


def test_a_simulated_event_keeps_three_stationary_players_at_their_tables_and_chairs(db):
    from tournaments.core.simulate import simulate

    t = simulate(4, seed=3, name="Stationary", stationary=3)
    marks = list(StationaryMark.objects.filter(tournament=t).order_by("marked_at", "pk"))
    assert [m.table for m in marks] == [1, 4, 2]
    assert [m.until_round for m in marks] == [None, 4, None]
    prelims = list(t.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("number"))
    for mark in marks:
        home = seat_of(prelims[0], mark.player)
        assert home[0] == mark.table
        last = mark.until_round or len(prelims) + 1
        for rnd in prelims[1 : last - 1]:
            # The first marked at each table keeps the chair too (no two share one here).
            assert seat_of(rnd, mark.player) == home
    # The ended mark's player rotates again from round 4 on: somewhere else by round 5.
    freed = marks[1].player
    assert {seat_of(r, freed)[0] for r in prelims[3:]} != {marks[1].table}
    # Every round is whole: 16 players, each seated once.
    for rnd in prelims:
        assert rnd.seats.count() == 16
        assert rnd.seats.values("player").distinct().count() == 16


def test_the_results_file_carries_the_marks_through_export_and_import(db):
    from tests.test_series_import import assert_same_event, round_trip
    from tournaments.core.simulate import simulate
    from tournaments.series.export import export_results

    source = simulate(3, seed=4, name="Marked", stationary=2)
    first, second = round_trip(source, "marked-copy")
    assert [(m["table"], m["from_round"], m["until_round"]) for m in first["stationary"]] == [
        (1, 1, None),
        (3, 1, 4),
    ]
    assert "reason" not in first["stationary"][0]  # the reason stays at the hall
    assert_same_event(first, second)
    published = export_results(source, for_players=True)
    assert "stationary" not in published


def test_the_checker_refuses_a_stationary_player_who_moves_while_marked(db):
    import json

    from tournaments.core.simulate import simulate
    from tournaments.series.export import export_results
    from tournaments.series.results_fields import InvalidResults
    from tournaments.series.results_file import parse

    doc = export_results(simulate(3, seed=4, name="Moved", stationary=1))
    pid = doc["stationary"][0]["player"]
    round2 = doc["rounds"][1]
    mine = next(m for m in round2["matches"] if pid in m["seats"].values())
    other = next(m for m in round2["matches"] if m is not mine)
    # Swap whole tables: the seats stay valid, but the stationary player has moved.
    mine["table"], other["table"] = other["table"], mine["table"]
    with pytest.raises(InvalidResults, match=r"stationary\[0\]: player .* is stationary but moves"):
        parse(json.dumps(doc))


def test_the_preview_and_the_seating_page_show_the_routed_movement(director_client, event):
    t = event
    r1 = rounds.draw_first_round(t, by="test", seed=11)
    finish(r1, "N")  # NS wins: the A players at E lose, the A winner at N stays
    winner = Player.objects.get(pk=Seating.objects.get(round=r1, table=2, position="N").player_id)
    loser = Player.objects.get(pk=Seating.objects.get(round=r1, table=1, position="E").player_id)
    mark_stationary(t, winner, reason="hip", by="test")
    mark_stationary(t, loser, reason="eyes", by="test")
    preview = director_client.get(reverse("director:seat_next", args=[t.slug])).content.decode()
    assert "Stationary players keep their table and chair:" in preview
    # The A loser of table 2 would come to table 1, held by a stationary loser: on to 3.
    moved = Player.objects.get(pk=Seating.objects.get(round=r1, table=2, position="E").player_id)
    assert f"{moved.name} goes on to table 3 (not 1)" in preview
    assert "seats turned" in preview
    r2 = rounds.seat_next_round(t, by="test")
    assert seat_of(r2, winner) == (2, "N") and seat_of(r2, loser) == (1, "E")
    page = director_client.get(reverse("director:seating", args=[t.slug, r2.number]))
    html = page.content.decode()
    # Table 2 is turned (its A winner keeps N): the page marks each player's division.
    assert "seats turned" in html
    assert f"{winner.name} (A)" in html
    # The printed seating sheet marks each player's division beside the chair's letter,
    # and says the letters are turned only when a table is.
    from django.utils import timezone

    from tournaments.core.reads.sheets import seating_sheet

    assert seating_sheet(r2, timezone.now()).turned
    assert not seating_sheet(r1, timezone.now()).turned
    pdf = director_client.get(reverse("sheets:seating", args=[t.slug, r2.number]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    shots = os.environ.get("SNOWMAN_SHOTS")
    if shots:
        Path(shots, "stationary-seating.pdf").write_bytes(b"".join(pdf.streaming_content))


def test_a_messy_simulated_event_with_stationary_players_exports_and_imports_whole(db):
    # Withdrawals, late arrivals and a house player around three stationary players: every
    # round seats, and the checker follows each mark through the rounds.
    from tests.test_series_import import assert_same_event, round_trip
    from tournaments.core.simulate import simulate

    source = simulate(5, seed=8, name="Messy marks", withdraw=3, late=2, house=1, stationary=3)
    first, second = round_trip(source, "messy-marks-copy")
    assert len(first["stationary"]) == 3
    assert_same_event(first, second)


def test_a_swap_never_moves_a_stationary_player(event):
    t = event
    ann = player(t, "Player A001")
    mark_stationary(t, ann, reason="r", table=1, by="test")
    r1 = rounds.draw_first_round(t, by="test", seed=11)
    other = Player.objects.get(pk=Seating.objects.get(round=r1, table=2, position="N").player_id)
    with pytest.raises(ServiceError, match="Player A001 is stationary and keeps their seat"):
        rounds.swap_players(r1, ann, other, by="test")
    assert seat_of(r1, ann) == (1, "N")
    # Two other A players still swap as before.
    third = Player.objects.get(pk=Seating.objects.get(round=r1, table=3, position="N").player_id)
    rounds.swap_players(r1, other, third, by="test")
    assert seat_of(r1, other)[0] == 3
