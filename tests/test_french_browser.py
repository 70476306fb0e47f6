"""The French pages in real Chromium: a phone (390x844) chooses Français on the event page
and keeps it, and no French page breaks its layout (French runs 15-30% longer): nothing
wider than the phone, no button or link cutting a word, the active offer on the first
screen. The projector at 1920x1080 with ?lang=fr. Screenshots go to /tmp/french-shots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.test_public_browser import PHONE
from tests.test_public_phones import event_after, player
from tournaments.core.models.rounds import Round
from tournaments.core.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/french-shots")

# Elements whose text is cut (ellipsis or clipped) or that stick out of the page.
BROKEN = r"""() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll('button, a, nav, h1, h2, th, td, dt, dd, p, li')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (el.closest('.visually-hidden')) continue;  // read aloud, never seen
    if (r.right > width + 1) out.push('beyond the page: ' + el.outerHTML.slice(0, 80));
    const tight = getComputedStyle(el).overflow !== 'visible' || el.matches('button');
    if (tight && el.scrollWidth > el.clientWidth + 1)
      out.push('cut: ' + el.outerHTML.slice(0, 80));
  }
  if (document.documentElement.scrollWidth > width) out.push('page wider than the phone');
  // A word broken across two lines ("adversair-e"): its letters sit on two line boxes.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.checkVisibility()) continue;
    for (const m of node.data.matchAll(/[^\s]+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1 && !m[0].includes('://')) out.push('word broken: ' + m[0]);
    }
  }
  return out;
}"""


def look(page: Page, name: str) -> None:
    assert page.evaluate(BROKEN) == [], name
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_phone_chooses_francais_on_the_first_screen_and_every_page_reads_whole_in_french(
    live_server, chromium, make_tournament
):
    t = event_after(make_tournament, 3, played=2)
    rounds.start_round(Round.objects.get(tournament=t, number=3), by="test", now=timezone.now())
    me = player(t, "Player A001")
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/e/{t.slug}/")
    offer = page.get_by_role("link", name="Français")
    expect(offer).to_be_visible()
    box = offer.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # without scrolling
    look(page, "00-event-english-offer")
    offer.tap()
    expect(page.get_by_role("heading", name="Trouvez votre nom")).to_be_visible()
    look(page, "01-event")
    page.get_by_label("Tapez quelques lettres de votre nom").fill("player a00")
    expect(page.locator("[data-find-results] a").first).to_be_visible()
    look(page, "02-event-found")
    page.goto(f"{live_server.url}/e/{t.slug}/me/{me.pk}/")
    expect(page.locator(".round")).to_have_text("Ronde 3")
    expect(page.locator("[data-clock-state]")).to_have_text("Temps restant")
    look(page, "03-card")
    page.get_by_role("link", name="Mon relevé").tap()
    expect(page.get_by_text("Total cumulé").first).to_be_visible()
    look(page, "04-ledger")
    page.get_by_role("link", name="Classement").tap()
    expect(page.get_by_role("heading", name="Classement, division A")).to_be_visible()
    look(page, "05-standings")
    # Large text too: the longest French still fits.
    page.get_by_role("button", name="Texte plus grand").tap()
    look(page, "06-standings-large")
    page.goto(f"{live_server.url}/e/{t.slug}/me/{me.pk}/")
    look(page, "07-card-large")
    # The choice stays on this phone; another phone reads English.
    other = chromium.new_context(**PHONE).new_page()
    other.goto(f"{live_server.url}/e/{t.slug}/me/{me.pk}/")
    expect(other.locator(".round")).to_have_text("Round 3")
    other.context.close()
    context.close()


def test_the_projector_reads_in_french_when_the_director_asks_in_its_address(
    live_server, chromium, make_tournament
):
    t = event_after(make_tournament, 12, played=1)  # round 2 seated: the seating pages
    projector = chromium.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{live_server.url}/p/{t.slug}/?lang=fr")
    expect(projector.locator("[data-countdown-round]")).to_have_text("Ronde 2")
    expect(projector.locator("[data-countdown-state]")).to_have_text("Pas commencée")
    assert projector.evaluate("document.documentElement.scrollWidth") <= 1920
    look(projector, "10-projector-seating")
    # French takes no more room than English on the hall's screen, but for one line of the
    # QR code's caption. (Both exceed 1080 px with 12 tables a page: the English did
    # before French came, 1144 px; reported, not changed here.)
    height = "document.documentElement.scrollHeight"
    french = projector.evaluate(height)
    projector.goto(f"{live_server.url}/p/{t.slug}/?lang=en")
    expect(projector.locator("[data-countdown-round]")).to_have_text("Round 2")
    assert french <= projector.evaluate(height) + 32
    rounds.start_round(Round.objects.get(tournament=t, number=2), by="test", now=timezone.now())
    projector.goto(f"{live_server.url}/p/{t.slug}/?lang=fr")
    expect(projector.get_by_role("heading", name="Division A")).to_be_visible()
    expect(projector.locator("[data-countdown-state]")).to_have_text("")
    look(projector, "11-projector-standings")
    projector.close()


def test_the_director_switches_the_console_to_french_and_no_page_breaks_its_layout(
    live_server, chromium, make_tournament, director
):
    """The director's top bar offers Français; the round console (seated, running), the
    players' list, the check-in desk, the overview and the standings read whole in French at
    1280x800."""
    t = event_after(make_tournament, 3, played=2)
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/director/{t.slug}/rounds/3/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    page.locator("header.topbar").get_by_role("link", name="Français").click()
    expect(page.get_by_role("button", name="Démarrer le chrono")).to_be_visible()
    look(page, "20-director-console-seated")
    page.get_by_role("button", name="Démarrer le chrono").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    expect(page.locator("#live-board th").first).to_have_text("Table")
    look(page, "21-director-console-running")
    page.get_by_role("link", name="Joueurs", exact=True).first.click()
    expect(page.get_by_role("heading", name="Joueurs")).to_be_visible()
    look(page, "22-director-players")
    page.locator("nav.tnav").get_by_role("link", name="Accueil").click()
    page.get_by_label("Trouver un joueur").fill("player a00")
    expect(page.get_by_role("button", name="annuler").first).to_be_visible()
    look(page, "23-director-desk")
    page.locator("nav.tnav a.tname").click()
    expect(page.get_by_role("heading", name="Prochaine étape")).to_be_visible()
    look(page, "24-director-overview")
    page.locator("nav.tnav").get_by_role("link", name="Classement").click()
    expect(page.get_by_role("heading", name="Division A")).to_be_visible()
    look(page, "25-director-standings")
    page.close()


TABLET_SIZES = [{"width": 1024, "height": 768}, {"width": 768, "height": 1024}]


@pytest.mark.parametrize("viewport", TABLET_SIZES, ids=["landscape", "portrait"])
def test_a_tablet_plays_a_match_in_french_and_the_other_team_confirms_in_english(
    live_server, chromium, make_tournament, viewport
):
    """The scorekeeper chooses Français under Display; a lone march, a renege and a euchre
    are entered in French; the other team reads the confirmation screen once in English
    and comes back; no screen cuts a word or sticks out at either tablet size."""
    from tests.test_tablet_browser import (
        check_targets,
        csp_errors,
        enter,
        name_at,
        seat,
        seated,
        token,
    )

    t = seated(make_tournament, tables=1)
    size = f"{viewport['width']}x{viewport['height']}"
    page = chromium.new_context(viewport=viewport).new_page()
    errors = csp_errors(page)
    page.goto(f"{live_server.url}/t/{token(t, 1)}/")
    expect(page.locator("#tb-net")).to_have_text("Online · all sent", timeout=12_000)
    page.click("#tb-display")
    page.locator("#tb-display-panel").get_by_role("link", name="Français").click()
    sent = page.locator("#tb-net")
    expect(sent).to_have_text("En ligne · tout envoyé", timeout=12_000)
    expect(page.locator("#tb-start-h")).to_have_text("Avant la première donne")
    look(page, f"30-tablet-start-{size}")
    keeper = name_at(t, 1, "N")
    seat(page, "N").click()
    page.get_by_role("button", name=f"{keeper} tient le pointage").click()
    page.click("#tb-start-save")
    expect(page.locator("#tb-entry")).to_be_visible(timeout=12_000)
    seat(page, "E").click()
    page.click("#tb-alone")
    page.click('#tb-tricks [data-tricks="5"]')
    expect(page.locator("#tb-preview")).to_contain_text("marche en solo → EO +4")
    look(page, f"31-tablet-entry-{size}")
    check_targets(page)
    page.click("#tb-save")
    page.click("#tb-renege")
    page.click('#tb-dialog-choices [data-value="S"]')
    expect(page.locator("#tb-dialog-preview")).to_contain_text("a fait une renonce")
    look(page, f"32-tablet-renege-{size}")
    page.click("#tb-dialog-ok")
    enter(page, "W", 2)  # a euchre by North–South
    expect(page.locator(".tb-hand-what").first).to_contain_text("EUCHRÉ")
    for maker in ("E", "E"):
        enter(page, maker, 5)
    expect(page.locator("#tb-end")).to_be_visible(timeout=12_000)
    expect(page.locator("#tb-end-h")).to_have_text("Match terminé")
    expect(sent).to_have_text("En ligne · tout envoyé", timeout=12_000)
    look(page, f"33-tablet-end-{size}")
    check_targets(page)
    # The other team reads the confirmation in English, once; the table stays French.
    page.locator("#tb-end").get_by_role("link", name="English").click()
    expect(page.locator("#tb-end-h")).to_have_text("Match over", timeout=12_000)
    look(page, f"34-tablet-end-english-{size}")
    west = name_at(t, 1, "W")
    page.get_by_role("button", name=f"I am {west}").click()
    page.click("#tb-agree")
    expect(page.locator("#tb-confirmed")).to_have_text(f"Confirmed by {west}.", timeout=12_000)
    page.get_by_role("link", name="Back to the table's language").click()
    expect(page.locator("#tb-confirmed")).to_have_text(f"Confirmé par {west}.", timeout=12_000)
    look(page, f"35-tablet-confirmed-{size}")
    assert errors == []
    page.context.close()


def test_the_rest_of_the_console_reads_in_french_without_breaking_its_layout(
    live_server, chromium, make_tournament, director
):
    """The table page, seating, the final, the settings, the import and the people pages
    at 1280x800 in French."""
    t = event_after(make_tournament, 3, played=2)
    rounds.start_round(Round.objects.get(tournament=t, number=3), by="test", now=timezone.now())
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    page.locator("header.topbar").get_by_role("link", name="Français").click()
    expect(page.get_by_role("heading", name="Tournois")).to_be_visible()
    look(page, "40-director-home")
    pages = {
        "41-director-table": (f"/director/{t.slug}/rounds/3/tables/1/", "Journal des donnes"),
        "42-director-seating": (f"/director/{t.slug}/rounds/3/seating/", "Par table"),
        "43-director-final": (f"/director/{t.slug}/final/", "La finale"),
        "44-director-settings": (f"/director/{t.slug}/settings/", "Réglages"),
        "45-director-import": (f"/director/{t.slug}/players/import/", "Importer"),
        "46-director-people": ("/director/league/people/", "Personnes"),
    }
    for name, (address, heading) in pages.items():
        page.goto(f"{live_server.url}{address}")
        expect(page.get_by_role("heading", name=re.compile(heading)).first).to_be_visible()
        # The desk's wide tables scroll inside their own box: only cut words count here.
        assert [p for p in page.evaluate(BROKEN) if "wider" not in p] == [], name
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.close()


def test_the_tablets_top_bar_holds_on_one_row_in_french_on_a_landscape_tablet(
    live_server, chromium, make_tournament
):
    """Walked at the hall: at 1280x800 the French bar wrapped ("Direction" alone on a
    second row), 64 px less for the table on a landscape tablet; English fits."""
    from tests.test_tablet_browser import seated, token

    t = seated(make_tournament, tables=1)
    t.language = "fr"
    t.save(update_fields=["language"])
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{live_server.url}/t/{token(t, 1)}/")
    expect(page.locator("#tb-net")).to_have_text("En ligne · tout envoyé", timeout=12_000)
    expect(page.locator("#tb-director")).to_be_visible()  # kiosk mode: every button shown
    rows = page.evaluate(
        "() => [...document.querySelector('.tb-bar').children]"
        ".filter(e => e.offsetParent !== null)"
        ".map(e => Math.round(e.getBoundingClientRect().bottom))"
    )
    height = page.evaluate("() => document.querySelector('.tb-bar').getBoundingClientRect().height")
    assert height < 90 and max(rows) - min(rows) < 30, (height, rows)
    page.context.close()
