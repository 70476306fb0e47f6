"""The translation's acceptance walk in real Chromium, once in French and once in English: the
director creates an event, imports its players by a CSV upload and seats round 1; a
tablet plays a match with a lone march, a renege and a euchre, answers the time call and
the other team confirms; a player's phone follows the player to the next seat; the final
is seeded and played; the standings, seating, table-card and scoresheet PDFs are printed
from the console's links. Every screen and sheet on the way is read against the
catalogues (tests/test_french.py's rule): in French no English sentence that has a
translation, in English no French one. Plus two phones in two languages at one table and
a tablet switched mid-match.

The French walk's screenshots (phone 390x844, tablet 1024x768 and 768x1024, projector
1920x1080, console 1280x800) go to $SNOWMAN_SHOTS (default /tmp/french-walk-shots/)."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from urllib.parse import urljoin

import polib
import pypdf
import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext
from playwright.sync_api import BrowserContext, Page, expect

from tests.test_french import JS_PO, PO, _other_language_left, _reader_text
from tests.test_french_browser import BROKEN
from tests.test_public_browser import PHONE
from tournaments.common.names import public_name
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match, TableLink
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.phones import views
from tournaments.core.services import closing, play, rounds
from tournaments.domain.hands import Hand, Outcome, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SNOWMAN_SHOTS", "/tmp/french-walk-shots"))
WAIT = 12_000
CONSOLE = {"width": 1280, "height": 800}
TABLET = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 768, "height": 1024}
PROJECTOR = {"width": 1920, "height": 1080}
PASSWORD = "a-long-director-password"
NAMES = [  # 8 players, 2 tables: names no catalogue holds
    ("Ann Lee", "A"),
    ("Bob Roy", "A"),
    ("Cécile Côté", "A"),
    ("Dan Wu", "A"),
    ("Eve Lee", "B"),
    ("Finn Roy", "B"),
    ("Gus Côté", "B"),
    ("Hana Wu", "B"),
]


@pytest.fixture(autouse=True)
def quick_polls(monkeypatch):
    # The phones poll every 15 s in the hall; the walk need not wait that long.
    monkeypatch.setattr(views, "POLL_SECONDS", 1)
    monkeypatch.setattr(views, "FAST_POLL_SECONDS", 1)


class Reader:
    """Reads each screen and sheet of one walk in its language: the words of the other
    language left on it (by the catalogues), and on a phone, tablet or projector what
    breaks the layout; screenshots of the French walk to be looked at."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.left: dict[str, list[str]] = {}
        self.broken: dict[str, list[str]] = {}
        self.read = 0

    def t(self, english: str, **values: object) -> str:
        """The words the walk's reader sees for ``english`` (a msgid)."""
        with translation.override(self.lang):
            text = gettext(english)
        return text % values if values else text

    def js(self, english: str, **values: object) -> str:
        """The same for a msgid of the tablet's JavaScript (its own catalogue)."""
        if self.lang == "fr":
            english = {e.msgid: e.msgstr for e in polib.pofile(str(JS_PO))}[english]
        return english % values if values else english

    def words(self, name: str, text: str) -> None:
        self.read += 1
        if left := _other_language_left(_reader_text(text), self.lang, (PO, JS_PO)):
            self.left[name] = left

    def screen(self, page: Page, name: str, *, layout: bool = True, sizes=()) -> None:
        page.wait_for_load_state()
        self.words(name, page.content())
        for size in (None, *sizes):
            if size is not None:
                page.set_viewport_size(size)
                # Laid out again at the new size: two frames drawn, not a time waited.
                page.evaluate(
                    "() => new Promise((r) => requestAnimationFrame("
                    "() => requestAnimationFrame(r)))"
                )
            if layout and (problems := page.evaluate(BROKEN)):
                self.broken[f"{name}@{size or page.viewport_size}"] = problems
            self.shot(page, name)
        if sizes:
            page.set_viewport_size(TABLET)

    def shot(self, page: Page, name: str) -> None:
        if self.lang != "fr":
            return
        size = page.viewport_size or CONSOLE
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = (
            SHOTS / f"{len(list(SHOTS.iterdir())):03d}-{name}-{size['width']}x{size['height']}.png"
        )
        page.screenshot(path=str(path), full_page=True)

    def sheet(self, context: BrowserContext, page: Page, label: str, name: str) -> str:
        """The PDF behind the console link named ``label``, as text."""
        link = page.get_by_role("link", name=label, exact=True).first
        href = link.get_attribute("href")
        assert href, label
        answer = context.request.get(urljoin(page.url, href))
        assert answer.ok and answer.headers["content-type"] == "application/pdf", href
        text = "\n".join(
            p.extract_text() or "" for p in pypdf.PdfReader(io.BytesIO(answer.body())).pages
        )
        assert text.strip(), name
        self.words(f"pdf:{name}", text)
        return text


def _names_at(t: Tournament, number: int, table: int) -> dict[str, str]:
    seats = Seating.objects.filter(round__tournament=t, round__number=number, table=table)
    return {s.position: s.player.name for s in seats.select_related("player")}


def _played_out(match: Match, maker: Seat = Seat.N) -> None:
    """A match played to its end by the services (marches by ``maker``) and confirmed."""
    play.set_first_dealer(match, Seat.W, by="test")
    for n in range(1, 40):
        hand = Hand(Outcome.PLAYED, maker=maker, maker_tricks=5)
        key = f"walk-{match.pk}-{n}"
        if play.record_hand(match, hand, client_key=key, by="test").state.over:
            break
    closing.confirm_match(match, agree=True, by="test")


def _sign_in(context: BrowserContext, base: str, r: Reader) -> Page:
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())  # the console's data-confirm questions
    page.goto(f"{base}/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#id_username")).to_have_count(0)
    if r.lang == "fr":  # the director chooses French in the console's top bar
        page.locator("header.topbar").get_by_role("link", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", r.lang)
    return page


def _choose_on_tablet(page: Page, r: Reader) -> None:
    if r.lang == "fr":
        page.click("#tb-display")
        page.locator("#tb-display-panel").get_by_role("link", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", r.lang)
    expect(page.locator("#tb-net")).to_have_text(r.js("Online · all sent"), timeout=WAIT)


def _seat(page: Page, position: str):
    return page.locator(f'.tb-seat[data-seat="{position}"]')


def _enter(page: Page, maker: str, tricks: int, alone: bool = False) -> None:
    _seat(page, maker).click()
    if alone:
        page.click("#tb-alone")
    page.click(f'#tb-tricks [data-tricks="{tricks}"]')
    expect(page.locator("#tb-save")).to_be_enabled()
    page.click("#tb-save")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_whole_event_reads_in_one_language_on_every_screen_and_sheet(
    live_server, chromium, director, tmp_path, lang
):
    r = Reader(lang)
    base = live_server.url
    if lang == "fr" and SHOTS.exists():
        for old in SHOTS.glob("*.png"):
            old.unlink()

    # --- the director creates the event and imports its players --------------------------
    office = chromium.new_context(viewport=CONSOLE)
    console = _sign_in(office, base, r)
    r.screen(console, "director-home", layout=False)
    console.get_by_role("link", name=r.t("New tournament")).first.click()
    r.screen(console, "director-create", layout=False)
    console.fill("#id_name", "Snowman 2026")
    console.fill("#id_preliminary_rounds", "2")
    console.locator("#advanced > summary").click()  # the rule numbers are folded away
    console.fill("#id_final_games_to_win", "1")
    console.fill("#id_final_target", "10")
    console.select_option("#id_language", lang)  # the event's language: the sheets' too
    console.get_by_role("button", name=r.t("Create tournament")).click()
    expect(console.locator("h1")).to_have_text(r.t("Players"))
    t = Tournament.objects.get()
    r.screen(console, "director-players-empty", layout=False)
    console.goto(f"{base}/director/{t.slug}/players/import/")
    r.screen(console, "director-import", layout=False)
    csv = tmp_path / "players.csv"
    # The director's own file, with its header in the director's language (the import
    # reads either): its words are shown back on the preview.
    with translation.override(lang):
        header = pgettext("CSV header", "name")
    csv.write_text(f"{header},division\n" + "".join(f"{n},{d}\n" for n, d in NAMES))
    console.set_input_files("#id_file", str(csv))
    console.get_by_label(r.t("Check them in on import")).check()
    console.get_by_role("button", name=r.t("Preview")).click()
    expect(console.locator("#import-summary")).to_be_visible()
    r.screen(console, "director-import-preview", layout=False)
    console.get_by_role("button", name=re.compile(r.t("Import") + r" 8")).click()
    expect(console.locator(".messages")).to_contain_text("8")
    r.screen(console, "director-players", layout=False)
    assert Player.objects.filter(tournament=t, checked_in=True).count() == 8

    # --- round 1 seated: the console, the projector, a player's phone ---------------------
    console.goto(f"{base}/director/{t.slug}/")
    r.screen(console, "director-overview-ready", layout=False)
    console.get_by_role("button", name=r.t("Draw round 1")).click()
    console.goto(f"{base}/director/{t.slug}/rounds/1/")
    expect(console.get_by_role("button", name=r.t("Start the clock"))).to_be_visible()
    r.screen(console, "director-console-seated", layout=False)
    console.goto(f"{base}/director/{t.slug}/rounds/1/seating/")
    r.screen(console, "director-seating", layout=False)

    projector = chromium.new_context(viewport=PROJECTOR).new_page()
    projector.goto(f"{base}/p/{t.slug}/?lang={lang}")
    expect(projector.locator("[data-countdown-round]")).to_have_text(r.t("Round %(n)s", n=1))
    r.screen(projector, "projector-seating")

    t1 = _names_at(t, 1, 1)
    me = t1["E"]
    phone = chromium.new_context(**PHONE).new_page()
    phone.goto(f"{base}/e/{t.slug}/")
    if lang == "fr":
        phone.get_by_role("link", name="Français").tap()
    expect(phone.locator("html")).to_have_attribute("lang", lang)
    r.screen(phone, "phone-event")
    phone.get_by_label(r.t("Type a few letters of your name")).fill(me.split()[0])
    # Found as public pages name them ("Bob R."): the surname stays theirs.
    found = phone.get_by_role("link", name=re.compile(re.escape(public_name(me, False))))
    expect(found).to_be_visible(timeout=WAIT)
    r.screen(phone, "phone-found")
    found.tap()
    card = phone.locator("#card")
    expect(card).to_have_attribute("data-round", "1")
    expect(phone.locator(".table-no")).to_have_text(r.t("Table %(t)s", t=1))
    r.screen(phone, "phone-card-round-1")

    # --- the round runs; table 1's tablet plays its match -----------------------------
    console.goto(f"{base}/director/{t.slug}/rounds/1/")
    console.get_by_role("button", name=r.t("Start the clock")).click()
    expect(console.get_by_role("button", name=r.t("Call time now"))).to_be_visible()
    r.screen(console, "director-console-running", layout=False)

    tablet = chromium.new_context(viewport=TABLET).new_page()
    token = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True).token
    tablet.goto(f"{base}/t/{token}/")
    _choose_on_tablet(tablet, r)
    r.screen(tablet, "tablet-start", sizes=[TABLET_PORTRAIT])
    _seat(tablet, "N").click()
    tablet.locator("#tb-keeper button").filter(has_text=t1["N"]).click()
    tablet.click("#tb-start-save")
    expect(tablet.locator("#tb-entry")).to_be_visible(timeout=WAIT)
    _seat(tablet, "E").click()
    tablet.click("#tb-alone")
    tablet.click('#tb-tricks [data-tricks="5"]')
    expect(tablet.locator("#tb-preview")).to_contain_text("+4")
    r.screen(tablet, "tablet-lone-march", sizes=[TABLET_PORTRAIT])
    tablet.click("#tb-save")  # EW 4
    tablet.click("#tb-renege")
    tablet.click('#tb-dialog-choices [data-value="S"]')
    expect(tablet.locator("#tb-dialog-preview")).to_contain_text("+2")
    r.screen(tablet, "tablet-renege", sizes=[TABLET_PORTRAIT])
    tablet.click("#tb-dialog-ok")  # EW 6
    _enter(tablet, "W", 2)  # a euchre: NS 2
    expect(tablet.locator("#tb-score-NS")).to_have_text("2", timeout=WAIT)
    expect(tablet.locator("#tb-net")).to_have_text(r.js("Online · all sent"), timeout=WAIT)
    r.screen(tablet, "tablet-hands", sizes=[TABLET_PORTRAIT])

    # Table 2 finishes by the services; the director calls time on table 1's hand.
    _played_out(Match.objects.get(round__tournament=t, round__number=1, table=2))
    console.reload()
    console.get_by_role("button", name=r.t("Call time now")).click()
    expect(console.locator("h1 .pill.time_called")).to_be_visible()
    r.screen(console, "director-console-called", layout=False)
    expect(tablet.locator("#tb-call")).to_be_visible(timeout=WAIT)
    r.screen(tablet, "tablet-time-called", sizes=[TABLET_PORTRAIT])
    tablet.click("#tb-call-yes")
    expect(tablet.locator("#tb-entry")).to_be_visible(timeout=WAIT)
    r.screen(tablet, "tablet-after-call", sizes=[TABLET_PORTRAIT])
    _enter(tablet, "E", 3)  # the hand in progress: EW 7, the match is over
    expect(tablet.locator("#tb-end")).to_be_visible(timeout=WAIT)
    expect(tablet.locator("#tb-net")).to_have_text(r.js("Online · all sent"), timeout=WAIT)
    r.screen(tablet, "tablet-end", sizes=[TABLET_PORTRAIT])
    west = t1["W"]  # the scorekeeper sits N: East-West confirm
    tablet.locator("#tb-confirm-who button").filter(has_text=west).click()
    tablet.click("#tb-agree")
    expect(tablet.locator("#tb-confirmed")).to_contain_text(west, timeout=WAIT)
    r.screen(tablet, "tablet-confirmed", sizes=[TABLET_PORTRAIT])
    m1 = Match.objects.get(round__tournament=t, round__number=1, table=1)
    assert m1.status == Match.Status.CONFIRMED and (m1.score_ns, m1.score_ew) == (2, 7)
    assert list(m1.hands.filter(state="standing").values_list("outcome", flat=True)) == [
        "played",
        "renege",
        "played",
        "played",
    ]
    r.screen(phone, "phone-card-match-over")

    # --- round 2 is seated: the phone follows the player without a reload -------------
    phone.evaluate("window.loadedOnce = true")
    console.reload()
    r.screen(console, "director-console-all-over", layout=False)
    console.get_by_role("button", name=r.t("Finalize and seat round %(next)s", next=2)).click()
    expect(console.locator("body")).to_contain_text(r.t("Round %(n)s", n=2))
    r.screen(console, "director-after-finalize", layout=False)
    new = Seating.objects.get(round__tournament=t, round__number=2, player__name=me)
    expect(card).to_have_attribute("data-round", "2", timeout=WAIT)
    expect(phone.locator(".table-no")).to_have_text(r.t("Table %(t)s", t=new.table))
    assert phone.evaluate("window.loadedOnce") is True
    r.screen(phone, "phone-card-round-2")
    expect(tablet.locator("#tb-next")).to_be_visible(timeout=WAIT)
    r.screen(tablet, "tablet-next-round", sizes=[TABLET_PORTRAIT])
    projector.reload()
    expect(projector.locator("[data-countdown-round]")).to_have_text(r.t("Round %(n)s", n=2))
    r.screen(projector, "projector-round-2-seating")

    # Round 2 runs; its matches finish by the services; the console finalizes it.
    console.goto(f"{base}/director/{t.slug}/rounds/2/")
    console.get_by_role("button", name=r.t("Start the clock")).click()
    expect(console.get_by_role("button", name=r.t("Call time now"))).to_be_visible()
    projector.reload()
    r.screen(projector, "projector-round-2-standings")
    for m in Match.objects.filter(round__tournament=t, round__number=2):
        _played_out(m, Seat.N if m.table == 1 else Seat.E)
    console.reload()
    r.screen(console, "director-console-round-2-over", layout=False)
    # The sheets of round 2 and the table cards, from the console's "Print:" links.
    paper = r.t("letter")
    seating_pdf = r.sheet(office, console, r.t("Seating (%(paper)s)", paper=paper), "seating")
    score_pdf = r.sheet(office, console, r.t("Score sheets (%(paper)s)", paper=paper), "scores")
    cards_pdf = r.sheet(office, console, r.t("Table cards (%(paper)s)", paper=paper), "cards")
    assert new.player.name in seating_pdf and new.player.name in score_pdf
    assert "/t/" in cards_pdf or r.t("Table %(t)s", t=2) in cards_pdf
    console.get_by_role("button", name=r.t("Finalize round %(n)s", n=2)).click()
    expect(console.locator(".messages")).to_contain_text(
        r.t("%(round)s finalized.", round=r.t("Round %(n)s", n=2))
    )
    assert Round.objects.get(tournament=t, number=2).status == Round.Status.FINISHED
    r.screen(console, "director-standings-after-finalize", layout=False)

    # --- the final: seeded from the console, played, the event finished --------------
    console.goto(f"{base}/director/{t.slug}/")
    r.screen(console, "director-overview-prelims-done", layout=False)
    console.get_by_role("link", name=r.t("Seed the final")).click()
    r.screen(console, "director-final-ready", layout=False)
    console.get_by_role("button", name=r.t("Seed the final")).click()
    expect(console.locator("#record-hand")).to_be_visible()
    r.screen(console, "director-final-seeded", layout=False)
    projector.reload()
    r.screen(projector, "projector-final")
    phone.reload()
    r.screen(phone, "phone-card-final")
    final = Match.objects.get(round__tournament=t, round__kind="final")
    _played_out(final)
    console.reload()
    expect(console.locator("#champions")).to_be_visible()
    r.screen(console, "director-final-champions", layout=False)
    console.get_by_role("button", name=r.t("Finish the tournament")).click()
    expect(console.locator("body")).to_contain_text(r.t("The tournament is finished."))
    r.screen(console, "director-finished", layout=False)
    projector.reload()
    r.screen(projector, "projector-finished")
    phone.reload()
    r.screen(phone, "phone-card-finished")
    phone.get_by_role("link", name=r.t("Standings")).first.tap()
    expect(phone).to_have_url(re.compile(r"/standings/"))
    r.screen(phone, "phone-standings")

    # --- the standings, printed from the standings page --------------------------------
    console.goto(f"{base}/director/{t.slug}/standings/")
    r.screen(console, "director-standings", layout=False)
    standings_pdf = r.sheet(office, console, f"PDF ({paper})", "standings-A")
    assert "Ann Lee" in standings_pdf or "Bob Roy" in standings_pdf

    for context in (office, projector.context, phone.context, tablet.context):
        context.close()
    report = json.dumps({"other language": r.left, "broken": r.broken}, indent=1)
    assert (r.left, r.broken) == ({}, {}), f"{r.read} screens and sheets read: {report}"
    assert r.read >= 40
    print(f"\n{lang}: {r.read} screens and sheets read, none in the other language")


def test_two_phones_at_one_table_each_read_their_own_language_and_follow_to_round_two(
    live_server, chromium, make_tournament
):
    """North reads French, South (the partner) English: the same seat facts, each page
    whole in its reader's language, before and after the next seating."""
    from tests.test_public_phones import fake_results

    t = make_tournament(2)
    rnd = rounds.start_round(rounds.draw_first_round(t, by="test", seed=5), by="test")
    at_one = _names_at(t, 1, 1)
    readers = {"fr": Reader("fr"), "en": Reader("en")}
    phones = {}
    for lang, position in (("fr", "N"), ("en", "S")):
        page = chromium.new_context(**PHONE).new_page()
        page.goto(f"{live_server.url}/e/{t.slug}/")
        if lang == "fr":
            page.get_by_role("link", name="Français").tap()
        page.get_by_label(readers[lang].t("Type a few letters of your name")).fill(at_one[position])
        shown = public_name(at_one[position], False)
        page.get_by_role("link", name=re.compile(re.escape(shown))).tap()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        phones[lang] = page
    for lang, page in phones.items():
        r = readers[lang]
        expect(page.locator(".round")).to_have_text(r.t("Round %(n)s", n=1))
        expect(page.locator(".table-no")).to_have_text(r.t("Table %(t)s", t=1))
        r.screen(page, f"two-phones-{lang}-round-1")
    fake_results(rnd)
    rounds.seat_next_round(t, by="test")
    for lang, page in phones.items():
        r = readers[lang]
        position = "N" if lang == "fr" else "S"
        new = Seating.objects.get(round__number=2, player__name=at_one[position])
        expect(page.locator("#card")).to_have_attribute("data-round", "2", timeout=WAIT)
        expect(page.locator(".round")).to_have_text(r.t("Round %(n)s", n=2))
        expect(page.locator(".table-no")).to_have_text(r.t("Table %(t)s", t=new.table))
        r.screen(page, f"two-phones-{lang}-round-2")
        page.context.close()
    assert {lang: (r.left, r.broken) for lang, r in readers.items()} == {
        "fr": ({}, {}),
        "en": ({}, {}),
    }


def test_a_tablet_switched_to_french_mid_match_keeps_its_hands_and_reads_whole_in_each(
    live_server, chromium, make_tournament
):
    """Two hands in English, the scorekeeper switches to French: the same hands and score,
    every word French, the next hands entered in French; and back to English."""
    t = make_tournament(1)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=3), by="test")
    en, fr = Reader("en"), Reader("fr")
    page = chromium.new_context(viewport=TABLET).new_page()
    token = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True).token
    page.goto(f"{live_server.url}/t/{token}/")
    expect(page.locator("#tb-net")).to_have_text(en.js("Online · all sent"), timeout=WAIT)
    _seat(page, "N").click()
    page.locator("#tb-keeper button").first.click()
    page.click("#tb-start-save")
    expect(page.locator("#tb-entry")).to_be_visible(timeout=WAIT)
    _enter(page, "E", 5, alone=True)  # EW 4
    _enter(page, "S", 2)  # a euchre: EW 6
    expect(page.locator("#tb-score-EW")).to_have_text("6", timeout=WAIT)
    expect(page.locator(".tb-hand")).to_have_count(2)
    en.screen(page, "tablet-switch-english-before")
    _choose_on_tablet(page, fr)
    expect(page.locator("#tb-score-EW")).to_have_text("6")
    expect(page.locator(".tb-hand")).to_have_count(2)
    expect(page.locator(".tb-hand-what").first).to_contain_text("EUCHRÉ")
    fr.screen(page, "tablet-switched-to-french", sizes=[TABLET_PORTRAIT])
    page.click("#tb-renege")
    page.click('#tb-dialog-choices [data-value="W"]')
    expect(page.locator("#tb-dialog-preview")).to_contain_text("renonce")
    fr.screen(page, "tablet-switched-renege")
    page.click("#tb-dialog-ok")  # NS +2
    expect(page.locator("#tb-score-NS")).to_have_text("2", timeout=WAIT)
    expect(page.locator(".tb-hand")).to_have_count(3)
    fr.screen(page, "tablet-switched-french-after")
    page.click("#tb-display")
    page.locator("#tb-display-panel").get_by_role("link", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#tb-net")).to_have_text(en.js("Online · all sent"), timeout=WAIT)
    expect(page.locator(".tb-hand")).to_have_count(3)
    en.screen(page, "tablet-switched-back-to-english")
    match = Match.objects.get(round__tournament=t, table=1)
    assert (match.score_ns, match.score_ew) == (2, 6)
    assert match.hands.filter(state="standing").count() == 3
    page.context.close()
    assert {"en": (en.left, en.broken), "fr": (fr.left, fr.broken)} == {
        "en": ({}, {}),
        "fr": ({}, {}),
    }
