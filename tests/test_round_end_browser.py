"""The end of a round in real Chromium (docs/rules.md §7): two tablets answering the call
differently, an agreement after a dispute, undo after the call and re-entry, a stale
answer after a reload, a first-dealer fix and a round reopened by the director.

Screenshots go to /tmp/round-end-shots/ to be looked at.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.test_tablet_browser import wait_until_cached
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Round
from tournaments.core.services import closing, play, rounds
from tournaments.domain.hands import Hand, Outcome, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/round-end-shots")
PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1280, "height": 800}
WAIT = 12_000


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or LANDSCAPE
    page.screenshot(
        path=str(SHOTS / f"{name}-{size['width']}x{size['height']}.png"), full_page=True
    )


def seated(make_tournament, tables: int = 1) -> Tournament:
    t = make_tournament(tables=tables)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=3))
    return t


def open_table(page: Page, live_server, t: Tournament, table: int = 1) -> None:
    token = TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True).token
    page.goto(f"{live_server.url}/t/{token}/")
    expect(page).to_have_url(re.compile(r"/t/table/$"))
    all_sent(page)


def all_sent(page: Page) -> None:
    expect(page.locator("#tb-net")).to_have_text("Online · all sent", timeout=WAIT)


def seat(page: Page, position: str):  # noqa: ANN201 - a Playwright locator
    return page.locator(f'.tb-seat[data-seat="{position}"]')


def start(page: Page, dealer: str, keeper: str | None = None) -> None:
    seat(page, dealer).click()
    if keeper:
        page.get_by_role("button", name=f"{keeper} keeps score").click()
    else:  # the dealer keeps score: someone must before the first hand
        page.locator("#tb-keeper button").nth("NESW".index(dealer)).click()
    page.click("#tb-start-save")
    expect(page.locator("#tb-entry")).to_be_visible(timeout=WAIT)


def enter(page: Page, maker: str, tricks: int) -> None:
    seat(page, maker).click()
    page.click(f'#tb-tricks [data-tricks="{tricks}"]')
    page.click("#tb-save")


def name_at(t: Tournament, position: str, table: int = 1) -> str:
    return (
        Round.objects.get(tournament=t, number=1)
        .seats.get(table=table, position=position)
        .player.name
    )


def match_of(t: Tournament, table: int = 1) -> Match:
    return Match.objects.select_related("round__tournament").get(
        round__tournament=t, round__number=1, table=table
    )


def standing(match: Match) -> list[HandEntry]:
    return list(match.hands.filter(state="standing").order_by("number"))


def new_page(chromium, viewport=LANDSCAPE) -> Page:  # noqa: ANN001
    return chromium.new_context(viewport=viewport).new_page()


def test_two_tablets_answering_the_call_differently_keep_the_first_and_show_it(
    chromium, live_server, make_tournament
):
    t = seated(make_tournament)
    first, second = new_page(chromium), new_page(chromium, PORTRAIT)
    open_table(first, live_server, t)
    open_table(second, live_server, t)
    start(first, "N")
    enter(first, "N", 3)
    all_sent(first)
    rounds.call_time(Round.objects.get(tournament=t, number=1), by="director")
    expect(first.locator("#tb-call")).to_be_visible(timeout=WAIT)
    expect(second.locator("#tb-call")).to_be_visible(timeout=WAIT)
    second.context.set_offline(True)
    second.click("#tb-call-no")  # queued, naming the state it saw
    first.click("#tb-call-yes")
    all_sent(first)
    second.context.set_offline(False)
    expect(second.locator("#tb-refused")).to_contain_text(
        "The answer about the hand in progress was not saved", timeout=WAIT
    )
    expect(second.locator("#tb-banner")).to_contain_text("finish the hand in progress")
    shot(second, "01-second-answer-refused")
    assert match_of(t).hand_in_progress_at_call is True
    first.context.close()
    second.context.close()


def test_an_agreement_after_a_dispute_is_refused_and_the_dispute_shown(
    chromium, live_server, make_tournament
):
    t = seated(make_tournament)
    first, second = new_page(chromium), new_page(chromium, PORTRAIT)
    open_table(first, live_server, t)
    open_table(second, live_server, t)
    start(first, "N", keeper=name_at(t, "N"))
    enter(first, "N", 3)
    all_sent(first)
    rounds.call_time(Round.objects.get(tournament=t, number=1), by="director")
    expect(first.locator("#tb-call")).to_be_visible(timeout=WAIT)
    first.click("#tb-call-no")
    expect(first.locator("#tb-end")).to_be_visible(timeout=WAIT)
    expect(second.locator("#tb-end")).to_be_visible(timeout=WAIT)
    second.context.set_offline(True)
    second.get_by_role("button", name=f"I am {name_at(t, 'W')}").click()
    second.click("#tb-agree")
    first.get_by_role("button", name=f"I am {name_at(t, 'E')}").click()
    first.click("#tb-dispute")
    first.fill("#tb-dialog-note", "Hand 1 was a euchre")
    first.click("#tb-dialog-ok")
    all_sent(first)
    second.context.set_offline(False)
    expect(second.locator("#tb-refused")).to_contain_text("only the director", timeout=WAIT)
    expect(second.locator("#tb-confirmed")).to_contain_text("Hand 1 was a euchre")
    shot(second, "02-agree-after-dispute")
    match = match_of(t)
    assert match.status == Match.Status.DISPUTED
    first.context.close()
    second.context.close()


def test_undo_after_the_call_then_reentry_keeps_the_hand_regular(
    chromium, live_server, make_tournament
):
    t = seated(make_tournament)
    page = new_page(chromium, PORTRAIT)
    open_table(page, live_server, t)
    start(page, "N")
    enter(page, "N", 3)
    enter(page, "E", 3)
    all_sent(page)
    rounds.call_time(Round.objects.get(tournament=t, number=1), by="director")
    expect(page.locator("#tb-call")).to_be_visible(timeout=WAIT)
    page.click("#tb-undo")
    page.click("#tb-dialog-ok")
    all_sent(page)
    # Hand 2 was played before the call: it is entered again as a regular hand.
    expect(page.locator("#tb-entry")).to_be_visible(timeout=WAIT)
    enter(page, "E", 4)
    expect(page.locator("#tb-call")).to_be_visible(timeout=WAIT)
    page.click("#tb-call-yes")
    all_sent(page)
    enter(page, "S", 3)
    expect(page.locator("#tb-end")).to_be_visible(timeout=WAIT)
    # The tablet shows the end as soon as the hand is saved on it; the server has it
    # only once it is sent.
    all_sent(page)
    shot(page, "03-undo-after-call")
    assert [h.phase for h in standing(match_of(t))] == ["regular", "regular", "at_call"]
    page.context.close()


def test_a_stale_answer_queued_before_a_reload_is_refused_with_the_current_state(
    chromium, live_server, make_tournament
):
    t = seated(make_tournament)
    page = new_page(chromium, PORTRAIT)
    open_table(page, live_server, t)
    start(page, "N")
    enter(page, "N", 3)
    all_sent(page)
    rounds.call_time(Round.objects.get(tournament=t, number=1), by="director")
    expect(page.locator("#tb-call")).to_be_visible(timeout=WAIT)
    page.click("#tb-call-no")
    expect(page.locator("#tb-end")).to_be_visible(timeout=WAIT)
    all_sent(page)
    expect(page.locator("#tb-change-answer")).to_be_visible()
    page.context.set_offline(True)
    page.click("#tb-change-answer")
    page.click("#tb-dialog-ok")  # queued: "a hand was being played", naming the state seen
    expect(page.locator("#tb-net")).to_contain_text("1 not yet sent", timeout=WAIT)
    # Meanwhile the director changes the answer, which changes the match's version.
    play.answer_time_call(match_of(t), True, by="director", director=True, reason="asked N")
    play.record_hand(
        match_of(t),
        Hand(Outcome.MISDEAL),
        client_key="director-hand",
        by="director",
        source=HandEntry.Source.DIRECTOR,
    )
    page.context.set_offline(False)
    page.reload()
    expect(page.locator("#tb-refused")).to_contain_text(
        "The answer about the hand in progress was not saved", timeout=WAIT
    )
    # The current state: the hand the director entered as the one in progress.
    expect(page.locator("#tb-hands")).to_contain_text("Misdeal", timeout=WAIT)
    expect(page.locator("#tb-hands")).to_contain_text("at the call")
    shot(page, "04-stale-answer")
    match = match_of(t)
    assert match.hand_in_progress_at_call is True and match.hands_played == 2
    page.context.close()


def login(page: Page, live_server) -> None:
    page.goto(live_server.url + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("h1")).to_have_text("Tournaments")


def test_the_director_fixes_a_first_dealer_on_the_table_page(
    page, live_server, director, make_tournament
):
    t = seated(make_tournament)
    match = match_of(t)
    play.set_first_dealer(match, Seat.N, by="tablet")
    for n, maker in enumerate("NES", start=1):
        play.record_hand(
            match,
            Hand(Outcome.PLAYED, maker=Seat(maker), maker_tricks=3),
            client_key=f"h{n}",
            by="tablet",
        )
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server)
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/1/tables/1/")
    page.select_option("#id_fd-seat", "W")
    page.click("#first-dealer button[type=submit]")
    # The missing reason is said in the page before any "are you sure?", nothing sent.
    assert page.locator("#id_fd-reason").evaluate("e => !e.validity.valid")
    assert match_of(t).first_dealer == "N"
    page.select_option("#id_fd-seat", "W")
    page.fill("#id_fd-reason", "West cut the first jack")
    page.click("#first-dealer button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("first dealer set")
    expect(page.locator("#timeline")).to_contain_text("West cut the first jack")
    shot(page, "05-first-dealer-fixed")
    assert [h.dealer for h in standing(match_of(t))] == ["W", "N", "E"]


def test_the_director_reopens_a_round_by_typing_its_name(
    page, live_server, director, make_tournament
):
    t = seated(make_tournament, tables=2)
    rnd = Round.objects.get(tournament=t, number=1)
    for table in (1, 2):
        m = match_of(t, table)
        play.set_first_dealer(m, Seat.N, by="t")
        for i in range(3):
            play.record_hand(
                m,
                Hand(Outcome.PLAYED, maker=Seat.N, alone=i < 2, maker_tricks=5),
                client_key=f"r{table}{i}",
                by="t",
            )
    rounds.finalize_round(rnd, by="director")
    rounds.seat_next_round(t, by="director")
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server)
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/1/")
    page.click("details.reopen summary")
    page.fill("#id_confirm", "round 2")
    page.fill("#id_reason", "Table 2's winner was entered wrong")
    page.click("#reopen-form button[type=submit]")
    expect(page.locator("#reopen-form .errorlist")).to_contain_text("Round 1")
    page.fill("#id_confirm", "Round 1")
    page.click("#reopen-form button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Round 1 reopened")
    shot(page, "06-round-reopened")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.RUNNING
    assert not Round.objects.filter(tournament=t, number=2).exists()


def test_the_table_page_shows_one_status_the_dispute_and_its_resolution_in_order(
    page, live_server, director, make_tournament
):
    t = seated(make_tournament, tables=2)
    rnd = Round.objects.get(tournament=t, number=1)
    match = match_of(t)
    play.set_first_dealer(match, Seat.N, by="Table 1 tablet", keeper=Seat.N)
    start = rnd.started_at
    play.record_hand(
        match,
        Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=3),
        client_key="s1",
        by="tablet",
        now=start + timedelta(minutes=1),
    )
    rounds.extend_table(match_of(t, 2), 10, by="director", reason="started late")
    rounds.call_time(rnd, by="director")
    # Hand 2 was entered offline before the call and arrives now: late sync.
    play.record_hand(
        match_of(t),
        Hand(Outcome.PLAYED, maker=Seat.E, maker_tricks=1),
        client_key="s2",
        by="Table 1 tablet",
        entered_at=start + timedelta(minutes=2, seconds=30),
    )
    play.answer_time_call(match_of(t), False, by="Table 1 tablet")
    closing.confirm_match(match_of(t), agree=False, by=name_at(t, "E"), note="Hand 2 was ours")
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server)
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/1/")
    row2 = page.locator('#live-board tr[data-table="2"]')
    expect(row2).to_contain_text("left")
    expect(page.locator('#live-board tr[data-table="1"]')).to_contain_text("late sync")
    shot(page, "07-console-extended-table")
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/1/tables/1/")
    expect(page.locator("#current-status")).to_contain_text("Disputed")
    expect(page.locator("#late-sync")).to_contain_text("Hand 2")
    page.locator("form[action$='/close/'] textarea").fill("Both teams agree hand 2 was EW's euchre")
    page.get_by_role("button", name="Accept as final").click()
    expect(page.locator("#current-status")).to_contain_text("Confirmed")
    timeline = page.locator("#timeline li")
    expect(timeline.nth(-2)).to_contain_text("disputed")
    expect(timeline.nth(-1)).to_contain_text("dispute resolved")
    shot(page, "08-table-dispute-resolved")


def test_after_an_offline_reload_the_clock_runs_on_and_a_euchre_preview_looks_different(
    chromium, live_server, make_tournament
):
    t = seated(make_tournament)
    page = new_page(chromium, PORTRAIT)
    open_table(page, live_server, t)
    start(page, "N")
    seat(page, "E").click()
    page.click('#tb-tricks [data-tricks="3"]')
    expect(page.locator("#tb-preview")).to_have_class(re.compile("tb-preview-make"))
    expect(page.locator("#tb-preview")).to_contain_text("East–West score")
    page.click('#tb-tricks [data-tricks="2"]')
    expect(page.locator("#tb-preview")).to_have_class(re.compile("tb-preview-euchre"))
    expect(page.locator("#tb-preview")).to_contain_text("EUCHRE: the defenders (North–South)")
    shot(page, "09-euchre-preview")
    # The dealer's partner (S, the dealer is N) who orders up goes alone.
    seat(page, "S").click()
    expect(page.locator("#tb-ordered")).to_be_visible()
    page.click("#tb-ordered")
    expect(page.locator("#tb-alone")).to_have_text("Alone ✓")
    page.click('#tb-tricks [data-tricks="5"]')
    page.click("#tb-save")
    all_sent(page)
    entry = standing(match_of(t))[0]
    assert entry.dealer_partner_ordered_up and entry.alone and entry.maker == "S"

    wait_until_cached(page)
    page.context.set_offline(True)
    page.reload()
    # Started 3 minutes ago with 20 to play: the stored state says so, not "Not started".
    expect(page.locator("#tb-clock")).to_have_text(re.compile(r"^1[67]:\d\d$"), timeout=WAIT)
    shot(page, "10-offline-reload-clock")
    page.context.close()


def test_where_to_go_next_comes_to_the_top_of_a_portrait_screen(
    chromium, live_server, make_tournament
):
    t = seated(make_tournament, tables=2)
    page = new_page(chromium, PORTRAIT)
    open_table(page, live_server, t)
    for table in (1, 2):
        m = match_of(t, table)
        play.set_first_dealer(m, Seat.N, by="t")
        for i in range(3):
            play.record_hand(
                m,
                Hand(Outcome.PLAYED, maker=Seat.N, alone=i < 2, maker_tricks=5),
                client_key=f"w{table}{i}",
                by="t",
            )
    expect(page.locator("#tb-end")).to_be_visible(timeout=WAIT)
    rounds.finalize_round(Round.objects.get(tournament=t, number=1), by="director")
    rounds.seat_next_round(t, by="director")
    panel = page.locator("#tb-next")
    expect(panel).to_be_visible(timeout=WAIT)
    expect(panel).to_have_attribute("aria-live", "polite")
    # The tablet scrolls the panel to the top in the task after drawing it.
    page.wait_for_function(
        "() => document.getElementById('tb-next').getBoundingClientRect().top <= 40"
    )
    box = panel.bounding_box()
    assert box is not None and 0 <= box["y"] <= 40
    assert box["y"] + box["height"] <= PORTRAIT["height"]
    shot(page, "11-where-to-go")
    page.context.close()
