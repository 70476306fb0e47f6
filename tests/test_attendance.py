"""docs/rules.md §6 in the services: withdrawals, late arrivals, house players, sit-outs,
substitutions, round-1 remedies, and the final's entry (§4)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.html import assert_in_html, text_by_id
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.lots import DrawnLot
from tournaments.core.models.rounds import Round, SitOut, Substitution
from tournaments.core.reads import queries
from tournaments.core.reads.players import attendance
from tournaments.core.reads.rounds import fingerprint, plan_next_round, remedies
from tournaments.core.reads.standings import final_entries, final_skipped, never_played, standings
from tournaments.core.services import ServiceError, closing, play, rounds
from tournaments.core.services.players import (
    add_house_player,
    register_player,
    retire_house_player,
    set_checked_in,
    set_withdrawn,
)
from tournaments.core.services.standings import break_tie, seed_final
from tournaments.core.services.substitutions import Signed, substitute
from tournaments.domain.hands import Hand, Outcome, Seat


def made(maker: str, tricks: int, alone: bool = False) -> Hand:
    return Hand(Outcome.PLAYED, maker=Seat(maker), alone=alone, maker_tricks=tricks)


def start(rnd: Round) -> Round:
    return rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=1))


def play_out(rnd: Round, maker: str = "N", *, skip: set[int] = frozenset()) -> None:
    """Every match of a running round: one march by ``maker`` (target 2) ends it."""
    for m in rnd.matches.select_related("round__tournament").order_by("table"):
        if m.table in skip:
            continue
        if not m.first_dealer:
            play.set_first_dealer(m, Seat.W, by="test")
        if not m.is_over:
            play.record_hand(m, made(maker, 5), client_key=f"k{rnd.pk}-{m.table}-x", by="t")


def finish(rnd: Round, maker: str = "N") -> Round:
    rnd.refresh_from_db()
    if rnd.status == Round.Status.SEATED:
        start(rnd)
    play_out(rnd, maker)
    for m in rnd.matches.all():
        closing.confirm_match(m, agree=True, by="t")
    return rounds.finalize_round(rnd, by="test")


def seated(rnd: Round) -> set[int]:
    return set(rnd.seats.values_list("player_id", flat=True))


@pytest.fixture
def event(make_tournament):
    t = make_tournament(3, preliminary_rounds=5, target=2)
    r1 = rounds.draw_first_round(t, by="test", seed=11)
    return t, r1


def test_a_player_withdrawn_during_round_3_is_never_seated_again(event):
    t, r1 = event
    finish(r1)
    r2 = rounds.seat_next_round(t, by="test")
    finish(r2)
    r3 = start(rounds.seat_next_round(t, by="test"))
    gone = r3.seats.get(table=2, position="N").player
    late = register_player(t, "Late Lou", gone.division, by="desk", checked_in=True)
    set_withdrawn(gone, True, by="director", reason="went home")
    gone.refresh_from_db()
    assert (gone.withdrawn, gone.withdrawn_after_round) == (True, 3)
    finish(r3)
    plan = plan_next_round(t)
    assert [(c.into, c.out, c.kind) for c in plan.seating.changes] == [
        (late.pk, gone.pk, "waiting")
    ]
    r4 = rounds.seat_next_round(t, by="test")
    assert gone.pk not in seated(r4) and late.pk in seated(r4)
    finish(r4)
    r5 = rounds.seat_next_round(t, by="test")
    assert gone.pk not in seated(r5)
    (log,) = [
        a for a in Activity.objects.filter(tournament=t, action="seat") if "Round 4" in a.text
    ]
    assert "Late Lou" in log.text and "[waiting]" in log.text
    assert Activity.objects.filter(action="withdraw", reason="went home").exists()


def test_withdrawing_twice_is_refused_and_changes_nothing(event):
    t, _ = event
    p = Player.objects.filter(tournament=t).first()
    set_withdrawn(p, True, by="director")
    before = Activity.objects.count()
    with pytest.raises(ServiceError, match="already withdrawn"):
        set_withdrawn(Player.objects.get(pk=p.pk), True, by="director")
    assert Activity.objects.count() == before


def test_withdrawing_from_a_seated_round_that_has_not_started_discards_its_seating(event):
    t, r1 = event
    finish(r1)
    r2 = rounds.seat_next_round(t, by="test")
    p = r2.seats.first().player
    result = set_withdrawn(p, True, by="director")
    assert result.notes and not Round.objects.filter(pk=r2.pk).exists()
    # Seated again: the hole cannot be filled, so a table closes (proposal shown).
    plan = plan_next_round(t)
    assert plan.seating.closed == plan.proposed_close and len(plan.seating.closed) == 1
    r2 = rounds.seat_next_round(t, by="test")
    assert p.pk not in seated(r2) and r2.matches.count() == 2


def test_a_late_arrival_waits_and_is_seated_from_the_next_round_seated(event):
    t, r1 = event
    start(r1)
    late = register_player(t, "Late Lee", "A", by="desk")
    set_checked_in(t, [late.pk], True, by="desk")
    assert attendance(t)[late.pk] == "waiting"
    finish(r1)
    r2 = rounds.seat_next_round(t, by="test")
    # No hole: the late player takes a mover's seat and that mover sits out (step 5).
    assert late.pk in seated(r2)
    outs = list(SitOut.objects.filter(round=r2).values_list("player_id", flat=True))
    assert len(outs) == 1 and attendance(t)[outs[0]] == "sat_out"
    mover = Player.objects.get(pk=outs[0])
    assert mover.division == "A"


def test_a_house_player_fills_a_hole_and_is_never_ranked(event):
    t, r1 = event
    start(r1)
    gone = r1.seats.get(table=1, position="S").player
    set_withdrawn(gone, True, by="director")
    house = add_house_player(t, "Volunteer Val", "A", by="director")
    finish(r1)
    r2 = rounds.seat_next_round(t, by="test")
    assert house.pk in seated(r2)
    finish(r2)
    ranked = {row.player.pk for rows in standings(t).values() for row in rows}
    assert house.pk not in ranked and gone.pk in ranked
    retire_house_player(Player.objects.get(pk=house.pk), by="director")
    plan = plan_next_round(t)
    assert house.pk not in {p for tb in plan.seating.tables for p in tb.seats.values()}


def test_the_chosen_tables_close_and_closing_every_table_is_refused(event):
    t, r1 = event
    start(r1)
    for table in (1, 2):
        set_withdrawn(r1.seats.get(table=table, position="E").player, True, by="director")
    finish(r1)
    plan = plan_next_round(t)
    assert len(plan.proposed_close) == 1
    with pytest.raises(ServiceError, match="Closing every table"):
        plan_next_round(t, close=[1, 2, 3])
    with pytest.raises(ServiceError, match="would stay empty"):
        rounds.seat_next_round(t, by="test", close=[])
    assert t.rounds.count() == 1
    r2 = rounds.seat_next_round(t, by="test", close=[1])
    assert sorted(r2.matches.values_list("table", flat=True)) == [1, 2]


def test_a_stale_preview_is_refused_when_the_room_changed(event):
    t, r1 = event
    finish(r1)
    stamp = fingerprint(plan_next_round(t))
    register_player(t, "Newcomer", "B", by="desk", checked_in=True)
    with pytest.raises(ServiceError, match="changed since the preview"):
        rounds.seat_next_round(t, by="test", expect=stamp)
    assert t.rounds.count() == 1


def test_sit_outs_score_the_average_and_standings_show_played_and_sit_outs(make_tournament):
    t = make_tournament(2, preliminary_rounds=3, target=2)
    extra = register_player(t, "Extra Ed", "A", by="desk", checked_in=True)
    never = register_player(t, "Never Nell", "B", by="desk")
    offered = {r.kind: r for r in remedies(t)}
    assert offered["sit-out"].sit_out_a == 1
    r1 = rounds.draw_first_round(t, by="test", seed=5, remedy="sit-out")
    out1 = SitOut.objects.get(round=r1).player
    finish(r1)
    r2 = rounds.seat_next_round(t, by="test")
    assert out1.pk in seated(r2)  # first in line: takes a mover's seat
    out2 = SitOut.objects.get(round=r2).player
    assert out2.pk != out1.pk
    finish(r2)
    table = standings(t)
    rows = {row.player.pk: row for row in table["A"]}
    r_out2 = rows[out2.pk]
    assert (r_out2.played, r_out2.sit_outs) == (1, 1)
    r1_points = r1.seats.get(player=out2).points
    assert r_out2.by_round[2] == r1_points  # the average of one match
    assert r_out2.record.total == 2 * r1_points
    assert never.pk not in {row.player.pk for rows in table.values() for row in rows}
    assert never in never_played(t)
    assert extra.pk in rows or SitOut.objects.filter(player=extra).exists()


def test_a_house_remedy_adds_house_players_for_round_one(make_tournament):
    t = make_tournament(2)
    register_player(t, "Odd One", "B", by="desk", checked_in=True)
    with pytest.raises(ServiceError, match="Cannot seat"):
        rounds.draw_first_round(t, by="test", seed=1)
    rnd = rounds.draw_first_round(t, by="test", seed=1, remedy="house")
    house = Player.objects.filter(tournament=t, house=True)
    assert rnd.matches.count() == 3
    assert sorted(house.values_list("division", flat=True)) == ["A", "A", "B"]
    assert set(house.values_list("pk", flat=True)) <= seated(rnd)


def test_a_substitute_takes_the_seat_from_hand_h_and_points_follow_the_hands(make_tournament):
    t = make_tournament(1, target=5)
    r1 = start(rounds.draw_first_round(t, by="test", seed=2))
    m = r1.matches.select_related("round__tournament").get()
    play.set_first_dealer(m, Seat.W, by="test")
    out = r1.seats.get(position="N").player
    play.record_hand(m, made("N", 5), client_key="h1", by="t")  # NS +2, hand 1
    play.record_hand(m, made("E", 3), client_key="h2", by="t")  # EW +1, hand 2
    sub = register_player(t, "Sub Sam", "A", by="desk", checked_in=True)
    set_withdrawn(out, True, by="director", reason="ill")
    substitute(m, "N", 3, sub, Signed("director", "ill"))
    assert r1.seats.get(position="N").player == sub
    play.record_hand(m, made("N", 5, alone=True), client_key="h3", by="t")  # NS +4 -> 6
    m.refresh_from_db()
    assert m.is_over and m.winner == "NS"
    holder = r1.seats.get(position="N")
    partner = r1.seats.get(position="S")
    row = Substitution.objects.get()
    assert (row.out_team_score, row.out_individual) == (2, 0)
    assert holder.team_score == 4 and holder.individual == 1 and holder.won
    assert holder.points == 4 + holder.bonus + 1
    assert partner.points == 6 + partner.bonus
    closing.confirm_match(m, agree=True, by="t")
    rounds.finalize_round(r1, by="test")
    rows = {row.player.pk: row for row in standings(t)["A"]}
    assert rows[out.pk].played == 1 and rows[out.pk].record.total == 2
    assert rows[out.pk].record.wins == 0
    assert rows[sub.pk].record.total == holder.points and rows[sub.pk].record.wins == 1


def test_bad_substitutions_are_refused_with_a_message(make_tournament):
    t = make_tournament(2, target=2)
    r1 = start(rounds.draw_first_round(t, by="test", seed=2))
    m1 = r1.matches.select_related("round__tournament").get(table=1)
    other = r1.seats.get(table=2, position="N").player
    with pytest.raises(ServiceError, match="already seated at table 2"):
        substitute(m1, "N", 1, other, Signed("director"))
    b_player = register_player(t, "Bea", "B", by="desk", checked_in=True)
    with pytest.raises(ServiceError, match="division A seat"):
        substitute(m1, "N", 1, b_player, Signed("director"))
    play_out(r1)
    with pytest.raises(ServiceError, match="is over"):
        substitute(m1, "S", 2, b_player, Signed("director"))
    assert not Substitution.objects.exists()


def test_the_final_skips_a_withdrawn_leader_and_says_why(make_tournament):
    t = make_tournament(2, preliminary_rounds=1, target=2)
    r1 = rounds.draw_first_round(t, by="test", seed=4)
    finish(r1)
    leader = standings(t)["A"][0].player
    set_withdrawn(leader, True, by="director")
    entries = final_entries(t)
    assert leader not in entries["A"].finalists
    assert entries["A"].skipped[0].player == leader
    assert entries["A"].skipped[0].why == "withdrawn after round 1"
    final = seed_final(t, by="director")
    assert leader.pk not in seated(final)
    assert "Skipped" in Activity.objects.filter(action="final").first().text


def seeded_without_the_leader(make_tournament) -> tuple[Tournament, Player, Round]:
    """A one-round event whose division A leader withdrew: the final is seated without her."""
    t = make_tournament(2, preliminary_rounds=1, target=2)
    finish(rounds.draw_first_round(t, by="test", seed=4))
    leader = standings(t)["A"][0].player
    set_withdrawn(leader, True, by="director")
    return t, leader, seed_final(t, by="director")


def test_a_seated_finalist_cannot_be_withdrawn_and_the_refusal_says_what_to_do(make_tournament):
    t, _leader, final = seeded_without_the_leader(make_tournament)
    partner = final.seats.get(position="S").player
    # Nothing played yet: the remedy is to seat the final again without them.
    with pytest.raises(ServiceError, match="reopen round 1 .*seed the final again"):
        set_withdrawn(partner, True, by="director", reason="feels ill")
    game = final.matches.get(game=1)
    play.set_first_dealer(game, Seat.W, by="test")
    play.record_hand(game, made("N", 3), client_key="final-hand-1", by="t")
    with pytest.raises(ServiceError, match="which has begun.*overridden"):
        set_withdrawn(partner, True, by="director", reason="feels ill")
    partner.refresh_from_db()
    assert not partner.withdrawn and partner.withdrawn_after_round is None
    assert Activity.objects.filter(tournament=t, action="withdraw").count() == 1  # the leader's


def test_who_plays_the_final_and_why_stays_what_the_seeding_recorded(make_tournament):
    t, leader, final = seeded_without_the_leader(make_tournament)
    a1 = final.seats.get(position="N").player
    set_withdrawn(leader, False, by="director", reason="withdrawn by mistake")
    why = {f.row.player: f.why for f in queries.final_view(t).finalists}  # the console
    assert f"({leader.name}, withdrawn after round 1: cannot enter the final)" in why[a1]
    assert [(s.player, s.division, s.after) for s in final_skipped(t)] == [(leader, "A", 1)]
    # A player withdrawn after the seeding is no reason for anyone's seat.
    outside = next(row.player for row in standings(t)["B"] if row.player.pk not in seated(final))
    set_withdrawn(outside, True, by="director", reason="went home")
    assert [s.player for s in final_skipped(t)] == [leader]
    assert all(outside.name not in text for text in why.values())


def test_a_house_player_never_enters_the_final(make_tournament):
    t = make_tournament(1, preliminary_rounds=1, target=2)
    register_player(t, "Odd", "A", by="desk", checked_in=True)
    r1 = rounds.draw_first_round(t, by="test", seed=4, remedy="house")
    finish(r1)
    final = seed_final(t, by="director")
    assert not Player.objects.filter(pk__in=seated(final), house=True).exists()


def test_a_shared_rank_without_lot_must_be_broken_before_the_final(make_tournament):
    # Fails before §4's change: the final was seeded from the tie by name order.
    t = make_tournament(2, preliminary_rounds=1, target=2)
    Tournament.objects.filter(pk=t.pk).update(tiebreaks="total,wins,margin")
    t.refresh_from_db()
    r1 = rounds.draw_first_round(t, by="test", seed=4)
    finish(r1)
    a_rows = standings(t)["A"]
    assert [row.rank for row in a_rows] == [1, 1, 3, 3]
    assert final_entries(t)["A"].tied == []
    # Two winners share rank 1 and two losers rank 3: make the cut fall in a tie.
    set_withdrawn(a_rows[0].player, True, by="director")
    entry = final_entries(t)["A"]
    assert len(entry.tied) == 2
    with pytest.raises(ServiceError, match="Break the tie first"):
        seed_final(t, by="director")
    assert not t.rounds.filter(kind="final").exists()
    with pytest.raises(ServiceError, match="Say why"):
        break_tie(t, "A", [r.player.pk for r in entry.tied], reason=" ", by="d")
    order = [entry.tied[1].player.pk, entry.tied[0].player.pk]
    break_tie(t, "A", order, reason="coin toss at the desk", by="director")
    entry = final_entries(t)["A"]
    assert entry.tie_break is not None and entry.finalists[1].pk == order[0]
    final = seed_final(t, by="director")
    assert order[0] in seated(final) and order[1] not in seated(final)


# --- the director's pages ------------------------------------------------------------

from django.urls import reverse  # noqa: E402


def url(name: str, *args: object) -> str:
    return reverse(f"director:{name}", args=args)


def test_seat_next_previews_a_hole_and_seats_only_on_confirm(director_client, event):
    t, r1 = event
    start(r1)
    gone = r1.seats.get(table=1, position="W").player
    set_withdrawn(gone, True, by="director")
    late = register_player(t, "Late Liz", gone.division, by="desk", checked_in=True)
    finish(r1)
    response = director_client.post(url("seat_next", t.slug))
    assert response.status_code == 302 and response.url == url("seat_next", t.slug)
    assert t.rounds.count() == 1  # nothing seated before the confirm
    page = director_client.get(url("seat_next", t.slug)).content.decode()
    assert "1 hole" in page and gone.name in page
    assert_in_html("<mark>Late Liz</mark>", page)
    assert "waiting player fills a hole" in page
    stamp = fingerprint(plan_next_round(t))
    response = director_client.post(
        url("seat_next", t.slug), {"confirm": "1", "fingerprint": stamp, "close": ""}
    )
    assert response.status_code == 302
    assert late.pk in seated(t.rounds.get(number=2))


def test_reloading_the_next_rounds_preview_shows_the_same_lot(director_client, event):
    """Two late players for one hole: the recorded lot picks who sits; reloads (and the
    confirm) keep that pick, drawn from the event's stored seed, never a new one."""
    import re

    t, r1 = event
    start(r1)
    gone = r1.seats.get(table=1, position="W").player
    set_withdrawn(gone, True, by="director")
    late = [
        register_player(t, f"Late {n}", gone.division, by="desk", checked_in=True)
        for n in ("Liz", "Lou")
    ]
    finish(r1)
    director_client.post(url("seat_next", t.slug))

    def shown() -> tuple[str, str]:
        page = director_client.get(url("seat_next", t.slug)).content.decode()
        stamp = re.search(r'name="fingerprint" value="([^"]+)"', page)
        assert stamp is not None
        body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
        return stamp.group(1), body.split("<main", 1)[1]

    first = shown()
    assert all(shown() == first for _ in range(3))
    response = director_client.post(
        url("seat_next", t.slug), {"confirm": "1", "fingerprint": first[0], "close": ""}
    )
    assert response.status_code == 302
    # The round seated is the one previewed: the confirm checked its fingerprint.
    assert {p.pk for p in late} & seated(t.rounds.get(number=2))


def test_closing_every_table_in_the_preview_is_refused_with_422(director_client, event):
    t, r1 = event
    start(r1)
    set_withdrawn(r1.seats.get(table=1, position="N").player, True, by="director")
    finish(r1)
    page = director_client.get(url("seat_next", t.slug))
    assert "Closing table" in page.content.decode()
    response = director_client.post(
        url("seat_next", t.slug), {"confirm": "1", "fingerprint": "x", "close": "1 2 3"}
    )
    assert response.status_code == 422
    assert "Closing every table" in response.content.decode()
    assert t.rounds.count() == 1


def test_uneven_counts_lead_to_the_remedies_page(director_client, make_tournament):
    t = make_tournament(2)
    register_player(t, "Odd Otto", "A", by="desk", checked_in=True)
    response = director_client.post(url("draw", t.slug))
    assert response.url == url("draw_remedy", t.slug)
    page = director_client.get(url("draw_remedy", t.slug)).content.decode()
    assert "1 A player sits out round 1" in page and "house player" in page
    seed = DrawnLot.objects.get(tournament=t).seed  # drawn when the page was first shown
    response = director_client.post(url("draw_remedy", t.slug), {"remedy": "sit-out", "seed": seed})
    assert response.status_code == 302
    assert SitOut.objects.filter(round__tournament=t).count() == 1


def test_the_remedies_page_reads_whole_in_french_and_names_the_house_players_in_french(
    director_client, make_tournament
):
    """Walked at the hall in French: each remedy's sentence was English ("2 tables; 2 A
    players and 1 B player sit out round 1."), the sit-out setting read "average", and a
    French event's house players were named "House B1"."""
    t = make_tournament(2)
    t.language = "fr"
    t.save(update_fields=["language"])
    register_player(t, "Odile Ouellet", "A", by="desk", checked_in=True)
    director_client.cookies["django_language"] = "fr"
    page = director_client.get(url("draw_remedy", t.slug)).content.decode()
    assert "2 tables; 1 joueur A est au repos à la ronde 1." in page
    assert "3 tables avec 1 réserviste en division A et 2 réservistes en division B." in page
    assert "(la moyenne)" in page and "«\xa0Réserviste A1\xa0», «\xa0Réserviste B1\xa0»" in page
    for english in ("sit out", "house player", "average", "House"):
        assert english not in page, english
    seed = DrawnLot.objects.get(tournament=t).seed
    response = director_client.post(url("draw_remedy", t.slug), {"remedy": "house", "seed": seed})
    assert response.status_code == 302
    names = Player.objects.filter(tournament=t, house=True).values_list("name", flat=True)
    assert sorted(names) == ["Réserviste A1", "Réserviste B1", "Réserviste B2"]


def test_the_director_substitutes_from_the_table_page(director_client, make_tournament):
    t = make_tournament(1, target=5)
    r1 = start(rounds.draw_first_round(t, by="test", seed=2))
    m = r1.matches.get()
    sub = register_player(t, "Sub Sal", "B", by="desk", checked_in=True)
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert "Substitute a player" in page and "Sub Sal (B, waiting)" in page
    out = r1.seats.get(position="W").player
    response = director_client.post(
        url("player_withdraw", t.slug, out.pk), {"withdrawn": "1", "reason": "ill"}
    )
    assert response.url == url("table", t.slug, 1, 1)  # the substitution is offered
    response = director_client.post(
        url("table_substitute", t.slug, 1, 1),
        {"position": "W", "player": sub.pk, "from_hand": "1", "reason": "ill"},
    )
    assert response.status_code == 302
    assert r1.seats.get(position="W").player == sub
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    made = Substitution.objects.get(match=m)
    assert made.player_out == out
    assert f"Sub Sal for {out.name} from hand 1" in text_by_id(page, f"substitution-{made.pk}")


def test_a_substitution_for_a_player_who_went_home_withdraws_her_in_the_same_step(
    director_client, make_tournament
):
    """Substituted from the table page with "has left the event" ticked, she is withdrawn
    after this round and the next seating leaves her out; unticked, she only left this
    match and waits for the next round. Ticked for a player already withdrawn (the
    withdrawal led to the table page), the substitution is made all the same."""
    t = make_tournament(1, target=5)
    r1 = start(rounds.draw_first_round(t, by="test", seed=2))
    sal = register_player(t, "Sub Sal", "B", by="desk", checked_in=True)
    ann = register_player(t, "Sub Ann", "A", by="desk", checked_in=True)
    west, north = (r1.seats.get(position=p).player for p in "WN")
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert 'id="sub-withdraw"' in page
    form = {"position": "W", "player": sal.pk, "from_hand": "1", "reason": "went home ill"}
    response = director_client.post(
        url("table_substitute", t.slug, 1, 1), {**form, "withdraw": "1"}
    )
    assert response.status_code == 302
    west.refresh_from_db()
    assert west.withdrawn and west.withdrawn_after_round == 1
    form = {"position": "N", "player": ann.pk, "from_hand": "1", "reason": "a phone call"}
    assert director_client.post(url("table_substitute", t.slug, 1, 1), form).status_code == 302
    north.refresh_from_db()
    assert not north.withdrawn
    east = r1.seats.get(position="E").player
    ed = register_player(t, "Sub Ed", "A", by="desk", checked_in=True)
    withdrawn = {"withdrawn": "1", "reason": "ill"}
    assert director_client.post(url("player_withdraw", t.slug, east.pk), withdrawn).status_code
    form = {"position": "E", "player": ed.pk, "from_hand": "1", "reason": "ill", "withdraw": "1"}
    assert director_client.post(url("table_substitute", t.slug, 1, 1), form).status_code == 302
    assert Substitution.objects.filter(match__round=r1).count() == 3


def test_house_players_are_added_on_the_players_page_and_marked(director_client, event):
    t, _ = event
    response = director_client.post(
        url("house_add", t.slug), {"house-name": "Staff Stan", "house-division": "B"}
    )
    assert response.status_code == 302
    page = director_client.get(url("players", t.slug) + "?show=house").content.decode()
    assert "Staff Stan" in page
    assert_in_html('<span class="pill final">house</span>', page)
    assert "retire" in page


def test_a_refused_substitution_shows_the_table_page_with_422(director_client, make_tournament):
    t = make_tournament(2)
    r1 = start(rounds.draw_first_round(t, by="test", seed=2))
    other = r1.seats.get(table=2, position="N").player
    response = director_client.post(
        url("table_substitute", t.slug, 1, 1),
        {"position": "N", "player": other.pk, "from_hand": "1"},
    )
    assert response.status_code == 422
    assert "already seated at table 2" in response.content.decode()
    assert not Substitution.objects.exists()


def test_the_director_breaks_a_shared_rank_on_the_final_page(director_client, make_tournament):
    t = make_tournament(2, preliminary_rounds=1, target=2)
    Tournament.objects.filter(pk=t.pk).update(tiebreaks="total,margin,wins")
    t.refresh_from_db()
    r1 = rounds.draw_first_round(t, by="test", seed=4)
    finish(r1)
    set_withdrawn(standings(t)["A"][0].player, True, by="director")
    tied = final_entries(t)["A"].tied
    assert len(tied) == 2
    page = director_client.get(url("final", t.slug)).content.decode()
    assert "a shared rank decides who enters" in page and 'id="tie-A"' in page
    places = {f"place-{row.player.pk}": str(i) for i, row in enumerate(reversed(tied), 1)}
    refused = director_client.post(url("final_tiebreak", t.slug), {"division": "A", **places})
    assert refused.status_code == 422 and "Say why" in refused.content.decode()
    response = director_client.post(
        url("final_tiebreak", t.slug), {"division": "A", "reason": "coin toss", **places}
    )
    assert response.status_code == 302
    entry = final_entries(t)["A"]
    assert entry.tied == [] and entry.finalists[1] == tied[-1].player
    assert "coin toss" in director_client.get(url("final", t.slug)).content.decode()
