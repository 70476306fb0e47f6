"""Registration's whole walk in real Chromium, across two real servers, each with a
database of its own: the club site, where 40 players register on their phones for a
32-place event, and the hall, which takes the signed list by file and from then on has no
network to the club site (the club server is stopped). The desk checks 30 players in by
scanning the QR of a screenshot of each pass page; the event runs; the results reach the
club site again by publish, twice, with one event, and a player's link there leads to them."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, expect

from bench.server import Server, collectstatic, free_port, production_env
from tournaments.common.names import public_name

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("SNOWMAN_SHOTS", "/tmp/snowman-shots"))
PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-pass-word"
FIRST = ["Ann", "Bob", "Cécile", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jade"]
LAST = ["Lee", "Roy", "Côté", "Wu"]
NAMES = [f"{first} {last}" for last in LAST for first in FIRST]  # 40 names

STAFF = f"""
from django.contrib.auth import get_user_model
from tournaments.clubs.services import assign
user = get_user_model().objects.create_user("director", password={PASSWORD!r}, is_staff=True)
assign(user, "director")
"""

CLUB_SETUP = (
    STAFF
    + """
import json
from tournaments.registration import services as registration
from tournaments.publishing import services as publish
from tournaments.series.services import create_series
from tournaments.core.services.tournaments import create_tournament
t = create_tournament("Winter Open", by="test", lot_seed=3)
registration.save_settings(t, open=True, cap_total=32, cap_a=None, cap_b=None, by="test")
series = create_series("Winter league")
token = publish.grant("winter-open-night", series=series, by="club")
print(json.dumps({"slug": t.slug, "series": series.slug, "token": token}))
"""
)

HALL_SETUP = (
    STAFF
    + """
from tournaments.core.services.tournaments import create_tournament
print(create_tournament("Winter Open night", by="test", lot_seed=5).slug)
"""
)

# The event runs at the hall: the rounds played through the services, as bench does.
HALL_PLAY = """
from django.utils import timezone
from tournaments.core.models.event import Tournament
from tournaments.core.reads.rounds import remedies
from tournaments.core.services import rounds, standings
from tournaments.core.simulate import Simulation
t = Tournament.objects.get(slug=%r)
sim = Simulation(0, seed=26)
sim.tournament, sim.clock = t, timezone.now()
remedy = remedies(t)[0].kind if remedies(t) else ""
rounds.draw_first_round(t, by="sim", seed=26, remedy=remedy, now=sim.clock)
for number in range(1, t.preliminary_rounds + 1):
    if number > 1:
        rounds.seat_next_round(t, by="sim", now=sim.clock)
    sim.play_round(t.rounds.get(number=number))
print(t.rounds.count())
"""

HALL_PUBLISH = """
from tournaments.core.models.event import Tournament
from tournaments.publishing import services as publish
t = Tournament.objects.get(slug=%r)
publish.configure(t, club_url=%r, token=%r, by="director")
p = publish.publish(t, by="director")
print(repr(p.last_error))
"""


def manage(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_in(context: BrowserContext, base: str) -> Page:
    page = context.new_page()
    page.goto(base + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#id_username")).to_have_count(0)
    return page


def register(context: BrowserContext, base: str, slug: str, name: str, division: str) -> Page:
    page = context.new_page()
    page.goto(f"{base}/e/{slug}/register/")
    page.fill("#id_name", name)
    page.get_by_label(f"Division {division}").check()
    page.fill("#id_contact", f"{name.split()[0].lower()}.{name.split()[1].lower()}@example.com")
    page.get_by_label(re.compile("I agree")).check()
    page.get_by_role("button", name="Send my registration").click()
    expect(page.locator("h1")).to_have_text("My registration")
    return page


def decoded(path: Path) -> str:
    found = zxingcpp.read_barcodes(Image.open(path))
    assert len(found) == 1, f"{path}: {len(found)} codes"
    return found[0].text


def club_rows(database: Path, slug: str) -> dict[str, object]:
    with sqlite3.connect(database) as db:
        t = db.execute("SELECT id FROM tournaments_tournament WHERE slug = ?", (slug,)).fetchall()
        assert len(t) == 1
        (pk,) = t[0]
        rows: dict[str, object] = {
            table: db.execute(f"SELECT * FROM tournaments_{table} ORDER BY id").fetchall()  # noqa: S608
            for table in ("person", "personlink", "seriesevent", "eventresult")
        }
        rows["players"] = db.execute(
            "SELECT * FROM tournaments_player WHERE tournament_id = ? ORDER BY id", (pk,)
        ).fetchall()
        rows["hands"] = db.execute("SELECT count(*) FROM tournaments_handentry").fetchone()
    return rows


def test_forty_register_the_hall_takes_the_list_offline_scans_thirty_and_publishes_twice(
    tmp_path: Path, chromium: Browser
) -> None:
    static = tmp_path / "static"
    club_db, hall_db = tmp_path / "club.sqlite3", tmp_path / "hall.sqlite3"
    # Every phone of this walk comes from one address.
    limits = {"REGISTRATION_LIMIT_PER_ADDRESS": "100"}
    club_env = production_env(f"sqlite:///{club_db}", tmp_path / "club", static, **limits)
    hall_env = production_env(f"sqlite:///{hall_db}", tmp_path / "hall", static)
    collectstatic(club_env)
    manage(club_env, "migrate", "-v0")
    manage(hall_env, "migrate", "-v0")
    club_info = json.loads(manage(club_env, "shell", "-c", CLUB_SETUP).strip().splitlines()[-1])
    hall_slug = manage(hall_env, "shell", "-c", HALL_SETUP).strip().splitlines()[-1]
    slug = club_info["slug"]
    club_port, hall_port = free_port(), free_port()
    club_url, hall_url = f"http://127.0.0.1:{club_port}", f"http://127.0.0.1:{hall_port}"
    club = Server(club_env, club_port, workers=2, threads=2, log=tmp_path / "club.log").start()
    hall = Server(hall_env, hall_port, workers=2, threads=2, log=tmp_path / "hall.log").start()
    try:
        # --- 40 phones register for 32 places ------------------------------------------
        phones: dict[str, Page] = {}
        links: dict[str, str] = {}
        for n, name in enumerate(NAMES):
            context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            page = register(context, club_url, slug, name, "AB"[n % 2])
            links[name] = page.url
            if n in (0, 32):
                shot(page, f"walk-phone-{'register' if n == 0 else 'waitlist'}")
            if name in NAMES[:3] or name in NAMES[32:] or name == NAMES[5]:
                phones[name] = page
            else:
                context.close()
        expect(phones[NAMES[0]].locator("#status")).to_contain_text("Place 1 of 32")
        for k, name in enumerate(NAMES[32:], start=1):
            expect(phones[name].locator("#status")).to_contain_text(f"Waitlist #{k}")

        # --- three withdraw from their private links; the first three waiting move up ---
        for name in NAMES[:3]:
            phones[name].get_by_role("button", name="Withdraw my registration").click()
            expect(phones[name].locator("#status")).to_contain_text("Withdrawn")
        for name in NAMES[32:35]:
            phones[name].reload()
            expect(phones[name].locator("#status")).to_contain_text("waiting for the director")
        shot(phones[NAMES[32]], "walk-phone-promoted")
        for k, name in enumerate(NAMES[35:], start=1):
            phones[name].reload()
            expect(phones[name].locator("#status")).to_contain_text(f"Waitlist #{k}")

        # --- the director accepts 31 and declines one with a reason --------------------
        office = chromium.new_context(viewport={"width": 1280, "height": 900})
        director = sign_in(office, club_url)
        director.goto(f"{club_url}/director/{slug}/registrations/")
        declined = NAMES[5]
        reason = "The event is for club members this winter."
        row = director.locator(f"#pending tr[data-name='{declined}']")
        row.locator("select[name=action]").select_option("decline")
        row.locator("input[name=message]").fill(reason)
        row.get_by_role("button", name="Send").click()
        expect(director.locator(".messages")).to_contain_text(declined)
        accepted = [n for n in NAMES[3:35] if n != declined]
        assert len(accepted) == 31
        for name in accepted:
            row = director.locator(f"#pending tr[data-name='{name}']")
            row.get_by_role("button", name="Send").click()
            expect(director.locator(".messages")).to_contain_text(f"{name}: Accepted")
        phones[declined].reload()
        expect(phones[declined].locator("#status")).to_contain_text(reason)
        shot(phones[declined], "walk-phone-declined")

        # Each accepted player's pass page, as their phone shows it: the QR to scan.
        passes: dict[str, Path] = {}
        pass_phone = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        pass_page = pass_phone.new_page()
        for name in accepted[:30]:
            pass_page.goto(links[name])
            expect(pass_page.locator("#pass img")).to_be_visible()
            passes[name] = shot(pass_page, f"walk-pass-{accepted.index(name):02d}")
        pass_phone.close()

        # --- the list leaves the club site as a signed file -----------------------------
        key = director.locator("#transfer-key").inner_text().strip()
        signed = director.request.get(f"{club_url}/director/{slug}/registrations/list.signed")
        assert signed.ok
        listing = tmp_path / "winter-open.registrations.signed"
        listing.write_bytes(signed.body())

        # From here the hall has no network to the club site: nothing listens there.
        club.stop()
        desk_context = chromium.new_context(viewport={"width": 1280, "height": 900})
        desk = sign_in(desk_context, hall_url)
        desk.goto(f"{hall_url}/director/{hall_slug}/registrations/")
        form = desk.locator("#transfer form")
        form.locator("input[name=file]").set_input_files(str(listing))
        form.locator("input[name=key]").fill(key)
        form.get_by_role("button", name="Import").click()
        expect(desk.locator(".messages")).to_contain_text("31")

        # --- the desk scans 30 passes from their screenshots ---------------------------
        desk.goto(f"{hall_url}/director/{hall_slug}/desk/scan/")
        scan_input = desk.locator("#scan-input")
        timings = []
        for n, (name, png) in enumerate(passes.items()):
            text = decoded(png)
            assert text == links[name]  # the QR holds the private link
            expect(scan_input).to_be_focused()
            started = time.perf_counter()
            scan_input.press_sequentially(text, delay=0)  # a USB scanner types, then Enter
            scan_input.press("Enter")
            expect(desk.locator("#scan-result")).to_contain_text(name)
            if n == 0:
                shot(desk, "walk-desk-scan")
            desk.locator("#scan-check-in").click()
            expect(desk.locator("#scan-done")).to_contain_text(f"{name} checked in at")
            timings.append(time.perf_counter() - started)
        timings.sort()
        median, p95 = statistics.median(timings), timings[int(0.95 * (len(timings) - 1))]
        print(f"\nscan to checked in, 30 passes: median {median:.3f} s, p95 {p95:.3f} s")

        # --- the event runs at the hall, offline; publishing waits ----------------------
        played = manage(hall_env, "shell", "-c", HALL_PLAY % hall_slug).strip().splitlines()
        assert int(played[-1]) >= 2
        offline = manage(
            hall_env,
            "shell",
            "-c",
            HALL_PUBLISH % (hall_slug, club_url, club_info["token"]),
        )
        assert "could not be reached" in offline
        desk.goto(f"{hall_url}/director/{hall_slug}/settings/")
        expect(desk.locator("body")).to_contain_text("Not published yet")
        desk.goto(f"{hall_url}/director/{hall_slug}/standings/")  # the hall works on
        expect(desk.locator("body")).to_contain_text(accepted[0])

        # --- the club site is back: the results reach it, twice, one event -------------
        club = Server(club_env, club_port, workers=2, threads=2, log=tmp_path / "club.log")
        club.start()
        publish = HALL_PUBLISH % (hall_slug, club_url, club_info["token"])
        assert manage(hall_env, "shell", "-c", publish).strip().splitlines()[-1] == "''"
        # The club's registration copy follows the results: a player's link leads there.
        phone = phones[NAMES[32]]
        phone.reload()
        expect(phone.locator("#played")).to_contain_text("This event is under way.")
        expect(phone.locator("#withdraw")).to_have_count(0)
        phone.locator("#my-results").click()
        expect(phone).to_have_url(re.compile(f"/e/{hall_slug}/me/"))
        # Her card at the hall names her as public pages do ("Cécile W.").
        expect(phone.locator("body")).to_contain_text(public_name(NAMES[32], False))
        before = club_rows(club_db, hall_slug)
        series_page = director.goto(f"{club_url}/series/{club_info['series']}/")
        assert series_page is not None and series_page.ok
        expect(director.locator("body")).to_contain_text("Winter Open night")
        first_page = director.content()
        director.goto(f"{club_url}/director/league/people/")
        expect(director.locator("body")).to_contain_text(accepted[0])
        director.get_by_role("link", name=accepted[0]).first.click()
        expect(director.locator("body")).to_contain_text("Winter Open night")
        shot(director, "walk-club-person")
        assert manage(hall_env, "shell", "-c", publish).strip().splitlines()[-1] == "''"
        assert club_rows(club_db, hall_slug) == before
        director.goto(f"{club_url}/series/{club_info['series']}/")
        assert director.content() == first_page
    finally:
        club.stop()
        hall.stop()
