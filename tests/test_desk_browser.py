"""The check-in desk at a queue's pace in real Chromium: letters, one Enter,
next; the keys are counted. Arrow keys pick among several; a walk-in is added from the
typed name and checked in at once; the box clears and keeps the focus throughout."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tournaments.core.models.event import Player
from tournaments.core.services.players import import_players
from tournaments.core.services.tournaments import create_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A queue at the door: what each typed before Enter (a few letters of the surname).
QUEUE = [
    ("Jean-François Bélanger", "belan"),
    ("Mireille Côté", "cote"),
    ("Mélanie Gagnon", "gagn"),
    ("Réjean Lévesque", "leve"),
    ("Ryan O'Brien", "obri"),
    ("Zoë Ölander", "olan"),
]
OTHERS = ["Ann Lee", "Anna Park", "Annie Roy", "Bob Dunn"]


def sign_in(page: Page, base: str) -> None:
    page.goto(base + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("h1")).to_have_text("Tournaments")


def test_a_queue_checks_in_with_letters_and_one_enter_each(live_server, page, director):
    t = create_tournament("Door Night", by="t")
    names = [n for n, _ in QUEUE] + OTHERS
    import_players(t, "".join(f"{n},{'AB'[i % 2]}\n" for i, n in enumerate(names)), by="t")
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/director/{t.slug}/desk/")
    box = page.locator("#desk-q")
    expect(box).to_be_focused()
    keys = 0
    clicks = 0
    started = time.monotonic()
    for name, letters in QUEUE:
        # No waiting for the search to answer: letters, then Enter at once.
        page.keyboard.type(letters)
        page.keyboard.press("Enter")
        keys += len(letters) + 1
        expect(page.locator("#desk-recent .desk-row").first).to_contain_text(name)
        expect(box).to_have_value("")
        expect(box).to_be_focused()
    seconds = time.monotonic() - started
    assert keys == sum(len(letters) + 1 for _, letters in QUEUE) and clicks == 0
    assert set(Player.objects.filter(checked_in=True).values_list("name", flat=True)) == {
        n for n, _ in QUEUE
    }
    print(f"\n{len(QUEUE)} check-ins: {keys} keys, {clicks} clicks, {seconds:.1f} s")
    # The last check-ins stay in view with their undo.
    expect(page.locator("#desk-recent .desk-row")).to_have_count(len(QUEUE))
    page.locator("#desk-recent .desk-row", has_text="Zoë Ölander").get_by_role(
        "button", name="undo"
    ).click()
    expect(page.locator("#desk-recent")).not_to_contain_text("Zoë Ölander")
    expect(box).to_be_focused()
    assert not Player.objects.get(name="Zoë Ölander").checked_in

    # Several match: the arrow keys pick, Enter checks in the one picked.
    page.keyboard.type("ann")
    expect(page.locator("#desk-results .desk-row")).to_have_count(3)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    picked = page.locator("#desk-results .desk-row.active .who strong").inner_text()
    page.keyboard.press("Enter")
    expect(page.locator("#desk-recent .desk-row").first).to_contain_text(picked)
    expect(box).to_have_value("")
    expect(box).to_be_focused()
    assert Player.objects.get(name=picked).checked_in

    # A walk-in: the typed name, a division, checked in at once.
    page.keyboard.type("Nouveau Venu")
    page.keyboard.press("Enter")
    expect(page.locator("#desk-nobody")).to_be_visible()
    expect(page.locator("#desk-walk-in-name")).to_have_value("Nouveau Venu")
    page.get_by_role("button", name="Division B").click()
    expect(page.locator("#desk-recent .desk-row").first).to_contain_text("Nouveau Venu")
    expect(box).to_be_focused()
    walk_in = Player.objects.get(tournament=t, name="Nouveau Venu")
    assert walk_in.division == "B" and walk_in.checked_in
    page.screenshot(path="/tmp/screens-shots/desk.png", full_page=True)
