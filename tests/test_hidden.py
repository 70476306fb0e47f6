"""What players may see while the standings are hidden (RULES.md §5).

The seam test walks every URL pattern of the public URL modules, filled from a simulated
event whose last rounds are hidden, and looks for the figures only a hidden round makes:
its match scores and the live totals that differ from the totals players may see.
"""

from __future__ import annotations

import ast
import json
import re
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tests.test_public_phones import (
    as_shown,
    event_after,
    fake_results,
    finish_table,
    shown_rows,
    url,
)
from tests.test_sheets import pdf_pages
from tests.urlwalk import patterns_by_namespace
from tournaments.core.logtext import said
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.models.series import Series
from tournaments.core.phones.ledger import ledger
from tournaments.core.reads.standings import standings
from tournaments.core.reads.visibility import of_event
from tournaments.core.services import log, rounds
from tournaments.core.services.linking import link_players
from tournaments.core.services.standings import reveal
from tournaments.registration.list_file import FORMAT
from tournaments.registration.models import Registration, RegistrationPass
from tournaments.registration.services import new_token, settings_for
from tournaments.series.reads import series_table
from tournaments.series.services import add_event, create_series

ROOT = Path(__file__).resolve().parent.parent

# --- the rule --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latest", "final", "seeded", "through"),
    [
        (None, False, False, None),  # nothing drawn
        (3, False, False, None),  # round P - N: still visible
        (4, False, False, 3),  # round P - N + 1 seated: hidden, round 3 the last visible
        (5, False, False, 3),
        (5, False, True, None),  # the final seeded (the tournament's status says so)
        (6, True, False, None),  # the final round itself
    ],
)
def test_standings_hide_from_round_p_minus_n_plus_1_until_the_final_showing_round_p_minus_n(
    latest, final, seeded, through
):
    from tournaments.domain.visibility import visibility

    vis = visibility(
        preliminary_rounds=5,
        hide_last=2,
        latest_number=latest,
        latest_is_final=final,
        final_seeded=seeded,
    )
    assert vis.through == through
    assert vis.shows_round(3) and vis.shows_round(4) == (through is None)
    assert vis.shows_round(6, final=True)


def test_hiding_every_round_shows_no_round_and_hiding_none_shows_all():
    from tournaments.domain.visibility import visibility

    kw = {"preliminary_rounds": 3, "latest_is_final": False, "final_seeded": False}
    assert visibility(hide_last=3, latest_number=1, **kw).through == 0
    assert visibility(hide_last=0, latest_number=3, **kw).through is None
    assert visibility(hide_last=3, latest_number=2, revealed=True, **kw).through is None


# --- a hidden round with figures nobody could mistake --------------------------------------

# Scores no real match reaches, so a number on a page can only come from the hidden round.
LIVE_NS, LIVE_EW = 67, 79  # a match in play
WIN, LOSS, WIN_BONUS = 87, 73, 5  # a finished match


def play_hidden_round_live(rnd: Round) -> set[int]:
    rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=5))
    Match.objects.filter(round=rnd).update(
        score_ns=LIVE_NS, score_ew=LIVE_EW, hands_played=5, status=Match.Status.PLAYING
    )
    return {LIVE_NS, LIVE_EW}


def finish_hidden_round(rnd: Round) -> set[int]:
    """Every match of the round over with the distinctive scores; returns them."""
    rnd.refresh_from_db()
    if rnd.status == Round.Status.SEATED:
        rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(minutes=30))
    matches = list(rnd.matches.all())
    for m in matches:
        m.score_ns, m.score_ew, m.bonus_ns, m.bonus_ew = WIN, LOSS, WIN_BONUS, 0
        m.hands_played, m.status = 12, Match.Status.CONFIRMED
        m.winner = m.recorded_winner = "NS"
    Match.objects.bulk_update(
        matches,
        ["score_ns", "score_ew", "bonus_ns", "bonus_ew", "hands_played", "status", "winner"],
    )
    seats = list(Seating.objects.filter(round=rnd))
    for s in seats:
        ns = s.position in ("N", "S")
        s.team_score, s.bonus, s.individual = (WIN, WIN_BONUS, 0) if ns else (LOSS, 0, 0)
        s.points, s.won, s.margin = s.team_score + s.bonus, ns, (WIN - LOSS) * (1 if ns else -1)
    Seating.objects.bulk_update(
        seats, ["team_score", "bonus", "individual", "points", "won", "margin"]
    )
    rounds.finalize_round(rnd, by="test")
    return {WIN, LOSS, WIN + WIN_BONUS}


def hidden_totals(t: Tournament) -> set[int]:
    """The live totals players may not see: those that differ from every total they may."""
    vis = of_event(t)
    assert vis.hidden
    live = {r.record.total for rows in standings(t).values() for r in rows}
    seen = {r.record.total for rows in standings(t, through=vis.through).values() for r in rows}
    return live - seen


def numbers_shown(body: str, content_type: str) -> set[int]:
    """Every number a reader of the answer sees: the text of a page (not its attributes,
    which hold ids, versions and instants), every value of a JSON answer."""
    if "json" in content_type:
        values: list[str] = []

        def walk(v: object) -> None:
            if isinstance(v, dict):
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
            else:
                values.append(str(v))

        walk(json.loads(body))
        text = " ".join(values)
    elif "svg" in content_type:
        text = ""  # the QR code: an address
    elif FORMAT in body:
        # The signed registration list: names, divisions and passes (random
        # tokens, whose digits are no figure); written before the day.
        text = ""
    else:
        text = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]*>", " ", body, flags=re.S)
    return {int(n) for n in re.findall(r"(?<![\d.:-])\d+(?![\d.:])", text)}


# --- the walk over every public URL ------------------------------------------------------

# The URL modules anyone in the hall may open without signing in.
PUBLIC_NAMESPACES = {"public", "series_public", "money_public", "record"}
# Every other namespace, and why it is not walked. A new URL module is neither until it
# is named here, and the walk fails.
NOT_PUBLIC = {
    "admin": "the director's admin, behind the sign-in",
    "director": "the director's pages, behind the sign-in",
    "money": "the event's money, behind the sign-in (the desk's fees, the director's purse)",
    "league": "the director's series and people, behind the sign-in",
    "records": "a person's record as the club's directors read it, behind the sign-in",
    "sheets": "the printed sheets, behind the sign-in: those posted or handed to players "
    "(SHEETS_FOR_PLAYERS) are walked below, the others are named in SHEETS_FOR_THE_DIRECTOR",
    "tablet": "a table's own tablet, by its secret link: it shows its table's score (§5)",
    "clubs": "a club's staff and invitations, behind the sign-in",
    "club_public": "a club's page (event and series names, no figure) and its short "
    "addresses, which redirect to the event and series pages walked here",
    "publish": "a POST-only endpoint taking a hall's results file with the event's token",
    None: "sign-in and sign-out",
}
# Request headers a pattern needs to answer at all: the signed registration list is
# answered only to a bearer of the event's key (the hall's server).
HEADERS = {
    "public:signed_list": lambda t: {"HTTP_AUTHORIZATION": f"Bearer {settings_for(t).transfer_key}"}
}
# Query strings that make a pattern answer something else than its plain form.
VARIANTS = {
    "public:event": ["", "?q=pla"],
    "public:find": ["?q=pla", "?q=play"],
    "public:standings": ["?division=A", "?division=B", "?division=A&q=pla"],
}


def public_patterns() -> list[tuple[str, list[str]]]:
    """(namespace:name, its kwargs) of every URL pattern in the public URL modules."""
    found, unknown = patterns_by_namespace(PUBLIC_NAMESPACES, NOT_PUBLIC)
    assert not unknown, f"URL modules neither walked nor named as not public: {unknown}"
    return found


def walk(client, t: Tournament, series: Series) -> dict[str, tuple[str, str]]:
    """Every public URL filled from the event (every player where a pattern takes one):
    address -> (content type, body)."""
    players = list(Player.objects.filter(tournament=t).values_list("pk", flat=True))
    answers = {}
    for name, kwargs in public_patterns():
        fillings: list[dict[str, object]] = [{}]
        for kwarg in kwargs:
            if kwarg == "slug":
                value = series.slug if name.startswith("series_public:") else t.slug
                fillings = [{**f, "slug": value} for f in fillings]
            elif kwarg == "player":
                fillings = [{**f, "player": pk} for f in fillings for pk in players]
            elif kwarg == "token":
                # Every player's private registration link (its pass).
                fillings = [{**f, "token": token} for f in fillings for token in passes(t)]
            else:
                pytest.fail(f"{name}: the walk cannot fill <{kwarg}>; teach it how")
        for filled in fillings:
            for query in VARIANTS.get(name, [""]):
                address = reverse(name, kwargs=filled) + query
                response = client.get(address, **HEADERS.get(name, lambda t: {})(t))
                if response.status_code == 405 and "POST" in response["Allow"]:
                    # An action a player sends (calling the director): what it answers
                    # is read too.
                    response = client.post(address)
                    assert response.status_code < 500, address
                else:
                    assert response.status_code == 200, address
                body = b"".join(response).decode() if response.streaming else response.content
                text = body if isinstance(body, str) else body.decode()
                answers[address] = (response["Content-Type"], text)
    return answers


def passes(t: Tournament) -> list[str]:
    """Each player's private link token, made as the club site's accepted list makes them
    (an application accepted before the day) the first time the walk asks."""
    if not RegistrationPass.objects.filter(registration__tournament=t).exists():
        now = timezone.now()
        for n, player in enumerate(Player.objects.filter(tournament=t), start=1):
            reg = Registration.objects.create(
                tournament=t,
                uid=uuid.uuid4(),
                name=player.name,
                folded=player.name.casefold(),
                division=player.division,
                consent=True,
                status="accepted",
                queue=n,
                player=player,
                created_at=now,
            )
            RegistrationPass.objects.create(registration=reg, token=new_token(), created_at=now)
    tokens = RegistrationPass.objects.filter(registration__tournament=t).values_list(
        "token", flat=True
    )
    return list(tokens)


def hidden_event(make_tournament) -> tuple[Tournament, Series]:
    """Five rounds, the last two hidden, rounds 1-3 played; round 4 is seated. The event is
    in a series scored by each event's total, so series points are event totals."""
    t = event_after(make_tournament, 2, 3, hide_standings_last_rounds=2)
    link_players(list(Player.objects.filter(tournament=t)), by="test")
    series = create_series("Winter League", points_table="total")
    add_event(series, t)
    return t, series


def leaks(answers: dict[str, tuple[str, str]], forbidden: set[int]) -> dict[str, set[int]]:
    found = {}
    for address, (content_type, body) in answers.items():
        shown = numbers_shown(body, content_type) & forbidden
        if shown:
            found[address] = shown
    return found


@pytest.mark.slow  # a walk over every public URL, twice
def test_every_public_url_shows_no_figure_of_a_hidden_round_live_or_finished(
    client, make_tournament
):
    t, series = hidden_event(make_tournament)
    r4 = t.rounds.get(number=4)
    # Live: round 4 in play, its matches' scores on the tablets only.
    live_scores = play_hidden_round_live(r4)
    answers = walk(client, t, series)
    assert len(answers) > 3 * 8  # every player's card, part and ledger among them
    assert not leaks(answers, live_scores)
    # Finished: round 4 over, round 5 seated and then in play.
    finished = finish_hidden_round(r4)
    rounds.seat_next_round(t, by="test")
    t.refresh_from_db()
    forbidden = finished | hidden_totals(t)
    assert hidden_totals(t)  # the hidden round did move the totals
    for start in (False, True):
        if start:
            rounds.start_round(t.rounds.get(number=5), by="test")
        answers = walk(client, t, series)
        assert not leaks(answers, forbidden), start
        # And what players see is the standings as they stood after round 3, marked.
        frozen = standings(t, through=3)
        for division in "AB":
            page = answers[url("standings", t.slug) + f"?division={division}"][1]
            assert "As it stood after round 3; hidden until the final." in page
            assert shown_rows(page) == as_shown(frozen[division])
        if start:  # between rounds the projector shows the seating
            body = answers[url("projector_standings", t.slug)][1]
            assert "as they stood after round 3; hidden until the final" in body
            assert shown_rows(body) == [row for d in "AB" for row in as_shown(frozen[d])[:8]]
        for p in Player.objects.filter(tournament=t):
            mine = next(r for r in frozen[p.division] if r.player.pk == p.pk)
            page = answers[url("ledger", t.slug, p.pk)][1]
            assert f"Total {mine.record.total} · rank {mine.shown_rank} of " in page, p.name
        for address, (_, body) in answers.items():
            if "/ledger/" in address:
                line = body.split("Round 4")[1].split("</li>")[0]
                assert " won" not in line and " lost" not in line, address


@pytest.mark.slow  # the walk above, shown able to fail
def test_the_walk_sees_the_figures_once_the_final_is_seeded(client, make_tournament):
    # The check above can fail: the same walk, once the standings return, finds them.
    from tournaments.core.services.standings import seed_final

    t, series = hidden_event(make_tournament)
    finished = finish_hidden_round(t.rounds.get(number=4))
    rounds.seat_next_round(t, by="test")
    fake_results(t.rounds.get(number=5))
    forbidden = finished | hidden_totals(t)
    seed_final(t, by="test")
    found = leaks(walk(client, t, series), forbidden)
    assert any("/ledger/" in a for a in found) and any("/series/" in a for a in found)


@pytest.mark.slow  # the walk above, shown able to fail
def test_a_url_pattern_the_walk_cannot_fill_fails_the_walk(client, make_tournament, monkeypatch):
    t, series = hidden_event(make_tournament)
    patterns = public_patterns()
    monkeypatch.setattr(
        "tests.test_hidden.public_patterns", lambda: [*patterns, ("public:new", ["table"])]
    )
    with pytest.raises(pytest.fail.Exception, match="cannot fill <table>"):
        walk(client, t, series)


# --- the sheets printed for players ------------------------------------------------------

# The sheets the director prints for the room: posted on the wall, laid on the tables.
# What a player reads there is what a player may see (§5: "PDF meant for players").
SHEETS_FOR_PLAYERS = {
    "sheets:standings",
    "sheets:standings_both",
    "sheets:seating",
    "sheets:table_cards",
    "sheets:table_tents",
}
# The other sheets, and why no player reads them while the standings are hidden.
SHEETS_FOR_THE_DIRECTOR = {
    "sheets:scoresheets": "a table's backup scoresheet, its own hands only: the table's "
    "tablet shows them to the four players anyway (§5)",
    "sheets:final": "the final's results, printed once the final is seeded (which reveals "
    "the standings); before, the director's provisional copy",
    "sheets:prizes": "the director's prize list, marked 'not for announcing yet' while hidden",
}


def sheet_text(data: bytes, t: Tournament) -> str:
    """A PDF's text as a reader sees it, less what is no figure: the addresses (their
    tokens) and the table codes the cards print."""
    from tournaments.core.models.play import TableLink
    from tournaments.core.reads.tablet.link import shown

    text = "\n".join(pdf_pages(data))
    text = re.sub(r"https?://\S+", " ", text)
    for code in TableLink.objects.filter(tournament=t).values_list("code", flat=True):
        text = text.replace(shown(code), " ").replace(code, " ")
    return text


def walk_sheets(client, t: Tournament, **query: str) -> dict[str, str]:
    """Every sheet printed for players, filled from the event: address -> its text."""
    found, _ = patterns_by_namespace({"sheets"}, ())
    named = {name for name, _ in found}
    assert named == SHEETS_FOR_PLAYERS | set(SHEETS_FOR_THE_DIRECTOR), (
        "a sheet neither walked as one for players nor named as the director's: "
        f"{named ^ (SHEETS_FOR_PLAYERS | set(SHEETS_FOR_THE_DIRECTOR))}"
    )
    answers = {}
    numbers = list(t.rounds.values_list("number", flat=True))
    for name, kwargs in found:
        if name not in SHEETS_FOR_PLAYERS:
            continue
        fillings: list[dict[str, object]] = [{"slug": t.slug}]
        for kwarg in kwargs:
            if kwarg == "division":
                fillings = [{**f, "division": d} for f in fillings for d in "AB"]
            elif kwarg == "number":
                fillings = [{**f, "number": n} for f in fillings for n in numbers]
            elif kwarg != "slug":
                pytest.fail(f"{name}: the sheets walk cannot fill <{kwarg}>; teach it how")
        for filled in fillings:
            address = reverse(name, kwargs=filled)
            if query:
                address += "?" + "&".join(f"{k}={v}" for k, v in query.items())
            response = client.get(address)
            assert response.status_code == 200, address
            answers[address] = sheet_text(b"".join(response.streaming_content), t)
    return answers


def test_no_sheet_printed_for_players_shows_a_figure_of_a_hidden_round(make_tournament, director):
    from django.test import Client

    t, _ = hidden_event(make_tournament)
    office = Client()
    office.force_login(director)
    finished = finish_hidden_round(t.rounds.get(number=4))
    rounds.seat_next_round(t, by="test")
    rounds.start_round(t.rounds.get(number=5), by="test")
    t.refresh_from_db()
    forbidden = finished | hidden_totals(t)
    answers = walk_sheets(office, t)
    # Two divisions, both in one, five rounds' seating, the cards, the tents.
    assert len(answers) == 2 + 1 + 5 + 1 + 1
    found = {
        a: shown for a, text in answers.items() if (shown := numbers_shown(text, "text/plain"))
    }
    assert not {a: n & forbidden for a, n in found.items() if n & forbidden}
    # The wall's standings: as they stood after round 3, saying which rounds are hidden.
    frozen = standings(t, through=3)
    for division in "AB":
        text = answers[reverse("sheets:standings", args=[t.slug, division])]
        assert "As it stood after round 3; hidden until the final." in text
        assert "Rounds 4, 5 are hidden from the players until the final." in text
        assert "not for posting" not in text
        for row in frozen[division]:
            assert re.search(
                rf"^{re.escape(row.shown_rank)}†? {row.player.name} .* {row.record.total} ",
                text,
                re.M,
            )
    both = answers[reverse("sheets:standings_both", args=[t.slug])]
    for division in "AB":
        assert f"Standings, division {division} · As it stood after round 3;" in both
    assert "not for posting" not in both


def test_the_directors_copy_of_the_standings_shows_the_hidden_figures_marked_on_every_page(
    make_tournament, director
):
    # The check above can fail: the director's copy has the figures the wall's leaves out.
    from django.test import Client

    t, _ = hidden_event(make_tournament)
    office = Client()
    office.force_login(director)
    finished = finish_hidden_round(t.rounds.get(number=4))
    rounds.seat_next_round(t, by="test")
    t.refresh_from_db()
    forbidden = finished | hidden_totals(t)
    for division in "AB":
        address = reverse("sheets:standings", args=[t.slug, division]) + "?copy=director"
        pages = pdf_pages(b"".join(office.get(address).streaming_content))
        assert numbers_shown("\n".join(pages), "text/plain") & forbidden
        assert all("Director's copy — not for posting" in page for page in pages)
    # The director's standings page offers both copies and says which is which.
    page = office.get(reverse("director:standings", args=[t.slug])).content.decode()
    assert "?paper=letter&amp;copy=director" in page
    assert "the PDF for the wall shows them as they stood after round 3" in page


def test_the_final_results_sheet_while_the_standings_are_hidden_is_marked_not_for_posting(
    make_tournament, director
):
    """Its top of each division ranks the live standings: while they are hidden it is the
    director's, and says so at the head of every page; once revealed, it is not."""
    from django.test import Client

    t, _ = hidden_event(make_tournament)
    office = Client()
    office.force_login(director)
    finish_hidden_round(t.rounds.get(number=4))
    address = reverse("sheets:final", args=[t.slug])
    pages = pdf_pages(b"".join(office.get(address).streaming_content))
    assert pages and all("Director's copy — not for posting" in page for page in pages)
    reveal(t, by="director")
    pages = pdf_pages(b"".join(office.get(address).streaming_content))
    assert not any("not for posting" in page for page in pages)


def test_no_sheet_printed_for_players_reads_the_live_standings():
    readers = live_standings_calls(ROOT / "tournaments/core/reads/sheets.py")
    assert not readers & {"standings_sheet", "seating_sheet", "table_cards"}


# --- item 1: the series page -----------------------------------------------------------------


def test_the_public_series_page_shows_a_hidden_event_as_it_stood_after_its_last_visible_round(
    client, make_tournament
):
    t, series = hidden_event(make_tournament)
    frozen = {row.person.name: row.line.points for row in series_table(series).rows}
    finish_hidden_round(t.rounds.get(number=4))
    rounds.seat_next_round(t, by="test")
    response = client.get(reverse("series_public:series", args=[series.slug]))
    page = response.content.decode()
    live = {row.person.name: row.line.points for row in series_table(series).rows}
    assert frozen != live  # the director's page shows the live points
    assert "as it stood after round 3; hidden until the final" in page
    for name, points in live.items():
        row = page.split(f"<td>{name}</td>")[1].split("</tr>")[0]
        assert f"<strong>{frozen[name]}</strong>" in row
        assert f"<strong>{points}</strong>" not in row
    # What a cache keeps for a minute holds no hidden figure.
    assert "max-age=60" in response["Cache-Control"]


# --- item 2: the card and the ledger ---------------------------------------------------------


def test_a_hidden_rounds_score_and_win_are_on_no_card_or_ledger(client, make_tournament):
    t, _ = hidden_event(make_tournament)
    r4 = t.rounds.get(number=4)
    p = Seating.objects.filter(round=r4, position="N").first().player
    play_hidden_round_live(r4)
    card = client.get(url("card", t.slug, p.pk)).content.decode()
    # The text a reader sees (the clock's instant in an attribute may hold any digits).
    assert LIVE_NS not in numbers_shown(card, "text/html") and "Us <strong>" not in card
    assert "hidden until the final" in card
    finish_hidden_round(r4)
    card = client.get(url("card_part", t.slug, p.pk)).content.decode()
    assert str(WIN) not in card and "won" not in card
    book = ledger(t, p)
    line = next(line for line in book.lines if line.number == 4)
    assert (line.us, line.them, line.won, line.points, line.state) == (
        None,
        None,
        None,
        None,
        "hidden",
    )
    page = client.get(url("ledger", t.slug, p.pk)).content.decode()
    assert "Result hidden until the final" in page and str(WIN) not in page


# --- the one question ------------------------------------------------------------------------

# Functions of modules the public views import that rank the live standings, each for
# the director only (the public views do not reach them).
DIRECTOR_ONLY = {
    "tournaments/series/reads.py": {"finishes"},  # for_players=False: the director's page
    "tournaments/core/reads/queries.py": {"final_view"},  # the director's final page
    "tournaments/core/reads/console.py": {"finalists"},  # the director's console
    # The money's module holds a player's own money (public) and the director's payout.
    "tournaments/money/reads.py": {"placed_of"},  # the director's payout preview
    "tournaments/prizes/reads.py": {"event_prizes"},  # the director's prizes, via the preview
}


def public_modules() -> set[str]:
    """The view modules of the public URL patterns and the project modules they import."""
    from tests.test_layering import runtime_imports

    modules = set()

    def visit(patterns: list[object], namespace: str | None) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                visit(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and namespace in PUBLIC_NAMESPACES:
                modules.add(p.callback.__module__)

    visit(get_resolver().url_patterns, None)
    found = set()
    for module in modules:
        path = ROOT / (module.replace(".", "/") + ".py")
        found.add(path.relative_to(ROOT).as_posix())
        for imported in runtime_imports(path.read_text(), module.rsplit(".", 1)[0]):
            candidate = ROOT / (imported.replace(".", "/") + ".py")
            if imported.startswith("tournaments.") and candidate.exists():
                found.add(candidate.relative_to(ROOT).as_posix())
    return found


def live_standings_calls(path: Path) -> set[str]:
    """The functions of a module that call the live ``standings(...)``."""
    callers = set()
    for fn in ast.walk(ast.parse(path.read_text())):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
                if name == "standings":
                    callers.add(fn.name)
    return callers


def test_no_public_reader_bypasses_the_one_question_may_players_see_this():
    modules = public_modules()
    assert {"tournaments/core/phones/views.py", "tournaments/core/phones/reads.py"} <= modules
    # A public reader that reads the setting decides hiding by itself.
    deciders = {m for m in modules if "hide_standings_last_rounds" in (ROOT / m).read_text()}
    assert not deciders
    bypass = {
        f"{m}: {fn}"
        for m in sorted(modules)
        if m != "tournaments/core/reads/visibility.py"
        for fn in live_standings_calls(ROOT / m)
        if fn not in DIRECTOR_ONLY.get(m, set())
    }
    assert not bypass


# --- the director reveals --------------------------------------------------------------------


def test_the_director_reveals_hidden_standings_with_one_action_on_the_console(
    client, director_client, make_tournament
):
    from django.test import Client

    from tournaments.core.models.log import Activity

    t, series = hidden_event(make_tournament)
    finished = finish_hidden_round(t.rounds.get(number=4))
    rounds.seat_next_round(t, by="test")
    forbidden = finished | hidden_totals(t)
    console = reverse("director:round", args=[t.slug, 5])
    assert "Reveal the standings" in director_client.get(console).content.decode()
    reveal = reverse("director:reveal", args=[t.slug, 5])
    anonymous = Client()
    assert anonymous.post(reveal).status_code == 302  # to the sign-in
    held = anonymous.get(url("standings", t.slug))["ETag"]
    assert director_client.post(reveal).status_code == 302
    t.refresh_from_db()
    assert t.standings_revealed_at is not None and not of_event(t).hidden
    assert Activity.objects.filter(tournament=t, action="reveal").count() == 1
    # The phones' versions change: no phone keeps the hidden page.
    again = anonymous.get(url("standings", t.slug), HTTP_IF_NONE_MATCH=held)
    assert again.status_code == 200 and 'class="standings"' in again.content.decode()
    found = leaks(walk(anonymous, t, series), forbidden)
    assert any("/standings/" in a for a in found) and any("/series/" in a for a in found)
    assert "Reveal the standings" not in director_client.get(console).content.decode()
    # Twice is a stale request: 409 with the console as it is now.
    response = director_client.post(reveal)
    assert response.status_code == 409
    assert "not hidden now" in response.content.decode()


# --- the versions (ETags) ------------------------------------------------------------------


def test_no_public_version_moves_when_a_hidden_rounds_score_changes(client, make_tournament):
    """A phone that sees its ETag change learns *when* a hidden score changed, and the ETag
    was a hash of the score itself: the versions read no hidden score (§5)."""
    from tournaments.core.services import play
    from tournaments.domain.hands import Hand, Outcome, Seat

    t, _ = hidden_event(make_tournament)
    r4 = t.rounds.get(number=4)
    rounds.start_round(r4, by="test")
    m = r4.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(m, Seat.W, by="test")
    me = Seating.objects.get(round=r4, table=1, position="N").player
    other = Seating.objects.get(round=r4, table=2, position="N").player
    addresses = [
        url("card", t.slug, me.pk),
        url("card_part", t.slug, me.pk),
        url("ledger", t.slug, me.pk),
        url("card_part", t.slug, other.pk),
        url("ledger", t.slug, other.pk),
        url("standings", t.slug) + "?division=A",
        url("projector_standings", t.slug),
        url("event", t.slug),
        reverse("series_public:series", args=[Series.objects.get().slug]),
    ]

    def answered(held: dict[str, str]) -> dict[str, int]:
        return {a: client.get(a, HTTP_IF_NONE_MATCH=held[a]).status_code for a in held if held[a]}

    held = {a: client.get(a).get("ETag", "") for a in addresses}
    assert len([a for a in held if held[a]]) == len(addresses) - 1  # the series: max-age
    # Hands at table 1, then the director undoes one (logged against the match).
    for key in ("h1", "h2"):
        play.record_hand(
            m, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), client_key=key, by="t"
        )
    play.undo_last_hand(m, by="director", reason="wrong maker", director=True)
    m.refresh_from_db()
    assert m.hands_played == 1 and m.score_ns > 0
    assert set(answered(held).values()) == {304}
    # A seat's clock does reach the phones of that table (an extension), and no other.
    rounds.extend_table(m, 5, by="director", reason="late start")
    changed = {a for a, status in answered(held).items() if status == 200}
    assert url("card_part", t.slug, me.pk) in changed
    # A hidden match over: its status may show (the ledger's "Result hidden"); then a
    # correction of its score moves nothing.
    finish_table(r4, 1)
    held = {a: client.get(a).get("ETag", "") for a in addresses}
    # The director's correction: the score, the points, logged against the match.
    Match.objects.filter(pk=m.pk).update(score_ns=10, score_ew=9, bonus_ns=0, hands_played=9)
    Seating.objects.filter(round=r4, table=1, position__in="NS").update(team_score=10, points=10)
    log(
        t,
        "director",
        "correct",
        said("play.hand_corrected", match=str(m), n=3, score="NS +2"),
        match=m,
    )
    assert set(answered(held).values()) == {304}
    # A correction of a visible round does move the standings players see, and their version.
    earlier = t.rounds.get(number=3).matches.first()
    line = said("play.hand_corrected", match=str(earlier), n=1, score="NS +2")
    log(t, "director", "correct", line, match=earlier)
    assert answered(held)[url("standings", t.slug) + "?division=A"] == 200


def test_hiding_every_round_shows_no_standings_marked_hidden_until_the_final(
    client, make_tournament
):
    t = event_after(make_tournament, 2, 1, preliminary_rounds=3, hide_standings_last_rounds=3)
    rounds.start_round(t.rounds.get(number=2), by="test")
    page = client.get(url("standings", t.slug)).content.decode()
    assert "Hidden until the final." in page and not shown_rows(page)
    body = client.get(url("projector_standings", t.slug)).content.decode()
    assert "Standings hidden until the final." in body and not shown_rows(body)
    p = Seating.objects.filter(round__tournament=t, round__number=1).first().player
    ledger = client.get(url("ledger", t.slug, p.pk)).content.decode()
    assert "Hidden until the final." in ledger
    assert "Total " not in ledger and "Running total" not in ledger


def test_the_desk_sees_no_total_and_no_hidden_score_on_any_page_or_sheet_it_may_open(
    client, django_user_model, make_tournament
):
    """§5: the desk sees no totals. Every page and sheet a desk role opens (the desk, the
    scan, the help page, each round's seating as a page, CSV and PDF, the score sheets)
    during a hidden round shows no live total; and none but the score sheets, which a
    table keeps score on when its tablet dies, shows a hidden round's match score."""
    from tournaments.clubs.services import assign

    user = django_user_model.objects.create_user("desk1", password="a-long-desk-password")
    assign(user, "desk")
    client.force_login(user)
    t, _series = hidden_event(make_tournament)
    finished = finish_hidden_round(t.rounds.get(number=4))
    rounds.seat_next_round(t, by="test")
    play_hidden_round_live(t.rounds.get(number=5))
    t.refresh_from_db()
    totals = hidden_totals(t)
    assert totals
    pages = [
        reverse("director:desk", args=[t.slug]),
        reverse("director:desk", args=[t.slug]) + "?q=Player",
        reverse("director:scan", args=[t.slug]),
        reverse("director:help", args=[t.slug]),
        *(reverse("director:seating", args=[t.slug, n]) for n in range(1, 6)),
        *(reverse("director:seating_csv", args=[t.slug, n]) for n in range(1, 6)),
    ]
    seen: dict[str, set[int]] = {}
    hidden = totals | finished | {LIVE_NS, LIVE_EW}
    for address in pages:
        response = client.get(address)
        assert response.status_code == 200, address
        body = response.content.decode()
        shown = numbers_shown(body, response["Content-Type"]) & hidden
        if shown:
            seen[address] = shown
    for n in range(1, 6):
        for name, forbidden in (("seating", totals | finished), ("scoresheets", totals)):
            address = reverse(f"sheets:{name}", args=[t.slug, n])
            response = client.get(address)
            assert response.status_code == 200, address
            shown = set(map(int, re.findall(r"\d+", sheet_text(response.getvalue(), t))))
            if shown & forbidden:
                seen[address] = shown & forbidden
    assert seen == {}
