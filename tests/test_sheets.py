"""The printed sheets: each PDF opened with pypdf and read back like a person would."""

from __future__ import annotations

import dataclasses
import re
import subprocess
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

import pytest
import segno
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

import tournaments.core.pdf.standings
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match, TableLink
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.pdf.table_cards import draw_qr
from tournaments.core.reads import sheets
from tournaments.core.reads.standings import standings
from tournaments.core.services.players import edit_player
from tournaments.core.services.rounds import draw_first_round, revoke_link
from tournaments.core.simulate import simulate
from tournaments.domain.hands import Seat, Team

PRINTED = datetime(2026, 1, 10, 9, 0, tzinfo=UTC)


def pdf_pages(data: bytes) -> list[str]:
    """Each page's text as laid out, runs of spaces collapsed: a row reads as one line."""
    return [
        "\n".join(
            " ".join(line.split())
            for line in page.extract_text(extraction_mode="layout").splitlines()
            if line.strip()
        )
        for page in PdfReader(BytesIO(data)).pages
    ]


def pages(response) -> list[str]:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return pdf_pages(b"".join(response.streaming_content))


def url(name: str, *args: object, **query: str) -> str:
    path = reverse(f"sheets:{name}", args=args)
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def event(db) -> Tournament:
    """A whole simulated two-table event: five rounds and the final."""
    return simulate(2, seed=11, name="Simulated Snowman")


@pytest.fixture
def drawn(make_tournament) -> Tournament:
    t = make_tournament(3)
    draw_first_round(t, by="test", seed=5)
    return t


def seated(rnd: Round) -> dict[int, dict[str, str]]:
    tables: dict[int, dict[str, str]] = {}
    for seat in Seating.objects.filter(round=rnd).select_related("player"):
        tables.setdefault(seat.table, {})[seat.position] = seat.player.name
    return tables


# --- standings -------------------------------------------------------------------


def test_standings_sheet_lists_the_division_in_rank_order_with_points_per_round(
    director_client, event
):
    text = pages(director_client.get(url("standings", event.slug, "A")))
    assert len(text) == 1
    page = text[0]
    assert "Simulated Snowman" in page
    assert "Standings, division A" in page and "After round 5 of 5" in page
    assert "Page 1 of 1" in page
    for header in ("Rank", "Player", "R1", "R5", "Bonus", "Awards", "Total", "Wins", "Margin"):
        assert header in page
    rows = standings(event)["A"]
    positions = [page.index(row.player.name) for row in rows]
    assert positions == sorted(positions), "players are printed in rank order"
    lines = page.splitlines()
    for row in rows:
        line = next(line for line in lines if row.player.name in line)
        numbers = re.findall(r"[+-]?\d+", line.split(row.player.name, 1)[1])
        per_round = [str(row.by_round[n]) for n in range(1, 6)]
        assert numbers[:5] == per_round
        assert numbers[-3:] == [
            str(row.record.total),
            str(row.record.wins),
            f"{row.record.margin:+d}" if row.record.margin else "0",
        ]
    assert not any(row.player.name in page for row in standings(event)["B"])


def test_one_standings_sheet_prints_division_a_then_division_b_each_from_its_own_page(
    director_client, event
):
    text = pages(director_client.get(url("standings_both", event.slug)))
    rows = standings(event)
    starts = [i for i, page in enumerate(text) if "Standings, division" in page]
    assert len(starts) == 2, "each division begins its own page"
    a, b = text[starts[0]], text[starts[1]]
    assert "Standings, division A" in a and "Standings, division B" in b
    assert all(row.player.name in a for row in rows["A"])
    assert all(row.player.name in b for row in rows["B"])
    assert not any(row.player.name in a for row in rows["B"])
    # Each page's foot names its own division; the pages are numbered through.
    assert "standings, division A" in a.splitlines()[-1]
    assert "standings, division B" in b.splitlines()[-1]
    assert f"Page {len(text)} of {len(text)}" in text[-1]
    # The same rows as each division's own sheet.
    for division, page in (("A", a), ("B", b)):
        alone = pages(director_client.get(url("standings", event.slug, division)))[0]
        assert alone.splitlines()[2:-1] == page.splitlines()[2:-1]


def test_standings_header_repeats_on_every_page_and_pages_are_numbered(db):
    lines = tuple(
        sheets.StandingLine(
            rank=i,
            shared=False,
            name=f"Player {i:04d}",
            withdrawn=False,
            by_round=(5, 6, 7, None, None),
            bonuses=1,
            individual=0,
            total=18,
            wins=2,
            margin=3,
            by_lot=False,
        )
        for i in range(1, 201)
    )
    sheet = sheets.StandingsSheet(
        "Big Night", "B", (1, 2, 3, 4, 5), "After round 3 of 5", 42, lines, PRINTED
    )
    text = pdf_pages(tournaments.core.pdf.standings.build(sheet, "letter"))
    assert len(text) > 2
    for number, page in enumerate(text, start=1):
        assert "Rank" in page and "Player" in page and "Margin" in page
        assert f"Page {number} of {len(text)}" in page
    everything = "\n".join(text)
    assert all(f"Player {i:04d}" in everything for i in range(1, 201))


def test_the_directors_copy_says_not_for_posting_at_the_head_of_every_page(db):
    line = sheets.StandingLine(1, False, "Player", False, (5, None), 1, 0, 6, 1, 3, False)
    mark = "Director's copy — not for posting: includes hidden rounds."
    sheet = sheets.StandingsSheet(
        "Big Night", "A", (1, 2), "Round 2 in progress", 42, (line,) * 150, PRINTED, "", mark
    )
    text = pdf_pages(tournaments.core.pdf.standings.build(sheet, "letter"))
    assert len(text) > 2
    assert all(page.splitlines()[0] == mark for page in text)
    # The wall's copy carries no such mark.
    wall = pdf_pages(
        tournaments.core.pdf.standings.build(dataclasses.replace(sheet, director_mark=""))
    )
    assert not any("not for posting" in page for page in wall)


def test_before_the_final_the_sheet_shows_shared_ranks_and_not_the_lot(director_client, drawn):
    # §4: only players who played are ranked. Every table of round 1 ends alike (one
    # march by N), so the three B winners tie on everything, and so do the three losers.
    from tournaments.core.services import closing, play
    from tournaments.core.services.rounds import finalize_round, start_round
    from tournaments.domain.hands import Hand, Outcome

    Tournament.objects.filter(pk=drawn.pk).update(target=2)
    rnd = start_round(drawn.rounds.get(), by="test")
    for m in rnd.matches.select_related("round__tournament"):
        play.set_first_dealer(m, Seat.W, by="test")
        play.record_hand(
            m, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), client_key=f"s{m.pk}", by="t"
        )
        closing.confirm_match(m, agree=True, by="t")
    finalize_round(rnd, by="test")
    page = pages(director_client.get(url("standings", drawn.slug, "B")))[0]
    assert "After round 1" in page
    # Three winners and three losers, equal on everything: "=1" and "=4", no lot order.
    assert page.count("=1 ") == 3 and page.count("=4 ") == 3
    assert "†" not in page and "=3: a rank shared" in page


def test_once_the_final_is_seeded_the_sheet_shows_the_lots_order_with_its_seed(
    director_client, make_tournament
):
    from tournaments.core.services import closing, play
    from tournaments.core.services.rounds import finalize_round, start_round
    from tournaments.core.services.standings import seed_final
    from tournaments.domain.hands import Hand, Outcome

    t = make_tournament(3, preliminary_rounds=1, target=2)
    rnd = start_round(draw_first_round(t, by="test", seed=5), by="test")
    for m in rnd.matches.select_related("round__tournament"):
        play.set_first_dealer(m, Seat.W, by="test")
        play.record_hand(
            m, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), client_key=f"f{m.pk}", by="t"
        )
        closing.confirm_match(m, agree=True, by="t")
    finalize_round(rnd, by="test")
    seed_final(t, by="director")
    page = pages(director_client.get(url("standings", t.slug, "B")))[0]
    # The lot decided who entered the final: its order, marked, with its seed.
    assert "1†" in page and "6†" in page and "=1 " not in page
    assert f"seed {t.lot_seed}" in page


def test_shared_ranks_and_withdrawn_players_are_marked(db):
    def line(rank: int, name: str, withdrawn: bool = False) -> sheets.StandingLine:
        return sheets.StandingLine(rank, rank == 2, name, withdrawn, (3,), 0, 0, 3, 1, 0, False)

    sheet = sheets.StandingsSheet(
        "Club",
        "A",
        (1,),
        "After round 1 of 1",
        1,
        (line(1, "Ann"), line(2, "Bob"), line(2, "Cy", True)),
        PRINTED,
    )
    page = pdf_pages(tournaments.core.pdf.standings.build(sheet))[0]
    assert "=2 Bob" in page and "Cy (withdrawn)" in page


def test_names_with_accents_render_on_every_sheet(director_client, event):
    a_player = Player.objects.filter(tournament=event, division="A").first()
    b_player = Player.objects.filter(tournament=event, division="B").first()
    edit_player(a_player, name="José Müller-Ångström", division="A", by="test")
    # Outside Helvetica's encoding: the sheet switches to an embedded Unicode font.
    edit_player(b_player, name="Łukasz Dvořák", division="B", by="test")

    def text(name: str, *args: object) -> str:
        return "\n".join(pages(director_client.get(url(name, *args))))

    assert "José Müller-Ångström" in text("standings", event.slug, "A")
    assert "Łukasz Dvořák" in text("standings", event.slug, "B")
    for sheet in (text("seating", event.slug, 1), text("scoresheets", event.slug, 1)):
        assert "José Müller-Ångström (A)" in sheet and "Łukasz Dvořák (B)" in sheet
    assert "José Müller-Ångström" in text("final", event.slug)
    cards = sheets.table_cards(event, lambda token: token)
    assert cards is not None
    from tournaments.core.pdf import table_cards

    seats = dict(cards.cards[0].seats)
    seats[Seat.W] = sheets.Seated("Łukasz Dvořák", "B")
    card = sheets.TableCard(1, "https://x.example/t/a/", seats)
    page = pdf_pages(
        table_cards.build(sheets.TableCards("Zürich Open", "Final", (card,), PRINTED))
    )[0]
    assert "Łukasz Dvořák (B)" in page and "Zürich Open" in page


# --- seating ---------------------------------------------------------------------


def test_seating_chart_lists_each_table_then_every_player_alphabetically(director_client, drawn):
    rnd = drawn.rounds.get(number=1)
    text = pages(director_client.get(url("seating", drawn.slug, 1)))
    assert len(text) == 2
    by_table, by_name = text
    assert "Seating by table" in by_table and "Round 1" in by_table
    tables = seated(rnd)
    for seats in tables.values():
        for position, name in seats.items():
            division = "A" if position in "NE" else "B"
            assert f"{position} {name} ({division})" in by_table
    assert "Find your seat" in by_name
    names = sorted(n for seats in tables.values() for n in seats.values())
    positions = [by_name.index(n + " (") for n in names]
    assert positions == sorted(positions), "the find-your-seat list is alphabetical"
    for table, seats in tables.items():
        for position, name in seats.items():
            partner = seats[Seat(position).partner.value]
            assert (
                f"{name} ({'A' if position in 'NE' else 'B'}) {table} {position} {partner}"
                in by_name
            )


def test_find_your_seat_files_accented_names_under_their_base_letter():
    names = ["Zoe", "Łukasz", "Oscar", "Ørjan", "émile", "Eli", "Åsa", "lena"]
    assert sorted(names, key=sheets.sort_key) == [
        "Åsa",
        "Eli",
        "émile",
        "lena",
        "Łukasz",
        "Ørjan",
        "Oscar",
        "Zoe",
    ]


def test_seating_for_a_large_round_runs_to_several_numbered_pages(db):
    tables = tuple(
        sheets.TableLine(
            t, {s: sheets.Seated(f"P{t}{s.value}", "A" if s in "NE" else "B") for s in Seat}
        )
        for t in range(1, 121)
    )
    players = tuple(
        sheets.FindLine(f"P{t}{s.value}", "A", t, s, f"P{t}{s.partner.value}")
        for t in range(1, 121)
        for s in Seat
    )
    from tournaments.core.pdf import seating

    sheet = sheets.SeatingSheet("Huge", "Round 2", tables, players, PRINTED)
    text = pdf_pages(seating.build(sheet, "a4"))
    assert len(text) > 4
    assert all(f"Page {i} of {len(text)}" in p for i, p in enumerate(text, start=1))
    everything = "\n".join(text)
    assert everything.count("Find your seat") == 1
    assert all(f"P{t}W" in everything for t in range(1, 121))


# --- table cards -----------------------------------------------------------------


def test_table_cards_are_one_page_per_table_with_number_link_and_seats(director_client, drawn):
    revoke_link(drawn, 2, by="test")  # the card must carry the new link, not the old one
    text = pages(director_client.get(url("table_cards", drawn.slug)))
    assert len(text) == 3
    tables = seated(drawn.rounds.get(number=1))
    links = dict(
        TableLink.objects.filter(tournament=drawn, revoked_at__isnull=True).values_list(
            "table", "token"
        )
    )
    for table, page in enumerate(text, start=1):
        assert "TABLE" in page and f"Table {table}" in page
        assert f"http://testserver/t/{links[table]}/" in page
        for name in tables[table].values():
            assert name in page
    revoked = TableLink.objects.get(tournament=drawn, table=2, revoked_at__isnull=False)
    assert revoked.token not in "".join(text)


def test_the_printed_qr_code_is_the_link(tmp_path):
    link = "https://snowman.example/t/abc123-TOKEN_xyz/"
    qr = segno.make(link, error="m")
    modules = len(list(qr.matrix_iter(scale=1, border=4)))
    out = tmp_path / "qr.pdf"
    c = Canvas(str(out), pagesize=(modules * 10, modules * 10))
    draw_qr(c, link, 0, 0, modules * 10)
    c.showPage()
    c.save()
    subprocess.run(
        ["pdftoppm", "-r", "72", "-png", "-singlefile", str(out), str(tmp_path / "qr")], check=True
    )
    image = Image.open(tmp_path / "qr.png").convert("L")
    seen = [
        [image.getpixel((x * 10 + 5, y * 10 + 5)) < 128 for x in range(modules)]
        for y in range(modules)
    ]
    expected = [[bool(v) for v in row] for row in qr.matrix_iter(scale=1, border=4)]
    assert seen == expected


def test_table_cards_follow_the_current_round(director_client, event):
    # After the final, only the final's table is in play.
    text = pages(director_client.get(url("table_cards", event.slug)))
    assert len(text) == 1 and "Final" in text[0]


# --- scoresheets -----------------------------------------------------------------


def test_scoresheets_have_a_page_per_table_with_names_grid_boxes_and_signatures(
    director_client, drawn
):
    text = pages(director_client.get(url("scoresheets", drawn.slug, 1)))
    assert len(text) == 3
    tables = seated(drawn.rounds.get(number=1))
    for table, page in enumerate(text, start=1):
        assert f"Table {table}" in page and "Backup scoresheet" in page
        for position, name in tables[table].items():
            assert f"{position} {name}" in page
        for label in (
            "Dealer",
            "Makers",
            "Alone",
            "Tricks",
            "points",
            "total",
            "Time called at",
            "Reach bonus (+1)",
            "Skunk bonus (+2)",
            "Renege penalty (-2)",
            "Team NS",
            "Team EW",
            "signature",
        ):
            assert label in page
        assert "First dealer (circle)" in page
        assert "\n20 " in page  # twenty hand rows


def test_a_scoresheet_for_one_table_carries_the_hands_already_recorded(director_client, event):
    match = Match.objects.get(round__tournament=event, round__number=3, table=2)
    text = pages(director_client.get(url("scoresheets", event.slug, 3, table="2")))
    assert len(text) == 1
    page = text[0]
    assert "Table 2" in page and f"First dealer: {match.first_dealer}" in page
    assert f"{match.hands_played} hands already recorded" in " ".join(page.split())
    state = sheets.scoresheets(match.round, 2).sheets[0]
    last = state.hands[-1]
    assert (last.total_ns, last.total_ew) == (match.score_ns, match.score_ew)
    dealer = Seat(match.first_dealer).clockwise(match.hands_played)
    assert f"\n{match.hands_played + 1} {dealer.value} NS / EW" in page


def test_final_scoresheets_have_a_page_for_every_game_and_no_bonus_boxes(director_client, event):
    final = event.rounds.get(kind=Round.Kind.FINAL)
    text = pages(director_client.get(url("scoresheets", event.slug, final.number)))
    assert len(text) == 3  # best of three
    for game, page in enumerate(text, start=1):
        assert f"game {game}" in page and "Final" in page
        assert "Reach bonus" not in page and "Game won by" in page


# --- final results ---------------------------------------------------------------


def test_final_results_show_the_champions_the_games_and_the_top_of_each_division(
    director_client, event
):
    page = "\n".join(pages(director_client.get(url("final", event.slug))))
    final = event.rounds.get(kind=Round.Kind.FINAL)
    names = seated(final)[1]
    games = list(final.matches.order_by("game"))
    champions = Team(games[-1].winner)
    pair = " & ".join(names[s.value] for s in champions.seats)
    assert "Final results" in page and "Champions" in page and pair in page
    for g in games:
        assert f"\n{g.game} {g.score_ns} {g.score_ew} {g.winner}" in page
    for division, rows in standings(event).items():
        assert f"Division {division}" in page
        assert all(row.player.name in page for row in rows)


def test_final_results_name_whom_the_seeding_skipped_even_once_reinstated(
    director_client, make_tournament
):
    from tests.test_public_phones import event_after, fake_results
    from tournaments.core.services.players import set_withdrawn
    from tournaments.core.services.standings import seed_final

    t = event_after(make_tournament, 2, 0, preliminary_rounds=1)
    fake_results(t.rounds.get(number=1))
    leader = standings(t)["A"][0].player
    set_withdrawn(leader, True, by="director")
    seed_final(t, by="director")
    page = "\n".join(pages(director_client.get(url("final", t.slug))))
    # The top of division A marks her, the mark wrapped under the name.
    assert f"1 {leader.name} (withdrawn" in page and "\nafter round 1)" in page
    set_withdrawn(leader, False, by="director", reason="withdrawn by mistake")
    page = "\n".join(pages(director_client.get(url("final", t.slug))))
    assert f"Skipped for the final: {leader.name} (division A): withdrawn after round 1" in page


def test_final_results_before_the_final_say_so(director_client, drawn):
    page = pages(director_client.get(url("final", drawn.slug)))[0]
    assert "Not yet decided" in page and "not seated yet" in page


# --- the downloads ---------------------------------------------------------------


@pytest.mark.parametrize(("paper", "size"), [("letter", (612, 792)), ("a4", (595, 842))])
def test_every_sheet_comes_in_letter_and_a4(director_client, drawn, paper, size):
    for name, args in [
        ("standings", (drawn.slug, "A")),
        ("seating", (drawn.slug, 1)),
        ("table_cards", (drawn.slug,)),
        ("scoresheets", (drawn.slug, 1)),
        ("final", (drawn.slug,)),
    ]:
        response = director_client.get(url(name, *args, paper=paper))
        assert response.status_code == 200
        assert response["Content-Disposition"].startswith("inline; filename=")
        assert paper in response["Content-Disposition"]
        box = PdfReader(BytesIO(b"".join(response.streaming_content))).pages[0].mediabox
        assert (round(box.width), round(box.height)) == size


def test_sheets_need_a_staff_login(client, django_user_model, drawn):
    target = url("standings", drawn.slug, "A")
    assert client.get(target).status_code == 302
    player = django_user_model.objects.create_user("player", password="x-long-password-1")
    client.force_login(player)
    response = client.get(target)
    assert response.status_code == 302 and response["Content-Type"] != "application/pdf"


@pytest.mark.parametrize(
    ("name", "args", "query", "status"),
    [
        ("standings", ("nope", "A"), {}, 404),
        ("standings", (None, "C"), {}, 404),
        ("standings", (None, "A"), {"paper": "legal"}, 400),
        ("standings", (None, "A"), {"copy": "fridge"}, 400),
        ("seating", (None, 9), {}, 404),
        ("seating", (None, 99999999999999999999), {}, 404),
        ("scoresheets", (None, 2), {}, 404),
        ("scoresheets", (None, 1), {"table": "x"}, 400),
        ("scoresheets", (None, 1), {"table": "0"}, 400),
        ("scoresheets", (None, 1), {"table": "99999999999999"}, 400),
        ("scoresheets", (None, 1), {"table": "4"}, 404),
        ("final", ("nope",), {}, 404),
        ("table_cards", ("nope",), {}, 404),
    ],
)
def test_bad_arguments_are_refused_clearly(director_client, drawn, name, args, query, status):
    args = tuple(drawn.slug if a is None else a for a in args)
    assert director_client.get(url(name, *args, **query)).status_code == status


def test_table_cards_before_the_draw_are_not_found(director_client, make_tournament):
    t = make_tournament(2)
    assert director_client.get(url("table_cards", t.slug)).status_code == 404
    # The standings of registered players print (everyone level) before round 1.
    assert "Before round 1" in pages(director_client.get(url("standings", t.slug, "A")))[0]


def test_a_scoresheet_caps_the_running_totals_when_scores_are_capped(make_tournament):
    from tournaments.core.services import play
    from tournaments.core.services.rounds import start_round
    from tournaments.domain.hands import Hand, Outcome

    t = make_tournament(1, cap_at_target=True)
    rnd = draw_first_round(t, by="test", seed=5)
    start_round(rnd, by="test")
    match = rnd.matches.select_related("round__tournament").get()
    play.set_first_dealer(match, Seat.N, by="test")
    hands = [Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5)] * 4  # 8 points
    hands.append(Hand(Outcome.PLAYED, maker=Seat.S, alone=True, maker_tricks=5))  # +4
    for n, hand in enumerate(hands):
        play.record_hand(match, hand, client_key=f"cap-{n}", by="test")
    match.refresh_from_db()
    assert (match.score_ns, match.score_ew) == (10, 0)
    last = sheets.scoresheets(rnd, 1).sheets[0].hands[-1]
    assert (last.points_ns, last.total_ns, last.total_ew) == (4, 10, 0)


def test_the_screen_and_printed_find_your_seat_lists_order_accented_names_alike(
    make_tournament, director_client
):
    from html import unescape

    from tournaments.core.reads import console

    t = make_tournament(2)
    accented = ["Łukasz", "émile", "Ørjan", "zoë", "Åsa", "ELI", "lena", "Oscar"]
    for player, name in zip(t.players.order_by("pk"), accented, strict=False):
        edit_player(player, name=name, division=player.division, by="test")
    rnd = draw_first_round(t, by="test", seed=5)
    printed = [line.name for line in sheets.seating_sheet(rnd).players]
    screen = [line.name for line in console.find_your_seat(console.seating_tables(rnd))]
    assert screen == printed
    page = director_client.get(reverse("director:seating", args=[t.slug, rnd.number]))
    finder = page.content.decode().split('id="find-your-seat"', 1)[1].split("</table>", 1)[0]
    first_cells = re.findall(r"<tr[^>]*>\s*<td[^>]*>(.*?)</td>", finder, re.S)
    assert [unescape(c).strip() for c in first_cells] == printed
    assert [n for n in printed if n in accented] == [
        "Åsa",
        "ELI",
        "émile",
        "lena",
        "Łukasz",
        "Ørjan",
        "Oscar",
        "zoë",
    ]


def test_a_sheet_link_to_a_route_that_does_not_exist_is_an_error_not_a_missing_button():
    from django.urls import NoReverseMatch

    from tournaments.core.views.director.common import url_with_query

    assert url_with_query("sheets:final", "club", query="paper=a4") == (
        "/director/sheets/club/final.pdf?paper=a4"
    )
    with pytest.raises(NoReverseMatch):
        url_with_query("sheets:no_such_sheet", "club", query="paper=a4")


# --- house players (§6: "house" everywhere) -----------------------------------------------


@pytest.fixture
def house(drawn) -> Tournament:
    """Round 1 drawn, a house player in the South seat of table 1."""
    seat = Seating.objects.get(round__tournament=drawn, round__number=1, table=1, position="S")
    hal = Player.objects.create(
        tournament=drawn, name="House Hal", division=seat.player.division, house=True
    )
    seat.player = hal
    seat.save(update_fields=["player"])
    return drawn


@pytest.mark.parametrize(("language", "word"), [("en", "house"), ("fr", "réserviste")])
def test_every_sheet_that_seats_players_marks_a_house_player_house(
    director_client, house, language, word
):
    director_client.cookies["django_language"] = language
    printed = {
        "seating": url("seating", house.slug, 1),
        "table cards": url("table_cards", house.slug),
        "scoresheets": url("scoresheets", house.slug, 1),
    }
    for sheet, address in printed.items():
        text = "\n".join(pages(director_client.get(address)))
        # The seating sheet names each player twice: at the table, and in the list.
        assert text.count(f"House Hal ({word})") == (2 if sheet == "seating" else 1), sheet
        assert not re.search(r"House Hal \([AB]\)", text), sheet
        assert re.search(r"Player A\d{3} \(A\)", text), sheet  # the others by division


def test_no_sheet_or_screen_prints_a_seats_mark_but_through_the_one_house_word():
    """A new place that prints a division beside a name itself would print a house
    player's division: every mark comes from bilingual.player_mark (the sheets, the
    tablet's markOf) and every "house" from bilingual.house or its msgid."""
    root = Path(__file__).resolve().parent.parent
    # models.py's Player.__str__ is the admin's and the log's "Ann (A)", read by staff.
    sources = [
        *(
            p
            for p in (root / "tournaments").rglob("*.py")
            if p.name != "models.py" and "models" not in p.parts
        ),
        *(root / "templates").rglob("*.html"),
        *(root / "static").rglob("*.js"),
    ]
    own_mark = re.compile(
        r"\(\{[\w.]*division\}\)"  # f"{name} ({player.division})"
        r"|\(\$\{[\w.]*division\}\)"  # `${name} (${s.division})`
        r"|text: [\w.]*division\b"  # the tablet's mark span
        r"|\b_\(\s*\"house\"\s*\)"  # a "house" of its own, not the house player's msgid
        r'|\bgettext\(\s*"house"\s*\)'
        r'|\{% translate "house" %\}'
    )
    found = [
        f"{path.relative_to(root)}: {m.group(0)}"
        for path in sources
        for m in own_mark.finditer(path.read_text())
    ]
    assert not found


# --- the event's paper ------------------------------------------------------------------


def page_width(response) -> float:
    assert response.status_code == 200
    return float(PdfReader(BytesIO(b"".join(response.streaming_content))).pages[0].mediabox.width)


LETTER_WIDTH, A4_WIDTH = 612.0, 595.28


def test_every_sheet_prints_on_the_events_paper_unless_the_print_names_another(
    director_client, event
):
    from tournaments.core.forms import TournamentForm

    edit = {k: v for k, v in TournamentForm.initial_for(event).items() if v not in (False, None)}
    r = director_client.post(
        reverse("director:settings", args=[event.slug]), {**edit, "paper": "a4"}
    )
    assert r.status_code == 302
    event.refresh_from_db()
    assert event.paper == "a4"
    sheets_of_event = [
        url("standings_both", event.slug),
        url("standings", event.slug, "A"),
        url("table_cards", event.slug),
        url("final", event.slug),
        reverse("sheets:prizes", args=[event.slug]),
    ]
    for address in sheets_of_event:
        assert page_width(director_client.get(address)) == pytest.approx(A4_WIDTH, abs=1)
        glue = "&" if "?" in address else "?"
        explicit = director_client.get(address + glue + "paper=letter")
        assert page_width(explicit) == pytest.approx(LETTER_WIDTH, abs=1), address
    # A form that leaves the field out keeps the event's paper.
    edit.pop("paper")
    director_client.post(reverse("director:settings", args=[event.slug]), edit)
    event.refresh_from_db()
    assert event.paper == "a4"


def test_a_new_event_takes_the_paper_chosen_on_the_create_form(director_client, db):
    from tournaments.core.forms import TournamentForm

    form = {k: v for k, v in TournamentForm.initial_for(None).items() if v not in (False, None)}
    assert form["paper"] == "letter"
    r = director_client.post(
        reverse("director:create"), {**form, "name": "A4 Night", "paper": "a4"}
    )
    assert r.status_code == 302
    assert Tournament.objects.get(name="A4 Night").paper == "a4"
    refused = director_client.post(
        reverse("director:create"), {**form, "name": "Legal Night", "paper": "legal"}
    )
    assert refused.status_code == 422
    assert not Tournament.objects.filter(name="Legal Night").exists()


def test_the_print_links_name_the_events_paper_with_the_other_size_beside(director_client, event):
    page = director_client.get(reverse("director:standings", args=[event.slug])).content.decode()
    both = reverse("sheets:standings_both", args=[event.slug])
    assert f'href="{both}?paper=letter"' in page
    assert 'class="other-paper"' in page and f'href="{both}?paper=a4"' in page
    assert page.count("?paper=a4") == page.count("?paper=letter")
    assert re.search(r'<a class="button" href="[^"]*\?paper=letter">', page)
    assert not re.search(r'<a class="button" href="[^"]*\?paper=a4">', page)
    Tournament.objects.filter(pk=event.pk).update(paper="a4")
    page = director_client.get(reverse("director:standings", args=[event.slug])).content.decode()
    assert re.search(r'<a class="button" href="[^"]*\?paper=a4">', page)
    assert not re.search(r'<a class="button" href="[^"]*\?paper=letter">', page)
