"""The device on the table (issue 23) in real Chromium, at 1024×768 and 768×1024: calling
the director, taking a table over with its code, kiosk mode.

Screenshots go to /tmp/device-shots/ to be looked at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tournaments.models import HelpRequest, TableLink, Tournament
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/device-shots")
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
SIZES = pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
# One poll is 3 s (the tablet's and the console's); a little more for a loaded machine.
ONE_POLL = 6_000


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or LANDSCAPE
    page.screenshot(path=str(SHOTS / f"{name}-{size['width']}x{size['height']}.png"))


def seated(make_tournament, tables: int = 2) -> Tournament:
    t = make_tournament(tables=tables)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=3), by="test")
    return t


def open_table(page: Page, live_server, t: Tournament, table: int) -> None:
    token = TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True).token
    page.goto(f"{live_server.url}/t/{token}/")
    expect(page).to_have_url(re.compile(r"/t/table/$"))
    expect(page.locator("#tb-net")).to_have_text("Online · all sent", timeout=12_000)


def sign_in(page: Page, live_server) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("h1")).to_have_text("Tournaments")


@SIZES
def test_a_call_from_the_tablet_reaches_the_console_and_its_answers_reach_the_tablet(
    chromium, live_server, make_tournament, director, viewport
):
    t = seated(make_tournament)
    tablet = chromium.new_context(viewport=viewport).new_page()
    console = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    open_table(tablet, live_server, t, 2)
    sign_in(console, live_server)
    console.goto(f"{live_server.url}/director/{t.slug}/rounds/1/")
    expect(console.locator(".help-banner")).to_have_count(0)

    tablet.get_by_role("button", name="Call the director").click()
    expect(tablet.locator("#tb-dialog")).to_be_visible()
    tablet.locator('#tb-dialog-choices [data-value="renege"]').click()
    shot(tablet, "help-01-dialog")
    tablet.click("#tb-dialog-ok")
    expect(tablet.locator("#tb-help-status")).to_have_text(
        "The director is called (Renege question).", timeout=ONE_POLL
    )
    expect(tablet.get_by_role("button", name="Call the director")).to_be_disabled()
    shot(tablet, "help-02-called")

    # The console shows it within one poll, without a reload.
    call = console.locator('.help-call[data-table="2"]')
    expect(call).to_contain_text("Table 2 calls the director", timeout=ONE_POLL)
    expect(call).to_contain_text("Renege question")
    shot(console, "help-03-console")
    call.get_by_role("button", name="On my way").click()
    expect(call).to_contain_text("director is on the way", timeout=ONE_POLL)
    expect(tablet.locator("#tb-help-status")).to_have_text(
        "On the way: director.", timeout=ONE_POLL
    )
    shot(tablet, "help-04-coming")
    call.get_by_role("button", name="Resolved").click()
    expect(console.locator(".help-banner")).to_have_count(0, timeout=ONE_POLL)
    expect(tablet.locator("#tb-help-status")).to_have_text(
        "Resolved by director.", timeout=ONE_POLL
    )
    shot(tablet, "help-05-resolved")
    req = HelpRequest.objects.get()
    assert req.resolved_by == "director" and req.coming_by == "director"
    # Straight after, the table cools down: a second call is refused with a message.
    tablet.get_by_role("button", name="Call the director").click()
    tablet.click("#tb-dialog-ok")
    expect(tablet.locator("#tb-help-status")).to_contain_text("you can call again")
    assert HelpRequest.objects.count() == 1
    tablet.context.close()
    console.context.close()
