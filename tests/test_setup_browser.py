"""Setting up in minutes in real Chromium: a format fills the rules folded
under "Advanced", and the tiebreak chain is ordered with buttons, not typed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.test_desk_browser import sign_in
from tournaments.core.models.event import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_club_night_is_one_click_and_the_tiebreaks_are_ordered_with_buttons(
    live_server, page, director
):
    sign_in(page, live_server.url)
    page.get_by_role("link", name="New tournament").click()
    # The rule numbers are folded away; the rounds are in view.
    expect(page.locator("#id_target")).to_be_hidden()
    expect(page.locator("#id_preliminary_rounds")).to_have_value("5")
    page.fill("#id_name", "Thursday Club Night")
    page.fill("#id_event_date", "2026-12-10")
    page.fill("#id_start_time", "19:30")
    page.fill("#id_venue", "Salle paroissiale Saint-Jean")
    page.get_by_label("Club night").check()
    expect(page.locator("#id_preliminary_rounds")).to_have_value("3")
    page.locator("#advanced > summary").click()
    chain = page.locator("#tiebreak-chain li")
    expect(chain).to_have_count(4)
    expect(chain.first).to_contain_text("Total points")
    page.get_by_role("button", name="Move down: Total points").click()
    expect(chain.first).to_contain_text("Wins")
    page.screenshot(path="/tmp/screens-shots/setup.png", full_page=True)
    page.get_by_role("button", name="Create tournament").click()
    expect(page.locator("h1")).to_have_text("Players")
    t = Tournament.objects.get(name="Thursday Club Night")
    assert t.preliminary_rounds == 3 and t.hide_standings_last_rounds == 0
    assert tuple(t.rules.tiebreaks) == ("wins", "total", "margin", "lot")
    assert (str(t.event_date), f"{t.start_time:%H:%M}", t.venue) == (
        "2026-12-10",
        "19:30",
        "Salle paroissiale Saint-Jean",
    )
    page.goto(f"{live_server.url}/director/{t.slug}/")
    expect(page.locator("#occasion")).to_contain_text("19:30 · Salle paroissiale Saint-Jean")
