"""The device on the table in real Chromium, at 1024×768 and 768×1024: calling
the director, taking a table over with its code, kiosk mode.

Screenshots go to /tmp/device-shots/ to be looked at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tournaments.core.models.event import Tournament
from tournaments.core.models.play import Match, TableLink
from tournaments.core.services import rounds, table_codes
from tournaments.devices.models import HelpRequest

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


@SIZES
def test_a_table_taken_over_with_its_code_keeps_every_hand_once_and_the_old_tablet_is_told(
    chromium, live_server, make_tournament, viewport
):
    from tests.test_tablet_browser import enter, start

    t = seated(make_tournament, tables=1)
    first = chromium.new_context(viewport=viewport)
    a = first.new_page()
    open_table(a, live_server, t, 1)
    start(a, "N")
    enter(a, "E", 3)
    expect(a.locator("#tb-net")).to_have_text("Online · all sent", timeout=12_000)

    # The first tablet loses the network with three hands not yet sent.
    first.set_offline(True)
    for maker, tricks in (("N", 4), ("S", 5), ("W", 3)):
        enter(a, maker, tricks)
    expect(a.locator("#tb-net")).to_have_text("Offline · 3 not yet sent")
    shot(a, "takeover-01-offline")

    # A second device takes the table over with the code on the card.
    second = chromium.new_context(viewport=viewport)
    b = second.new_page()
    b.goto(f"{live_server.url}/t/")
    shot(b, "takeover-02-code")
    code = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True).code
    b.get_by_label("Table code").fill(f"{code[:3].lower()} {code[3:]}")
    b.get_by_role("button", name="Open the table").click()
    expect(b).to_have_url(re.compile(r"/t/table/$"))
    expect(b.locator("#tb-net")).to_have_text("Online · all sent", timeout=12_000)
    # It has what the server acknowledged: hand 1; the table enters the other three again.
    expect(b.locator("#tb-hands li")).to_have_count(1, timeout=12_000)
    for maker, tricks in (("N", 4), ("S", 5), ("W", 3)):
        enter(b, maker, tricks)
    expect(b.locator("#tb-hands li")).to_have_count(4, timeout=12_000)
    expect(b.locator("#tb-net")).to_have_text("Online · all sent", timeout=12_000)

    # The code leaked: the director re-issues it; the device keeping score keeps going.
    table_codes.reissue_code(t, 1, by="director")

    # The first tablet comes back: it is told it was replaced and sends nothing.
    first.set_offline(False)
    a.evaluate("window.dispatchEvent(new Event('online'))")
    expect(a.locator("#tb-net")).to_have_text("Replaced", timeout=12_000)
    expect(a.locator("#tb-banner")).to_contain_text("Another device took this table over")
    expect(a.locator("#tb-refused li")).to_have_count(3)
    assert a.evaluate("window.snowmanTablet.queue().length") == 0
    shot(a, "takeover-03-replaced")

    enter(b, "E", 3)
    expect(b.locator("#tb-hands li")).to_have_count(5, timeout=12_000)
    expect(b.locator("#tb-net")).to_have_text("Online · all sent", timeout=12_000)
    shot(b, "takeover-04-new-device")
    match = Match.objects.get(round__tournament=t, table=1)
    standing = list(match.hands.filter(state="standing").order_by("number"))
    assert [h.number for h in standing] == [1, 2, 3, 4, 5]
    assert match.hands.count() == 5  # every hand exactly once, none of the old tablet's
    assert [(h.maker, h.maker_tricks) for h in standing] == [
        ("E", 3),
        ("N", 4),
        ("S", 5),
        ("W", 3),
        ("E", 3),
    ]
    first.close()
    second.close()


def test_a_player_calls_the_director_from_their_phone_card(
    chromium, live_server, make_tournament, director
):
    from tournaments.core.models.rounds import Seating

    t = seated(make_tournament)
    seat = Seating.objects.filter(round__tournament=t, table=1).select_related("player")[0]
    phone = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    console = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(console, live_server)
    console.goto(f"{live_server.url}/director/{t.slug}/desk/")
    phone.goto(f"{live_server.url}/e/{t.slug}/me/{seat.player_id}/")
    phone.get_by_role("button", name="Call the director").click()
    phone.get_by_role("button", name="Device trouble").click()
    status = phone.locator("[data-help-status]")
    expect(status).to_have_text("The director is called for your table.")
    shot(phone, "help-06-phone-called")
    call = console.locator('.help-call[data-table="1"]')
    expect(call).to_contain_text("Device trouble", timeout=ONE_POLL)
    req = HelpRequest.objects.get()
    assert req.raised_by == f"{seat.player.name} (phone)"
    from tournaments.devices import services

    services.resolve(t, req.pk, req.version, by="director")
    expect(status).to_have_text("Resolved by director.", timeout=ONE_POLL + 2_000)
    expect(console.locator(".help-banner")).to_have_count(0, timeout=ONE_POLL)
    shot(phone, "help-07-phone-resolved")
    assert errors == []
    phone.context.close()
    console.context.close()


def test_the_board_shows_each_tablets_last_contact_unsent_entries_and_battery(
    chromium, live_server, make_tournament, director
):
    t = seated(make_tournament)
    context = chromium.new_context(viewport=LANDSCAPE)
    tablet = context.new_page()
    open_table(tablet, live_server, t, 1)
    has_battery = tablet.evaluate("typeof navigator.getBattery === 'function'")
    print("navigator.getBattery offered:", has_battery)
    link = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True)
    # The first poll reports at once; the battery, once the browser has said it, on the
    # poll after: the tablet is asked to poll (its own beat is every 3 s) until it has.
    for _ in range(8):
        link.refresh_from_db()
        if link.seen_at is not None and (link.battery is not None or not has_battery):
            break
        with tablet.expect_response(lambda r: "/t/table/state.json" in r.url, timeout=ONE_POLL):
            tablet.evaluate("window.snowmanTablet.poll()")
    assert link.seen_at is not None and link.unsent == 0
    if has_battery:
        assert link.battery is not None
    console = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(console, live_server)
    console.goto(f"{live_server.url}/director/{t.slug}/rounds/1/")
    cell = console.locator('#live-board tr[data-table="1"] td.device')
    expect(cell).to_contain_text("s ago")
    # Table 2's tablet was never opened: silent once the round has run N seconds.
    from datetime import timedelta

    from django.utils import timezone

    t.rounds.update(started_at=timezone.now() - timedelta(minutes=2))
    row2 = console.locator('#live-board tr[data-table="2"]')
    expect(row2.locator("td.attention")).to_contain_text("tablet silent", timeout=ONE_POLL)
    shot(console, "health-01-board")
    context.close()
    console.context.close()


@SIZES
def test_kiosk_mode_keeps_the_page_and_the_pin_opens_the_directors_controls(
    chromium, live_server, make_tournament, viewport
):
    from tests.test_tablet_browser import enter, start

    t = seated(make_tournament, tables=1)
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    open_table(page, live_server, t, 1)
    start(page, "N")  # the first taps: full screen is asked for
    page.wait_for_function("() => window.snowmanTablet.kiosk.fullscreenRequested")
    info = page.evaluate("window.snowmanTablet.kiosk")
    print(
        "kiosk APIs offered by this Chromium:",
        info["apis"],
        "wake lock held:",
        info["wakeLockHeld"],
        "wake lock error:",
        info["wakeLockError"],
        "full screen error:",
        info["fullscreenError"],
    )
    assert info["on"] is True and info["fullscreenRequested"] is True
    if info["apis"]["wakeLock"]:
        # Taken while the round runs (or refused by the browser, and the refusal noted).
        page.wait_for_function(
            "() => window.snowmanTablet.kiosk.wakeLockHeld"
            " || window.snowmanTablet.kiosk.wakeLockError",
            timeout=6_000,
        )

    # The director's controls: hidden until the PIN opens them.
    expect(page.locator("#tb-director-panel")).to_be_hidden()
    page.get_by_role("button", name="Director", exact=True).click()
    page.fill("#tb-pin-input", "0000" if t.director_pin != "0000" else "1111")
    page.click("#tb-pin-ok")
    expect(page.locator("#tb-pin-error")).to_contain_text("Wrong PIN. 4 more tries")
    page.fill("#tb-pin-input", t.director_pin)
    page.click("#tb-pin-ok")
    expect(page.locator("#tb-director-panel")).to_be_visible()
    shot(page, "kiosk-01-director-controls")
    page.click("#tb-director-lock")
    expect(page.locator("#tb-director-panel")).to_be_hidden()
    # Five wrong PINs lock it: then even the right one is refused for a while.
    page.get_by_role("button", name="Director", exact=True).click()
    wrong = "9999" if t.director_pin != "9999" else "8888"
    for _ in range(5):
        page.fill("#tb-pin-input", wrong)
        with page.expect_response(lambda r: r.url.endswith("/t/table/pin")):
            page.click("#tb-pin-ok")
    expect(page.locator("#tb-pin-error")).to_contain_text("Too many wrong PINs")
    page.fill("#tb-pin-input", t.director_pin)
    page.click("#tb-pin-ok")
    expect(page.locator("#tb-pin-error")).to_contain_text("locked for 10 min")
    expect(page.locator("#tb-director-panel")).to_be_hidden()
    shot(page, "kiosk-02-pin-locked")
    page.click("#tb-pin-cancel")

    # A reload with an entry not yet sent is warned (and the table stays).
    context.set_offline(True)
    enter(page, "E", 3)
    expect(page.locator("#tb-net")).to_have_text("Offline · 1 not yet sent")
    warned: list[str] = []

    def stay(dialog) -> None:
        warned.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", stay)
    with page.expect_event("dialog"):
        page.evaluate("setTimeout(() => location.reload(), 0)")
    assert warned == ["beforeunload"]
    assert page.evaluate("window.snowmanTablet.queue().length") == 1
    context.close()


@SIZES
def test_both_sides_of_the_table_flip_large_text_contrast_and_two_taps(
    chromium, live_server, make_tournament, viewport
):
    from tests.test_tablet_browser import check_targets, seat, start

    t = seated(make_tournament, tables=1)
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    open_table(page, live_server, t, 1)
    start(page, "N")
    tablet = page.locator("#tablet")

    page.get_by_role("button", name="Flip ⟲").click()
    assert tablet.evaluate("e => getComputedStyle(e).transform").startswith("matrix(-1, ")
    shot(page, "display-01-flipped")
    page.get_by_role("button", name="Flip ⟲").click()
    assert tablet.evaluate("e => getComputedStyle(e).transform") == "none"

    page.get_by_role("button", name="Display").click()
    before = page.locator("#tb-prompt").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    page.get_by_role("button", name="Larger text").click()
    after = page.locator("#tb-prompt").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert after > before * 1.2
    page.get_by_role("button", name="High contrast").click()
    assert "tb-contrast" in (tablet.get_attribute("class") or "")
    check_targets(page)
    shot(page, "display-02-large-contrast")

    # Two taps: the first tap on Save arms it; only the second saves.
    page.get_by_role("button", name="Two taps (select, then confirm)").click()
    seat(page, "E").click()
    page.click('#tb-tricks [data-tricks="3"]')
    page.click("#tb-save")
    expect(page.locator("#tb-save")).to_have_class(re.compile("tb-armed"))
    shot(page, "display-03-two-taps-armed")
    # Armed, not saved: no hand listed or queued on the tablet, none stored.
    expect(page.locator("#tb-hands li.tb-hand")).to_have_count(0)
    assert page.evaluate("window.snowmanTablet.queue().length") == 0
    assert Match.objects.get(round__tournament=t, table=1).hands.count() == 0
    page.click("#tb-save")
    expect(page.locator("#tb-hands li")).to_have_count(1, timeout=12_000)
    # The choices stay on this tablet after a reload; the flip does not.
    page.reload()
    expect(tablet).to_have_class(re.compile("tb-large"))
    expect(tablet).to_have_class(re.compile("tb-two-taps"))
    context.close()
