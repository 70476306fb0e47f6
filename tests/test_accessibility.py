"""Every screen at WCAG 2.2 AA (docs/accessibility.md): axe-core's WCAG 2.2 AA rules over
every page of the URL walk, in English and French, on a phone (390x844) and a console
(1280x800); a new violation anywhere fails the walk.

The walk is the URL conf's (tests/urlwalk.py): every pattern of the staff modules (signed
in as the club's owner, whose role covers them all), of the players' modules, the
tablet's screens (one scoring, one choosing the first dealer) and the pages outside any
module (sign-in, an invitation). A pattern is audited when a GET of it answers a whole
HTML page; the walk fails when fewer pages answer than it knows it should reach."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.axe import axe_violations, open_settled
from tests.conftest import players_csv
from tests.test_club_scoping import NOT_WALKED, WALKED, side, url_of
from tests.test_hidden import NOT_PUBLIC, PUBLIC_NAMESPACES, passes
from tests.urlwalk import patterns_by_namespace
from tournaments.clubs import services
from tournaments.clubs.services import assign
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import TableLink
from tournaments.core.roles import DESK, OWNER
from tournaments.core.services import rounds
from tournaments.core.services.players import import_players
from tournaments.core.services.tournaments import create_tournament
from tournaments.registration.services import save_settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "console": {"width": 1280, "height": 800}}
# Pages read in English whatever the reader chose, and why (audited in English).
ENGLISH_ONLY = {
    "series_public:series": "a proxy caches one copy for everyone until the page is "
    "translated whole (tournaments/series/public_views.py)",
}
# Fewer pages than this answering means the walk lost its way (a fixture that no longer
# fills a pattern), not that the site became accessible.
AT_LEAST = 44


@dataclass
class Walk:
    staff: list[str]  # addresses a signed-in owner reads
    public: list[tuple[str, bool]]  # addresses anyone reads, and whether in English only
    tablets: list[str]  # a table's secret link each (the tablet screen it opens)
    session: str  # the owner's session cookie


def whole_page(response) -> bool:  # noqa: ANN001 - Django's test response
    return (
        response.status_code == 200
        and response["Content-Type"].startswith("text/html")
        and b"<html"
        in b"".join(response.streaming_content if response.streaming else [response.content])
    )


def build_walk(django_user_model) -> Walk:
    club = services.create_club("Alpha club", "alpha")
    a = side(club, "Alpha")
    owner = django_user_model.objects.create_user("olga", password="x-long-password-1")
    assign(owner, OWNER, club)
    staff_client = Client()
    staff_client.force_login(owner)

    staff: list[str] = []
    found, unknown = patterns_by_namespace(WALKED, NOT_WALKED)
    assert not unknown
    for name, kwargs in found:
        address = url_of(name, kwargs, a)
        if whole_page(staff_client.get(address)):
            staff.append(address)
    # The desk's screen as the desk sees it is the same template; the owner reads it.
    staff.append(reverse("director:desk", args=[a.event.slug]))

    # An event taking registrations, not yet drawn: the players' form.
    open_event = create_tournament("Alpha Spring", by="test", club=club)
    import_players(open_event, players_csv(2), by="test", checked_in=True)
    save_settings(open_event, open=True, cap_total=None, cap_a=None, cap_b=None, by="test")

    anonymous = Client()
    public: list[str] = []
    player = Player.objects.filter(tournament=a.event).order_by("pk").first()
    token = passes(a.event)[0]
    found, unknown = patterns_by_namespace(PUBLIC_NAMESPACES | {"club_public"}, NOT_PUBLIC)
    values = {"slug": a.event.slug, "player": player.pk, "token": token, "club": club.slug}
    for name, kwargs in found:
        filled = {k: values[k] for k in kwargs}
        if name == "series_public:series" or name == "club_public:series":
            filled["slug"] = a.series.slug
        candidates = [reverse(name, kwargs=filled)]
        if name == "public:register":
            candidates.append(reverse(name, kwargs={"slug": open_event.slug}))
        if name == "public:standings":
            candidates.append(candidates[0] + "?division=B")
        if name == "public:event":
            candidates.append(candidates[0] + "?pick=1&q=pla")
        for address in candidates:
            if whole_page(anonymous.get(address, follow=False)):
                public.append((address, name in ENGLISH_ONLY))
    invitation = services.invite(club, DESK, by="test")
    public += [
        (reverse("login"), False),
        (reverse("join", args=[invitation.token]), False),
        (reverse("tablet:code"), False),
    ]

    # A table in play (hands entered) and a table choosing its first dealer.
    tablets = [TableLink.objects.filter(tournament=a.event, revoked_at__isnull=True).first().token]
    fresh = a.other_event
    rnd = fresh.rounds.order_by("-number").first()
    quiet = rnd.matches.filter(hands__isnull=True).order_by("table").first()
    if quiet is None:
        # Every table of the other event has begun; a new first round has none.
        fresh = Tournament.objects.get(pk=open_event.pk)
        rounds.draw_first_round(fresh, by="test", seed=3)
        quiet = fresh.rounds.get(number=1).matches.order_by("table").first()
    tablets.append(
        TableLink.objects.get(tournament=fresh, table=quiet.table, revoked_at__isnull=True).token
    )
    return Walk(staff, public, tablets, staff_client.cookies[settings.SESSION_COOKIE_NAME].value)


def audit(page: Page, address: str, lang: str) -> list[dict] | str:
    """axe-core's violations on ``address``, or what went wrong before it could look."""
    response = open_settled(page, address)
    if response is None or response.status != 200:
        return f"answered {response.status if response else 'nothing'}"
    shown = page.evaluate("document.documentElement.lang")
    if not shown.startswith(lang):
        return f"read in {shown!r}, not {lang!r}"
    return axe_violations(page)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_page_of_the_walk_passes_axe_core_wcag_22_aa(
    live_server, chromium, django_user_model, lang, size
):
    walk = build_walk(django_user_model)
    assert len(walk.staff) + len(walk.public) + len(walk.tablets) >= AT_LEAST, walk
    base = live_server.url
    problems: dict[str, object] = {}

    def context(signed_in: bool):  # noqa: ANN202 - a Playwright context
        ctx = chromium.new_context(viewport=SIZES[size], reduced_motion="reduce")
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": base}]
        if signed_in:
            cookies.append(
                {"name": settings.SESSION_COOKIE_NAME, "value": walk.session, "url": base}
            )
        ctx.add_cookies(cookies)
        return ctx

    console = context(signed_in=True).new_page()
    for address in walk.staff:
        found = audit(console, base + address, lang)
        if found:
            problems[address] = found
    reader = context(signed_in=False).new_page()
    for address, english_only in walk.public:
        sep = "&" if "?" in address else "?"
        read_in = "en" if english_only else lang
        found = audit(reader, f"{base}{address}{sep}{urlencode({'lang': lang})}", read_in)
        if found:
            problems[address] = found
    for token in walk.tablets:
        tablet = context(signed_in=False).new_page()
        found = audit(tablet, f"{base}/t/{token}/?{urlencode({'lang': lang})}", lang)
        if found:
            problems[f"tablet {token[:6]}"] = found
        # The tablet's other theme and its large text, with the display panel open.
        tablet.click("#tb-display")
        tablet.click("#tb-contrast")
        tablet.click("#tb-large")
        found = axe_violations(tablet)
        if found:
            problems[f"tablet {token[:6]}, high contrast, larger text"] = found
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)


# --- the order a screen reader reads -------------------------------------------------------

# Roles a screen reader's user moves by (landmarks, headings, controls, the live parts);
# the text between them is read in the same order and is left out of the outline.
OUTLINE_ROLES = {
    "banner",
    "navigation",
    "main",
    "region",
    "heading",
    "link",
    "button",
    "timer",
    "status",
    "list",
    "group",
    "term",
}


def reading_outline(page: Page) -> list[tuple[str, str]]:
    """(role, name) of the outline's nodes in the order of the accessibility tree that
    Chromium gives assistive technology (the DevTools protocol's, not the DOM's)."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    by_id = {n["nodeId"]: n for n in nodes}
    outline: list[tuple[str, str]] = []

    def visit(node: dict) -> None:
        role = node.get("role", {}).get("value", "")
        if not node.get("ignored") and role in OUTLINE_ROLES:
            outline.append((role, node.get("name", {}).get("value", "").strip()))
        for child in node.get("childIds", []):
            if child in by_id:
                visit(by_id[child])

    visit(nodes[0])
    return outline


def read_in_order(outline: list[tuple[str, str]], expected: list[tuple[str, str]]) -> None:
    """Each (role, start of its name) of ``expected`` is met in the outline, in order."""
    position = 0
    for role, start in expected:
        for i in range(position, len(outline)):
            if outline[i][0] == role and outline[i][1].startswith(start):
                position = i + 1
                break
        else:
            pytest.fail(f"{role} {start!r} not read after {outline[position - 1]}: {outline}")
    unnamed = [node for node in outline if node[0] in ("link", "button") and not node[1]]
    assert not unnamed, f"controls without a name: {unnamed}"


def test_a_screen_reader_reads_the_phone_card_in_order_and_hears_a_clock_change_once(
    live_server, chromium, make_tournament, monkeypatch
):
    from tournaments.core.phones import views

    monkeypatch.setattr(views, "POLL_SECONDS", 1)
    from tests.test_public_browser import PHONE

    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    rounds.start_round(rnd, by="test")
    seat = rnd.seats.get(table=1, position="N")
    partner = rnd.seats.get(table=1, position="S").player.name
    page = chromium.new_context(**PHONE).new_page()
    # The page's own clock, so that the seconds below tick by at once, not in real time.
    page.clock.install()
    page.goto(f"{live_server.url}/e/{t.slug}/me/{seat.player.pk}/")
    page.locator("[data-clock-time]").wait_for()

    read_in_order(
        reading_outline(page),
        [
            ("banner", ""),
            ("link", t.name),  # back to choosing a name
            ("button", "Larger text"),
            ("navigation", "Language"),
            ("link", "Français"),
            ("navigation", "Event pages"),
            ("link", "My card"),
            ("link", "My ledger"),
            ("link", "Standings"),
            ("main", ""),
            ("heading", seat.player.name),  # whose card, then where and when
            ("timer", ""),
            ("list", "Seats at table 1, clockwise from North"),
            ("term", "Partner"),
            ("term", "Opponents"),
            ("status", ""),  # what changes is said here, once
            ("link", f"Not {seat.player.name}? Choose again"),
        ],
    )
    assert partner in page.locator("dl.people").inner_text()
    # The seconds are not live; the region that says a change is polite.
    assert page.locator("[data-clock]").get_attribute("aria-live") == "off"
    said = page.locator("[data-announce]")
    assert said.get_attribute("aria-live") == "polite"
    page.clock.run_for(2500)  # seconds tick by: nothing is said
    assert said.inner_text() == ""

    # The director pauses: the card says so once, with the time left, and says it no more.
    rounds.pause_round(rnd, by="test")
    expect(said).to_have_text(re.compile(r"^Paused \d+:\d\d$"), timeout=10_000)
    first = said.inner_text()
    page.clock.run_for(2500)
    assert said.inner_text() == first


def test_a_screen_reader_reads_the_tablets_scoring_screen_in_a_sensible_order(
    live_server, chromium, make_tournament
):
    from tournaments.core.services import play
    from tournaments.domain.hands import Seat

    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.get(table=1)
    play.set_first_dealer(match, Seat.N, by="test")
    names = {s.position: s.player.name for s in rnd.seats.filter(table=1)}
    page = chromium.new_page(viewport={"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/t/{TableLink.objects.get(tournament=t, table=1).token}/")
    page.locator("#tb-entry").wait_for()

    read_in_order(
        reading_outline(page),
        [
            ("heading", "Round 1 Table 1"),
            ("timer", "Time remaining in the round"),
            ("status", ""),  # the clock's change of state, said once
            ("status", ""),  # the network line
            ("button", "Call the director"),
            ("button", "Display"),
            ("region", "Score"),
            ("status", "North–South score 0"),
            ("status", "East–West score 0"),
            # The seats as they lie on the screen: North, then West and East, then South.
            ("region", "Players at the table"),
            ("button", f"North: {names['N']}"),
            ("button", f"West: {names['W']}"),
            ("button", f"East: {names['E']}"),
            ("button", f"South: {names['S']}"),
            # Then the hand: who made trump (above), alone, tricks, save.
            ("region", "Hand"),
            ("button", "Alone"),
            ("group", "2. Tricks the makers took"),
            ("button", "0 tricks"),
            ("button", "5 tricks"),
            ("button", "Save hand"),
            ("region", "Hands"),
        ],
    )
    # The dealer's button says so in the words it shows.
    assert "Dealer" in page.locator(".tb-seat-N").get_attribute("aria-label")


# --- keyboard only ---------------------------------------------------------------------------

# Any of these in a keyboard walk means a pointer was used.
POINTER_EVENTS = ["mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "wheel"]


def no_pointer(context) -> list[str]:  # noqa: ANN001 - a Playwright context
    """The pointer events any page of ``context`` sees, as they happen."""
    seen: list[str] = []
    context.expose_function("snowmanPointerSeen", lambda kind: seen.append(kind))
    events = json.dumps(POINTER_EVENTS)
    context.add_init_script(
        f"for (const t of {events}) "
        "document.addEventListener(t, () => window.snowmanPointerSeen(t), true);"
    )
    return seen


def tab_to(page: Page, target, limit: int = 80) -> None:  # noqa: ANN001 - a locator
    """Tab forward until ``target`` has the focus, as a keyboard user finds it; fails on a
    focus that stops moving (a trap) or that no ring shows."""
    target.wait_for()
    handle = target.element_handle()
    passed: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        where = page.evaluate(
            """(target) => {
                const el = document.activeElement;
                const style = getComputedStyle(el);
                const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0)
                    || style.boxShadow !== "none";
                return {here: el === target, ring,
                        what: el.tagName + " " + (el.textContent || "").trim().slice(0, 40)};
            }""",
            handle,
        )
        if where["here"]:
            assert where["ring"], f"no visible focus on {where['what']}"
            return
        passed.append(where["what"])
        if len(passed) > 3 and len(set(passed[-4:])) == 1:
            pytest.fail(f"the focus is stuck on {passed[-1]}")
    pytest.fail(f"Tab never reached the control; it went through {passed}")


def test_keyboard_only_the_desk_checks_in_the_director_seats_and_finalizes_a_round_and_a_table_enters_a_hand(  # noqa: E501
    live_server, chromium, make_tournament, director
):
    from tests.test_director_browser import results_arrive
    from tournaments.core.models.play import HandEntry
    from tournaments.core.models.rounds import Round
    from tournaments.core.services.players import set_checked_in

    t = make_tournament(2)
    late = Player.objects.get(tournament=t, name="Player A003")
    set_checked_in(t, [late.pk], False, by="test")
    staff = Client()
    staff.force_login(director)
    base = live_server.url
    console_context = chromium.new_context(viewport=SIZES["console"])
    console_context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": staff.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base,
            }
        ]
    )
    pointer = no_pointer(console_context)
    console = console_context.new_page()
    console.on("dialog", lambda dialog: dialog.accept())  # a confirm() answers to Enter too

    # The desk: the search box has the focus; a few letters, Tab to the row's button, Enter.
    console.goto(f"{base}/director/{t.slug}/desk/")
    console.keyboard.type("A003")
    row = console.locator(f"#desk-{late.pk}")
    tab_to(console, row.get_by_role("button", name="Check in"))
    console.keyboard.press("Enter")
    expect(row).to_contain_text("Checked in")
    late.refresh_from_db()
    assert late.checked_in
    # Ready for the next name in the queue.
    expect(console.locator("#desk-q")).to_be_focused()

    # The director draws round 1 from the overview and starts its clock from its console.
    console.goto(f"{base}/director/{t.slug}/")
    tab_to(console, console.get_by_role("button", name="Draw round 1"))
    with console.expect_navigation():
        console.keyboard.press("Enter")
    rnd = Round.objects.get(tournament=t, number=1)
    console.goto(f"{base}/director/{t.slug}/rounds/1/")
    tab_to(console, console.get_by_role("button", name="Start the clock"))
    console.keyboard.press("Enter")
    expect(console.get_by_role("button", name="Pause")).to_be_visible()
    # The board is drawn again every 3 s: the keyboard keeps its place in it.
    table_2 = console.locator('#live-board tr[data-table="2"] a')
    tab_to(console, table_2)
    drawn = console.locator("#board-summary .updated").inner_text()
    expect(console.locator("#board-summary .updated")).not_to_have_text(drawn, timeout=10_000)
    console.wait_for_timeout(100)  # htmx settles the new drawing
    expect(table_2).to_be_focused()

    # A scorekeeper at table 1: the first dealer, then one hand, by Tab, Space and Enter.
    tablet_context = chromium.new_context(viewport={"width": 1024, "height": 768})
    tablet_pointer = no_pointer(tablet_context)
    tablet = tablet_context.new_page()
    token = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True).token
    tablet.goto(f"{base}/t/{token}/")
    expect(tablet.locator(".tb-seat-N")).to_be_enabled()
    tab_to(tablet, tablet.locator(".tb-seat-N"))
    tablet.keyboard.press("Space")
    # The scorekeeper is named before the first hand (RULES.md §7).
    keeper = rnd.seats.get(table=1, position="N").player.name
    tab_to(tablet, tablet.get_by_role("button", name=f"{keeper} keeps score"))
    tablet.keyboard.press("Space")
    tab_to(tablet, tablet.get_by_role("button", name="Start the match"))
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#tb-entry")).to_be_visible()
    tab_to(tablet, tablet.locator(".tb-seat-E"))
    tablet.keyboard.press("Space")
    tab_to(tablet, tablet.get_by_role("button", name="3 tricks"))
    tablet.keyboard.press("Space")
    tab_to(tablet, tablet.get_by_role("button", name="Save hand"))
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#tb-net")).to_have_text("Online · all sent", timeout=10_000)
    hands = HandEntry.objects.filter(match__round=rnd, match__table=1, state="standing")
    assert [(h.maker, h.maker_tricks) for h in hands] == [("E", 3)]

    # The other tables finish; the director finalizes round 1 and seats round 2.
    results_arrive(rnd, seed=4)
    console.reload()
    tab_to(console, console.get_by_role("button", name="Finalize and seat round 2"))
    with console.expect_navigation():
        console.keyboard.press("Enter")
    rnd.refresh_from_db()
    assert rnd.status == "finished"
    assert Round.objects.filter(tournament=t, number=2, status="seated").exists()
    assert pointer == [] and tablet_pointer == [], (pointer, tablet_pointer)
