"""The scorekeeper's tablet in real Chromium: taps, offline queue, scope, time and tie-break.

Screenshots of every screen go to /tmp/tablet-shots/ (both tablet sizes) to be looked at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tournaments.core import replay
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.services import corrections, play, rounds
from tournaments.domain.hands import Hand, Outcome, Seat, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/tablet-shots")
PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1280, "height": 800}
WAIT = 12_000  # ms: the tablet polls every 3 s


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or LANDSCAPE
    page.screenshot(
        path=str(SHOTS / f"{name}-{size['width']}x{size['height']}.png"), full_page=True
    )


def seated(make_tournament, tables: int) -> Tournament:
    t = make_tournament(tables=tables)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    rounds.start_round(rnd, by="test")
    return t


def token(t: Tournament, table: int) -> str:
    return TableLink.objects.get(tournament=t, table=table, revoked_at__isnull=True).token


def open_table(page: Page, live_server, t: Tournament, table: int) -> None:
    page.goto(f"{live_server.url}/t/{token(t, table)}/")
    expect(page).to_have_url(re.compile(r"/t/table/$"))
    all_sent(page)


def all_sent(page: Page) -> None:
    expect(page.locator("#tb-net")).to_have_text("Online · all sent", timeout=WAIT)


def seat(page: Page, position: str):
    return page.locator(f'.tb-seat[data-seat="{position}"]')


def name_at(t: Tournament, table: int, position: str) -> str:
    rnd = t.rounds.order_by("-number").first()
    return rnd.seats.get(table=table, position=position).player.name


def start(page: Page, dealer: str, keeper: str | None = None) -> None:
    seat(page, dealer).click()
    if keeper:
        page.get_by_role("button", name=f"{keeper} keeps score").click()
    else:  # the dealer keeps score: someone must before the first hand
        page.locator("#tb-keeper button").nth("NESW".index(dealer)).click()
    page.click("#tb-start-save")
    expect(page.locator("#tb-entry")).to_be_visible(timeout=WAIT)


def enter(page: Page, maker: str, tricks: int, alone: bool = False) -> None:
    seat(page, maker).click()
    if alone:
        page.click("#tb-alone")
    page.click(f'#tb-tricks [data-tricks="{tricks}"]')
    expect(page.locator("#tb-save")).to_be_enabled()
    page.click("#tb-save")


def renege(page: Page, by: str) -> None:
    page.click("#tb-renege")
    page.click(f'#tb-dialog-choices [data-value="{by}"]')
    expect(page.locator("#tb-dialog-preview")).to_contain_text("reneged")
    page.click("#tb-dialog-ok")


def dialog_ok(page: Page) -> None:
    expect(page.locator("#tb-dialog")).to_be_visible()
    page.click("#tb-dialog-ok")


def standing(match: Match) -> list[HandEntry]:
    return list(match.hands.filter(state="standing").order_by("number"))


def check_targets(page: Page) -> None:
    """Every visible control is at least 48 px each way and has a name for screen readers."""
    bad = page.evaluate("""() => [...document.querySelectorAll('button, input, textarea')]
        .filter((b) => b.getClientRects().length > 0)
        .map((b) => {
            const r = b.getBoundingClientRect();
            const name = (b.getAttribute('aria-label') || b.labels?.[0]?.textContent
                          || b.textContent || '').trim();
            return [b.id || b.dataset.seat || name, Math.round(r.width),
                    Math.round(r.height), name];
        })
        .filter(([, w, h, name]) => w < 48 || h < 48 || !name)""")
    assert bad == []


def csp_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_a_whole_match_played_by_taps_and_confirmed_by_the_other_team(
    chromium,
    live_server,
    make_tournament,
    viewport,
):
    t = seated(make_tournament, tables=1)
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    errors = csp_errors(page)
    open_table(page, live_server, t, 1)
    shot(page, "01-start")
    check_targets(page)
    keeper = name_at(t, 1, "N")
    start(page, "N", keeper=keeper)
    expect(seat(page, "N")).to_contain_text("Dealer")

    seat(page, "E").click()
    page.click("#tb-alone")
    page.click('#tb-tricks [data-tricks="5"]')
    expect(page.locator("#tb-preview")).to_contain_text("lone march → EW +4")
    shot(page, "02-entry-preview")
    check_targets(page)
    page.click("#tb-save")  # 1: EW 4, E +1
    all_sent(page)
    expect(seat(page, "E")).to_contain_text("Dealer")  # the deal passed clockwise

    page.click("#tb-renege")
    page.click('#tb-dialog-choices [data-value="S"]')
    expect(page.locator("#tb-dialog-preview")).to_contain_text("EW +2")
    shot(page, "03-renege")
    check_targets(page)
    page.click("#tb-dialog-ok")  # 2: EW 6, S -2
    page.click("#tb-misdeal")
    expect(page.locator("#tb-dialog-title")).to_contain_text("Misdeal in hand 3")
    shot(page, "04-misdeal")
    page.click("#tb-dialog-ok")  # 3: misdeal
    enter(page, "N", 3)  # 4: NS 1
    enter(page, "W", 2)  # 5: NS 3 (euchre)
    enter(page, "E", 5)  # 6: EW 8 (march)
    enter(page, "N", 4)  # 7: NS 4 ... undone
    all_sent(page)
    page.click("#tb-undo")
    expect(page.locator("#tb-dialog-title")).to_have_text("Undo hand 7?")
    shot(page, "05-undo")
    page.click("#tb-dialog-ok")
    all_sent(page)
    expect(page.locator(".tb-hand-undone")).to_have_count(1)
    expect(page.locator("#tb-score-NS")).to_have_text("3")
    shot(page, "06-history")
    enter(page, "W", 4)  # 7: EW 9
    enter(page, "E", 3)  # 8: EW 10, the end
    all_sent(page)

    end = page.locator("#tb-end")
    expect(end).to_be_visible(timeout=WAIT)
    expect(page.locator("#tb-end-result")).to_have_text("East–West win 10–3.")
    east, west, south = name_at(t, 1, "E"), name_at(t, 1, "W"), name_at(t, 1, "S")
    rows = page.locator("#tb-end-rows tr")
    expect(rows.filter(has_text=east)).to_contain_text("12")
    expect(rows.filter(has_text=east)).to_contain_text("+1 (reached 10)")
    expect(rows.filter(has_text=west)).to_contain_text("11")
    expect(rows.filter(has_text=south)).to_contain_text("−2")
    # The scorekeeper sits N, so only East–West may confirm.
    who = page.locator("#tb-confirm-who button")
    expect(who).to_have_count(2)
    expect(page.get_by_role("button", name=f"I am {keeper}")).to_have_count(0)
    shot(page, "07-end")
    check_targets(page)
    page.get_by_role("button", name=f"I am {west}").click()
    page.click("#tb-agree")
    expect(page.locator("#tb-confirmed")).to_have_text(f"Confirmed by {west}.", timeout=WAIT)
    all_sent(page)

    match = Match.objects.get(round__tournament=t, table=1)
    assert match.status == Match.Status.CONFIRMED and match.confirmed_by == west
    assert (match.score_ns, match.score_ew, match.bonus_ew, match.winner) == (3, 10, 1, "EW")
    assert [h.outcome for h in standing(match)] == [
        "played",
        "renege",
        "misdeal",
        "played",
        "played",
        "played",
        "played",
        "played",
    ]
    assert match.hands.filter(state="undone").count() == 1
    points = dict(match.round.seats.filter(table=1).values_list("position", "points"))
    assert points == {"N": 3, "S": 1, "E": 12, "W": 11}

    # Next round: the director finalizes and seats it; the screen says where to go.
    rounds.finalize_round(match.round, by="director")
    rounds.seat_next_round(t, by="director")
    expect(page.locator("#tb-next")).to_be_visible(timeout=WAIT)
    expect(page.locator("#tb-moves li")).to_have_count(4)
    expect(page.locator("#tb-moves")).to_contain_text(f"{east} → table 1")
    expect(page.locator("#tb-moves")).to_contain_text("partner")
    shot(page, "08-next-round")
    rounds.start_round(t.rounds.get(number=2), by="director")
    expect(page.locator("#tb-start")).to_be_visible(timeout=WAIT)
    expect(page.locator("#tb-round")).to_have_text("Round 2")
    assert errors == []
    context.close()


def wait_until_cached(page: Page) -> None:
    """Until the service worker controls the page and holds the page itself in its cache
    (the condition that an offline reload needs), asked of the page, not timed."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller")
    page.wait_for_function(
        "async () => !!(window.caches"
        " && await caches.match(location.pathname, {ignoreVary: true}))",
        polling=50,
        timeout=5_000,
    )


def test_hands_entered_offline_survive_a_reload_and_are_stored_once_in_order(
    page,
    live_server,
    make_tournament,
):
    t = seated(make_tournament, tables=2)
    open_table(page, live_server, t, 2)
    start(page, "W")
    enter(page, "N", 3)
    all_sent(page)
    wait_until_cached(page)

    page.context.set_offline(True)
    enter(page, "E", 4)
    enter(page, "S", 5, alone=True)
    page.click("#tb-renege")
    page.click('#tb-dialog-choices [data-value="W"]')
    page.click("#tb-dialog-ok")
    expect(page.locator("#tb-net")).to_have_text("Offline · 3 not yet sent", timeout=WAIT)
    expect(page.locator(".tb-hand-pending")).to_have_count(3)
    expect(page.locator("#tb-score-NS")).to_have_text("7")  # 1 + 4 + renege 2
    shot(page, "09-offline")

    page.reload()
    expect(page.locator(".tb-hand-pending")).to_have_count(3)
    expect(page.locator("#tb-net")).to_contain_text("3 not yet sent", timeout=WAIT)
    match = Match.objects.get(round__tournament=t, table=2)
    # Chromium's emulated offline mode can let a request through right after a reload;
    # whatever got out did so in order, and the rest is still queued on the device.
    sent = list(match.hands.values_list("number", flat=True))
    assert sent == list(range(1, len(sent) + 1)) and len(sent) <= 4

    page.context.set_offline(False)
    all_sent(page)
    expect(page.locator(".tb-hand-pending")).to_have_count(0)
    hands = standing(match)
    assert [(h.number, h.outcome, h.maker or h.renege_by) for h in hands] == [
        (1, "played", "N"),
        (2, "played", "E"),
        (3, "played", "S"),
        (4, "renege", "W"),
    ]
    assert match.hands.count() == 4
    assert [h.dealer for h in hands] == ["W", "N", "E", "S"]
    match.refresh_from_db()
    assert (match.score_ns, match.score_ew) == (7, 1)


def test_a_double_tap_on_save_stores_one_hand(page, live_server, make_tournament):
    t = seated(make_tournament, tables=1)
    open_table(page, live_server, t, 1)
    start(page, "N")
    seat(page, "S").click()
    page.click('#tb-tricks [data-tricks="3"]')
    page.dblclick("#tb-save")
    all_sent(page)
    # And two clicks within one event-loop turn, faster than any finger.
    seat(page, "E").click()
    page.click('#tb-tricks [data-tricks="4"]')
    page.evaluate("() => { const b = document.getElementById('tb-save'); b.click(); b.click(); }")
    all_sent(page)
    match = Match.objects.get(round__tournament=t, table=1)
    assert [(h.number, h.maker) for h in match.hands.all()] == [(1, "S"), (2, "E")]
    expect(page.locator(".tb-hand")).to_have_count(2)


def test_a_tap_held_while_the_screen_is_drawn_again_still_lands(page, live_server, make_tournament):
    """The screen is drawn again at every poll; a finger pressed on a seat (or a keeper's
    name) across one must still choose it: a button swapped out between the press and the
    release would lose the tap (and did, now and then, in the browser tests under load)."""
    t = seated(make_tournament, tables=1)
    open_table(page, live_server, t, 1)
    keeper = name_at(t, 1, "S")
    seat(page, "N").click()
    polls = page.evaluate("() => performance.getEntriesByType('resource').length")

    def held_across_a_poll(target) -> None:
        box = target.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        # The tablet polls every 3 s and draws the screen again with each answer.
        page.wait_for_function(
            "(n) => performance.getEntriesByType('resource').length > n", arg=polls, timeout=WAIT
        )
        page.wait_for_timeout(300)
        page.mouse.up()

    held_across_a_poll(page.get_by_role("button", name=f"{keeper} keeps score"))
    expect(page.get_by_role("button", name=f"{keeper} keeps score")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.click("#tb-start-save")
    expect(page.locator("#tb-entry")).to_be_visible(timeout=WAIT)
    all_sent(page)
    polls = page.evaluate("() => performance.getEntriesByType('resource').length")
    held_across_a_poll(seat(page, "E"))
    expect(seat(page, "E")).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#tb-tricks [data-tricks="3"]')).to_be_enabled()


def test_the_players_names_stay_on_screen_when_only_hand_answers_arrive(
    page,
    live_server,
    make_tournament,
):
    t = seated(make_tournament, tables=1)
    open_table(page, live_server, t, 1)
    start(page, "N")
    # From here on only the hands' answers (which leave out who sits where) get through.
    page.route("**/t/table/state.json*", lambda route: route.abort())
    enter(page, "E", 3)
    expect(page.locator(".tb-hand")).to_have_count(1)
    expect(page.locator("#tb-score-EW")).to_have_text("1")
    for position in "NESW":
        expect(seat(page, position)).to_contain_text(name_at(t, 1, position))
    shot(page, "15-names-from-hand-answers")


def test_a_house_player_is_marked_house_in_the_tables_language(page, live_server, make_tournament):
    from tournaments.core.models.event import Player

    t = seated(make_tournament, tables=1)
    seat_row = t.rounds.get().seats.get(table=1, position="S")
    Player.objects.filter(pk=seat_row.player_id).update(name="House Hal", house=True)
    open_table(page, live_server, t, 1)
    expect(seat(page, "S").locator(".tb-mark")).to_have_text("house")
    expect(seat(page, "N").locator(".tb-mark")).to_have_text(re.compile(r"^[AB]$"))
    expect(page.locator("#tb-team-players-NS")).to_contain_text("House Hal (house)")
    start(page, "N")
    # Only the hands' answers (no seats) get through: the mark stays.
    page.route("**/t/table/state.json*", lambda route: route.abort())
    enter(page, "E", 3)
    expect(page.locator("#tb-score-EW")).to_have_text("1")
    expect(seat(page, "S").locator(".tb-mark")).to_have_text("house")
    page.unroute("**/t/table/state.json*")
    page.goto(f"{live_server.url}/t/table/?lang=fr")
    expect(seat(page, "S").locator(".tb-mark")).to_have_text("réserviste", timeout=WAIT)
    expect(page.locator("#tb-team-players-NS")).to_contain_text("House Hal (réserviste)")
    shot(page, "16-house-player-fr")


def test_a_csrf_refusal_refreshes_the_token_and_keeps_the_hand(
    page,
    live_server,
    make_tournament,
):
    t = seated(make_tournament, tables=1)
    open_table(page, live_server, t, 1)
    start(page, "S")
    # A cookie the server no longer accepts (expired, rotated, or mangled by a proxy).
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/hands") else None)
    seat(page, "W").click()
    page.click('#tb-tricks [data-tricks="3"]')
    page.evaluate(
        "() => { document.cookie = 'csrftoken=stale; path=/';"
        " document.getElementById('tb-save').click(); }"
    )
    all_sent(page)
    assert statuses == [403, 201]
    match = Match.objects.get(round__tournament=t, table=1)
    assert [(h.number, h.maker) for h in match.hands.all()] == [(1, "W")]
    expect(page.locator("#tb-refused")).to_be_hidden()


def test_a_table_session_cannot_touch_another_table_and_a_revoked_link_stops(
    page,
    live_server,
    make_tournament,
):
    t = seated(make_tournament, tables=4)
    open_table(page, live_server, t, 3)
    expect(page.locator(".tb-table-no")).to_have_text("Table 3")
    other = Match.objects.get(round__tournament=t, table=4)
    read, write = page.evaluate(
        """async (id) => {
            const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const read = await fetch(`/t/table/state.json?match=${id}`);
            const write = await fetch("/t/table/hands", {method: "POST",
              headers: {"Content-Type": "application/json", "X-CSRFToken": token},
              body: JSON.stringify({client_key: "x", number: 1, outcome: "misdeal",
                                    first_dealer: "N", match: id})});
            return [read.status, write.status];
        }""",
        other.pk,
    )
    assert (read, write) == (403, 403)
    assert not other.hands.exists()

    old = token(t, 3)
    rounds.revoke_link(t, 3, by="director")
    expect(page.locator("#tb-banner")).to_contain_text("revoked", timeout=WAIT)
    expect(page.locator("#tb-entry")).to_be_hidden()
    shot(page, "10-revoked")
    response = page.goto(f"{live_server.url}/t/{old}/")
    assert response is not None and response.status == 403
    expect(page.get_by_role("alert")).to_contain_text("revoked")
    open_table(page, live_server, t, 3)  # the reissued link works
    expect(page.locator("#tb-start")).to_be_visible()


def test_two_tablets_see_each_others_hands_and_a_clash_keeps_one(
    chromium,
    live_server,
    make_tournament,
):
    t = seated(make_tournament, tables=1)
    first = chromium.new_context(viewport=LANDSCAPE).new_page()
    second = chromium.new_context(viewport=PORTRAIT).new_page()
    open_table(first, live_server, t, 1)
    open_table(second, live_server, t, 1)
    start(first, "N")
    expect(second.locator("#tb-entry")).to_be_visible(timeout=WAIT)
    enter(first, "N", 3)
    expect(second.locator("#tb-score-NS")).to_have_text("1", timeout=WAIT)

    second.context.set_offline(True)
    enter(second, "E", 3)  # hand 2, queued on the second tablet
    enter(first, "W", 5)  # hand 2, stored from the first
    all_sent(first)
    second.context.set_offline(False)
    expect(second.locator("#tb-refused")).to_contain_text("Hand 2 (", timeout=WAIT)
    expect(second.locator("#tb-refused")).to_contain_text("already recorded")
    expect(second.locator("#tb-score-EW")).to_have_text("2", timeout=WAIT)
    shot(second, "11-clash")
    match = Match.objects.get(round__tournament=t, table=1)
    assert [(h.number, h.maker, h.maker_tricks) for h in standing(match)] == [
        (1, "N", 3),
        (2, "W", 5),
    ]
    first.context.close()
    second.context.close()


def test_an_undo_queued_offline_never_undoes_the_hand_the_director_corrected_meanwhile(
    page, live_server, make_tournament
):
    t = seated(make_tournament, tables=1)
    open_table(page, live_server, t, 1)
    start(page, "N")
    enter(page, "N", 3)  # 1: NS 1
    enter(page, "E", 3)  # 2: EW 1
    all_sent(page)
    page.context.set_offline(True)
    page.click("#tb-undo")
    expect(page.locator("#tb-dialog-title")).to_have_text("Undo hand 2?")
    page.click("#tb-dialog-ok")
    expect(page.locator("#tb-net")).to_have_text("Offline · 1 not yet sent", timeout=WAIT)
    match = Match.objects.get(round__tournament=t, table=1)
    corrections.correct_hand(
        standing(match)[-1],
        Hand(outcome=Outcome.PLAYED, maker=Seat.E, maker_tricks=5),
        by="director",
        reason="East marched",
    )
    page.context.set_offline(False)
    refused = page.locator("#tb-refused")
    expect(refused).to_contain_text("Undo of hand 2", timeout=WAIT)
    expect(refused).to_contain_text("The director changed this match's hands")
    all_sent(page)
    expect(page.locator("#tb-score-EW")).to_have_text("2", timeout=WAIT)
    shot(page, "12-stale-undo")
    assert [(h.number, h.maker, h.maker_tricks, h.source) for h in standing(match)] == [
        (1, "N", 3, "tablet"),
        (2, "E", 5, "director"),
    ]
    assert not match.hands.filter(state="undone").exists()


def test_the_end_screen_after_an_override_gives_the_bonuses_to_the_overriding_winner(
    page, live_server, make_tournament
):
    t = seated(make_tournament, tables=1)
    open_table(page, live_server, t, 1)
    start(page, "N")
    enter(page, "N", 5, alone=True)  # NS 4
    enter(page, "N", 5, alone=True)  # NS 8
    enter(page, "S", 5)  # NS 10-0: reach and skunk, +3
    expect(page.locator("#tb-end")).to_be_visible(timeout=WAIT)
    north = name_at(t, 1, "N")
    rows = page.locator("#tb-end-rows tr")
    expect(rows.filter(has_text=north)).to_contain_text("+3")
    match = Match.objects.get(round__tournament=t, table=1)
    corrections.override_winner(match, Team.EW, by="director", reason="NS reneged unseen")
    expect(page.locator("#tb-end-result")).to_have_text("East–West win 0–10.", timeout=WAIT)
    # RULES §2.2: the overruled team keeps its score but no bonus (N: 10 + two awards).
    expect(rows.filter(has_text=north)).not_to_contain_text("+3")
    expect(rows.filter(has_text=north).locator(".tb-points")).to_have_text("12")
    expect(rows.filter(has_text=name_at(t, 1, "S")).locator(".tb-points")).to_have_text("10")
    shot(page, "13-override-end")


def test_time_called_mid_hand_then_a_tie_broken_by_a_tiebreak_hand(
    chromium,
    live_server,
    make_tournament,
):
    t = seated(make_tournament, tables=1)
    page = chromium.new_context(viewport=PORTRAIT).new_page()
    open_table(page, live_server, t, 1)
    expect(page.locator("#tb-clock")).to_have_text(re.compile(r"^(19|20):\d\d$"))
    start(page, "E")
    enter(page, "N", 3)  # NS 1
    enter(page, "E", 4)  # EW 1
    enter(page, "S", 3)  # NS 2
    all_sent(page)

    rounds.call_time(t.rounds.get(number=1), by="director")  # a hand is being played
    expect(page.locator("#tb-call")).to_be_visible(timeout=WAIT)
    expect(page.locator("#tb-clock")).to_have_text("Time")
    expect(page.locator("#tb-entry")).to_be_hidden()
    shot(page, "12-time-called")
    page.click("#tb-call-yes")
    expect(page.locator("#tb-banner")).to_contain_text("finish the hand in progress", timeout=WAIT)
    enter(page, "W", 3)  # the hand in progress: EW 2, tied
    expect(page.locator("#tb-banner")).to_contain_text("Tie-break", timeout=WAIT)
    expect(page.locator("#tb-entry-h")).to_contain_text("tie-break")
    shot(page, "13-tiebreak")
    enter(page, "E", 1)  # euchred: NS 4
    expect(page.locator("#tb-end")).to_be_visible(timeout=WAIT)
    expect(page.locator("#tb-end-result")).to_have_text("North–South win 4–2.")
    all_sent(page)  # the end shows on the tablet before the server has the hand
    shot(page, "14-end-after-tiebreak")
    match = Match.objects.get(round__tournament=t, table=1)
    assert [h.phase for h in standing(match)] == [
        "regular",
        "regular",
        "regular",
        "at_call",
        "tiebreak",
    ]
    assert (match.score_ns, match.score_ew, match.bonus_ns, match.winner) == (4, 2, 0, "NS")
    page.context.close()


def test_hands_the_server_lost_to_a_restored_backup_are_sent_again_once(
    page, live_server, make_tournament
):
    from django.db import transaction
    from django.utils import timezone

    t = seated(make_tournament, tables=2)
    open_table(page, live_server, t, 1)
    start(page, "W")
    enter(page, "N", 3)
    enter(page, "E", 4)
    enter(page, "S", 5)
    all_sent(page)
    match = Match.objects.get(round__tournament=t, table=1)
    keys = [h.client_key for h in standing(match)]
    assert len(keys) == 3
    # What restoring the backup taken after hand 1 does: hands 2 and 3 are gone from the
    # server, though the tablet had them acknowledged.
    with transaction.atomic():
        HandEntry.objects.filter(match=match, number__gte=2).delete()
        locked = Match.objects.select_for_update().get(pk=match.pk)
        play.rewrite_results(locked, timezone.now())
    assert len(standing(match)) == 1
    page.reload()  # a fresh page: the poll sees the server behind the tablet
    page.wait_for_function(
        "fetch('/t/table/state.json').then(r => r.json()).then(s => s.hands.length === 3)",
        timeout=WAIT,
    )
    all_sent(page)
    hands = standing(match)
    assert [h.client_key for h in hands] == keys
    assert HandEntry.objects.filter(match=match).count() == 3
    expect(page.locator("#tb-score-NS")).to_have_text("3")  # 1 + 2 (S's march)


def test_the_tablet_revalidates_its_state_and_its_clock_stays_right_through_304s(
    page, live_server, make_tournament
):
    t = seated(make_tournament, tables=1)
    statuses: list[int] = []
    page.on(
        "response",
        lambda r: statuses.append(r.status) if "/t/table/state.json" in r.url else None,
    )
    open_table(page, live_server, t, 1)
    # Two of the tablet's polls (every 3 s on its own), asked of it now, not waited for.
    for _ in range(2):
        with page.expect_response(
            lambda r: "/t/table/state.json" in r.url and r.status == 304, timeout=WAIT
        ):
            page.evaluate("window.snowmanTablet.poll()")
    assert statuses.count(304) >= 2, statuses
    # Counted down from the absolute call instant, not from the last full answer.
    match = Match.objects.select_related("round__tournament").get(round__tournament=t, table=1)
    shown = page.locator("#tb-clock").inner_text()
    left = replay.table_remaining(match, timezone.now()).total_seconds()
    minutes, seconds = (int(x) for x in shown.split(":"))
    assert abs(minutes * 60 + seconds - left) <= 1.5, (shown, left)
    # A change the director makes reaches the tablet through its next poll.
    rounds.pause_round(t.rounds.get(number=1), by="director")
    expect(page.locator("#tb-clock")).to_contain_text("Paused", timeout=WAIT)


def test_hands_before_a_substitution_name_who_held_the_seat_then(
    page: Page, live_server, make_tournament
):
    from tournaments.core.models.event import Player
    from tournaments.core.services.substitutions import Signed, substitute

    t = seated(make_tournament, 1)
    open_table(page, live_server, t, 1)
    north = name_at(t, 1, "N")
    start(page, "N")
    enter(page, "N", 3)
    all_sent(page)
    match = Match.objects.get(round__tournament=t, table=1)
    sub = Player.objects.create(
        tournament=t,
        name="Sam Standin",
        division=match.round.seats.get(table=1, position="N").player.division,
    )
    substitute(match, "N", 2, sub, Signed("director", "called away"))
    expect(seat(page, "N")).to_contain_text("Sam Standin", timeout=WAIT)
    enter(page, "N", 3)
    all_sent(page)
    hands = page.locator("#tb-hands li")
    # Newest first: hand 2 was made by the substitute, hand 1 by who sat there then.
    expect(hands.nth(0)).to_contain_text("Sam Standin made trump", timeout=WAIT)
    expect(hands.nth(1)).to_contain_text(f"{north} made trump")
    expect(hands.nth(1)).to_contain_text(f"dealer {north}")


def test_the_other_team_confirms_after_the_table_changes_who_keeps_score(
    page: Page, live_server, make_tournament
):
    from tournaments.core.models.log import Activity

    t = seated(make_tournament, 1)
    open_table(page, live_server, t, 1)
    all_sent(page)
    seat(page, "N").click()
    # Who keeps score is known before the first hand: Start waits for the tap.
    expect(page.locator("#tb-start-save")).to_be_disabled()
    north, east, south, west = (name_at(t, 1, s) for s in "NESW")
    page.get_by_role("button", name=f"{north} keeps score").click()
    page.click("#tb-start-save")
    expect(page.locator("#tb-entry")).to_be_visible(timeout=WAIT)
    enter(page, "S", 5, alone=True)
    all_sent(page)
    # East took over the pencil: one tap in the switch, logged by the server.
    switch = page.locator("#tb-keeper-change")
    expect(page.locator("#tb-keeper-now")).to_contain_text(f"Score kept by {north}")
    page.locator("#tb-keeper-now").click()
    switch.get_by_role("button", name=f"{east} keeps score").click()
    expect(page.locator("#tb-keeper-now")).to_contain_text(f"Score kept by {east}")
    all_sent(page)
    enter(page, "S", 5, alone=True)
    enter(page, "S", 5, alone=True)  # 12–0: over
    all_sent(page)
    expect(page.locator("#tb-end")).to_be_visible(timeout=WAIT)
    who = page.locator("#tb-confirm-who button")
    expect(who).to_have_count(2)
    expect(who).to_have_text([north, south])
    shot(page, "keeper-changed-end")
    page.get_by_role("button", name=f"I am {south}").click()
    page.click("#tb-agree")
    expect(page.locator("#tb-confirmed")).to_have_text(f"Confirmed by {south}.", timeout=WAIT)
    all_sent(page)
    expect(switch).to_be_hidden()
    match = Match.objects.get(round__tournament=t, table=1)
    assert (match.scorekeeper, match.confirmed_by) == ("E", south)
    line = Activity.objects.get(tournament=t, action="scorekeeper")
    assert (line.args["was"], line.args["seat"]) == ("N", "E")
    assert west not in who.all_text_contents()
