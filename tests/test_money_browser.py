"""The door in real Chromium, on a phone-sized screen: the desk finds a late
arrival, takes the fee and checks them in with one tap; a second desk's older page is
told who took it, and nothing is charged twice."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournaments.core.models.event import Player
from tournaments.core.services import players
from tournaments.money import services
from tournaments.money.models import MoneyEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_takes_a_fee_and_checks_in_with_one_tap(
    live_server, page, director, make_tournament
) -> None:
    t = make_tournament(2)
    services.configure(t, version=0, by="dir", fee_cents=1_000)
    for p in Player.objects.filter(tournament=t):
        services.take_fee(t, p.pk, how="full", client_key=f"f{p.pk}", by="desk1")
    late = players.register_player(t, "Late Larry", "A", by="desk1")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()

    page.goto(f"{live_server.url}/director/{t.slug}/money/fees/?q=larry")
    row = page.locator(f"#fee-{late.pk}")
    expect(row).to_contain_text("unpaid")
    # An old copy of the page, as a second desk would hold it.
    stale = page.context.new_page()
    stale.goto(page.url)
    row.get_by_role("button", name="Paid in cash").click()
    expect(page.locator(".messages")).to_contain_text("Late Larry paid $10.00")
    expect(page.locator(f"#fee-{late.pk}")).to_contain_text("paid $10.00")
    expect(page.locator(f"#fee-{late.pk}")).to_contain_text("Checked in")
    page.screenshot(path="var/test/money-door-phone.png")

    stale.locator(f"#fee-{late.pk}").get_by_role("button", name="Waive").click()
    expect(stale.locator(".messages")).to_contain_text("already taken by director")
    assert MoneyEntry.objects.filter(player=late).count() == 1
    late.refresh_from_db()
    assert late.checked_in
