"""Players' phones in real Chromium at a phone's size (390x844, touch): finding yourself,
the card and its clock, the next seat without a reload, the changed mark, hidden
standings, large text, and an axe-core check of every public page.

Screenshots go to /tmp/phone-shots/ to be looked at. axe-core: tests/axe.py.
"""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.axe import axe_violations
from tests.test_public_phones import event_after, fake_results
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Seating
from tournaments.core.phones import views
from tournaments.core.services import rounds
from tournaments.domain.hands import Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/phone-shots")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
WAIT = 10_000


# The paces the cards are served with, read before ``quick_polls`` changes them.
HALL_POLLS = (views.POLL_SECONDS, views.FAST_POLL_SECONDS)


@pytest.fixture(autouse=True)
def quick_polls(monkeypatch):
    # The phones poll every 15 s in the hall; a test need not wait that long.
    monkeypatch.setattr(views, "POLL_SECONDS", 1)
    monkeypatch.setattr(views, "FAST_POLL_SECONDS", 1)


@pytest.fixture
def phone(chromium):
    contexts = []

    def open_phone(**extra) -> Page:
        context = chromium.new_context(**PHONE, **extra)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for c in contexts:
        c.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def card_url(live_server, t: Tournament, p: Player) -> str:
    return f"{live_server.url}/e/{t.slug}/me/{p.pk}/"


def answered_its_first_poll(page: Page) -> None:
    """Until the phone's live part has had the answer to the poll it sends as it loads."""
    page.wait_for_function(
        """() => {
            const box = document.querySelector("[data-live]");
            return performance.getEntriesByType("resource").some(
                (e) => e.name.includes(box.dataset.liveUrl));
        }""",
        timeout=WAIT,
    )


def polled_from_now(page: Page) -> None:
    """The phone's live part polls now, as its next beat (seconds away) would, and has the
    answer. A poll already under way may have been sent before now: it is let finish and
    the phone asked again (resource entries are made as each answer arrives)."""
    page.evaluate(
        """async () => {
            const box = document.querySelector("[data-live]");
            const since = performance.now();
            const answered = () => performance.getEntriesByType("resource").some(
                (e) => e.name.includes(box.dataset.liveUrl) && e.startTime >= since);
            for (let tries = 0; !answered(); tries++) {
                if (tries > 500) { throw new Error("the live part never polled"); }
                await box.livePoll();
                if (!answered()) { await new Promise((r) => setTimeout(r, 20)); }
            }
        }"""
    )


def test_a_player_finds_themself_by_a_few_letters_and_the_phone_remembers(
    live_server, phone, make_tournament
):
    t = make_tournament(2)
    Player.objects.filter(tournament=t, name="Player A003").update(name="Zoë Ölander")
    rounds.draw_first_round(t, by="test", seed=5)
    page = phone()
    page.goto(f"{live_server.url}/e/{t.slug}/")
    # Found as public pages name her: "Zoë Ö." (her surname stays her own).
    page.get_by_label("Type a few letters of your name").fill("zoe")
    link = page.get_by_role("link", name=re.compile("Zoë Ö."))
    expect(link).to_be_visible(timeout=WAIT)
    shot(page, "01-find-yourself")
    link.tap()
    expect(page.locator(".table-no")).to_contain_text("Table")
    shot(page, "02-my-card")
    # Scanning the QR code again lands on the card: the phone remembered.
    page.goto(f"{live_server.url}/e/{t.slug}/")
    expect(page).to_have_url(re.compile(r"/me/\d+/$"))
    expect(page.locator("#card-title")).to_contain_text("Zoë Ö.")
    # "Not you?" forgets and offers the search again.
    page.get_by_role("link", name=re.compile("Choose again")).tap()
    expect(page.get_by_label("Type a few letters of your name")).to_be_visible()
    page.goto(f"{live_server.url}/e/{t.slug}/")
    expect(page).to_have_url(re.compile(rf"/e/{t.slug}/$"))


def test_the_card_clock_matches_the_server_within_a_second_even_on_a_wrong_phone_clock(
    live_server, phone, make_tournament
):
    t = make_tournament(1, round_minutes=20)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    started = timezone.now() - timedelta(minutes=3, seconds=20)
    rounds.start_round(rnd, by="test", now=started)
    p = Seating.objects.filter(round=rnd).first().player
    # This phone's clock runs 95 s fast: the card must still show the server's time.
    page = phone()
    page.add_init_script(
        "(() => { const real = Date.now.bind(Date); Date.now = () => real() + 95000; })()"
    )
    page.goto(card_url(live_server, t, p))
    # The offset is set, and the countdown drawn with it in the same task (syncClock, then
    # tickClocks), before this process hears of it.
    expect(page.locator("body")).to_have_attribute("data-clock-offset", re.compile(r"-9\d\d\d\d"))
    # The phone's idea of the server's time is within a second of the server's.
    before = time.time()
    phone_ms = page.evaluate("Date.now() + Number(document.body.dataset.clockOffset)")
    after = time.time()
    assert before - 1.0 <= phone_ms / 1000 <= after + 1.0, (phone_ms / 1000, before, after)
    # And the countdown shows the time left to the call by that clock (whole seconds,
    # rounded up, so the display may read up to a second more).
    call = started + timedelta(minutes=20)
    left_before = (call - timezone.now()).total_seconds()
    shown = page.locator("[data-clock-time]").inner_text()
    left_after = (call - timezone.now()).total_seconds()
    minutes, seconds = (int(x) for x in shown.split(":"))
    assert left_after - 1.0 <= minutes * 60 + seconds <= left_before + 2.0, (shown, left_before)
    shot(page, "03-card-clock-running")


def test_the_next_seat_appears_after_the_director_seats_the_round_without_a_reload(
    live_server, phone, make_tournament
):
    t = make_tournament(3)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    p = Seating.objects.get(round=rnd, table=2, position="E").player
    page = phone()
    page.add_init_script(
        "window.buzz = []; navigator.vibrate = (p) => { window.buzz.push(p); return true; };"
    )
    page.goto(card_url(live_server, t, p))
    expect(page.locator("#card")).to_have_attribute("data-round", "1")
    page.evaluate("window.loadedOnce = true")
    fake_results(rnd)
    rounds.seat_next_round(t, by="test")
    new = Seating.objects.get(round__tournament=t, round__number=2, player=p)
    card = page.locator("#card")
    expect(card).to_have_attribute("data-round", "2", timeout=WAIT)
    expect(card).to_have_class(re.compile(r"\bmoved\b"))
    expect(page.locator(".table-no")).to_have_text(f"Table {new.table}")
    assert page.evaluate("window.loadedOnce") is True  # no reload happened
    assert page.evaluate("window.buzz.length") >= 1
    shot(page, "04-next-seat")


def test_a_player_whose_match_ended_before_the_call_sees_the_next_seat_within_five_seconds(
    live_server, phone, make_tournament, monkeypatch
):
    """At the hall's paces (a poll every 15 s while the round's clock runs), a
    phone whose card shows the player's match over asks at the fast pace, so the seat
    the director gives next shows within 5 s, though the clock never reached the call."""
    monkeypatch.setattr(views, "POLL_SECONDS", HALL_POLLS[0])
    monkeypatch.setattr(views, "FAST_POLL_SECONDS", HALL_POLLS[1])
    assert HALL_POLLS[0] > 5 >= HALL_POLLS[1]
    t = make_tournament(3)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    rnd = rounds.start_round(rnd, by="test")
    p = Seating.objects.get(round=rnd, table=2, position="E").player
    # Every match over (as the tablets leave them), the round's clock still running.
    Match.objects.filter(round=rnd).update(status=Match.Status.FINISHED, winner="EW")
    page = phone()
    page.goto(card_url(live_server, t, p))
    card = page.locator("#card")
    expect(card).to_have_attribute("data-match-over", "1")
    expect(page.locator("[data-clock]")).to_have_attribute("data-kind", "running")
    answered_its_first_poll(page)
    fake_results(rnd)  # the results, and the round finalized
    seated = time.monotonic()
    rounds.seat_next_round(t, by="test")
    expect(card).to_have_attribute("data-round", "2", timeout=5_000)
    assert time.monotonic() - seated <= 5
    new = Seating.objects.get(round__tournament=t, round__number=2, player=p)
    expect(page.locator(".table-no")).to_have_text(f"Table {new.table}")
    expect(card).to_have_attribute("data-match-over", "0")
    shot(page, "11-turnover-new-seat-first")
    # The new seat came alone (the poll that saw it); the whole card, partner and
    # opponents, follows within four fast beats.
    partner = Seating.objects.get(
        round__tournament=t,
        round__number=2,
        table=new.table,
        position=Seat(new.position).partner.value,
    ).player
    expect(page.locator(".people")).to_contain_text(
        partner.name, timeout=4 * HALL_POLLS[1] * 1000 + 2000
    )
    expect(page.locator("#card[data-partial]")).to_have_count(0)
    expect(card).to_have_attribute("data-round", "2")
    # Still marked as a new seat (the outline is all a reduced-motion phone shows).
    expect(page.locator("#card.moved")).to_have_count(1)
    shot(page, "12-turnover-whole-card")


def test_a_changed_seating_marks_only_the_affected_players(live_server, phone, make_tournament):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    a, b = (s.player for s in Seating.objects.filter(round=rnd, position="N").order_by("table"))
    bystander = Seating.objects.get(round=rnd, table=1, position="E").player
    moved, still = phone(), phone()
    moved.goto(card_url(live_server, t, a))
    still.goto(card_url(live_server, t, bystander))
    expect(moved.locator("#card")).to_have_attribute("data-changed", "0")
    rounds.swap_players(rnd, a, b, by="test", reason="friends")
    expect(moved.locator(".changed-mark")).to_be_visible(timeout=WAIT)
    shot(moved, "05-changed-mark")
    # The bystander's phone has polled since and shows no mark.
    polled_from_now(still)
    expect(still.locator(".changed-mark")).to_have_count(0)
    expect(still.locator("#card")).to_have_attribute("data-changed", "0")


def test_standings_hide_in_the_last_rounds_on_the_phone_and_the_projector(
    live_server, phone, chromium, make_tournament
):
    # §5: while hidden, the phone, the ledger and the projector show the standings as they
    # stood after round P - N, marked (this test once asserted no standings at all).
    from tests.test_public_phones import finish_table

    t = event_after(make_tournament, 2, 3, hide_standings_last_rounds=2)
    r4 = t.rounds.get(number=4)
    rounds.start_round(r4, by="test")
    finish_table(r4, 1)
    mover = Seating.objects.get(round=r4, table=1, position="N").player
    problems = {}
    page = phone()
    page.goto(f"{live_server.url}/e/{t.slug}/standings/")
    expect(page.get_by_text("As it stood after round 3; hidden until the final.")).to_be_visible()
    expect(page.locator("table.standings tbody tr")).to_have_count(4)
    problems["standings"] = axe_violations(page)
    shot(page, "06-standings-hidden")
    page.goto(f"{live_server.url}/e/{t.slug}/me/{mover.pk}/ledger/")
    expect(page.get_by_text("As it stood after round 3; hidden until the final.")).to_be_visible()
    expect(page.get_by_text("Result hidden until the final")).to_be_visible()
    problems["ledger"] = axe_violations(page)
    shot(page, "06-ledger-hidden")
    projector = chromium.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{live_server.url}/p/{t.slug}/")
    expect(
        projector.get_by_text("Standings as they stood after round 3; hidden until the final.")
    ).to_be_visible()
    expect(projector.locator(".proj-standings tbody tr")).to_have_count(8)
    problems["projector"] = axe_violations(projector)
    projector.screenshot(path=str(SHOTS / "06-projector-hidden.png"))
    projector.close()
    assert not any(problems.values()), json.dumps(problems, indent=1)


def test_what_the_card_and_ledger_say_of_a_round_reads_on_a_phone_and_passes_axe_core(
    live_server, phone, make_tournament
):
    """A hidden round's score, sit-out points, not checked in, not here yet, a
    round seated but not started, and the series page of a hidden event."""
    from tests.test_hidden import finish_hidden_round, hidden_event, play_hidden_round_live
    from tests.test_public_phones import sat_out_in_round_2

    t, series = hidden_event(make_tournament)
    sitter = sat_out_in_round_2(t)
    r4 = t.rounds.get(number=4)
    north = Seating.objects.filter(round=r4, position="N").first().player
    absent = Player.objects.create(tournament=t, name="Absent Abe", division="A")
    late = Player.objects.create(tournament=t, name="Late Lou", division="B", checked_in=True)
    base = f"{live_server.url}/e/{t.slug}/"
    pages = {
        "20-ledger-seated-not-started": f"{base}me/{north.pk}/ledger/",
        "20-card-not-checked-in": f"{base}me/{absent.pk}/",
        "20-card-late-arrival": f"{base}me/{late.pk}/",
        "20-ledger-late-arrival": f"{base}me/{late.pk}/ledger/",
    }
    problems = {}

    def look(name: str, address: str) -> None:
        page = phone()
        page.goto(address)
        violations = axe_violations(page)
        if violations:
            problems[name] = violations
        shot(page, name)

    for name, address in pages.items():
        look(name, address)
    play_hidden_round_live(r4)
    look("20-card-hidden-round-live", f"{base}me/{north.pk}/")
    finish_hidden_round(r4)
    look("20-ledger-hidden-round", f"{base}me/{north.pk}/ledger/")
    look("20-series-hidden-event", f"{live_server.url}/series/{series.slug}/")
    t.hide_standings_last_rounds = 0
    t.save(update_fields=["hide_standings_last_rounds"])
    look("20-ledger-sit-out-points", f"{base}me/{sitter.pk}/ledger/")
    assert not problems, json.dumps(problems, indent=1)


def test_the_projector_countdown_shows_the_words_its_page_gives_in_the_pages_language(
    live_server, chromium, make_tournament
):
    """The words come translated from the template (data-text-*), not from the script."""
    t = event_after(make_tournament, 2, 1)  # round 2 seated, not started
    projector = chromium.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{live_server.url}/p/{t.slug}/")
    state = projector.locator("[data-countdown-state]")
    expect(state).to_have_text("Not started")
    # As a translated page would give it: the script shows the page's word.
    projector.locator("[data-countdown]").evaluate(
        "el => el.setAttribute('data-text-not-started', 'Pas commencé')"
    )
    expect(state).to_have_text("Pas commencé")
    projector.close()


def test_the_projector_during_the_final_shows_no_time_called_clock(
    live_server, chromium, make_tournament
):
    """Walked at the hall in French: the final (no time limit, rules §4) showed a red
    "0:00 Temps écoulé" on the projector for its whole length."""
    from tests.test_director import finished_prelims
    from tournaments.core.services import standings

    t = finished_prelims(make_tournament)
    standings.seed_final(t, by="test")
    projector = chromium.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{live_server.url}/p/{t.slug}/?lang=fr")
    expect(projector.locator("[data-countdown-state]")).to_have_text("Sans limite de temps")
    expect(projector.locator("[data-countdown-time]")).to_have_text("")
    assert projector.locator("[data-countdown]").get_attribute("data-state") != "called"
    # Once decided, the final is over, not a round: no "0:00" either.
    final = t.rounds.get(kind="final")
    final.status = "finished"
    final.save(update_fields=["status"])
    expect(projector.locator("[data-countdown-state]")).to_have_text("Finale terminée")
    expect(projector.locator("[data-countdown-time]")).to_have_text("")
    projector.close()


def test_large_text_mode_enlarges_the_card_and_is_remembered(live_server, phone, make_tournament):
    t = make_tournament(1)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    page = phone()
    page.goto(card_url(live_server, t, Seating.objects.filter(round=rnd).first().player))
    size = "() => parseFloat(getComputedStyle(document.querySelector('.seat-name')).fontSize)"
    before = page.evaluate(size)
    page.get_by_role("button", name="Larger text").tap()
    expect(page.get_by_role("button", name="Larger text")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(size) >= before * 1.3
    page.reload()
    assert page.evaluate(size) >= before * 1.3
    # Nothing overflows the phone's width even so.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "07-large-text")


def running_card(live_server, phone, make_tournament, left: timedelta, **extra):  # noqa: ANN201
    """A phone on the card of a seated player whose round has ``left`` to run."""
    t = make_tournament(2, round_minutes=20)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=20) + left)
    page = phone(**extra)
    page.goto(card_url(live_server, t, Seating.objects.filter(round=rnd).first().player))
    return page


BOTTOM = "sel => document.querySelector(sel).getBoundingClientRect().bottom"


def test_with_large_text_the_clock_is_on_the_first_screen_of_a_phone(
    live_server, phone, make_tournament
):
    page = running_card(live_server, phone, make_tournament, timedelta(minutes=12))
    expect(page.locator("[data-clock-time]")).to_have_text(re.compile(r"^1[12]:\d\d$"))
    assert page.evaluate(BOTTOM, ".clock") <= 844
    shot(page, "08-card-clock-normal")
    page.get_by_role("button", name="Larger text").tap()
    expect(page.get_by_role("button", name="Larger text")).to_have_attribute("aria-pressed", "true")
    page.evaluate("window.scrollTo(0, 0)")
    # The table, the seat and the clock: what a player glances at, without scrolling.
    for part in (".table-no", ".seat-name", ".clock"):
        assert page.evaluate(BOTTOM, part) <= 844, part
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "08-card-clock-large-first-screen.png"))
    shot(page, "08-card-clock-large")


def test_not_you_choose_again_is_a_thumb_sized_target(live_server, phone, make_tournament):
    page = running_card(live_server, phone, make_tournament, timedelta(minutes=12))
    link = page.get_by_role("link", name=re.compile(r"^Not .*\? Choose again$"))
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44, box


def test_the_clock_turns_red_when_time_runs_out_not_only_at_the_directors_call(
    live_server, phone, make_tournament
):
    page = running_card(live_server, phone, make_tournament, timedelta(seconds=3))
    state = page.locator("[data-clock-state]")
    expect(state).to_have_text("Time left")
    colour = "sel => getComputedStyle(document.querySelector(sel)).color"
    assert page.evaluate(colour, "[data-clock-state]") != "rgb(163, 0, 11)"
    # No reload and no call by the director: the clock reaching zero is the call (§7).
    expect(state).to_have_text("Time is called", timeout=WAIT)
    expect(page.locator("[data-clock-time]")).to_have_text("0:00")
    for part in ("[data-clock-state]", "[data-clock-time]"):
        assert page.evaluate(colour, part) == "rgb(163, 0, 11)", part
    shot(page, "09-card-time-ran-out")


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_projector_qr_code_is_large_enough_to_scan_across_a_hall(
    live_server, chromium, make_tournament, width, height
):
    t = event_after(make_tournament, 3, 1)  # round 2 seated: the seating pages show
    projector = chromium.new_page(viewport={"width": width, "height": height})
    projector.goto(f"{live_server.url}/p/{t.slug}/")
    qr = projector.locator(".proj-qr img")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box is not None
    # 360 px of 1920 and in proportion on a smaller screen, square, wholly on the screen.
    assert box["width"] >= 360 * width / 1920 and abs(box["width"] - box["height"]) < 2, box
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, box
    assert projector.evaluate("document.documentElement.scrollWidth") <= width
    SHOTS.mkdir(parents=True, exist_ok=True)
    projector.screenshot(path=str(SHOTS / f"10-projector-{width}x{height}.png"))
    projector.close()


def test_every_public_page_passes_axe_core(live_server, phone, chromium, make_tournament):
    t = event_after(make_tournament, 2, 2)
    rounds.start_round(t.rounds.get(number=3), by="test")
    p = Seating.objects.filter(round__tournament=t, round__number=3).first().player
    base = f"{live_server.url}/e/{t.slug}/"
    pages = {
        "event": base + "?pick=1",
        "event-search": base + "?pick=1&q=player",
        "card": f"{base}me/{p.pk}/",
        "ledger": f"{base}me/{p.pk}/ledger/",
        "standings": base + "standings/",
        "standings-b": base + "standings/?division=B&q=b00",
    }
    problems = {}
    for name, address in pages.items():
        for large in (False, True):
            page = phone()
            page.goto(address)
            if large:
                page.get_by_role("button", name="Larger text").tap()
            violations = axe_violations(page)
            if violations:
                problems[f"{name}{' large' if large else ''}"] = violations
            shot(page, f"axe-{name}{'-large' if large else ''}")
    projector = chromium.new_page(viewport={"width": 1920, "height": 1080})
    for name, state in (("projector-standings", None), ("projector-seating", "seat")):
        if state == "seat":
            fake_results(t.rounds.get(number=3))
            rounds.seat_next_round(t, by="test")
        projector.goto(f"{live_server.url}/p/{t.slug}/")
        qr = projector.locator(".proj-qr img")
        expect(qr).to_have_js_property("complete", True)
        assert qr.evaluate("img => img.naturalWidth") > 100  # the QR code is drawn
        violations = axe_violations(projector)
        if violations:
            problems[name] = violations
        projector.screenshot(path=str(SHOTS / f"{name}.png"))
    projector.close()
    assert not problems, json.dumps(problems, indent=1)
