"""Players' phones: the event page, my card, my ledger, standings, the projector, and
the versions that let 2,000 phones poll them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.html import assert_in_html
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import Person
from tournaments.core.models.play import Match, TableLink
from tournaments.core.models.rounds import Round, Seating, SitOut
from tournaments.core.phones import boards, reads
from tournaments.core.phones.ledger import ledger
from tournaments.core.reads import standings
from tournaments.core.services import ServiceError, closing, rounds
from tournaments.core.services.players import set_withdrawn
from tournaments.core.services.standings import seed_final

pytestmark = pytest.mark.django_db
SHOTS = Path("/tmp/phone-shots")


def url(name: str, *args: object) -> str:
    return reverse(f"public:{name}", args=args)


def fake_results(rnd: Round) -> None:
    """Every match of a seated round over (NS 10-4 at odd tables, EW 10-6 at even ones),
    written in bulk: these tests read results, they do not score hands."""
    if rnd.status == Round.Status.SEATED:
        rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=30))
    matches = list(rnd.matches.all())
    for m in matches:
        ns_wins = m.table % 2 == 1
        m.score_ns, m.score_ew = (10, 4) if ns_wins else (6, 10)
        m.bonus_ns, m.bonus_ew = (1, 0) if ns_wins else (0, 1)
        m.hands_played = 12
        m.status = Match.Status.CONFIRMED
        m.winner = m.recorded_winner = "NS" if ns_wins else "EW"
    Match.objects.bulk_update(
        matches,
        ["score_ns", "score_ew", "bonus_ns", "bonus_ew", "hands_played", "status", "winner"],
    )
    seats = list(Seating.objects.filter(round=rnd))
    for s in seats:
        ns_wins = s.table % 2 == 1
        ns = s.position in ("N", "S")
        won = ns == ns_wins
        us, them = ((10, 4) if ns_wins else (6, 10)) if ns else ((4, 10) if ns_wins else (10, 6))
        s.team_score, s.bonus, s.individual = us, 1 if won else 0, 0
        s.points, s.won, s.margin = us + s.bonus, won, us - them
    Seating.objects.bulk_update(
        seats, ["team_score", "bonus", "individual", "points", "won", "margin"]
    )
    rounds.finalize_round(rnd, by="test")


def event_after(make_tournament, tables: int, played: int, **rules: object) -> Tournament:
    """An event with ``played`` rounds over and the next one seated (not started)."""
    t = make_tournament(tables, **rules)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    for _ in range(played):
        fake_results(rnd)
        rnd = rounds.seat_next_round(t, by="test")
    t.refresh_from_db()
    return t


def player(t: Tournament, name: str) -> Player:
    return Player.objects.get(tournament=t, name=name)


# --- finding yourself ---------------------------------------------------------------------


def test_a_player_finds_themself_with_a_few_letters_whatever_the_accents_and_case(
    client, make_tournament
):
    t = make_tournament(1)
    Player.objects.filter(tournament=t, name="Player A001").update(name="Zoë Ölander")
    # Her full name is what public pages show: she chose it.
    Person.objects.filter(links__player__name="Zoë Ölander").update(public_full_name=True)
    for typed in ("zoe", "ZOË", "olan", "ölander zo"):
        page = client.get(url("event", t.slug), {"q": typed}).content.decode()
        assert "Zoë Ölander" in page, typed
    data = client.get(url("find", t.slug), {"q": "OLANDER"}).json()
    assert [p["name"] for p in data["players"]] == ["Zoë Ölander"]
    assert data["players"][0]["url"] == url("card", t.slug, player(t, "Zoë Ölander").pk)


def test_one_letter_is_not_enough_and_nobody_found_says_so(client, make_tournament):
    t = make_tournament(1)
    assert client.get(url("find", t.slug), {"q": "p"}).json() == {"players": []}
    page = client.get(url("event", t.slug), {"q": "xyzzy"}).content.decode()
    assert "Nobody of that name is registered" in page


@pytest.mark.parametrize("typed", ["a" * 61, "abc\x00def", "ab\u202ecd", "\x1b[31m"])
def test_odd_or_huge_searches_get_a_clear_400(client, make_tournament, typed):
    t = make_tournament(1)
    response = client.get(url("find", t.slug), {"q": typed})
    assert response.status_code == 400 and response.json()["error"]
    page = client.get(url("event", t.slug), {"q": typed})
    assert page.status_code == 400 and 'role="alert"' in page.content.decode()


def test_an_unknown_event_or_a_forged_player_is_a_404(client, make_tournament):
    t = make_tournament(1)
    other = make_tournament(1, name="Other Night")
    stranger = Player.objects.filter(tournament=other).first()
    assert client.get(url("event", "no-such-event")).status_code == 404
    assert client.get(url("card", t.slug, stranger.pk)).status_code == 404
    assert client.get(url("card", t.slug, 10**12)).status_code == 404
    assert client.get(url("ledger", t.slug, 0)).status_code == 404
    assert client.get(f"/e/{t.slug}/me/-3/").status_code == 404


def test_the_clock_offset_of_an_unknown_event_is_a_404_like_every_other_address(
    client, make_tournament
):
    t = make_tournament(1)
    assert client.get(url("now", t.slug)).status_code == 200
    for name in ("now", "event", "qr", "clock", "projector", "standings"):
        assert client.get(url(name, "no-such-event")).status_code == 404, name


# --- my card -----------------------------------------------------------------------------


def test_the_card_shows_table_seat_partner_opponents_in_seat_order(client, make_tournament):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    me = Seating.objects.filter(round=rnd, position="E").select_related("player").first()
    at = {s.position: s.player.name for s in Seating.objects.filter(round=rnd, table=me.table)}
    page = client.get(url("card", t.slug, me.player_id)).content.decode()
    assert f"Table {me.table}" in page and ">East<" in page
    assert_in_html(f"<dt>Partner</dt><dd>{at['W']}</dd>", page)
    assert f"{at['N']} &amp; {at['S']}" in page
    # A screen reader meets the chairs N, E, S, W whatever the layout.
    order = [page.index(f"pos-{p} ") for p in "NESW"]
    assert order == sorted(order)
    assert "role-you" in page and "role-partner" in page


def test_the_card_clock_is_the_call_instant_and_stays_put_while_running(client, make_tournament):
    t = make_tournament(1, round_minutes=20)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    started = timezone.now() - timedelta(minutes=5)
    rounds.start_round(rnd, by="test", now=started)
    p = Seating.objects.filter(round=rnd).first().player
    c1 = reads.card(t, p, timezone.now())
    c2 = reads.card(t, p, timezone.now() + timedelta(seconds=7))
    assert c1.clock.kind == "running" and c1.clock == c2.clock
    assert abs((c1.clock.call_at - (started + timedelta(minutes=20))).total_seconds()) < 0.001
    page = client.get(url("card_part", t.slug, p.pk)).content.decode()
    assert f'data-call-at="{int(c1.clock.call_at.timestamp() * 1000)}"' in page
    rounds.pause_round(rnd, by="test")
    paused = reads.card(t, p, timezone.now()).clock
    assert paused.kind == "paused" and 890 <= paused.remaining_seconds <= 900
    rounds.call_time(rnd, by="test")
    assert reads.card(t, p, timezone.now()).clock.kind == "called"


def test_the_card_shows_my_match_score_live(client, make_tournament):
    t = make_tournament(1)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    m = rnd.matches.get()
    Match.objects.filter(pk=m.pk).update(score_ns=6, score_ew=3, hands_played=5)
    north = Seating.objects.get(round=rnd, position="N").player
    east = Seating.objects.get(round=rnd, position="E").player
    assert (reads.card(t, north, timezone.now()).us, reads.card(t, north, timezone.now()).them) == (
        6,
        3,
    )
    page = client.get(url("card_part", t.slug, east.pk)).content.decode()
    assert "Us <strong>3</strong>" in page and "Them <strong>6</strong>" in page


def test_the_next_round_replaces_the_card_as_soon_as_it_is_seated(client, make_tournament):
    t = make_tournament(3)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    p = Seating.objects.filter(round=rnd, table=1, position="E").first().player
    first = client.get(url("card_part", t.slug, p.pk))
    assert 'data-round="1"' in first.content.decode()
    fake_results(rnd)
    rounds.seat_next_round(t, by="test")
    again = client.get(url("card_part", t.slug, p.pk), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and 'data-round="2"' in again.content.decode()
    new = Seating.objects.get(round__number=2, round__tournament=t, player=p)
    assert f'data-seat="{new.table}{new.position}"' in again.content.decode()


def test_a_phone_behind_the_new_seating_gets_the_new_seat_first_then_the_whole_card(
    client, make_tournament
):
    """At a round's turnover every phone asks at once; a phone whose card shows
    an earlier seat is answered with the new seat alone, from the version query, and not
    stored, so that its next ask gets the whole card."""
    t = make_tournament(3)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    p = Seating.objects.get(round=rnd, table=1, position="E").player
    first = client.get(url("card_part", t.slug, p.pk))
    fake_results(rnd)
    rounds.seat_next_round(t, by="test")
    new = Seating.objects.get(round__number=2, round__tournament=t, player=p)
    shown = "1:1E"
    with CaptureQueriesContext(connection) as ctx:
        seat = client.get(
            url("card_part", t.slug, p.pk),
            headers={"If-None-Match": first["ETag"], "X-Snowman-Seat": shown},
        )
    assert len(ctx.captured_queries) == 1
    page = seat.content.decode()
    assert seat.status_code == 200 and "ETag" not in seat
    assert seat["Cache-Control"] == "no-store"
    assert 'data-partial="1"' in page and 'data-round="2"' in page
    assert f'data-seat="{new.table}{new.position}"' in page
    assert f"Table {new.table}" in page and p.name in page
    assert "Partner" not in page and "data-clock" not in page
    # The phone now shows the new seat: the whole card, with its version.
    whole = client.get(
        url("card_part", t.slug, p.pk),
        headers={"X-Snowman-Seat": f"2:{new.table}{new.position}"},
    )
    assert whole.status_code == 200 and whole["ETag"] != first["ETag"]
    assert "data-partial" not in whole.content.decode()
    assert "Partner" in whole.content.decode()
    # A phone that holds the whole card is answered 304 whatever seat it names; one that
    # names no seat (an older script) gets the whole card.
    again = client.get(
        url("card_part", t.slug, p.pk),
        headers={"If-None-Match": whole["ETag"], "X-Snowman-Seat": shown},
    )
    assert again.status_code == 304
    plain = client.get(url("card_part", t.slug, p.pk), headers={"If-None-Match": first["ETag"]})
    assert plain.status_code == 200 and plain["ETag"] == whole["ETag"]


def test_a_phone_behind_a_round_the_player_sits_out_gets_the_whole_card_never_an_old_seat(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 1)
    player = sat_out_in_round_2(t)
    before = Seating.objects.get(round__tournament=t, round__number=1, player=player)
    for shown in (f"1:{before.table}{before.position}", "2:", "", "x:y", "9" * 5000 + ":1N"):
        answer = client.get(url("card_part", t.slug, player.pk), headers={"X-Snowman-Seat": shown})
        page = answer.content.decode()
        assert answer.status_code == 200 and "ETag" in answer, shown[:20]
        assert "data-partial" not in page and "You sit out round 2" in page


def test_the_new_seat_first_reads_in_the_readers_language(client, make_tournament):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    p = Seating.objects.get(round=rnd, table=2, position="S").player
    client.cookies["django_language"] = "fr"
    page = client.get(
        url("card_part", t.slug, p.pk), headers={"X-Snowman-Seat": ":"}
    ).content.decode()
    assert 'data-partial="1"' in page
    assert "Ronde 1" in page and "Table 2" in page and "Sud" in page
    assert "Round 1" not in page and "South" not in page


def test_a_changed_seating_marks_only_the_players_moved(client, make_tournament):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    a, b = (s.player for s in Seating.objects.filter(round=rnd, position="N").order_by("table"))
    rounds.swap_players(rnd, a, b, by="test", reason="friends")
    marked = {
        p.name
        for p in Player.objects.filter(tournament=t)
        if 'data-changed="1"' in client.get(url("card_part", t.slug, p.pk)).content.decode()
    }
    assert marked == {a.name, b.name}
    rounds.start_round(rnd, by="test")
    assert not reads.card(t, a, timezone.now()).changed  # once play starts the mark is spent


def test_a_player_without_a_seat_this_round_is_told_so(client, make_tournament):
    t = make_tournament(1)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    p = Player.objects.create(tournament=t, name="Late Larry", division="A", checked_in=True)
    # A sit-out is a SitOut row (§6); a player merely without a seat is told otherwise
    # (tests/test_hidden.py).
    SitOut.objects.create(round=rnd, player=p)
    page = client.get(url("card", t.slug, p.pk)).content.decode()
    assert "You sit out round 1" in page


# --- what the card and the ledger say of a round ---------------


def sat_out_in_round_2(t: Tournament) -> Player:
    """A player of round 2 becomes a sit-out of round 2 (a house player took the seat)."""
    seat = Seating.objects.filter(round__tournament=t, round__number=2, position="N").first()
    player = seat.player
    house = Player.objects.create(
        tournament=t, name="House Hal", division=player.division, house=True, checked_in=True
    )
    seat.player = house
    seat.save(update_fields=["player"])
    SitOut.objects.create(round=seat.round, player=player)
    return player


def test_the_ledger_running_total_counts_sit_out_points_and_ends_at_the_standings_total(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 3)
    p = sat_out_in_round_2(t)
    row = next(r for r in standings.standings(t)[p.division] if r.player.pk == p.pk)
    assert row.sit_outs == 1 and row.by_round[2] > 0
    book = ledger(t, p)
    out = next(line for line in book.lines if line.number == 2)
    assert out.sat_out and out.points == row.by_round[2]
    assert [line.running for line in book.lines if line.running is not None][-1] == book.total
    assert book.total == row.record.total
    page = client.get(url("ledger", t.slug, p.pk)).content.decode()
    assert f"Total {row.record.total} " in page
    assert "Sit-out points" in page


def test_a_registered_player_who_never_checked_in_is_told_to_go_to_the_desk(
    client, make_tournament
):
    t = make_tournament(1)
    p = Player.objects.create(tournament=t, name="Absent Abe", division="A")
    card = client.get(url("card", t.slug, p.pk)).content.decode()
    assert "You are not checked in yet: go to the desk before the draw" in card
    rounds.draw_first_round(t, by="test", seed=5)
    card = client.get(url("card", t.slug, p.pk)).content.decode()
    assert "You are not checked in. Go to the desk" in card
    assert "sit out" not in card and "first in line" not in card


def test_a_late_arrivals_rounds_before_arrival_read_not_here_and_only_sit_outs_read_sat_out(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 2)  # rounds 1-2 played, round 3 seated
    late = Player.objects.create(tournament=t, name="Late Lou", division="A", checked_in=True)
    card = client.get(url("card", t.slug, late.pk)).content.decode()
    assert "You checked in after round 3 was seated: you play from the next round" in card
    assert "sit out" not in card
    ledger = client.get(url("ledger", t.slug, late.pk)).content.decode()
    assert "Sat out" not in ledger
    assert ledger.count("Not here: not checked in when this round was seated") == 2
    assert "Checked in after this round was seated" in ledger
    # A real sit-out still reads "Sat out".
    sitter = sat_out_in_round_2(t)
    assert "Sat out" in client.get(url("ledger", t.slug, sitter.pk)).content.decode()


def test_the_ledger_says_a_seated_round_starts_soon_and_playing_now_only_once_its_clock_runs(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 1)  # round 2 seated, its clock not started
    seat = Seating.objects.filter(round__tournament=t, round__number=2).first()
    page = client.get(url("ledger", t.slug, seat.player.pk)).content.decode()
    assert "Playing now" not in page
    assert f"Seated at table {seat.table} {seat.position}: starts soon" in page
    rounds.start_round(seat.round, by="test")
    page = client.get(url("ledger", t.slug, seat.player.pk)).content.decode()
    assert "Playing now" in page and "starts soon" not in page


def test_a_player_substituted_out_keeps_the_points_of_their_hands_in_the_ledger(
    client, make_tournament
):
    from tournaments.core.services import play
    from tournaments.core.services.players import register_player
    from tournaments.core.services.substitutions import Signed, substitute
    from tournaments.domain.hands import Hand, Outcome, Seat

    t = make_tournament(1, target=5)
    r1 = rounds.draw_first_round(t, by="test", seed=2)
    rounds.start_round(r1, by="test")
    m = r1.matches.select_related("round__tournament").get()
    play.set_first_dealer(m, Seat.W, by="test")
    out = r1.seats.get(position="N").player
    play.record_hand(m, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), client_key="h1", by="t")
    sub = register_player(t, "Sub Sam", "A", by="desk", checked_in=True)
    substitute(m, "N", 2, sub, Signed("director", "ill"))
    play.record_hand(
        m, Hand(Outcome.PLAYED, maker=Seat.N, alone=True, maker_tricks=5), client_key="h2", by="t"
    )
    m.refresh_from_db()
    closing.confirm_match(m, agree=True, by="t")
    rounds.finalize_round(r1, by="test")
    book = ledger(t, player(t, out.name))
    line = book.lines[0]
    assert (line.state, line.left_from, line.points, line.running) == ("left", 2, 2, 2)
    assert book.total == 2
    page = client.get(url("ledger", t.slug, out.pk)).content.decode()
    assert "a substitute played from hand 2" in page and "Sat out" not in page
    # The substitute's ledger reads the match's score (NS 6–0), not their own team points
    # less the margin: walked at the hall, a substitute's line read "Match 1–-1 won".
    sam = ledger(t, player(t, "Sub Sam")).lines[0]
    assert (sam.us, sam.them, sam.won) == (6, 0, True)
    page = client.get(url("ledger", t.slug, sub.pk)).content.decode()
    assert "<dd>6–0 won</dd>" in page


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("North", "East", "South", "West", "You", "partner", "opponent", "withdrawn")),
        ("fr", ("Nord", "Est", "Sud", "Ouest", "Vous", "partenaire", "adversaire", "retrait")),
    ],
)
def test_each_chair_reads_its_seat_who_and_role_in_the_readers_language(
    client, make_tournament, lang, words
):
    north, east, south, west, you, partner, opponent, withdrawn = words
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    rounds.start_round(rnd, by="test", now=timezone.now())
    at = {s.position: s.player for s in Seating.objects.filter(round=rnd, table=1)}
    set_withdrawn(at["S"], True, by="test", reason="left")  # mid-round: still seated
    client.cookies["django_language"] = lang
    page = client.get(url("card_part", t.slug, at["E"].pk)).content.decode()
    chairs = [
        (north, at["N"].name, opponent),
        (east, you, ""),
        (south, at["S"].name, f"{opponent} · {withdrawn}"),
        (west, at["W"].name, partner),
    ]
    for (seat, who, role), position in zip(chairs, "NESW", strict=True):
        team = "NS" if position in "NS" else "EW"
        kind = {"E": "you", "W": "partner"}.get(position, "opponent")
        assert (
            f'<li class="chair pos-{position} team-{team} role-{kind}"><span class="pos">{seat}'
            f'</span> <span class="who">{who}</span> <span class="role">{role}</span></li>'
        ) in page


def test_a_withdrawn_player_is_marked_with_the_round(client, make_tournament):
    t = event_after(make_tournament, 2, 1)
    p = Seating.objects.filter(round__number=1, round__tournament=t).first().player
    set_withdrawn(p, True, by="test", reason="left")
    page = client.get(url("card", t.slug, p.pk)).content.decode()
    assert "Withdrawn after round 1" in page
    board = client.get(url("standings", t.slug), {"division": p.division}).content.decode()
    assert "withdrawn after round 1" in board


def replaced_mid_match(t: Tournament, *, withdrawn: bool) -> tuple[Player, Match]:
    """North of table 1 in the event's latest round (started here) leaves after hand 1,
    withdrawn first when asked (what the players page leads to); a late arrival sits
    from hand 2."""
    from tournaments.core.services import play
    from tournaments.core.services.players import register_player
    from tournaments.core.services.substitutions import Signed, substitute
    from tournaments.domain.hands import Hand, Outcome, Seat

    rnd = t.rounds.order_by("-number").first()
    rounds.start_round(rnd, by="test")
    m = rnd.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(m, Seat.W, by="test")
    dan = rnd.seats.get(table=1, position="N").player
    play.record_hand(m, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=3), client_key="h1", by="t")
    if withdrawn:
        set_withdrawn(dan, True, by="director", reason="ill")
    wes = register_player(t, "Wes Waiting", "A", by="desk", checked_in=True)
    substitute(m, "N", 2, wes, Signed("director", "ill"))
    dan.refresh_from_db()
    return dan, m


def test_a_player_replaced_mid_match_reads_on_his_card_that_he_left_his_table(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 2)
    dan, _ = replaced_mid_match(t, withdrawn=False)
    card = client.get(url("card", t.slug, dan.pk)).content.decode()
    assert (
        "Round 3: you left your match at table 1; a substitute took your seat from hand 2."
    ) in card
    assert "checked in after" not in card and "Withdrawn" not in card
    ledger = client.get(url("ledger", t.slug, dan.pk)).content.decode()
    assert "Left during the match: a substitute played from hand 2" in ledger


@pytest.mark.parametrize("played", [0, 2])
def test_a_player_withdrawn_then_replaced_mid_match_is_withdrawn_after_that_round_everywhere(
    client, make_tournament, played
):
    from tournaments.core.services import play
    from tournaments.domain.hands import Hand, Outcome, Seat

    t = event_after(make_tournament, 2, played, target=5)
    dan, m = replaced_mid_match(t, withdrawn=True)
    march = Hand(Outcome.PLAYED, maker=Seat.N, alone=True, maker_tricks=5)
    play.record_hand(m, march, client_key="h2", by="t")  # 5: the match is over
    m.refresh_from_db()
    closing.confirm_match(m, agree=True, by="t")
    r = played + 1
    # The director's pages, the sheets and the final read the stored field.
    assert dan.withdrawn_after_round == r
    card = client.get(url("card", t.slug, dan.pk)).content.decode()
    assert f"Withdrawn after round {r}" in card
    assert f"Round {r}: you left your match at table 1" in card
    ledger = client.get(url("ledger", t.slug, dan.pk)).content.decode()
    assert f"Withdrawn after round {r}" in ledger
    mark = f'{dan.name} <span class="mark withdrawn">withdrawn after round {r}</span>'
    board = client.get(url("standings", t.slug), {"division": "A"}).content.decode()
    assert mark in board
    assert mark in client.get(url("projector_standings", t.slug)).content.decode()


def test_a_player_withdrawn_after_sitting_out_is_withdrawn_after_the_round_he_sat_out(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 2)  # rounds 1-2 over, round 3 seated
    p = sat_out_in_round_2(t)
    set_withdrawn(p, True, by="test", reason="went home")
    p.refresh_from_db()
    # His ledger scores round 2's sit-out: he took part in round 2.
    assert p.withdrawn_after_round == 2  # the director's pages and the final read this
    mark = f'{p.name} <span class="mark withdrawn">withdrawn after round 2</span>'
    board = client.get(url("standings", t.slug), {"division": p.division}).content.decode()
    assert mark in board
    assert "Withdrawn after round 2" in client.get(url("card", t.slug, p.pk)).content.decode()


def test_a_withdrawn_player_who_never_played_is_marked_withdrawn_without_a_round(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 1)
    late = Player.objects.create(tournament=t, name="Late Lou", division="A", checked_in=True)
    set_withdrawn(late, True, by="test", reason="changed her mind")
    for name in ("card", "ledger"):
        page = client.get(url(name, t.slug, late.pk)).content.decode()
        assert '<p class="mark withdrawn">Withdrawn</p>' in page, name
        assert "after round" not in page, name


# --- the ledger ----------------------------------------------------------------------------


def test_the_ledger_lists_each_round_with_score_bonus_points_and_running_total(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 2)
    p = Seating.objects.get(round__number=1, round__tournament=t, table=1, position="N").player
    led = ledger(t, p)
    first = led.lines[0]
    assert (first.us, first.them, first.won, first.bonus, first.points) == (10, 4, True, 1, 11)
    assert first.running == 11 and led.lines[1].running == 11 + led.lines[1].points
    assert led.total == led.lines[1].running and led.rank is not None
    page = client.get(url("ledger", t.slug, p.pk)).content.decode()
    assert "Running total" in page and f"rank {led.rank} of 4 in division A" in page


# --- hidden means hidden -------------------------------------------------------------------


def as_shown(rows: list) -> list[tuple[str, str, int]]:
    """Standing rows as players see them: the shared rank ("=3"), equal players by name."""
    from tournaments.common.names import sort_key

    ordered = sorted(rows, key=lambda r: (r.standing.shared_rank, sort_key(r.player.name)))
    return [(r.shown_rank, r.player.name, r.record.total) for r in ordered]


def shown_rows(page: str) -> list[tuple[str, str, int]]:
    """(rank, name, total) of every standings row of a phone's or the projector's page."""
    import re

    return [
        (rank, name.strip(), int(total))
        for rank, name, total in re.findall(
            r"<tr[^>]*><td>(=?\d+)</td><(?:th scope=\"row\"|td)>([^<]*)"
            r"(?:<span[^>]*>[^<]*</span>)?</t[hd]><td class=\"num\">(-?\d+)</td>",
            page,
        )
    ]


def finish_table(rnd: Round, table: int) -> None:
    """One match of a running round over (NS 10-2, +2 bonus), the round still running."""
    Match.objects.filter(round=rnd, table=table).update(
        score_ns=10, score_ew=2, bonus_ns=2, hands_played=7, status="confirmed", winner="NS"
    )
    for s in Seating.objects.filter(round=rnd, table=table):
        ns = s.position in ("N", "S")
        s.team_score, s.bonus, s.individual = (10, 2, 0) if ns else (2, 0, 0)
        s.points, s.won, s.margin = s.team_score + s.bonus, ns, 8 if ns else -8
        s.save()


def public_answers(client, t: Tournament) -> dict[str, str]:
    p = Player.objects.filter(tournament=t).order_by("pk").first()
    return {
        name: client.get(path).content.decode(errors="replace")
        for name, path in {
            "event": url("event", t.slug),
            "event search": url("event", t.slug) + "?q=pla",
            "find": url("find", t.slug) + "?q=pla",
            "card": url("card", t.slug, p.pk),
            "card part": url("card_part", t.slug, p.pk),
            "ledger": url("ledger", t.slug, p.pk),
            "standings A": url("standings", t.slug) + "?division=A",
            "standings B": url("standings", t.slug) + "?division=B&q=pla",
            "projector": url("projector", t.slug),
            "projector body": url("projector_standings", t.slug),
            "clock": url("clock", t.slug),
            "now": url("now", t.slug),
            "qr": url("qr", t.slug),
        }.items()
    }


def test_standings_hide_on_every_public_endpoint_in_the_last_rounds(client, make_tournament):
    # Five rounds, the last two hidden: round 4 is seated and running, table 1 already over.
    t = event_after(make_tournament, 2, 3, hide_standings_last_rounds=2)
    r4 = t.rounds.get(number=4)
    rounds.start_round(r4, by="test")
    finish_table(r4, 1)
    answers = public_answers(client, t)
    # RULES.md §5: every reader shows the standings as they stood after round 3 (P - N),
    # marked, and no figure that counts round 4. (This test asserted no standings at all
    # while hidden, before §5 said what a hidden reader shows.)
    frozen = standings.standings(t, through=3)
    live = standings.standings(t)
    mover = Seating.objects.get(round=r4, table=1, position="N").player
    before = next(r for r in frozen[mover.division] if r.player.pk == mover.pk)
    after = next(r for r in live[mover.division] if r.player.pk == mover.pk)
    assert after.record.total == before.record.total + 12  # the live figure moved
    for division, name in (("A", "standings A"), ("B", "standings B")):
        rows = as_shown(frozen[division])
        shown = shown_rows(answers[name])
        assert shown and set(shown) <= set(rows), name
        assert "As it stood after round 3; hidden until the final." in answers[name]
        assert "results of the last 2 rounds are hidden" in answers[name]
    assert shown_rows(answers["standings A"]) == as_shown(frozen["A"])
    body = answers["projector body"]
    assert "as they stood after round 3; hidden until the final" in body
    assert shown_rows(body) == [row for d in "AB" for row in as_shown(frozen[d])[:8]]
    ledger = client.get(url("ledger", t.slug, mover.pk)).content.decode()
    ranked_of = sum(1 for r in frozen[mover.division] if r.record.rounds)
    assert (
        f"Total {before.record.total} · rank {before.shown_rank} of {ranked_of} in division "
        f"{mover.division}"
    ) in ledger
    assert f"Total {after.record.total} " not in ledger
    assert "As it stood after round 3; hidden until the final." in ledger
    running = ledger.split("Running total</dt><dd><strong>")
    assert int(running[-1].split("<")[0]) == before.record.total
    assert "Result hidden until the final" in ledger.split("Round 4")[1]
    assert "hidden until the final" in answers["card"]
    # The director's sheets stay behind the sign-in.
    sheet = client.get(reverse("sheets:standings", args=[t.slug, "A"]))
    assert sheet.status_code == 302


def test_the_same_endpoints_do_show_standings_when_not_hidden(client, make_tournament):
    # The check above can fail: one round earlier the markers are there.
    t = event_after(make_tournament, 2, 2, hide_standings_last_rounds=2)
    answers = public_answers(client, t)
    assert "Running total" in answers["ledger"] and " rank " in answers["ledger"]
    assert 'class="standings"' in answers["standings A"]
    # Between rounds the projector shows the seating; once play starts, the standings.
    rounds.start_round(t.rounds.get(number=3), by="test")
    assert ">Pts<" in client.get(url("projector_standings", t.slug)).content.decode()


def test_standings_return_when_the_final_is_seeded(make_tournament):
    t = event_after(make_tournament, 1, 4, preliminary_rounds=5, hide_standings_last_rounds=1)
    assert reads.standings_hidden(t, reads.latest_round(t))
    fake_results(t.rounds.get(number=5))
    seed_final(t, by="test")
    t.refresh_from_db()
    assert not reads.standings_hidden(t, reads.latest_round(t))


def test_no_public_answer_carries_a_table_token(client, make_tournament):
    t = event_after(make_tournament, 2, 1)
    tokens = list(TableLink.objects.filter(tournament=t).values_list("token", flat=True))
    assert tokens
    for name, body in public_answers(client, t).items():
        assert not any(token in body for token in tokens), name


def test_hide_setting_is_refused_beyond_the_number_of_rounds(make_tournament):
    from tournaments.domain.rules import RuleSettings

    errors = RuleSettings(preliminary_rounds=3, hide_standings_last_rounds=4).errors()
    assert "hide_standings_last_rounds" in errors


# --- the final and the projector -------------------------------------------------------


def test_the_standings_show_the_top_100_and_the_search_reaches_everyone(client, make_tournament):
    t = event_after(make_tournament, 60, 1)  # 120 players a division
    page = client.get(url("standings", t.slug)).content.decode()
    assert page.count("<tr data-name=") == 100 and "The top 100 of 120" in page
    last = boards.public_rows(t)["A"][-1]
    found = client.get(url("standings", t.slug), {"q": last.name.upper()}).content.decode()
    assert found.count("<tr data-name=") == 1 and last.name in found


def test_the_final_is_live_and_the_champions_are_named(client, make_tournament):
    t = event_after(make_tournament, 2, 0, preliminary_rounds=1)
    fake_results(t.rounds.get(number=1))
    final = seed_final(t, by="test")
    at = dict(Seating.objects.filter(round=final).values_list("position", "player__name"))
    game = final.matches.get(game=1)
    Match.objects.filter(pk=game.pk).update(score_ns=7, score_ew=2, hands_played=6)
    page = client.get(url("standings", t.slug)).content.decode()
    assert f"{at['N']} &amp; {at['S']}" in page and ">7<" in page
    view = boards.final_view(t)
    assert view is not None and view.champions is None
    Match.objects.filter(pk=game.pk).update(
        score_ns=10, status="confirmed", winner="NS", recorded_winner="NS"
    )
    Match.objects.create(round=final, table=1, game=2, score_ns=10, status="confirmed", winner="NS")
    body = client.get(url("projector_standings", t.slug)).content.decode()
    assert f"Champions: {at['N']} &amp; {at['S']}" in body


def test_the_projector_and_the_phones_say_why_a_withdrawn_leader_is_not_in_the_final(
    client, make_tournament
):
    from tournaments.core.services.players import set_withdrawn

    t = event_after(make_tournament, 2, 0, preliminary_rounds=1)
    fake_results(t.rounds.get(number=1))
    leader = standings.standings(t)["A"][0].player
    set_withdrawn(leader, True, by="director")
    seed_final(t, by="test")
    line = f"Not in the final: {leader.name} (division A): withdrawn after round 1"
    for name in ("projector_standings", "standings"):
        page = client.get(url(name, t.slug)).content.decode()
        assert line in page, name


def test_the_projector_and_the_phones_keep_the_seedings_reasons_whatever_changes_after(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 0, preliminary_rounds=1)
    fake_results(t.rounds.get(number=1))
    leader = standings.standings(t)["A"][0].player
    set_withdrawn(leader, True, by="director")
    final = seed_final(t, by="test")
    partner = final.seats.get(position="S").player
    # A seated finalist stays one: never shown in the final and "not in the final" at once.
    with pytest.raises(ServiceError, match="seated in the final"):
        set_withdrawn(partner, True, by="director", reason="feels ill")
    # The leader reinstated after the seeding is still why the next player plays.
    set_withdrawn(leader, False, by="director", reason="withdrawn by mistake")
    line = f"Not in the final: {leader.name} (division A): withdrawn after round 1"
    for name in ("projector_standings", "standings"):
        page = client.get(url(name, t.slug)).content.decode()
        assert line in page and page.count("Not in the final:") == 1, name
        assert f"{final.seats.get(position='N').player.name} &amp; {partner.name}" in page


def test_the_projector_pages_the_next_seating_between_rounds_and_shows_the_qr(
    client, make_tournament
):
    t = event_after(make_tournament, 30, 1)
    page = client.get(url("projector", t.slug)).content.decode()
    assert "Round 2: find your table" in page
    # Every table is sent: the projector pages them to fit its own screen.
    assert page.count('class="proj-table"') == 30
    assert url("qr", t.slug) in page and f"/e/{t.slug}/" in page
    qr = client.get(url("qr", t.slug))
    assert qr["Content-Type"] == "image/svg+xml"
    # A standalone SVG (namespace included): an <img> shows nothing without it.
    assert b'xmlns="http://www.w3.org/2000/svg"' in qr.content


# --- versions and query counts -----------------------------------------------------------


def test_an_unchanged_answer_is_a_304_and_any_change_a_new_version(client, make_tournament):
    t = event_after(make_tournament, 2, 1)
    p = Seating.objects.filter(round__number=2, round__tournament=t).first().player
    for name in ("card_part", "ledger"):
        first = client.get(url(name, t.slug, p.pk))
        assert first["Cache-Control"] == "no-cache" and first["ETag"]
        again = client.get(url(name, t.slug, p.pk), HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again["ETag"] == first["ETag"]
    first = client.get(url("card_part", t.slug, p.pk))
    rounds.start_round(t.rounds.get(number=2), by="test")
    assert (
        client.get(url("card_part", t.slug, p.pk), HTTP_IF_NONE_MATCH=first["ETag"]).status_code
        == 200
    )


def test_a_hand_at_another_table_does_not_wake_my_card(client, make_tournament):
    t = event_after(make_tournament, 2, 1)
    rnd = t.rounds.get(number=2)
    mine = Seating.objects.filter(round=rnd, table=1).first().player
    first = client.get(url("card_part", t.slug, mine.pk))
    Match.objects.filter(round=rnd, table=2).update(score_ns=1, hands_played=1)
    assert (
        client.get(url("card_part", t.slug, mine.pk), HTTP_IF_NONE_MATCH=first["ETag"]).status_code
        == 304
    )
    Match.objects.filter(round=rnd, table=1).update(score_ew=2, hands_played=1)
    assert (
        client.get(url("card_part", t.slug, mine.pk), HTTP_IF_NONE_MATCH=first["ETag"]).status_code
        == 200
    )


def test_a_finished_match_changes_the_standings_version(client, make_tournament):
    t = event_after(make_tournament, 2, 1)
    rnd = t.rounds.get(number=2)
    rounds.start_round(rnd, by="test")
    first = client.get(url("standings", t.slug))
    Match.objects.filter(round=rnd, table=2).update(
        score_ns=10, hands_played=9, status="finished", winner="NS"
    )
    assert client.get(url("standings", t.slug), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def queries(client, path: str, etag: str | None = None) -> int:
    standings._ranked.clear()  # count a cold ranking every time
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, **headers)
    assert response.status_code in (200, 304), (path, response.status_code)
    return len(ctx.captured_queries)


def endpoint_paths(t: Tournament) -> dict[str, str]:
    p = Seating.objects.filter(round__tournament=t, round__number=2).order_by("pk").first().player
    return {
        "event": url("event", t.slug),
        "event search": url("event", t.slug) + "?q=player a0",
        "find": url("find", t.slug) + "?q=player a0",
        "card": url("card", t.slug, p.pk),
        "card part": url("card_part", t.slug, p.pk),
        "ledger": url("ledger", t.slug, p.pk),
        "standings": url("standings", t.slug),
        "projector body": url("projector_standings", t.slug),
        "projector": url("projector", t.slug),
        "qr": url("qr", t.slug),
        "now": url("now", t.slug),
        "clock": url("clock", t.slug),
    }


PINNED = {
    "event": 3,
    "event search": 4,
    "find": 3,
    "card": 6,
    "card part": 6,
    # The ranking reads the round's sit-outs and substitutions too (§6): two more.
    "ledger": 11,
    # The withdrawn mark is the player's stored field, not a query of its own; the one
    # more is who chose their full name on public pages (names.public_name).
    "standings": 10,
    "projector body": 10,
    "projector": 9,
    "qr": 2,
    # One indexed lookup: an unknown event's now.json is a 404 like every other.
    "now": 1,
    "clock": 2,
}


@pytest.mark.parametrize("tables", [4, pytest.param(500, marks=pytest.mark.slow)])
def test_query_counts_of_every_public_endpoint_are_pinned_and_equal_at_4_and_500_tables(
    client, make_tournament, tables
):
    t = event_after(make_tournament, tables, 1, name=f"Q{tables}")
    rounds.start_round(t.rounds.get(number=2), by="test")
    counts = {name: queries(client, path) for name, path in endpoint_paths(t).items()}
    for name, path in endpoint_paths(t).items():
        response = client.get(path)
        if response.has_header("ETag"):
            assert queries(client, path, response["ETag"]) == 1, name
    assert counts == PINNED


# --- the QR code on the printed sheets ------------------------------------------------------


def test_the_seating_sheet_and_table_cards_carry_the_players_qr_code(
    director_client, make_tournament
):
    from io import BytesIO

    from pypdf import PdfReader

    t = make_tournament(3)
    rounds.draw_first_round(t, by="test", seed=5)
    seating = b"".join(
        director_client.get(reverse("sheets:seating", args=[t.slug, 1])).streaming_content
    )
    text = " ".join(p.extract_text() for p in PdfReader(BytesIO(seating)).pages)
    assert f"http://testserver/e/{t.slug}/" in " ".join(text.split())
    assert "on your phone" in text
    cards = b"".join(
        director_client.get(reverse("sheets:table_cards", args=[t.slug])).streaming_content
    )
    pages = PdfReader(BytesIO(cards)).pages
    assert len(pages) == 3 and all("your seat on" in p.extract_text() for p in pages)
    SHOTS.mkdir(exist_ok=True)  # kept to be looked at (pdftoppm -png)
    (SHOTS / "seating.pdf").write_bytes(seating)
    (SHOTS / "table-cards.pdf").write_bytes(cards)


# --- every string marked for translation ----------------------------------------------------

PUBLIC_TEMPLATES = sorted(
    (Path(__file__).resolve().parent.parent / "templates" / "public").glob("*.html")
)


@pytest.mark.parametrize("template", PUBLIC_TEMPLATES, ids=lambda p: p.name)
def test_every_visible_string_of_the_public_templates_is_marked_for_translation(template):
    import re

    text = template.read_text()
    for pattern in (
        r"\{%\s*block body_class\s*%\}.*?\{%\s*endblock\s*%\}",  # a CSS class, not text
        r"\{%\s*blocktranslate.*?endblocktranslate\s*%\}",
        r"\{%.*?%\}",
        r"\{\{.*?\}\}",
        r"\{#.*?#\}",
        r"<(script|style)\b.*?</\1>",
        r"<[^>]*>",
        r"&\w+;",
    ):
        text = re.sub(pattern, " ", text, flags=re.S)
    leftovers = [w for w in text.split() if re.search(r"[A-Za-z]", w)]
    assert not leftovers, f"{template.name}: text outside translate tags: {leftovers[:10]}"
    # Attributes people read (labels, titles, alt text) are translated too.
    source = template.read_text()
    for attribute in re.findall(r'(?:aria-label|title|alt|data-text-\w+)="([^"]*)"', source):
        assert "{%" in attribute or not re.search(r"[A-Za-z]", attribute), (
            template.name,
            attribute,
        )


def test_no_template_comment_spans_lines_and_shows_on_the_page() -> None:
    # Django's {# #} ends with its line: a longer one is printed on the page as text.
    root = Path(__file__).resolve().parent.parent / "templates"
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert offenders == []


# --- house players (§6: "house" everywhere) -----------------------------------------------


@pytest.mark.parametrize(("lang", "word"), [("en", "house"), ("fr", "réserviste")])
def test_the_projector_and_the_cards_mark_a_house_player_house(client, make_tournament, lang, word):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    seat = Seating.objects.get(round=rnd, table=1, position="S")
    hal = Player.objects.create(
        tournament=t, name="House Hal", division=seat.player.division, house=True
    )
    # Hal stands in for a player who has gone: with her back in line he would give
    # her the seat next round (§6).
    Player.objects.filter(pk=seat.player_id).update(withdrawn=True)
    seat.player = hal
    seat.save(update_fields=["player"])
    at = {s.position: s.player for s in Seating.objects.filter(round=rnd, table=1)}
    client.cookies["django_language"] = lang
    # Between rounds the projector shows the seating.
    body = client.get(url("projector_standings", t.slug)).content.decode()
    assert f'House H.</span> <span class="mark house">{word}</span>' in body
    # The partner's card: in the diagram and as the partner; an opponent's, likewise.
    page = client.get(url("card_part", t.slug, at["N"].pk)).content.decode()
    partner = {"en": "partner", "fr": "partenaire"}[lang]
    assert f'<span class="who">House H.</span> <span class="role">{partner} · {word}' in page
    assert f"House H. ({word})</dd>" in page
    page = client.get(url("card_part", t.slug, at["E"].pk)).content.decode()
    assert f"House H. ({word}) &amp; " in page or f"&amp; House H. ({word})" in page
    # The ledgers name him the same way, as partner and as opponent.
    for who in (at["N"], at["E"]):
        ledger = client.get(url("ledger", t.slug, who.pk)).content.decode()
        assert f"House H. ({word})" in ledger
    # Hal's own card, whole and the new seat first (from the version query alone).
    own = client.get(url("card_part", t.slug, hal.pk))
    assert f'House H. <span class="muted">{word}</span>' in own.content.decode()
    fake_results(rnd)
    rounds.seat_next_round(t, by="test")  # Hal's seat rotates with the table (§3)
    first = client.get(
        url("card_part", t.slug, hal.pk),
        headers={"If-None-Match": own["ETag"], "X-Snowman-Seat": "1:1S"},
    ).content.decode()
    assert 'data-partial="1"' in first
    assert f'House H. <span class="muted">{word}</span>' in first


@pytest.mark.parametrize(("lang", "word"), [("en", "house"), ("fr", "réserviste")])
def test_the_search_marks_a_house_player_house_not_a_division(client, make_tournament, lang, word):
    t = make_tournament(1)
    hal = Player.objects.create(tournament=t, name="House Hal", division="A", house=True)
    client.cookies["django_language"] = lang
    page = client.get(url("event", t.slug), {"q": "hal"}).content.decode()
    assert f'House H. <span class="muted">{word}</span>' in page
    assert f"<template data-house-text>{word}</template>" in page
    found = client.get(url("find", t.slug), {"q": "hal"}).json()["players"]
    assert [(p["id"], p["house"]) for p in found] == [(hal.pk, True)]


def test_phones_projector_and_ledger_show_players_equal_but_for_the_lot_as_sharing_a_rank(
    client, make_tournament
):
    """After round 1 the lot ranked equal players 3*, 4*, 5* on the projector and phones,
    as if an arbitrary order were a ranking: they read "=1" (and by name) instead."""
    from tournaments.common.names import sort_key
    from tournaments.core.services import play
    from tournaments.domain.hands import Hand, Outcome, Seat

    t = make_tournament(3, target=2)
    rnd = rounds.start_round(rounds.draw_first_round(t, by="test", seed=5), by="test")
    for m in rnd.matches.select_related("round__tournament"):
        play.set_first_dealer(m, Seat.W, by="test")
        march = Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5)
        play.record_hand(m, march, client_key=f"p{m.pk}", by="t")
    rounds.finalize_round(rnd, by="test")
    ranked = standings.standings(t)["B"]
    assert any(r.standing.decided_by_lot for r in ranked)
    winners = sorted((r.player.name for r in ranked[:3]), key=sort_key)
    phone = client.get(url("standings", t.slug), {"division": "B"}).content.decode()
    projector = client.get(url("projector_standings", t.slug)).content.decode()
    for page in (phone, projector):
        rows = [row for row in shown_rows(page) if row[1] in winners]
        assert rows == [("=1", name, ranked[0].record.total) for name in winners]
        assert "=3: a shared rank" in page and "tie broken by lot" not in page
    ledger = client.get(url("ledger", t.slug, ranked[4].player.pk)).content.decode()
    assert "rank =4 of 6 in division B" in ledger
