"""RULES.md §3.1 in real Chromium: the director marks a player stationary on the
player's page, draws round 1 (the player sits at the named table), and after round 1
sees the preview route the room around them."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.test_attendance import finish
from tournaments.core.models.event import Player
from tournaments.core.models.rounds import Seating

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_director_marks_a_stationary_player_and_the_rotation_keeps_their_seat(
    live_server, page, director, make_tournament
):
    t = make_tournament(3, preliminary_rounds=3, target=2)
    ann = Player.objects.get(tournament=t, name="Player A002")
    page.goto(live_server.url + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()

    page.goto(f"{live_server.url}/director/{t.slug}/players/{ann.pk}/edit/")
    section = page.locator("#stationary")
    # No reason: refused on the page, nothing marked.
    section.get_by_role("button", name="Mark stationary").click()
    expect(page.locator("#stationary")).to_contain_text("This field is required.")
    page.fill("#id_stationary-reason", "uses a walker")
    page.fill("#id_stationary-table", "3")
    page.locator("#stationary").get_by_role("button", name="Mark stationary").click()
    expect(page.locator(".messages")).to_contain_text(
        "Player A002 is stationary at table 3 from round 1."
    )
    expect(page.locator("#stationary-mark")).to_contain_text("Reason: uses a walker")
    shots = os.environ.get("SNOWMAN_SHOTS")
    if shots:
        page.screenshot(path=f"{shots}/stationary-edit.png", full_page=True)

    page.goto(f"{live_server.url}/director/{t.slug}/players/")
    expect(page.locator("#stationary-players")).to_contain_text("Player A002")
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator("h1")).to_have_text("Round 1 seating")
    expect(page.locator('#by-table tr[data-table="3"]')).to_contain_text("Player A002")

    r1 = t.rounds.get(number=1)
    finish(r1, "E")  # EW wins everywhere: Ann, at N, loses
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/next/")
    expect(page.locator("#stationary-routing")).to_contain_text("Player A002")
    moved = Player.objects.get(pk=Seating.objects.get(round=r1, table=1, position="N").player_id)
    expect(page.locator("#stationary-routing")).to_contain_text(
        f"{moved.name} goes on to table 2 (not 3)"
    )
    # The tables the routing touches are listed, the stationary player and the one sent on
    # marked.
    expect(page.locator('#preview tr[data-table="3"]')).to_contain_text("stationary")
    expect(page.locator('#preview tr[data-table="2"] mark')).to_contain_text(moved.name)
    if shots:
        page.screenshot(path=f"{shots}/stationary-preview.png", full_page=True)
    page.get_by_role("button", name=re.compile("Confirm and seat round 2")).click()
    expect(page.locator("h1")).to_have_text("Round 2 seating")
    expect(page.locator('#by-table tr[data-table="3"] td').nth(1)).to_contain_text("Player A002")
