"""A paper table keyed from its scoresheet in real Chromium, by keyboard at
a typist's pace: the seconds and keys to key a 10-hand match are measured (target
≤ 60 s), and the grid's live preview gives the result and bonuses before saving."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.test_desk_browser import sign_in
from tests.test_paper import SHEET
from tournaments.core.models.play import Match
from tournaments.core.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TYPIST_MS = 150  # between keys: a director keying from a sheet, not a machine
LETTER = {"N": "n", "E": "e", "S": "s", "W": "w", "misdeal": "m"}


def test_a_ten_hand_paper_match_is_keyed_in_under_a_minute(
    live_server, page, director, make_tournament
):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    rounds.start_round(rnd, by="test")
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/1/tables/1/")
    started = time.monotonic()
    page.get_by_role("link", name="Enter from the scoresheet").click()
    keys = 0
    page.locator("select[name=first_dealer]").focus()
    page.keyboard.type("e", delay=TYPIST_MS)
    page.keyboard.press("Tab")
    keys += 2
    for play, _alone, tricks in SHEET:
        page.keyboard.type(LETTER[play], delay=TYPIST_MS)  # on the row's first cell
        page.keyboard.press("Tab", delay=TYPIST_MS)  # past "alone"
        page.keyboard.press("Tab", delay=TYPIST_MS)
        if tricks:
            page.keyboard.type(tricks, delay=TYPIST_MS)
        page.keyboard.press("Tab", delay=TYPIST_MS)  # the next row
        keys += 3 + len(tricks) + 1
    preview = page.locator("#scoresheet-preview")
    expect(preview).to_have_text("Match over: NS wins 10–3, bonuses NS 1, EW 0.")
    page.screenshot(path="/tmp/screens-shots/scoresheet-grid.png", full_page=True)
    page.get_by_role("button", name="Save the sheet").click()
    expect(page.locator(".messages")).to_contain_text("10 hands keyed from the scoresheet; 10–3")
    seconds = time.monotonic() - started
    print(f"\n10-hand paper match: {keys} keys, 2 clicks, {seconds:.1f} s")
    assert seconds <= 60
    match = Match.objects.get(round=rnd, table=1)
    assert (match.score_ns, match.score_ew, match.status) == (10, 3, Match.Status.CONFIRMED)
