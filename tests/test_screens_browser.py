"""Screens that fit, in real Chromium at the sizes of the hall: the
projector at 1920x1080, 1280x720 and 1024x768 for 4, 16, 50 and 500 tables, and the
scorer's tablet and the player's phone at 390x844. Each test fails when a table, a
player or the Save button is outside the viewport, cut, or broken mid-word.

Screenshots go to /tmp/screens-shots/ to be looked at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page

from tournaments.common.names import fold
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import Person, PersonLink
from tournaments.core.models.rounds import Seating
from tournaments.core.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/screens-shots")
PROJECTORS = [(1920, 1080), (1280, 720), (1024, 768)]
# The longest names a club sends: hyphens, accents and particles, never to be cut.
LONG_NAMES = [
    "Jean-François Bélanger",
    "Marie-Ève Saint-Pierre-Desrosiers",
    "Réjean Lévesque-Beauchemin",
    "Anne-Sophie de la Chevrotière",
]

# Everything the projector shows of the seating on the page now turned to: each table's
# number and box, each name's boxes (a name wrapped mid-way has two), its type size.
VISIBLE_SEATING = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const out = {tables: [], names: [], problems: []};
  const inside = (r) =>
    r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  for (const t of document.querySelectorAll('.proj-table')) {
    if (t.hidden || t.offsetParent === null) continue;
    const no = t.dataset.table;
    out.tables.push(no);
    const box = t.getBoundingClientRect();
    if (!inside(box)) out.problems.push(`table ${no} outside the screen: ${JSON.stringify(box)}`);
    for (const n of t.querySelectorAll('.name')) {
      const r = n.getBoundingClientRect();
      const lines = n.getClientRects().length;
      const size = parseFloat(getComputedStyle(n).fontSize);
      out.names.push(n.textContent);
      if (!inside(r)) out.problems.push(`${n.textContent} at table ${no} outside the screen`);
      if (lines !== 1) out.problems.push(`${n.textContent} broken over ${lines} lines`);
      if (r.right > box.right + 0.5) out.problems.push(`${n.textContent} spills out`);
      if (size < 0.02 * vh) out.problems.push(`${n.textContent} in ${size}px: too small to read`);
    }
  }
  const doc = document.documentElement;
  if (doc.scrollWidth > vw || doc.scrollHeight > vh) {
    out.problems.push(`the page scrolls: ${doc.scrollWidth}x${doc.scrollHeight}`);
  }
  return out;
}"""


def lengthen_names(t: Tournament) -> None:
    """Every fifth player gets one of the longest names (numbered: names are unique)."""
    players = list(Player.objects.filter(tournament=t).order_by("pk"))
    for i, p in enumerate(players[::5]):
        p.name = f"{LONG_NAMES[i % len(LONG_NAMES)]} {i}" if i >= len(LONG_NAMES) else LONG_NAMES[i]
    Player.objects.bulk_update(players[::5], ["name"])
    choose_full_names(t, players)


def choose_full_names(t: Tournament, players: list[Player]) -> None:
    """Each chose their full name for public pages (else they read "Jean-François B."):
    it is the long names' layout that is under test."""
    now = timezone.now()
    for p in players:
        if not PersonLink.objects.filter(player=p).exists():
            person = Person.objects.create(
                club=t.club, name=p.name, name_key=fold(p.name), created_at=now
            )
            PersonLink.objects.create(player=p, person=person, how=PersonLink.How.NEW)
    Person.objects.filter(links__player__tournament=t).update(public_full_name=True)


def walk_the_projector(page: Page, tables: int, players: set[str], label: str) -> int:
    """Turn every page of the seating; each must show its tables whole, on the screen;
    together they must show every table and every player. Returns the number of pages."""
    page.wait_for_selector("[data-pager][data-pages]")
    # The script lays the pages out again once the fonts are in: read after that.
    page.wait_for_function("document.fonts.status === 'loaded'")
    page.wait_for_timeout(200)
    count = int(page.locator("[data-pager]").get_attribute("data-pages") or 0)
    seen_tables: set[str] = set()
    seen_names: set[str] = set()
    for number in range(1, count + 1):
        assert page.locator("[data-pager]").get_attribute("data-page") == str(number)
        shown = page.evaluate(VISIBLE_SEATING)
        assert shown["problems"] == [], (label, number, shown["problems"][:5])
        assert shown["tables"], (label, number, "an empty page")
        seen_tables.update(shown["tables"])
        seen_names.update(shown["names"])
        if number in (1, count):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"projector-{label}-page{number}.png"))
        page.keyboard.press("ArrowRight")
    assert seen_tables == {str(n) for n in range(1, tables + 1)}, label
    assert seen_names == players, (label, sorted(players - seen_names)[:5])
    return count


@pytest.mark.parametrize("tables", [4, 16, 50, 500])
def test_the_projector_shows_every_table_and_every_player_whole_at_every_size(
    live_server, chromium, make_tournament, tables
):
    t = make_tournament(tables)
    lengthen_names(t)
    rnd = rounds.draw_first_round(t, by="test", seed=5)  # seated: the seating shows
    players = set(Seating.objects.filter(round=rnd).values_list("player__name", flat=True))
    assert len(players) == 4 * tables
    for width, height in PROJECTORS:
        projector = chromium.new_page(viewport={"width": width, "height": height})
        projector.goto(f"{live_server.url}/p/{t.slug}/")
        pages = walk_the_projector(projector, tables, players, f"{tables}t-{width}x{height}")
        # Legible, yet not wasteful: a page holds more than a table or two.
        assert pages <= max(1, -(-tables // 4)), (width, height, pages)
        projector.close()


def test_the_projector_clock_is_small_until_the_round_starts(
    live_server, chromium, make_tournament
):
    t = make_tournament(16)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    projector = chromium.new_page(viewport={"width": 1280, "height": 720})
    projector.goto(f"{live_server.url}/p/{t.slug}/")
    clock = projector.locator("[data-countdown] [data-countdown-time]")
    projector.wait_for_selector("[data-countdown][data-state=idle]")
    assert clock.bounding_box()["height"] < 0.1 * 720
    rounds.start_round(rnd, by="test")
    projector.wait_for_selector("[data-countdown][data-state=running]", timeout=10_000)
    assert clock.bounding_box()["height"] > 0.18 * 720
    projector.screenshot(path=str(SHOTS / "projector-clock-running.png"))


# --- the scorer's tablet on a phone (390x844) ----------------------------------------------

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# The parts of a name (split at spaces and hyphens) that the screen breaks over two lines.
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.offsetParent === null) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s-]+/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def in_viewport(page: Page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
          && r.right <= innerWidth; }""",
        selector,
    )


def test_the_tablet_on_a_phone_keeps_save_and_the_time_call_in_view_and_names_whole(
    live_server, chromium, make_tournament
):
    from tests.test_tablet_browser import all_sent, open_table, seat

    t = make_tournament(1)
    for p, name in zip(Player.objects.filter(tournament=t).order_by("pk"), LONG_NAMES, strict=True):
        p.name = name
        p.save(update_fields=["name"])
    choose_full_names(t, list(Player.objects.filter(tournament=t)))
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    rounds.start_round(rnd, by="test")
    page = chromium.new_context(**PHONE).new_page()
    open_table(page, live_server, t, 1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "tablet-390-start.png"))
    assert page.evaluate(BROKEN_WORDS, ".tb-seat-name, .tb-team-players") == []
    # The compact header leaves the table on the first screen.
    assert page.locator(".tb-bar").bounding_box()["height"] <= 0.18 * 844
    seat(page, "E").tap()
    page.locator("#tb-keeper button").nth("NESW".index("E")).tap()  # East keeps score
    page.tap("#tb-start-save")
    page.wait_for_selector("#tb-entry:not([hidden])")
    # A hand keyed from the top of the screen: Save is in view all along, never scrolled to.
    page.evaluate("window.scrollTo(0, 0)")
    seat(page, "N").tap()
    page.locator('#tb-tricks [data-tricks="3"]').tap()
    assert in_viewport(page, "#tb-save"), "Save hand is below the fold"
    page.screenshot(path=str(SHOTS / "tablet-390-entry.png"))
    assert page.evaluate(BROKEN_WORDS, ".tb-seat-name, .tb-team-players") == []
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("document.getElementById('tb-save').click()")
    all_sent(page)
    # The time call's question comes into view by itself.
    page.evaluate("window.scrollTo(0, 0)")
    rounds.call_time(t.rounds.get(number=1), by="director")
    page.wait_for_selector("#tb-call:not([hidden])", timeout=12_000)
    page.wait_for_timeout(300)
    assert in_viewport(page, "#tb-call-yes") and in_viewport(page, "#tb-call-no")
    page.screenshot(path=str(SHOTS / "tablet-390-call.png"))


def test_the_phone_card_shows_the_table_and_every_name_whole_on_a_phone(
    live_server, chromium, make_tournament
):
    t = make_tournament(1)
    for p, name in zip(Player.objects.filter(tournament=t).order_by("pk"), LONG_NAMES, strict=True):
        p.name = name
        p.save(update_fields=["name"])
    choose_full_names(t, list(Player.objects.filter(tournament=t)))
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    me = Seating.objects.filter(round=rnd).first().player
    page = chromium.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/e/{t.slug}/me/{me.pk}/")
    page.wait_for_selector(".table-no")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-card-390.png"))
    assert in_viewport(page, ".table-no")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(BROKEN_WORDS, "main") == []
    body = page.locator("main").inner_text()
    for name in LONG_NAMES:
        assert name in body.replace("\n", " "), name
