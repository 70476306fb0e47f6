"""Registration before the day in real Chromium: players register on their
phones (390×844), some land on the waitlist, one withdraws and the first on the waitlist
is promoted; the director accepts; the desk checks players in by typing their scanned
pass, as a USB scanner does."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tournaments.core.models.event import Player
from tournaments.core.services.tournaments import create_tournament
from tournaments.registration import services
from tournaments.registration.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(os.environ.get("SNOWMAN_SHOTS", "/tmp/snowman-shots"))
PHONE = {"width": 390, "height": 844}


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def phone(chromium: Browser) -> Page:
    return chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def register_on_a_phone(chromium: Browser, base: str, slug: str, name: str, division: str) -> Page:
    page = phone(chromium)
    page.goto(f"{base}/e/{slug}/")
    page.get_by_role("link", name="Register for this event").click()
    page.fill("#id_name", name)
    page.get_by_label(f"Division {division}" if division else "The director decides").check()
    page.fill("#id_contact", f"{name.split()[0].lower()}@example.com")
    page.get_by_label(re.compile("I agree")).check()
    if name == "Ann Lee":
        shot(page, "registration-phone-form")
    page.get_by_role("button", name="Send my registration").click()
    expect(page.locator("h1")).to_have_text("My registration")
    return page


def test_players_register_on_phones_one_withdraws_the_waitlist_moves_and_the_desk_scans(
    live_server, chromium, settings
):
    from django.contrib.auth import get_user_model

    from tournaments.clubs.services import assign

    # Every phone of this test comes from one address.
    settings.REGISTRATION_LIMIT_PER_ADDRESS = (100, 3600)
    user = get_user_model().objects.create_user(
        "director", password="a-long-pass-word", is_staff=True
    )
    assign(user, "director")
    t = create_tournament("Spring Open", by="test", lot_seed=3)
    services.save_settings(t, open=True, cap_total=4, cap_a=None, cap_b=None, by="test")
    base = live_server.url

    names = ["Ann Lee", "Bob Roy", "Cécile Côté", "Dan Wu", "Eve Stone", "Finn Hale"]
    phones = {}
    for n, name in enumerate(names):
        phones[name] = register_on_a_phone(chromium, base, t.slug, name, "AB"[n % 2])
    expect(phones["Ann Lee"].locator("#status")).to_contain_text("Place 1 of 4")
    expect(phones["Eve Stone"].locator("#status")).to_contain_text("Waitlist #1")
    expect(phones["Finn Hale"].locator("#status")).to_contain_text("Waitlist #2")
    shot(phones["Ann Lee"], "registration-phone-pending")
    shot(phones["Eve Stone"], "registration-phone-waitlist")

    # Bob withdraws with one tap; Eve, first on the waitlist, is promoted.
    phones["Bob Roy"].get_by_role("button", name="Withdraw my registration").click()
    expect(phones["Bob Roy"].locator("#status")).to_contain_text("Withdrawn")
    phones["Eve Stone"].reload()
    expect(phones["Eve Stone"].locator("#status")).to_contain_text("waiting for the director")
    phones["Finn Hale"].reload()
    expect(phones["Finn Hale"].locator("#status")).to_contain_text("Waitlist #1")

    # The director accepts the four with places and declines nobody.
    director = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    director.goto(base + "/director/")
    director.fill("#id_username", "director")
    director.fill("#id_password", "a-long-pass-word")
    director.get_by_role("button", name="Sign in").click()
    director.goto(f"{base}/director/{t.slug}/registrations/")
    expect(director.locator("#pending")).to_contain_text("eve@example.com")
    shot(director, "registration-director")
    for name in ["Ann Lee", "Cécile Côté", "Dan Wu", "Eve Stone"]:
        row = director.locator(f"#pending tr[data-name='{name}']")
        row.locator("select[name=division]").select_option("A")
        row.get_by_role("button", name="Send").click()
        expect(director.locator(".messages")).to_contain_text(f"{name}: Accepted")
    assert Player.objects.filter(tournament=t).count() == 4

    ann = phones["Ann Lee"]
    ann.reload()
    expect(ann.locator("#status")).to_contain_text("Registered, 1 of 4")
    expect(ann.locator("#pass img")).to_be_visible()
    shot(ann, "registration-phone-pass")

    # The desk scans: the scanner types the pass's link (the QR's content) and Enter.
    director.goto(f"{base}/director/{t.slug}/desk/scan/")
    scan_input = director.locator("#scan-input")
    expect(scan_input).to_be_focused()
    for name in ["Ann Lee", "Eve Stone"]:
        scan_input.fill(phones[name].url)
        scan_input.press("Enter")
        expect(director.locator("#scan-result")).to_contain_text(name)
        expect(director.locator("#scan-result")).to_contain_text("division A")
        shot(director, "registration-desk-scan")
        director.locator("#scan-check-in").click()
        expect(director.locator("#scan-done")).to_contain_text(f"{name} checked in at")
        expect(scan_input).to_be_focused()
    # A second scan of Ann's pass: already checked in, at the first time.
    scan_input.fill(ann.url)
    scan_input.press("Enter")
    expect(director.locator("#scan-already")).to_be_visible()
    # Finn is still on the waitlist: his pass is refused with the reason.
    scan_input.fill(phones["Finn Hale"].url)
    scan_input.press("Enter")
    expect(director.locator("#scan-refusal")).to_contain_text("not accepted")
    shot(director, "registration-desk-refused")
    checked = set(Player.objects.filter(checked_in=True).values_list("name", flat=True))
    assert checked == {"Ann Lee", "Eve Stone"}
    assert Registration.objects.get(name="Finn Hale").status == "waitlist"
