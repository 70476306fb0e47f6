"""A director runs a small event from sign-in to champions in real Chromium."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tournaments.core.models.event import Tournament
from tournaments.core.models.rounds import Round
from tournaments.core.reads.standings import standings
from tournaments.core.services import play
from tournaments.domain.hands import Seat
from tournaments.domain.simulation import random_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A_NAMES = [
    "Ann Lee",
    "Bob Novak",
    "Cara Park",
    "Dev Quist",
    "Eli Reyes",
    "Fay Schmidt",
    "Gus Tanaka",
    "Hana Ueda",
]
B_NAMES = [
    "Ivan Vogel",
    "Jo Walsh",
    "Kai Young",
    "Lena Zhang",
    "Max Brandt",
    "Nia Costa",
    "Otto Dunn",
    "Pia Evans",
]


def results_arrive(rnd: Round, seed: int) -> None:
    """The tablets' part: every table plays its match to the end through the services."""
    rng = random.Random(seed)
    for match in rnd.matches.select_related("round__tournament").order_by("table"):
        play.set_first_dealer(match, Seat.N, by=f"Table {match.table}")
        n = 0
        while True:
            n += 1
            result = play.record_hand(
                match,
                random_hand(rng),
                by=f"Table {match.table}",
                client_key=f"b{rnd.pk}-{match.table}-{n}",
            )
            if result.state.over:
                break


def board_row(page: Page, table: int):  # noqa: ANN201 - a Playwright locator
    return page.locator(f'#live-board tr[data-table="{table}"]')


def by_table_row(page: Page, table: int):  # noqa: ANN201
    return page.locator(f'#by-table tr[data-table="{table}"]')


def run_round(page: Page, t: Tournament, number: int, last: bool) -> None:
    page.get_by_role("link", name="Round console").click()
    expect(page.locator("h1")).to_contain_text(f"Round {number}")
    page.get_by_role("button", name="Start the clock").click()
    expect(page.locator(".messages")).to_contain_text(f"Round {number} started.")
    # The countdown ticks from the server's clock: just under the 20 minutes.
    expect(page.locator("[data-countdown-time]")).to_have_text(re.compile(r"^(20:00|19:\d\d)$"))
    expect(board_row(page, 1)).to_contain_text("Waiting")

    results_arrive(t.rounds.get(number=number), seed=number)
    # The board polls: the results show without a reload.
    expect(page.locator("#board-summary")).to_contain_text("4 finished", timeout=10_000)
    rnd = t.rounds.get(number=number)
    m1 = rnd.matches.get(table=1)
    expect(board_row(page, 1)).to_contain_text(f"{m1.score_ns}–{m1.score_ew}")
    expect(board_row(page, 1)).to_contain_text(f"{m1.winner} won")

    label = f"Finalize round {number}" if last else f"Finalize and seat round {number + 1}"
    page.get_by_role("button", name=label).click()


def test_a_director_runs_a_small_event_from_sign_in_to_champions(
    live_server, page, director, tmp_path
):
    base = live_server.url
    page.on("dialog", lambda dialog: dialog.accept())

    # Sign in.
    page.goto(base + "/director/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("h1")).to_have_text("Tournaments")

    # Create a tournament of two preliminary rounds.
    page.get_by_role("link", name="New tournament").click()
    page.fill("#id_name", "Browser Open")
    page.fill("#id_preliminary_rounds", "2")
    page.locator("#advanced > summary").click()  # the rule numbers are folded away
    page.fill("#id_target", "0")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.locator(".settings-form")).to_contain_text(
        "The target score must be between 1 and 100."
    )
    page.fill("#id_target", "10")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.locator("h1")).to_have_text("Players")
    t = Tournament.objects.get(name="Browser Open")
    assert t.preliminary_rounds == 2

    # Import 16 players from a CSV file: preview first, then import.
    csv_file = tmp_path / "players.csv"
    csv_file.write_text(
        "name,division\n"
        + "".join(f"{n},A\n" for n in A_NAMES)
        + "".join(f"{n},B\n" for n in B_NAMES)
    )
    page.get_by_role("link", name="Import CSV").click()
    page.set_input_files("#id_file", str(csv_file))
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#import-summary")).to_have_text("16 players ready to import.")
    expect(page.locator("#import-preview tbody tr")).to_have_count(16)
    page.get_by_role("button", name="Import 16 players").click()
    expect(page.locator(".messages")).to_contain_text("Imported 16 players.")
    expect(page.locator('[data-count="tables"]')).to_have_text("0")
    expect(page.locator("#readiness")).to_contain_text("Cannot seat 0 A players and 0 B players")

    # Check everyone in at the desk: a few letters, one tap.
    page.get_by_role("link", name="Check-in desk").first.click()
    for name in A_NAMES + B_NAMES:
        page.fill("#desk-q", name.split()[1][:4])
        row = page.locator("#desk-results .desk-row", has_text=name)
        row.get_by_role("button", name="Check in").click()
        expect(row).to_contain_text("✓ Checked in")
        # The box clears for the next in line; the check-in joins the last ones listed.
        expect(page.locator("#desk-q")).to_have_value("")
        expect(page.locator("#desk-recent .desk-row").first).to_contain_text(name)
    expect(page.locator('[data-count="A"]')).to_have_text("8")
    expect(page.locator('[data-count="B"]')).to_have_text("8")
    expect(page.locator('[data-count="tables"]')).to_have_text("4")
    expect(page.locator("#readiness")).to_contain_text("Ready: 4 tables")

    # Draw round 1 and read the seating both ways.
    page.get_by_role("link", name="Players").first.click()
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator("h1")).to_have_text("Round 1 seating")
    expect(page.locator("#by-table tbody tr")).to_have_count(4)
    expect(page.locator("#find-your-seat tbody tr")).to_have_count(16)

    # Round 1: start, results arrive, finalize; the rotated seating is shown.
    run_round(page, t, 1, last=False)
    expect(page.locator("h1")).to_have_text("Round 2 seating")
    r1 = t.rounds.get(number=1)
    m1 = r1.matches.get(table=1)
    seats1 = {s.position: s.player.name for s in r1.seats.select_related("player").filter(table=1)}
    aw, bw = (seats1["N"], seats1["S"]) if m1.winner == "NS" else (seats1["E"], seats1["W"])
    # The winners stay at table 1, split: Aw at E, Bw at S.
    expect(by_table_row(page, 1)).to_contain_text(aw)
    expect(by_table_row(page, 1)).to_contain_text(bw)
    r2 = t.rounds.get(number=2)
    assert r2.seats.get(table=1, position="E").player.name == aw
    assert r2.seats.get(table=1, position="S").player.name == bw

    # Round 2, the last preliminary round, ends on the standings.
    run_round(page, t, 2, last=True)
    expect(page.locator("h1")).to_have_text("Standings")
    table = standings(t)
    for division in ("A", "B"):
        leader = table[division][0]
        first_row = page.locator(f"#division-{division} tbody tr").first
        expect(first_row).to_contain_text(leader.player.name)
        expect(first_row.locator("td.total")).to_have_text(str(leader.record.total))

    # The final: who qualified and why, then its games, then the champions.
    page.get_by_role("link", name="Final").first.click()
    a1, a2 = table["A"][0].player.name, table["A"][1].player.name
    expect(page.locator("table.finalists")).to_contain_text(a1)
    expect(page.locator("table.finalists")).to_contain_text("Rank 1 in division A")
    page.get_by_role("button", name="Seed the final").click()
    for game in (1, 2):
        expect(page.locator("#record-hand h2")).to_contain_text(f"Record game {game}")
        page.select_option("#id_seat", "N")
        page.get_by_role("button", name="Set first dealer").click()
        for _ in range(5):
            page.select_option("#id_maker", "N")
            page.select_option("#id_maker_tricks", "5")
            page.get_by_role("button", name="Record hand").click()
    champions = page.locator("#champions")
    expect(champions).to_contain_text(f"{a1} & {a2}")
    expect(champions).to_contain_text("division A pair, 2–0")
    page.get_by_role("button", name="Finish the tournament").click()
    expect(champions).to_contain_text("The tournament is finished.")
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_draw_round_1_is_enabled_by_the_last_check_in_without_a_reload(
    live_server, page, director, make_tournament
):
    from tournaments.core.models.event import Player

    t = make_tournament(2)
    Player.objects.filter(tournament=t, name="Player B004").update(checked_in=False)
    page.goto(live_server.url + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/director/{t.slug}/players/")
    draw = page.get_by_role("button", name="Draw round 1")
    expect(draw).to_be_disabled()
    expect(page.locator("#readiness")).to_contain_text("Not seatable yet")

    page.get_by_role("button", name="Check in Player B004").click()
    expect(page.locator("#readiness")).to_contain_text("Ready: 2 tables")
    # The button follows the box above it, both ways, with no reload.
    expect(draw).to_be_enabled()
    page.get_by_role("button", name="Undo check-in of Player A001").click()
    expect(page.locator("#readiness")).to_contain_text("Not seatable yet")
    expect(draw).to_be_disabled()
    page.get_by_role("button", name="Check in Player A001").click()
    expect(page.locator("#readiness")).to_contain_text("Ready: 2 tables")
    expect(draw).to_be_enabled()
    draw.click()
    expect(page.locator("h1")).to_have_text("Round 1 seating")
    assert t.rounds.count() == 1


def test_a_missing_reason_is_said_before_any_are_you_sure(
    live_server, page, director, make_tournament
):
    """The confirm dialog came before "This field is required"; and naming the first
    dealer of a paper table asked a reason and a confirmation for nothing recorded."""
    from tournaments.core.services import rounds

    t = make_tournament(1)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=2), by="test")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    page.goto(live_server.url + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/1/tables/1/")
    expect(page.locator("#id_fd-reason")).to_have_count(0)
    page.select_option("#id_fd-seat", "S")
    page.get_by_role("button", name="Set the first dealer").click()
    expect(page.locator("#id_fd-reason")).to_be_visible()  # recorded: a change needs one
    assert dialogs == []
    page.select_option("#id_fd-seat", "W")
    page.get_by_role("button", name="Set the first dealer").click()
    # Refused in the page, before any dialog, and nothing sent.
    assert page.locator("#id_fd-reason").evaluate("e => !e.validity.valid")
    assert dialogs == []
    page.fill("#id_fd-reason", "W cut the first jack")
    page.get_by_role("button", name="Set the first dealer").click()
    expect(page.locator("#id_fd-seat")).to_have_value("W")
    assert len(dialogs) == 1 and "first dealer" in dialogs[0]
    assert t.rounds.get(number=1).matches.get(table=1).first_dealer == "W"
