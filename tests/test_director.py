"""The director console: pages, forms and actions, driven through Django's test client."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.html import assert_in_html
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Round
from tournaments.core.reads.standings import final_round
from tournaments.core.services import closing, play, rounds
from tournaments.domain.hands import Hand, Outcome, Seat
from tournaments.domain.simulation import random_hand

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    """What a reader sees: tags dropped, whitespace collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def rows_of(html: str, table_id: str) -> list[str]:
    """The text of each body row of the table with that id."""
    body = html.split(f'id="{table_id}"')[1].split("</table>")[0].split("<tbody")[1]
    return [text("<" + row) for row in body.split("<tr")[1:]]


def url(name: str, *args: object) -> str:
    return reverse(f"director:{name}", args=args)


def play_out(rnd: Round, seed: int = 1) -> None:
    """Play every match of a running round to its end through the services."""
    rng = random.Random(seed)
    now = timezone.now()
    for match in rnd.matches.select_related("round__tournament").order_by("table"):
        play.set_first_dealer(match, Seat.N, by="test")
        n = 0
        while True:
            n += 1
            result = play.record_hand(
                match,
                random_hand(rng),
                by="test",
                now=now,
                client_key=f"t{rnd.pk}-{match.table}-{match.game}-{n}",
            )
            if result.state.over:
                break


def drawn(make_tournament, tables: int = 2, **rules: object) -> tuple[Tournament, Round]:
    t = make_tournament(tables, **rules)
    rnd = rounds.draw_first_round(t, by="test", seed=11)
    return t, rnd


# --- sign-in ----------------------------------------------------------------------------


def test_every_director_page_asks_for_a_staff_login(client, make_tournament, django_user_model):
    t, rnd = drawn(make_tournament)
    pages = [
        url("home"),
        url("create"),
        url("tournament", t.slug),
        url("players", t.slug),
        url("desk", t.slug),
        url("seating", t.slug, 1),
        url("round", t.slug, 1),
        url("board", t.slug, 1),
        url("table", t.slug, 1, 1),
        url("standings", t.slug),
        url("final", t.slug),
        url("activity", t.slug),
        url("import", t.slug),
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], page
    client.force_login(django_user_model.objects.create_user("player"))
    assert client.get(url("home")).status_code == 302


def test_the_sign_in_page_leads_to_the_tournament_list(client, director):
    response = client.post(
        "/accounts/login/", {"username": "director", "password": "a-long-director-password"}
    )
    assert response.status_code == 302 and response["Location"] == url("home")
    assert b"Tournaments" in client.get(url("home")).content


def test_the_tournament_list_names_the_directors_role_in_each_club_in_french(
    director_client,
):
    """Walked at the hall in French: "Snowman club · owner" (the role's stored key)."""
    director_client.cookies["django_language"] = "fr"
    page = unescape(director_client.get(url("home")).content.decode())
    assert "Snowman club</a> · Direction" in page
    assert " · director" not in page


# --- tournaments ------------------------------------------------------------------------


def settings_post(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "Spring Snowman",
        "preliminary_rounds": 5,
        "round_minutes": 20,
        "target": 10,
        "points_make": 1,
        "points_march": 2,
        "points_alone_march": 4,
        "points_euchre": 2,
        "points_renege": 2,
        "alone_march_award": 1,
        "renege_penalty": -2,
        "reach_bonus": 1,
        "skunk_bonus": 2,
        "final_games_to_win": 2,
        "final_target": 10,
        "tiebreaks": "total, wins, margin, lot",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_creating_a_tournament_keeps_every_rule_setting(director_client):
    response = director_client.post(
        url("create"),
        settings_post(
            target=11, skunk_includes_reach="on", round_minutes=25, tiebreaks="total,margin,wins"
        ),
    )
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == url("players", t.slug)
    assert (t.target, t.round_minutes, t.skunk_includes_reach, t.tiebreaks) == (
        11,
        25,
        True,
        "total,margin,wins",
    )
    assert Activity.objects.filter(tournament=t, action="create", actor="director").exists()


def test_the_settings_form_says_what_the_sit_out_score_takes(director_client):
    """Walked at the hall in French: the box held "average" and nothing said what else
    it takes (its help text was never shown)."""
    director_client.cookies["django_language"] = "fr"
    page = unescape(director_client.get(url("create")).content.decode())
    assert "<code>average</code> (la moyenne), <code>none</code> (aucun)" in page


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("target", 0, "The target score must be between 1 and 100."),
        ("renege_penalty", 2, "The renege penalty must be zero or negative."),
        ("alone_march_award", -1, "The lone-march award cannot be negative."),
        ("tiebreaks", "wins,total", "Rank by total, wins and margin, in any order, then lot."),
    ],
)
def test_a_nonsense_setting_is_refused_with_a_message(director_client, field, value, message):
    response = director_client.post(url("create"), settings_post(**{field: value}))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_scoring_rules_are_locked_once_play_has_started(director_client, make_tournament):
    t, _ = drawn(make_tournament)
    page = director_client.get(url("settings", t.slug)).content.decode()
    assert "scoring settings are locked" in page
    # Each rule carries its line of help (aria-describedby).
    assert 'name="target" value="10" required disabled' in page
    assert 'name="round_minutes" value="20" required aria-describedby' in page
    response = director_client.post(
        url("settings", t.slug), settings_post(target=12, round_minutes=30)
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.target, t.round_minutes) == (10, 30)


# --- players and check-in ---------------------------------------------------------------


def test_players_page_shows_counts_tables_and_exactly_who_is_missing(director_client, db):
    from tournaments.core.services.players import import_players
    from tournaments.core.services.tournaments import create_tournament

    t = create_tournament("Club", by="t")
    import_players(t, "Ann,A\nBob,A\nCat,B\nDan,B\nEve,A\n", by="t")
    Player.objects.filter(name__in=["Ann", "Bob", "Cat"]).update(checked_in=True)
    page = director_client.get(url("players", t.slug)).content.decode()
    assert 'data-count="A">2<' in page and 'data-count="B">1<' in page
    assert 'data-count="tables">0<' in page
    assert "Cannot seat 2 A players and 1 B player" in page
    assert "Dan" in page.split("Not checked in")[1] and "Eve" in page.split("Not checked in")[1]


def test_players_table_searches_and_sorts(director_client, make_tournament):
    t = make_tournament(2)
    page = director_client.get(url("players", t.slug), {"q": "a00"}).content.decode()
    assert "Player A001" in page and "Player B001" not in page
    page = director_client.get(url("players", t.slug), {"sort": "-name"}).content.decode()
    assert page.index("Player B004") < page.index("Player A001")


def test_adding_a_duplicate_player_is_refused(director_client, make_tournament):
    t = make_tournament(1)
    response = director_client.post(
        url("players", t.slug), {"name": "player a001", "division": "A"}
    )
    assert response.status_code == 422
    assert "already registered" in response.content.decode()
    response = director_client.post(
        url("players", t.slug), {"name": "Zed", "division": "B", "checked_in": "on"}
    )
    assert response.status_code == 302
    assert Player.objects.get(name="Zed").checked_in


def test_editing_and_withdrawing_a_player(director_client, make_tournament):
    t = make_tournament(1)
    p = Player.objects.get(name="Player A001")
    director_client.post(url("player_edit", t.slug, p.pk), {"name": "Ann Lee", "division": "A"})
    director_client.post(url("player_withdraw", t.slug, p.pk), {"withdrawn": "1"})
    p.refresh_from_db()
    assert (p.name, p.withdrawn) == ("Ann Lee", True)


def test_csv_import_previews_and_refuses_the_whole_file_on_one_bad_line(
    director_client, make_tournament
):
    t = make_tournament(1)
    bad = "name,division\nNew One,A\nNew Two,C\nPlayer A001,B\n"
    response = director_client.post(url("import", t.slug), {"text": bad})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Nothing was imported" in page
    assert "Line 3: division must be A or B, not &#x27;C&#x27;." in page
    assert "Line 4: Player A001 is already registered." in page
    # The bad line is shown as written, so the director can see what to fix.
    assert_in_html('<td class="num">3</td><td>New Two</td><td>C</td>', page)
    assert not Player.objects.filter(name="New One").exists()

    good = "name,division\nNew One,A\nNew Two,B\n"
    page = director_client.post(url("import", t.slug), {"text": good}).content.decode()
    assert "2 players ready to import" in page and "Import 2 players" in page
    assert not Player.objects.filter(name="New One").exists()
    response = director_client.post(
        url("import", t.slug), {"text": good, "confirm": "1", "checked_in": "on"}
    )
    assert response.status_code == 302
    assert Player.objects.filter(name__startswith="New ", checked_in=True).count() == 2


def test_csv_import_accepts_an_uploaded_file(director_client, make_tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    t = make_tournament(1)
    upload = SimpleUploadedFile("p.csv", "Zoë Ueda,B\n".encode(), content_type="text/csv")
    page = director_client.post(url("import", t.slug), {"file": upload}).content.decode()
    assert "Zoë Ueda" in page and "1 player ready" in page


def test_check_in_desk_finds_by_a_few_letters_and_checks_in_with_one_tap(director_client, db):
    from tournaments.core.services.players import import_players
    from tournaments.core.services.tournaments import create_tournament

    t = create_tournament("Club", by="t")
    import_players(t, "Ann Lee,A\nAnna Park,A\nBob Dunn,B\n", by="t")
    found = director_client.get(
        url("desk", t.slug), {"q": "ann"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Ann Lee" in found and "Anna Park" in found and "Bob Dunn" not in found
    ann = Player.objects.get(name="Ann Lee")
    response = director_client.post(
        url("checkin", t.slug, ann.pk),
        {"checked_in": "1", "mode": "desk"},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert "✓ Checked in" in body and 'hx-swap-oob="true"' in body
    assert 'data-count="A">1<' in body
    ann.refresh_from_db()
    assert ann.checked_in
    assert any("Ann Lee" in a.text for a in Activity.objects.filter(action="check-in"))


def test_the_desk_and_the_players_list_find_a_name_typed_without_its_accents(director_client, db):
    """Walked at the hall in French: "helene" found nobody, Hélène Morin was registered
    (the database's matching folds neither accents nor hyphens; the phones' search did)."""
    from tournaments.core.services.players import import_players
    from tournaments.core.services.tournaments import create_tournament

    t = create_tournament("Soirée", by="t")
    names = "Hélène Morin,B\nJean-François Gagnon,A\nÉmile Roy,A\n"
    import_players(t, names, by="t", checked_in=True)  # the readiness panel lists nobody
    for typed, name in (("helene", "Hélène Morin"), ("jean francois", "Jean-François Gagnon")):
        for page in ("desk", "players"):
            found = unescape(director_client.get(url(page, t.slug), {"q": typed}).content.decode())
            # The desk also lists its last check-ins (everyone here): read its results.
            found = found.split('id="desk-recent"')[0]
            assert name in found and "Émile Roy" not in found, (page, typed)
    found = director_client.get(url("desk", t.slug), {"q": "ÉMILE"}).content.decode()
    results = unescape(found.split('id="desk-results"')[1].split('id="desk-recent"')[0])
    assert "Émile Roy" in results and "Hélène" not in results


# --- draw and seating -------------------------------------------------------------------


def test_draw_is_refused_with_the_shortfall(director_client, make_tournament):
    t = make_tournament(2)
    Player.objects.filter(name="Player B001").update(checked_in=False)
    response = director_client.post(url("draw", t.slug), follow=True)
    assert "Cannot seat 4 A players and 3 B players" in response.content.decode()
    assert not t.rounds.exists()


def test_draw_shows_seating_by_table_and_find_your_seat(director_client, make_tournament):
    t = make_tournament(2)
    response = director_client.post(url("draw", t.slug), follow=True)
    page = response.content.decode()
    assert "Round 1 seating" in page and 'id="by-table"' in page
    rnd = t.rounds.get()
    seats = {s.position: s.player.name for s in rnd.seats.select_related("player").filter(table=2)}
    finder = rows_of(page, "find-your-seat")
    assert len(finder) == 8
    assert f"{seats['N']} A 2 N {seats['S']} {seats['E']} & {seats['W']}" in finder
    assert rows_of(page, "by-table")[1] == f"2 {seats['N']} {seats['S']} {seats['E']} {seats['W']}"


def test_once_round_one_is_drawn_the_desk_no_longer_says_the_room_cannot_be_seated(
    director_client, make_tournament
):
    """Walked at the hall: after round 1, with a B player withdrawn, the players page and
    the desk still said "Not seatable yet. Cannot seat 4 A players and 3 B players" and
    "1 tables can be seated", while round 2 seats by rotation with holes (§6)."""
    from tournaments.core.services.players import set_withdrawn

    t, rnd = drawn(make_tournament)
    rounds.start_round(rnd, by="test")
    set_withdrawn(Player.objects.get(tournament=t, name="Player B001"), True, by="t")
    for page in ("players", "desk"):
        html = director_client.get(url(page, t.slug)).content.decode()
        panel = html.split('id="readiness"')[1].split("</section>")[0]
        assert "Cannot seat" not in panel and "Not seatable" not in panel, page
        assert 'data-count="tables"' not in panel and "seated by the rotation" in panel


def test_the_seating_page_and_its_csv_name_the_west_seat_o_in_french(
    director_client, make_tournament
):
    """Walked at the hall in French: the by-table grid said "O (B)" but "Find your seat",
    the swap lists and the CSV said "W"."""
    t, rnd = drawn(make_tournament)
    west = rnd.seats.select_related("player").get(table=1, position="W").player.name
    director_client.cookies["django_language"] = "fr"
    page = director_client.get(url("seating", t.slug, 1)).content.decode()
    assert any(row.startswith(f"{west} B 1 O ") for row in rows_of(page, "find-your-seat"))
    assert not any(" W " in row for row in rows_of(page, "find-your-seat"))
    assert f"{west} (B, table 1 O)" in unescape(page) and "table 1 W)" not in page
    csv = director_client.get(url("seating_csv", t.slug, 1)).content.decode()
    assert f"{west},B,1,O," in csv and ",W," not in csv


def test_seating_csv_lists_everyone_alphabetically(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    response = director_client.get(url("seating_csv", t.slug, 1))
    lines = response.content.decode().strip().splitlines()
    assert lines[0] == "name,division,table,seat,partner,opponents"
    names = [line.split(",")[0] for line in lines[1:]]
    assert len(names) == 8 and names == sorted(names)


def test_swap_two_players_of_a_division_before_the_start(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    a1 = rnd.seats.get(table=1, position="N").player
    a2 = rnd.seats.get(table=2, position="E").player
    b1 = rnd.seats.get(table=1, position="S").player
    response = director_client.post(url("swap", t.slug, 1), {"first": a1.pk, "second": b1.pk})
    assert response.status_code == 422
    assert "same division" in response.content.decode()
    director_client.post(
        url("swap", t.slug, 1), {"first": a1.pk, "second": a2.pk, "reason": "family"}
    )
    assert rnd.seats.get(table=1, position="N").player == a2
    rounds.start_round(rnd, by="test")
    response = director_client.post(url("swap", t.slug, 1), {"first": a1.pk, "second": a2.pk})
    assert response.status_code == 422
    assert "before the round starts" in response.content.decode()


# --- the round console ------------------------------------------------------------------


def test_clock_controls_start_pause_resume_and_call(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    for action in ("start", "pause", "resume", "call"):
        response = director_client.post(reverse("director:clock", args=[t.slug, 1, action]))
        assert response.status_code == 302, action
    rnd.refresh_from_db()
    assert rnd.called_at is not None and rnd.pauses.get().ended_at is not None
    response = director_client.post(reverse("director:clock", args=[t.slug, 1, "pause"]))
    assert response.status_code == 422
    assert "Time has already been called" in response.content.decode()
    board = director_client.get(url("board", t.slug, 1)).content.decode()
    assert board.count("Time called</span>") == 2


def test_live_board_shows_status_score_hands_flags_and_attention(director_client, make_tournament):
    t, rnd = drawn(make_tournament, 3)
    rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=10))
    m1, m2, m3 = rnd.matches.select_related("round__tournament").order_by("table")
    play.set_first_dealer(m1, Seat.N, by="t")
    play.record_hand(
        m1,
        Hand(Outcome.RENEGE, renege_by=Seat.E),
        client_key="k1",
        by="t",
        now=timezone.now() - timedelta(minutes=8),
    )
    play.set_first_dealer(m2, Seat.N, by="t")
    for n in range(5):
        play.record_hand(
            m2, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), by="t", client_key=f"k2-{n}"
        )
    closing.confirm_match(m2, agree=False, by="Bob", note="wrong count")
    page = director_client.get(url("round", t.slug, 1)).content.decode()
    assert 'hx-trigger="every 3s"' in page
    board = director_client.get(url("board", t.slug, 1)).content.decode()
    row1 = board.split('data-table="1"')[1].split("</tr>")[0]
    assert "Playing" in row1 and '>2</span>–<span class="ew">0<' in row1
    assert "renege" in row1 and "no entry for a while" in row1
    row2 = board.split('data-table="2"')[1].split("</tr>")[0]
    assert "Disputed" in row2 and "result disputed" in row2
    row3 = board.split('data-table="3"')[1].split("</tr>")[0]
    assert "Waiting" in row3 and "no hand entered yet" in row3
    only = director_client.get(
        url("board", t.slug, 1), {"only": "attention", "sort": "attention"}
    ).content.decode()
    assert only.index('data-table="2"') < only.index('data-table="1"')


def test_the_board_and_the_table_page_name_the_winning_team_eo_in_french(
    director_client, make_tournament
):
    """Walked at the hall in French: the board said "3–5 EW gagne" and the table page
    "gagnant EW" (East–West is EO in French, as everywhere else on the page)."""
    t, rnd = drawn(make_tournament, 1)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.select_related("round__tournament").get()
    play.set_first_dealer(match, Seat.N, by="t")
    for n in range(5):
        play.record_hand(
            match, Hand(Outcome.PLAYED, maker=Seat.E, maker_tricks=5), by="t", client_key=f"w{n}"
        )
    director_client.cookies["django_language"] = "fr"
    board = director_client.get(url("board", t.slug, 1)).content.decode()
    assert "<small>EO gagne</small>" in board and "EW" not in board
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert "gagnant <strong>EO</strong>" in page


def test_a_late_table_gets_an_extension(director_client, make_tournament):
    # docs/rules.md §7: an extension is given before the table's time runs out; one
    # asked for after the call is refused, since it would un-call time.
    t, rnd = drawn(make_tournament)
    rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=19))
    director_client.post(url("table_extend", t.slug, 1, 1), {"minutes": 5, "reason": "late"})
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - timedelta(minutes=21))
    board = director_client.get(url("board", t.slug, 1)).content.decode()
    assert board.count("Time called</span>") == 1
    assert 'data-table="1"' in board and "+5′" in board
    response = director_client.post(url("table_extend", t.slug, 1, 1), {"minutes": 99})
    assert response.status_code == 422
    response = director_client.post(url("table_extend", t.slug, 1, 2), {"minutes": 5})
    assert response.status_code == 422 and "cannot un-call" in response.content.decode()


def test_table_detail_shows_link_qr_and_reissues_the_link(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    old = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True)
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert f"/t/{old.token}/" in page and "<svg" in page
    director_client.post(url("table_relink", t.slug, 1, 1))
    old.refresh_from_db()
    new = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True)
    assert old.revoked_at is not None
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert f"/t/{new.token}/" in page and f"/t/{old.token}/" not in page


def test_correcting_a_hand_needs_a_reason_and_keeps_the_original(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(match, Seat.N, by="t")
    entry = play.record_hand(
        match, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=3), client_key="c1", by="t"
    ).entry
    prefix = f"h{entry.pk}-"
    post = {
        prefix + "client_key": "fix-1",
        prefix + "outcome": "played",
        prefix + "maker": "E",
        prefix + "maker_tricks": "5",
    }
    response = director_client.post(url("hand_correct", t.slug, 1, 1, entry.pk), post)
    assert response.status_code == 422
    assert "This field is required" in response.content.decode()
    post[prefix + "reason"] = "EW marched; misread"
    response = director_client.post(url("hand_correct", t.slug, 1, 1, entry.pk), post)
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.score_ns, match.score_ew, match.has_correction) == (0, 2, True)
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert "hand-superseded" in page and "EW marched; misread" in page
    assert HandEntry.objects.filter(match=match).count() == 2


def test_the_hand_log_shows_awards_and_penalties(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(match, Seat.N, by="t")
    play.record_hand(match, Hand(Outcome.RENEGE, renege_by=Seat.E), client_key="r1", by="t")
    play.record_hand(
        match,
        Hand(Outcome.PLAYED, maker=Seat.S, alone=True, maker_tricks=5),
        client_key="r2",
        by="t",
    )
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    log = page.split('id="hand-log"')[1].split("</table>")[0]
    assert_in_html("<td>E −2</td>", log)
    assert_in_html("<td>S +1</td>", log)


def test_the_hand_log_reads_in_french_with_french_seat_letters_and_the_tablets_words(
    director_client, make_tournament
):
    """Walked at the hall in French: the log said "N made alone, 3 tricks", "renege by W",
    "Table 1 tablet (tablet)" and "Undone at the table." on a French page."""
    import json

    from django.test import Client

    t, rnd = drawn(make_tournament)
    rounds.start_round(rnd, by="test")
    tablet = Client()
    link = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True)
    tablet.get(f"/t/{link.token}/")

    def send(path: str, body: dict) -> None:
        response = tablet.post(
            f"/t/table/{path}", json.dumps(body), content_type="application/json"
        )
        assert response.status_code in (200, 201), response.content

    base = {"alone": False, "renege_by": None, "first_dealer": "N", "outcome": "played"}
    send("hands", {**base, "client_key": "k1", "number": 1, "maker": "S", "maker_tricks": 5})
    send("undo", {"number": 1, "client_key": "k1"})
    send(
        "hands",
        {**base, "client_key": "k2", "number": 1, "maker": "E", "alone": True, "maker_tricks": 3},
    )
    send(
        "hands",
        {
            **base,
            "client_key": "k3",
            "number": 2,
            "outcome": "renege",
            "renege_by": "W",
            "maker": None,
            "maker_tricks": None,
        },
    )
    director_client.cookies["django_language"] = "fr"
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    log = unescape(page.split('id="hand-log"')[1].split("</table>")[0])
    assert "<td>E a fait l’atout seul, 3 levées</td>" in log
    assert "<td>renonce par O</td>" in log and "<td>O −2</td>" in log
    assert "Tablette de la table 1" in log and "(Tablette)" in log
    assert "Annulée à la table." in log
    assert "par Tablette de la table 1\xa0: Annulée à la table." in log  # the French colon
    timeline = unescape(page.split('id="timeline"')[1].split("</section>")[0])
    assert "<strong>Tablette de la table 1</strong>\xa0: Ronde 1, table 1" in timeline
    for english in ("made", "trick", "renege", "tablet", "Undone"):
        assert english not in re.sub(r"<[^>]+>", " ", log), english
    director_client.cookies["django_language"] = "en"
    log = unescape(director_client.get(url("table", t.slug, 1, 1)).content.decode())
    assert "<td>E made alone, 3 tricks</td>" in log and "<td>renege by W</td>" in log


def test_overriding_a_winner_needs_a_reason(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    rounds.start_round(rnd, by="test")
    play_out(rnd)
    match = rnd.matches.get(table=1)
    other = "EW" if match.winner == "NS" else "NS"
    response = director_client.post(url("table_override", t.slug, 1, 1), {"winner": other})
    assert response.status_code == 422
    response = director_client.post(
        url("table_override", t.slug, 1, 1), {"winner": other, "reason": "score sheet shows it"}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.winner == other and match.has_override
    page = director_client.get(url("table", t.slug, 1, 1)).content.decode()
    assert "score sheet shows it" in page and "override" in page


def test_finalize_is_refused_while_a_table_is_unfinished_then_seats_the_next_round(
    director_client, make_tournament
):
    t, rnd = drawn(make_tournament, 3, preliminary_rounds=2)
    rounds.start_round(rnd, by="test")
    response = director_client.post(url("finalize", t.slug, 1))
    page = response.content.decode()
    assert response.status_code == 422
    assert "table 1 (0–0, not finished)" in page and "table 3 (0–0, not finished)" in page
    play_out(rnd)
    response = director_client.post(url("finalize", t.slug, 1))
    assert response.status_code == 302 and response["Location"] == url("seating", t.slug, 2)
    rnd2 = t.rounds.get(number=2)
    winners_1 = rnd.matches.get(table=1).winner
    stay = {s.player_id for s in rnd.seats.filter(table=1, position__in=list(winners_1))}
    assert stay == {s.player_id for s in rnd2.seats.filter(table=1, position__in=["E", "S"])}
    rounds.start_round(rnd2, by="test")
    play_out(rnd2, seed=2)
    response = director_client.post(url("finalize", t.slug, 2))
    assert response["Location"] == url("standings", t.slug)


def test_a_refused_finalize_links_each_unfinished_table_to_what_finishes_it(
    director_client, make_tournament
):
    t, rnd = drawn(make_tournament, 3)
    rounds.start_round(rnd, by="test")
    console = director_client.get(url("round", t.slug, 1)).content.decode()
    # Secondary while tables play: a plain button, not the round's primary action.
    assert re.search(r'<button id="finalize-round"', console)
    play_out(rnd)
    closing.confirm_match(rnd.matches.get(table=2), agree=False, by="x", note="hand 3")
    open_match = rnd.matches.select_related("round__tournament").get(table=3)
    play.undo_last_hand(open_match, by="test", reason="the last hand was not played")
    open_match.refresh_from_db()
    response = director_client.post(url("finalize", t.slug, 1))
    assert response.status_code == 422
    box = response.content.decode().split('id="unfinished"', 1)[1].split("</div>", 1)[0]
    assert (
        f'<a href="{url("table", t.slug, 1, 2)}">Table 2 (disputed)</a>: resolve the dispute' in box
    )
    score = f"{open_match.score_ns}–{open_match.score_ew}"
    assert (
        f'<a href="{url("table", t.slug, 1, 3)}">Table 3 ({score}, not finished)</a>: enter' in box
    )
    assert "Table 1" not in box
    march = Hand(Outcome.PLAYED, maker=Seat.N, alone=True, maker_tricks=5)
    n = 0
    while not play.record_hand(open_match, march, by="t", client_key=f"m{n}").state.over:
        n += 1
    director_client.post(url("table_close", t.slug, 1, 2), {"reason": "checked"})
    console = director_client.get(url("round", t.slug, 1)).content.decode()
    assert re.search(r'<button class="primary" id="finalize-round"', console)


def test_a_disputed_table_can_be_accepted_by_the_director(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    rounds.start_round(rnd, by="test")
    play_out(rnd)
    match = rnd.matches.get(table=1)
    closing.confirm_match(match, agree=False, by="x", note="no")
    assert director_client.post(url("finalize", t.slug, 1)).status_code == 422
    director_client.post(url("table_close", t.slug, 1, 1), {"reason": "checked the sheet"})
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


# --- standings, the final, the log ------------------------------------------------------


def finished_prelims(make_tournament, tables: int = 2) -> Tournament:
    t, rnd = drawn(make_tournament, tables, preliminary_rounds=2)
    for number in (1, 2):
        rnd = t.rounds.get(number=number)
        rounds.start_round(rnd, by="test")
        play_out(rnd, seed=number)
        rounds.finalize_round(rnd, by="test")
        if number == 1:
            rounds.seat_next_round(t, by="test")
    return t


def test_standings_show_rounds_bonuses_awards_totals_and_download_as_csv(
    director_client, make_tournament
):
    t = finished_prelims(make_tournament)
    page = director_client.get(url("standings", t.slug)).content.decode()
    head = text(page.split("<thead")[1].split("</thead>")[0])
    assert head.endswith("Rank Player R1 R2 Bonuses Awards & penalties Total Wins Margin")
    assert "Division A" in page and "Division B" in page
    csv_text = director_client.get(url("standings_csv", t.slug, "A")).content.decode()
    header, *rows = csv_text.strip().splitlines()
    assert header.startswith("rank,player,round 1,round 2,bonuses,awards and penalties,total")
    assert len(rows) == 4


def test_the_console_shows_players_equal_but_for_the_lot_as_sharing_a_rank(
    director_client, make_tournament
):
    # §4: only players who played are ranked. Two tables won alike: in each division the
    # two winners tie on every count, and so do the two losers.
    t, rnd = drawn(make_tournament, 2, target=2)
    rounds.start_round(rnd, by="test")
    for m in rnd.matches.select_related("round__tournament"):
        play.set_first_dealer(m, Seat.W, by="test")
        play.record_hand(
            m, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), client_key=f"t{m.pk}", by="t"
        )
    page = director_client.get(url("standings", t.slug)).content.decode()
    # Two winners and two losers per division: "=1", "=1", "=3", "=3", never "1 lot".
    assert page.count('title="Shared rank: equal on every tiebreak"') == 8
    assert page.count(">=1</abbr>") == 4 and page.count(">=3</abbr>") == 4
    assert 'class="lot"' not in page


def test_final_is_seeded_with_reasons_recorded_and_crowns_champions(
    director_client, make_tournament
):
    t = finished_prelims(make_tournament)
    page = director_client.get(url("final", t.slug)).content.decode()
    assert "Rank 1 in division A" in page and "Seed the final" in page
    assert director_client.post(url("final_seed", t.slug)).status_code == 302
    director_client.post(url("final_dealer", t.slug), {"seat": "N"})
    for game in range(2):
        for n in range(5):
            response = director_client.post(
                url("final_hand", t.slug),
                {
                    "client_key": f"final-{game}-{n}",
                    "outcome": "played",
                    "maker": "N",
                    "maker_tricks": "5",
                },
            )
            assert response.status_code == 302
        if game == 0:
            director_client.post(url("final_dealer", t.slug), {"seat": "E"})
    # A double submit of the last form is recognised by its key and adds nothing.
    director_client.post(
        url("final_hand", t.slug),
        {"client_key": "final-1-4", "outcome": "played", "maker": "N", "maker_tricks": "5"},
    )
    page = director_client.get(url("final", t.slug)).content.decode()
    assert 'id="champions"' in page and "division A pair" in page
    seats = {s.position: s.player.name for s in final_round(t).seats.select_related("player")}
    assert f"{seats['N']} &amp; {seats['S']}" in page or f"{seats['N']} & {seats['S']}" in page
    director_client.post(url("finish", t.slug))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_an_impossible_final_hand_is_refused_with_the_rules_message(
    director_client, make_tournament
):
    t = finished_prelims(make_tournament)
    director_client.post(url("final_seed", t.slug))
    director_client.post(url("final_dealer", t.slug), {"seat": "N"})
    response = director_client.post(
        url("final_hand", t.slug),
        {"client_key": "bad", "outcome": "played", "maker": "", "maker_tricks": "3"},
    )
    assert response.status_code == 422
    assert "Choose the player who made trump." in response.content.decode()


def test_the_final_page_reads_its_refusals_and_game_results_in_french(
    director_client, make_tournament
):
    """Walked at the hall in French: a final hand with no maker was refused with "Choose
    the player who made trump." (the rules' English) and a won game read "Terminée: NS
    gagne" (no space before the colon; EW would have stayed EW)."""
    t = finished_prelims(make_tournament)
    director_client.post(url("final_seed", t.slug))
    director_client.post(url("final_dealer", t.slug), {"seat": "N"})
    director_client.cookies["django_language"] = "fr"
    bad = {"client_key": "bad", "outcome": "played", "maker": "", "maker_tricks": "3"}
    page = unescape(director_client.post(url("final_hand", t.slug), bad).content.decode())
    assert "Choisissez le joueur qui a fait l’atout." in page and "Choose the" not in page
    for n in range(3):
        hand = {"client_key": f"f{n}", "outcome": "played", "maker": "E", "maker_tricks": "5"}
        hand["alone"] = "on"
        assert director_client.post(url("final_hand", t.slug), hand).status_code == 302
    page = unescape(director_client.get(url("final", t.slug)).content.decode())
    assert "Terminée\xa0: EO gagne" in page


def test_a_hands_refusal_from_the_rules_reads_in_the_readers_language() -> None:
    from django.utils import translation

    from tournaments.common import domain_text
    from tournaments.domain.hands import Hand, InvalidHand, Outcome

    try:
        Hand(Outcome.RENEGE).validate()
    except InvalidHand as exc:
        refused = exc
    with translation.override("fr"):
        assert domain_text.read(refused) == "Choisissez le joueur qui a fait une renonce."
        numbered = InvalidHand("Hand 4: The makers take between 0 and 5 tricks.")
        assert domain_text.read(numbered) == "Donne 4\xa0: Les faiseurs font de 0 à 5 levées."
        assert domain_text.read(InvalidHand("Something new.")) == "Something new."
    assert domain_text.read(refused) == "Choose the player who reneged."


def test_every_fixed_seating_refusal_of_the_rules_reads_in_the_readers_language() -> None:
    """Each SeatingError the rules raise with a fixed sentence is a msgid of domain_text
    (a new one written in domain/ without it fails here), and the two that carry a number
    read whole in French."""
    import ast

    from django.utils import translation

    from tournaments.common import domain_text
    from tournaments.domain.seating import SeatingError

    fixed = set()
    for name in ("seating.py", "final.py"):
        tree = ast.parse((Path(domain_text.__file__).parent.parent / "domain" / name).read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and getattr(node.exc.func, "id", "") == "SeatingError"
                and node.exc.args
                and isinstance(node.exc.args[0], ast.Constant)
            ):
                fixed.add(node.exc.args[0].value)
    assert len(fixed) >= 8 and fixed <= domain_text.SEATING_REFUSALS
    with translation.override("fr"):
        for text in fixed:
            assert domain_text.read(SeatingError(text)) != text, text
        assert domain_text.read(SeatingError("There is no table 7 to close.")) == (
            "Il n’y a pas de table 7 à fermer."
        )
        empty = SeatingError("3 seats would stay empty: close more tables or add house players.")
        assert domain_text.read(empty) == (
            "3 places resteraient vides\xa0: fermez d’autres tables ou ajoutez des réservistes."
        )
        one = SeatingError("1 seat would stay empty: close a table or add house players.")
        assert domain_text.read(one).startswith("1 place resterait vide")


def test_activity_log_lists_who_when_what_and_why(director_client, make_tournament):
    t, rnd = drawn(make_tournament)
    a1 = rnd.seats.get(table=1, position="N").player
    a2 = rnd.seats.get(table=2, position="N").player
    director_client.post(
        url("swap", t.slug, 1), {"first": a1.pk, "second": a2.pk, "reason": "they asked nicely"}
    )
    page = director_client.get(url("activity", t.slug)).content.decode()
    assert "they asked nicely" in page and "swap" in page and ">director<" in page
    filtered = director_client.get(url("activity", t.slug), {"action": "draw"}).content
    assert b"they asked nicely" not in filtered


def test_overview_pages_render_through_the_whole_event(director_client, make_tournament):
    t = finished_prelims(make_tournament)
    for page in (
        url("home"),
        url("tournament", t.slug),
        url("settings", t.slug),
        url("round", t.slug, 2),
        url("seating", t.slug, 2),
        url("table", t.slug, 2, 1),
        url("players", t.slug),
    ):
        assert director_client.get(page).status_code == 200, page
