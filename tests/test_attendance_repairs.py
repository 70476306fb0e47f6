"""docs/rules.md §6, repairs a director expects: a substitution made in error is
corrected (another player from the same hand, or undone while no hand was played under
it), the round-1 sit-outs are the director's choice (the lot only proposes)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.html import assert_in_html, text_by_id
from tournaments.core.models.log import Activity
from tournaments.core.models.lots import DrawnLot
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, SitOut, Substitution
from tournaments.core.reads import standings
from tournaments.core.reads.rounds import plan_next_round, sit_out_proposal
from tournaments.core.reads.substitutions import substitutes_for
from tournaments.core.services import Conflict, ServiceError, closing, play, rounds, substitutions
from tournaments.core.services.players import add_house_player, register_player, set_withdrawn
from tournaments.core.services.substitutions import Signed, substitute
from tournaments.domain.hands import Hand, Outcome, Seat


def made(maker: str, tricks: int, alone: bool = False) -> Hand:
    return Hand(Outcome.PLAYED, maker=Seat(maker), alone=alone, maker_tricks=tricks)


def url(name: str, *args: object) -> str:
    return reverse(f"director:{name}", args=args)


def running(make_tournament, tables: int = 1, target: int = 5):
    t = make_tournament(tables, target=target)
    r1 = rounds.draw_first_round(t, by="test", seed=2)
    rounds.start_round(r1, by="test", now=timezone.now() - timedelta(minutes=1))
    m = r1.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(m, Seat.W, by="test")
    return t, r1, m


def snapshot(m: Match) -> tuple:
    m.refresh_from_db()
    return (
        m.version,
        list(m.round.seats.order_by("table", "position").values_list("player_id", flat=True)),
        list(Substitution.objects.values_list("player_in_id", "from_hand")),
        sorted(SitOut.objects.values_list("player_id", flat=True)),
    )


# --- a substitution made in error ---------------------------------------------------------


def test_a_wrong_substitute_is_replaced_from_the_same_hand_and_the_hands_count_for_the_right_one(
    make_tournament,
):
    t, r1, m = running(make_tournament)
    out = r1.seats.get(position="N").player
    play.record_hand(m, made("N", 5), client_key="h1", by="t")  # NS +2, hand 1
    wrong = register_player(t, "Wrong Wanda", "A", by="desk", checked_in=True)
    right = register_player(t, "Right Rita", "A", by="desk", checked_in=True)
    set_withdrawn(out, True, by="director", reason="ill")
    sub = substitute(m, "N", 2, wrong, Signed("director", "ill"))
    play.record_hand(m, made("N", 3), client_key="h2", by="t")  # NS +1, hand 2 (Rita sat)
    m.refresh_from_db()
    before = m.version
    substitutions.replace_substitute(
        sub, right, Signed("director", "picked the wrong name", version=before)
    )
    holder = r1.seats.get(position="N")
    assert holder.player == right
    sub.refresh_from_db()
    assert (sub.player_in, sub.player_out, sub.from_hand) == (right, out, 2)
    m.refresh_from_db()
    assert m.version > before  # versioned: a page or tablet that saw the old holder is stale
    entry = Activity.objects.filter(action="substitute-replace").get()
    assert (entry.actor, entry.reason, entry.match) == ("director", "picked the wrong name", m)
    assert "Right Rita" in entry.text and "Wrong Wanda" in entry.text
    play.record_hand(m, made("N", 5, alone=True), client_key="h3", by="t")  # NS +4 -> 7
    m.refresh_from_db()
    assert m.is_over
    closing.confirm_match(m, agree=True, by="t")
    rounds.finalize_round(r1, by="test")
    rows = {row.player.pk: row for row in standings.standings(t)["A"]}
    assert wrong.pk not in rows  # never played
    assert rows[right.pk].record.total == r1.seats.get(position="N").points
    assert rows[out.pk].record.total == 2  # hand 1 only


def test_a_substitution_with_no_hand_played_under_it_is_undone(make_tournament):
    t, r1, m = running(make_tournament)
    out = r1.seats.get(position="S").player
    play.record_hand(m, made("N", 5), client_key="h1", by="t")
    sub_player = register_player(t, "Hasty Hal", "B", by="desk", checked_in=True)
    sub = substitute(m, "S", 2, sub_player, Signed("director"))
    substitutions.undo_substitution(sub, Signed("director", "wrong table"))
    assert r1.seats.get(position="S").player == out
    assert not Substitution.objects.exists()
    entry = Activity.objects.filter(action="substitute-undo").get()
    assert entry.reason == "wrong table" and "Hasty Hal" in entry.text
    # Hal is waiting again: he can come in elsewhere.
    assert sub_player in substitutes_for(m)


def test_a_substitution_a_hand_was_played_under_cannot_be_undone(make_tournament):
    t, r1, m = running(make_tournament)
    sub_player = register_player(t, "Sam Sub", "A", by="desk", checked_in=True)
    sub = substitute(m, "N", 1, sub_player, Signed("director"))
    play.record_hand(m, made("N", 3), client_key="h1", by="t")
    before = snapshot(m)
    with pytest.raises(ServiceError, match="replace the substitute instead"):
        substitutions.undo_substitution(sub, Signed("director", "oops"))
    assert snapshot(m) == before


def test_a_correction_needs_a_reason_a_fitting_player_and_the_seats_latest_change(
    make_tournament,
):
    t, r1, m = running(make_tournament, tables=2)
    first = register_player(t, "First Fay", "A", by="desk", checked_in=True)
    second = register_player(t, "Second Sid", "A", by="desk", checked_in=True)
    b_player = register_player(t, "Bea B", "B", by="desk", checked_in=True)
    early = substitute(m, "N", 1, first, Signed("director"))
    play.record_hand(m, made("N", 3), client_key="h1", by="t")
    later = substitute(m, "N", 2, second, Signed("director"))
    other_table = r1.seats.get(table=2, position="E").player
    before = snapshot(m)
    cases = [
        (lambda: substitutions.undo_substitution(later, Signed("director")), "Give a reason"),
        (
            lambda: substitutions.replace_substitute(early, b_player, Signed("d", "x")),
            "latest change of seat N",
        ),
        (
            lambda: substitutions.replace_substitute(later, b_player, Signed("d", "x")),
            "division A seat",
        ),
        (
            lambda: substitutions.replace_substitute(later, other_table, Signed("d", "x")),
            "seated at table 2",
        ),
        (
            lambda: substitutions.replace_substitute(later, second, Signed("d", "x")),
            "already holds seat N",
        ),
        (
            lambda: substitutions.replace_substitute(later, first, Signed("d", "x")),
            "player who left",
        ),
    ]
    for action, message in cases:
        with pytest.raises(ServiceError, match=message):
            action()
        assert snapshot(m) == before


def test_a_correction_against_a_stale_page_is_refused_with_409(make_tournament):
    t, r1, m = running(make_tournament)
    sub_player = register_player(t, "Sam Sub", "A", by="desk", checked_in=True)
    right = add_house_player(t, "House Hugo", "A", by="director")
    sub = substitute(m, "N", 1, sub_player, Signed("director"))
    m.refresh_from_db()
    seen = m.version
    play.record_hand(m, made("N", 3), client_key="h1", by="t")  # the table moves on
    before = snapshot(m)
    with pytest.raises(Conflict) as refused:
        substitutions.replace_substitute(sub, right, Signed("director", "wrong name", version=seen))
    assert refused.value.status == 409
    assert snapshot(m) == before


def test_a_substitute_taken_out_by_a_correction_gets_their_sit_out_back(make_tournament):
    t = make_tournament(1, target=5)
    register_player(t, "Odd Otto", "A", by="desk", checked_in=True)
    r1 = rounds.draw_first_round(t, by="test", seed=3, remedy="sit-out")
    rounds.start_round(r1, by="test", now=timezone.now() - timedelta(minutes=1))
    m = r1.matches.select_related("round__tournament").get()
    sitting = SitOut.objects.get(round=r1).player
    sub = substitute(m, "N", 1, sitting, Signed("director"))
    assert not SitOut.objects.filter(round=r1).exists()  # he plays the round now
    substitutions.undo_substitution(sub, Signed("director", "he was not the one"))
    assert SitOut.objects.get(round=r1).player == sitting
    house = add_house_player(t, "House Hugo", "A", by="director")
    sub = substitute(m, "N", 1, sitting, Signed("director"))
    substitutions.replace_substitute(sub, house, Signed("director", "the house player sat there"))
    assert SitOut.objects.get(round=r1).player == sitting


def test_a_substitution_cannot_be_corrected_once_its_round_is_finalized(make_tournament):
    t, r1, m = running(make_tournament, target=2)
    sub_player = register_player(t, "Sam Sub", "A", by="desk", checked_in=True)
    right = register_player(t, "Right Rita", "A", by="desk", checked_in=True)
    sub = substitute(m, "N", 1, sub_player, Signed("director"))
    play.record_hand(m, made("N", 5), client_key="h1", by="t")
    closing.confirm_match(m, agree=True, by="t")
    rounds.finalize_round(r1, by="test")
    with pytest.raises(ServiceError, match="reopen it"):
        substitutions.replace_substitute(sub, right, Signed("director", "late"))
    assert r1.seats.get(position="N").player == sub_player


# --- a player who left does not come back in the same round ------------------------------------


def left_and_replaced(make_tournament):
    """Round 1 at two tables: Dan (N at table 1) left after hand 1; Wes sat from hand 2
    and played it."""
    t, r1, m = running(make_tournament, tables=2, target=10)
    dan = r1.seats.get(table=1, position="N").player
    play.record_hand(m, made("N", 3), client_key="h1", by="t")
    wes = register_player(t, "Wes Waiting", "A", by="desk", checked_in=True)
    sub = substitute(m, "N", 2, wes, Signed("director", "a phone call"))
    play.record_hand(m, made("E", 3), client_key="h2", by="t")
    return t, r1, m, dan, sub


def test_a_player_who_left_a_match_is_neither_offered_nor_taken_back_in_the_same_round(
    make_tournament,
):
    t, r1, m, dan, sub = left_and_replaced(make_tournament)
    other = r1.matches.select_related("round__tournament").get(table=2)
    play.set_first_dealer(other, Seat.W, by="test")
    assert dan not in substitutes_for(m) and dan not in substitutes_for(other)
    before = snapshot(m)
    refusal = (
        f"{dan.name} left seat N at table 1 from hand 2 of Round 1: a player who left a "
        "match cannot come back in the same round."
    )
    for back in (
        lambda: substitute(m, "N", 3, dan, Signed("director")),  # his own seat again
        lambda: substitute(other, "N", 1, dan, Signed("director")),  # another table
        lambda: substitutions.replace_substitute(sub, dan, Signed("director", "he is back")),
    ):
        with pytest.raises(ServiceError) as refused:
            back()
        assert refused.value.message == refusal
        assert snapshot(m) == before


# --- on the director's table page -------------------------------------------------------------


def test_the_director_corrects_a_substitution_on_the_table_page(director_client, make_tournament):
    t, r1, m = running(make_tournament)
    wrong = register_player(t, "Wrong Wanda", "B", by="desk", checked_in=True)
    right = register_player(t, "Right Rita", "B", by="desk", checked_in=True)
    sub = substitute(m, "W", 1, wrong, Signed("director"))
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert "Correct this substitution" in page and "Undo the substitution" in page
    m.refresh_from_db()
    fix = url("table_substitution_correct", t.slug, 1, 1, sub.pk)
    # Refused, nothing changed, the reason said: no reason given; a stale page.
    before = snapshot(m)
    response = director_client.post(
        fix, {"action": "replace", "player": right.pk, "version": m.version}
    )
    assert response.status_code == 422
    assert "Give a reason for the correction" in response.content.decode()
    response = director_client.post(
        fix, {"action": "replace", "player": right.pk, "reason": "x", "version": m.version - 1}
    )
    assert response.status_code == 409
    assert "changed since this page was shown" in response.content.decode()
    response = director_client.post(fix, {"action": "swap", "reason": "x"})
    assert response.status_code == 422
    assert snapshot(m) == before
    response = director_client.post(
        fix,
        {"action": "replace", "player": right.pk, "reason": "wrong name", "version": m.version},
    )
    assert response.status_code == 302
    assert r1.seats.get(position="W").player == right
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert_in_html("<strong>Right Rita</strong>", page)
    m.refresh_from_db()
    response = director_client.post(
        fix, {"action": "undo", "reason": "nobody came", "version": m.version}
    )
    assert response.status_code == 302
    assert not Substitution.objects.exists()
    assert Round.objects.get(pk=r1.pk).seats.get(position="W").player == sub.player_out


def test_the_table_page_refuses_a_player_who_left_with_422_and_does_not_list_him(
    director_client, make_tournament
):
    t, r1, m, dan, sub = left_and_replaced(make_tournament)
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert "Wes Waiting" in page and f"{dan.name} (A, waiting)" not in page
    m.refresh_from_db()
    before = snapshot(m)
    response = director_client.post(
        url("table_substitute", t.slug, 1, 2),
        {"position": "N", "player": dan.pk, "from_hand": "1", "reason": "back"},
    )
    assert response.status_code == 422
    assert "a player who left a match cannot come back in the same round" in (
        response.content.decode()
    )
    assert snapshot(m) == before


# --- round 1: who sits out is the director's choice --------------------------------------------


def uneven(make_tournament):
    t = make_tournament(2)
    extra = [register_player(t, f"Extra {n}", "A", by="desk", checked_in=True) for n in (1, 2)]
    return t, extra


def test_the_lot_proposes_who_sits_out_round_one_and_drawing_it_seats_exactly_that(
    make_tournament,
):
    t, _ = uneven(make_tournament)
    proposal = sit_out_proposal(t, seed=7)
    assert proposal.remedy.sit_out_a == 2 and set(proposal.candidates) == {"A"}
    assert len(proposal.candidates["A"]) == 6 and len(proposal.proposed) == 2
    r1 = rounds.draw_first_round(t, by="test", seed=7, remedy="sit-out")
    assert set(SitOut.objects.filter(round=r1).values_list("player_id", flat=True)) == set(
        proposal.proposed
    )
    assert "drawn by lot" in Activity.objects.get(action="draw").text


def test_the_director_chooses_who_sits_out_round_one(make_tournament):
    t, extra = uneven(make_tournament)
    proposal = sit_out_proposal(t, seed=7)
    choice = {p.pk for p in proposal.candidates["A"] if p.pk not in proposal.proposed}
    choice = set(sorted(choice)[:2])
    r1 = rounds.draw_first_round(
        t, by="director", seed=7, remedy="sit-out", sit_out=choice, reason="they asked"
    )
    assert set(SitOut.objects.filter(round=r1).values_list("player_id", flat=True)) == choice
    seated = set(r1.seats.values_list("player_id", flat=True))
    assert not seated & choice and len(seated) == 8
    entry = Activity.objects.get(action="draw")
    assert "chosen by the director" in entry.text and entry.reason == "they asked"


def test_a_sit_out_choice_that_does_not_fit_is_refused_and_draws_nothing(make_tournament):
    t, extra = uneven(make_tournament)
    b_player = t.players.filter(division="B").first()
    house = add_house_player(t, "House Hugo", "A", by="director")
    a_ids = [p.pk for p in sit_out_proposal(t, seed=1).candidates["A"]]
    for choice, message in [
        ({a_ids[0]}, "Choose 2 A players and 0 B players"),
        (set(a_ids[:3]), "3 A players"),
        ({a_ids[0], b_player.pk}, "1 B player chosen"),
        ({a_ids[0], house.pk}, "not house players"),
        ({a_ids[0], 999999}, "Only checked-in"),
    ]:
        with pytest.raises(ServiceError, match=message):
            rounds.draw_first_round(t, by="d", seed=1, remedy="sit-out", sit_out=choice)
        assert not t.rounds.exists() and not SitOut.objects.exists()


def test_the_remedies_page_proposes_the_lot_and_takes_the_directors_choice(
    director_client, make_tournament
):
    t, extra = uneven(make_tournament)
    page = director_client.get(url("draw_remedy", t.slug)).content.decode()
    assert page.count('name="sit_out"') == 6 and page.count(" checked>") == 2
    assert "(drawn by lot)" in page and 'name="seed"' in page
    seed = DrawnLot.objects.get(tournament=t).seed
    bad = director_client.post(
        url("draw_remedy", t.slug),
        {"remedy": "sit-out", "seed": seed, "choose": "1", "sit_out": [extra[0].pk]},
    )
    assert bad.status_code == 422
    body = bad.content.decode()
    assert "Choose 2 A players and 0 B players to sit out round 1" in body
    assert body.count(" checked>") == 1  # the director's ticks are kept
    assert not t.rounds.exists()
    done = director_client.post(
        url("draw_remedy", t.slug),
        {
            "remedy": "sit-out",
            "seed": seed,
            "choose": "1",
            "sit_out": [p.pk for p in extra],
            "reason": "late",
        },
    )
    assert done.status_code == 302
    r1 = t.rounds.get()
    assert set(SitOut.objects.filter(round=r1).values_list("player_id", flat=True)) == {
        p.pk for p in extra
    }
    assert r1.seed == seed


# --- the closure proposal (§6 step 3) -----------------------------------------------------------


def test_the_preview_proposes_closing_the_table_whose_hole_waiting_players_cannot_fill(
    director_client, make_tournament
):
    from tests.test_attendance import finish

    t = make_tournament(4, preliminary_rounds=3, target=2)
    finish(rounds.draw_first_round(t, by="test", seed=11))
    rotation = {row.table: row.seats for row in plan_next_round(t).seating.tables}
    # Table 1 of the rotation loses an A and a B player, table 3 one A player; one A and
    # one B player arrive late: they fill table 1, and table 3's hole is the one left.
    leaving = [rotation[1][Seat.N], rotation[1][Seat.S], rotation[3][Seat.N]]
    for pk in leaving:
        set_withdrawn(t.players.get(pk=pk), True, by="director", reason="gone")
    register_player(t, "Late Lea", "A", by="desk", checked_in=True)
    register_player(t, "Late Leo", "B", by="desk", checked_in=True)
    plan = plan_next_round(t)
    assert plan.seating.closed == [3]
    page = director_client.get(url("seat_next", t.slug)).content.decode()
    assert text_by_id(page, "closed").startswith("Closing table 3 (numbers of the rotation)")
