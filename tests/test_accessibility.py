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
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page

from tests.axe import axe_violations
from tests.conftest import players_csv
from tests.test_club_scoping import NOT_WALKED, WALKED, side, url_of
from tests.test_hidden import NOT_PUBLIC, PUBLIC_NAMESPACES, passes
from tests.urlwalk import patterns_by_namespace
from tournaments.models import Player, TableLink, Tournament
from tournaments.roles import DESK, OWNER
from tournaments.services import clubs as club_service
from tournaments.services import rounds
from tournaments.services.clubs import assign
from tournaments.services.players import import_players
from tournaments.services.registration import save_settings
from tournaments.services.tournaments import create_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "console": {"width": 1280, "height": 800}}
# Pages read in English whatever the reader chose, and why (audited in English).
ENGLISH_ONLY = {
    "series_public:series": "a proxy caches one copy for everyone until the page is "
    "translated whole (tournaments/views/series_public.py)",
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
    club = club_service.create_club("Alpha club", "alpha")
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
    invitation = club_service.invite(club, DESK, by="test")
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
    response = page.goto(address)
    if response is None or response.status != 200:
        return f"answered {response.status if response else 'nothing'}"
    page.wait_for_load_state("networkidle")
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
