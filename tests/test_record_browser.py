"""The record on a phone: real Chromium at 390x844, in English and French;
the person chooses their full name there and sees it saved. Screenshots go to
/tmp/phone-shots/ to be looked at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.record_series import person, private_link, series_of_four
from tests.test_public_browser import PHONE, SHOTS, WAIT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_record_fits_a_phone_and_the_person_chooses_their_full_name_there(
    chromium, live_server, language
):
    nights, _winter, _spring = series_of_four()
    token = private_link(nights[3], "Ann Archer")
    context = chromium.new_context(**PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    address = f"{live_server.url}/e/{nights[3].slug}/r/{token}/record/"
    page.goto(address + f"?with_person={person('Bob Baker').pk}")
    expect(page.locator("#record-title")).to_have_text("Ann Archer", timeout=WAIT)
    expect(page.locator("#h2h-together")).to_contain_text("2", timeout=WAIT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"record-{language}.png"), full_page=True)
    page.locator("#id_full_name").check()
    page.locator("#choose button[type=submit]").click()
    expect(page.locator(".messages")).to_be_visible(timeout=WAIT)
    expect(page.locator("#id_full_name")).to_be_checked()
    assert person("Ann Archer").public_full_name
    page.screenshot(path=str(SHOTS / f"record-{language}-privacy.png"))
