"""A messy room in real Chromium (§6): a player withdraws mid-match and a substitute
comes in, one arrives late, a house player fills a hole, a table closes, and the final
skips a withdrawn leader with the reason shown."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.rounds import Round, Substitution
from tournaments.core.reads.standings import standings
from tournaments.core.services import closing, play, rounds
from tournaments.core.services.players import register_player, set_withdrawn
from tournaments.domain.hands import Hand, Outcome, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(os.environ.get("SNOWMAN_SHOTS", "/tmp/snowman-shots"))


def march(match, key: str, maker: str = "N") -> None:
    play.record_hand(
        match, Hand(Outcome.PLAYED, maker=Seat(maker), maker_tricks=5), client_key=key, by="t"
    )


def play_out(rnd: Round) -> None:
    for m in rnd.matches.select_related("round__tournament").order_by("table"):
        if not m.first_dealer:
            play.set_first_dealer(m, Seat.W, by="t")
        m.refresh_from_db()
        n = 0
        while not m.is_over:
            n += 1
            march(m, f"b{rnd.pk}-{m.table}-{n}")
            m.refresh_from_db()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def withdraw(page: Page, base: str, t: Tournament, name: str) -> None:
    page.goto(f"{base}/director/{t.slug}/players/?q={name.replace(' ', '+')}")
    page.locator(f"tr:has-text('{name}')").get_by_role("button", name="withdraw").click()


def test_a_messy_room_from_substitute_to_a_final_without_the_withdrawn_leader(
    live_server, page, make_tournament
):
    from django.contrib.auth import get_user_model

    from tournaments.clubs.services import assign

    user = get_user_model().objects.create_user(
        "director", password="a-long-pass-word", is_staff=True
    )
    assign(user, "director")  # a staff flag alone is no role
    t = make_tournament(4, preliminary_rounds=2, target=3)
    base = live_server.url
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(base + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-pass-word")
    page.get_by_role("button", name="Sign in").click()

    r1 = rounds.start_round(rounds.draw_first_round(t, by="director", seed=9), by="director")
    m1 = r1.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(m1, Seat.W, by="t")
    march(m1, "h1", "E")  # EW 2-0 after hand 1
    leaving = r1.seats.get(table=1, position="N").player
    register_player(t, "Sub Sam", "A", by="desk", checked_in=True)

    # A player withdraws mid-match: the director is taken to the table to substitute.
    withdraw(page, base, t, leaving.name)
    expect(page.locator(".messages")).to_contain_text("name a substitute")
    expect(page.locator("h1")).to_contain_text("Round 1, table 1")
    page.select_option("#sub-seat", "N")
    page.select_option("#sub-player", label="Sub Sam (A, waiting)")
    page.fill("#sub-hand", "2")
    page.fill("#sub-reason", "felt unwell")
    page.get_by_role("button", name="Substitute").click()
    expect(page.locator("#substitution")).to_contain_text(f"Sub Sam for {leaving.name} from hand 2")
    shot(page, "attendance-table-substitute")
    assert Substitution.objects.get().player_in.name == "Sub Sam"

    # Between rounds: a late arrival, a house player, and three more withdrawals.
    play_out(r1)
    for m in r1.matches.all():
        closing.confirm_match(m, agree=True, by="t")
    register_player(t, "Late Liz", "A", by="desk", checked_in=True)
    page.goto(f"{base}/director/{t.slug}/players/")
    page.fill("#id_house-name", "Helper Hal")
    page.select_option("#id_house-division", "B")
    page.get_by_role("button", name="Add house player").click()
    expect(page.locator(".messages")).to_contain_text("Added house player Helper Hal")
    r1 = Round.objects.get(pk=r1.pk)
    # Five A players fewer (Liz aside) close a table and still leave an A hole that
    # only Hal can fill: a closed table's players fill their own division first (§6).
    a_gone = [r1.seats.get(table=n, position="E").player for n in (2, 3, 4)]
    a_gone.append(r1.seats.get(table=2, position="N").player)
    b_gone = r1.seats.get(table=3, position="S").player
    for p in [*a_gone, b_gone]:
        set_withdrawn(p, True, by="director", reason="left after round 1")

    # Finalizing round 1 leads to the preview, with every change highlighted.
    page.goto(f"{base}/director/{t.slug}/rounds/1/")
    page.get_by_role("button", name="Finalize and seat round 2").click()
    expect(page.locator("h1")).to_have_text("Round 2: preview")
    summary = page.locator("#summary")
    expect(summary).to_contain_text("5 holes")
    expect(page.locator("#changes")).to_contain_text("Late Liz")
    expect(page.locator("#changes")).to_contain_text("Helper Hal")
    expect(page.locator("#changes")).to_contain_text("house player fills a hole")
    expect(page.locator("#closed")).to_contain_text("Closing table")
    shot(page, "attendance-preview")
    assert t.rounds.count() == 1
    page.get_by_role("button", name=re.compile("Confirm and seat round 2")).click()
    expect(page.locator("h1")).to_have_text("Round 2 seating")
    expect(page.locator("#by-table tbody tr")).to_have_count(3)
    expect(page.locator("#by-table")).to_contain_text("house")
    shot(page, "attendance-seating-round-2")
    r2 = t.rounds.get(number=2)
    names = {s.player.name for s in r2.seats.select_related("player")}
    assert {"Late Liz", "Helper Hal"} <= names and not names & {p.name for p in a_gone}

    # Round 2 is played; the A leader withdraws; the final skips them and says why.
    rounds.start_round(r2, by="director")
    play_out(r2)
    for m in r2.matches.all():
        closing.confirm_match(m, agree=True, by="t")
    rounds.finalize_round(r2, by="director")
    leader = standings(t)["A"][0].player
    withdraw(page, base, t, leader.name)
    page.goto(f"{base}/director/{t.slug}/final/")
    expect(page.locator("p.skipped").filter(has_text=leader.name)).to_contain_text(
        f"{leader.name} (division A) is skipped: withdrawn after round 2"
    )
    shot(page, "attendance-final-skipped")
    page.get_by_role("button", name="Seed the final").click()
    expect(page.locator("table.finalists")).to_contain_text(
        f"({leader.name}, withdrawn after round 2: cannot enter the final)"
    )
    shot(page, "attendance-final-seeded")
    final = t.rounds.get(kind=Round.Kind.FINAL)
    assert not final.seats.filter(player=leader).exists()
    assert not Player.objects.filter(pk__in=final.seats.values("player"), house=True).exists()


def sign_in(live_server, page: Page) -> str:
    from django.contrib.auth import get_user_model

    from tournaments.clubs.services import assign

    user = get_user_model().objects.create_user(
        "director", password="a-long-pass-word", is_staff=True
    )
    assign(user, "director")
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(live_server.url + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-pass-word")
    page.get_by_role("button", name="Sign in").click()
    return live_server.url


def test_the_director_replaces_then_undoes_a_wrong_substitute_in_the_browser(
    live_server, page, make_tournament
):
    base = sign_in(live_server, page)
    t = make_tournament(2, target=5)
    r1 = rounds.start_round(rounds.draw_first_round(t, by="director", seed=9), by="director")
    m1 = r1.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(m1, Seat.W, by="t")
    leaving = r1.seats.get(table=1, position="S").player
    register_player(t, "Wrong Wes", "B", by="desk", checked_in=True)
    register_player(t, "Right Rae", "B", by="desk", checked_in=True)
    page.goto(f"{base}/director/{t.slug}/rounds/1/tables/1/")
    page.select_option("#sub-seat", "S")
    page.select_option("#sub-player", label="Wrong Wes (B, waiting)")
    page.fill("#sub-hand", "1")
    page.get_by_role("button", name="Substitute").click()
    expect(page.locator("#substitution")).to_contain_text(f"Wrong Wes for {leaving.name}")
    page.get_by_text("Correct this substitution").click()
    fix = page.locator(".correct-substitution form")
    fix.locator("select").select_option(label="Right Rae (B, waiting)")
    fix.locator("input[name=reason]").fill("wrong name picked")
    shot(page, "attendance-correct-substitution")
    fix.get_by_role("button", name="Replace the substitute").click()
    expect(page.locator("#substitution")).to_contain_text(f"Right Rae for {leaving.name}")
    assert r1.seats.get(table=1, position="S").player.name == "Right Rae"
    # Without a reason the undo is refused and says why, in the form before any dialog;
    # nothing changes.
    page.get_by_text("Correct this substitution").click()
    fix = page.locator(".correct-substitution form")
    fix.get_by_role("button", name="Undo the substitution").click()
    reason = fix.locator("input[name=reason]")
    assert reason.evaluate("e => !e.validity.valid && e.validationMessage !== ''")
    assert r1.seats.get(table=1, position="S").player.name == "Right Rae"
    fix.locator("input[name=reason]").fill("nobody left after all")
    fix.get_by_role("button", name="Undo the substitution").click()
    expect(page.locator(".messages")).to_contain_text(f"{leaving.name} holds seat S again")
    assert r1.seats.get(table=1, position="S").player == leaving
    assert not Substitution.objects.exists()


def test_the_director_picks_who_sits_out_round_one_in_the_browser(
    live_server, page, make_tournament
):
    base = sign_in(live_server, page)
    t = make_tournament(2)
    register_player(t, "Keen Kim", "A", by="desk", checked_in=True)
    page.goto(f"{base}/director/{t.slug}/draw/remedy/")
    choice = page.locator("fieldset.sit-out-choice")
    expect(choice.locator("input:checked")).to_have_count(1)
    choice.locator("input:checked").uncheck()
    choice.get_by_label("Player A003").check()
    page.fill("#remedy-reason", "arrives at 10:30")
    shot(page, "attendance-round-one-sit-out-choice")
    page.locator("form[data-remedy=sit-out]").get_by_role(
        "button", name="Draw round 1 this way"
    ).click()
    expect(page.locator("h1")).to_contain_text("seating")
    expect(page.locator("#sit-outs")).to_contain_text("Player A003")
