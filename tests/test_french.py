"""The French translation (first slice): the catalogue stays complete and in step
with the source, the reader chooses the language on the phone (a cookie) and the director
on the projector (?lang=), and a public page read in French shows no English sentence
that has a translation."""

from __future__ import annotations

import ast
import functools
import html
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import polib
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, timezone, translation

from tests.test_public_phones import event_after, fake_results, player
from tournaments.clubs.services import accept_invitation, create_club, invite, revoke_invitation
from tournaments.common.errors import ServiceError
from tournaments.core.models.rounds import Round
from tournaments.core.models.staff import Invitation
from tournaments.core.roles import DESK
from tournaments.core.services import rounds
from tournaments.core.services.tournaments import create_tournament
from tournaments.registration import services
from tournaments.registration.models import Registration

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
# The tablet's JavaScript (gettext() in static/tablet/*.js), served by /jsi18n/<lang>/.
JS_PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "djangojs.po"
CATALOGUES = {"python-and-templates": PO, "javascript": JS_PO}


def catalogue(path: Path = PO) -> polib.POFile:
    return polib.pofile(str(path))


# --- the catalogue ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", CATALOGUES.values(), ids=CATALOGUES.keys())
def test_every_msgid_has_a_french_translation_and_none_is_fuzzy(path: Path) -> None:
    po = catalogue(path)
    assert len(po) > 100
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    obsolete = [e.msgid for e in po.obsolete_entries()]
    assert (untranslated, fuzzy, obsolete) == ([], [], [])
    assert po.percent_translated() == 100
    # A plural has both French forms (fr: one for 0 and 1, one from 2).
    for e in po:
        if e.msgid_plural:
            assert all(e.msgstr_plural.get(i) for i in (0, 1)), e.msgid


@pytest.mark.parametrize("path", [PO, JS_PO], ids=["django.po", "djangojs.po"])
def test_each_translation_spaces_its_punctuation_the_canadian_way(path: Path) -> None:
    """OQLF's typography (docs/rules.md §8.1): a non-breaking space before a colon and
    inside guillemets, none before a semicolon. The desk read "il manque 1 joueur B ; ou"
    and colons that a line could break before."""
    wrong = [
        text
        for entry in polib.pofile(str(path))
        if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if re.search(r" [:;]|« | »", text)
    ]
    assert wrong == []


@pytest.mark.parametrize("path", CATALOGUES.values(), ids=CATALOGUES.keys())
def test_each_translation_keeps_the_placeholders_of_its_english(path: Path) -> None:
    # A placeholder lost or misspelt in French is a KeyError on the French page only.
    def names(text: str) -> list[str]:
        return sorted(re.findall(r"%\((\w+)\)[sd]", text))

    for e in catalogue(path):
        english = set(names(e.msgid_plural or e.msgid))
        frenches = list(e.msgstr_plural.values()) if e.msgid_plural else [e.msgstr]
        for french in frenches:
            assert set(names(french)) <= english, (e.msgid, french)
        # The singular may leave the count out ("la dernière ronde"); the other form not.
        assert set(names(frenches[-1])) == english, (e.msgid, frenches[-1])


@pytest.mark.slow
@pytest.mark.db_independent  # a copy of the source, a process with no database
def test_makemessages_leaves_the_catalogue_unchanged(tmp_path: Path) -> None:
    """The committed .po is what makemessages makes from the source today: a string
    added, changed or removed without refreshing the catalogue fails here
    (docs/translations.md). Run on a copy, so the working tree is never touched."""
    if shutil.which("xgettext") is None:
        pytest.fail("makemessages needs GNU gettext: apt-get install gettext (.ci/run does)")
    for name in ("manage.py",):
        shutil.copy(ROOT / name, tmp_path / name)
    for folder in ("snowman", "tournaments", "templates", "static", "locale"):
        shutil.copytree(
            ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
        )
    subprocess.run(
        [sys.executable, "manage.py", "update_translations", "-v0"],
        cwd=tmp_path,
        check=True,
        env={"PATH": "/usr/bin:/bin", "SNOWMAN_VAR_DIR": str(tmp_path / "var")},
    )
    for path in CATALOGUES.values():
        fresh = (tmp_path / "locale" / "fr" / "LC_MESSAGES" / path.name).read_text()
        assert fresh == path.read_text(), "run `python manage.py update_translations` and commit"


# --- choosing the language ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_first_public_pages_offer_english_and_francais_each_in_itself(
    client, make_tournament
) -> None:
    t = make_tournament(2)
    for lang in ("en", "fr"):  # never "Anglais / French": each names itself
        client.cookies["django_language"] = lang
        for page in (reverse("public:index"), reverse("public:event", args=[t.slug])):
            body = client.get(page).content.decode()
            assert re.search(r'<a [^>]*lang="en"[^>]*>English</a>', body), page
            assert re.search(r'<a [^>]*lang="fr"[^>]*>Français</a>', body), page
            assert re.search(rf'<a [^>]*lang="{lang}"[^>]*aria-current="true"', body), page


@pytest.mark.django_db
def test_a_phone_that_chooses_french_keeps_it_in_a_cookie_and_returns_to_its_page(
    client, make_tournament
) -> None:
    t = make_tournament(2)
    event = reverse("public:event", args=[t.slug])
    r = client.get(reverse("language", args=["fr"]), {"next": event + "?pick=1"})
    assert r.status_code == 302 and r["Location"] == event + "?pick=1"
    cookie = r.cookies["django_language"]
    assert cookie.value == "fr" and int(cookie["max-age"]) >= 300 * 24 * 3600
    page = client.get(event + "?pick=1").content.decode()
    assert '<html lang="fr">' in page and "Trouvez votre nom" in page
    client.get(reverse("language", args=["en"]), {"next": event})
    assert "Find yourself" in client.get(event).content.decode()


@pytest.mark.django_db
def test_the_language_switch_refuses_other_sites_and_unknown_languages(client) -> None:
    r = client.get(reverse("language", args=["fr"]), {"next": "https://evil.example/"})
    assert r.status_code == 302 and r["Location"] == "/"
    assert client.get(reverse("language", args=["de"])).status_code == 404


@pytest.mark.django_db
def test_a_phone_holding_the_english_version_gets_the_french_page_not_a_304(
    client, make_tournament
) -> None:
    t = make_tournament(2)
    rounds.draw_first_round(t, by="test", seed=5)
    card = reverse("public:card", args=[t.slug, player(t, "Player A001").pk])
    etag = client.get(card)["ETag"]
    client.cookies["django_language"] = "fr"
    r = client.get(card, HTTP_IF_NONE_MATCH=etag)
    assert r.status_code == 200 and "Ronde 1" in r.content.decode()


@pytest.mark.django_db
def test_reading_in_french_costs_no_query(client, make_tournament) -> None:
    t = make_tournament(2)
    rounds.draw_first_round(t, by="test", seed=5)
    card = reverse("public:card", args=[t.slug, player(t, "Player A001").pk])
    counts = {}
    for lang in ("en", "fr"):
        client.cookies["django_language"] = lang
        with CaptureQueriesContext(connection) as q:
            assert client.get(card).status_code == 200
        counts[lang] = len(q)
    assert counts["fr"] == counts["en"]


@pytest.mark.django_db
def test_the_director_chooses_the_projectors_language_in_its_address(
    client, make_tournament
) -> None:
    t = event_after(make_tournament, 3, played=1)
    page = client.get(reverse("public:projector", args=[t.slug]), {"lang": "fr"})
    body = page.content.decode()
    assert '<html lang="fr">' in body and "Ronde 2" in body
    assert "Votre place sur votre téléphone" in body
    # The refreshes and the clock keep the choice.
    assert f"{reverse('public:projector_standings', args=[t.slug])}?lang=fr" in body
    assert f"{reverse('public:clock', args=[t.slug])}?lang=fr" in body
    clock = client.get(reverse("public:clock", args=[t.slug]), {"lang": "fr"}).json()
    assert clock["round"] == "Ronde 2"
    part = client.get(reverse("public:projector_standings", args=[t.slug]), {"lang": "fr"})
    assert "trouvez votre table" in part.content.decode()
    # West is Ouest: the seat letters follow the language.
    assert '<span class="pos">O</span>' in part.content.decode()
    english = client.get(reverse("public:projector", args=[t.slug])).content.decode()
    assert "Round 2" in english and "Ronde 2" not in english


def test_french_times_are_written_the_canadian_way() -> None:
    moment = datetime(2026, 12, 1, 14, 5, tzinfo=ZoneInfo("UTC"))
    with translation.override("fr"):
        assert formats.date_format(moment, "TIME_FORMAT") == "14\u00a0h\u00a005"
        assert formats.date_format(moment, "DATE_FORMAT") == "1 décembre 2026"
        assert formats.number_format(1234.5, 1, force_grouping=True) == "1\u00a0234,5"
    with translation.override("en"):
        assert formats.date_format(moment, "TIME_FORMAT") != "14\u00a0h\u00a005"


# --- no English left on a French page ---------------------------------------------------------


def _reader_text(page: str) -> str:
    """What a reader meets: visible text, the attributes read aloud or shown, and the
    words the scripts take from <template> and data-text-* attributes."""
    # <code> holds what a person types the same in every language (the tiebreak keys).
    page = re.sub(r"<(script|style|code)\b.*?</\1>", " ", page, flags=re.S)
    attrs = re.findall(r'(?:aria-label|title|alt|data-text-[\w-]+|data-page-label)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    # The test players' names ("Player A001") are names, not the word "Player".
    return re.sub(r"Player [AB]\d{3}", " ", html.unescape(" ".join([text, *attrs])))


def _english_left(text: str) -> list[str]:
    """The English of each translated msgid still in ``text``: each literal stretch
    between placeholders, matched as whole words, unless the French has the same words."""
    return _other_language_left(text, "fr")


def _other_language_left(text: str, reader: str, paths: tuple[Path, ...] = (PO,)) -> list[str]:
    """What ``text`` still says in the language the reader did not choose: for a French
    reader the English of each translated msgid, for an English reader the French of each
    msgstr (a French sentence left on an English page), by the rule of ``_english_left``."""
    return sorted(
        {
            piece
            for path in paths
            for piece in _foreign_pieces(path, reader)
            if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text)
        }
    )


@functools.cache
def _foreign_pieces(path: Path, reader: str) -> tuple[str, ...]:
    """The stretches of the other language's sentences that would betray it: each literal
    between placeholders, unless the entry's own translation has the same words, or the
    reader's language says it so elsewhere in the catalogue ("Division %(division)s" is
    French too)."""

    def pieces(sentence: str) -> list[str]:
        return [p.strip(" :;,.·()*?!") for p in re.split(r"%\(\w+\)[sd]", sentence)]

    entries = []
    for e in catalogue(path):
        frenches = list(e.msgstr_plural.values()) if e.msgid_plural else [e.msgstr]
        englishes = [m for m in (e.msgid, e.msgid_plural) if m]
        entries.append((englishes, frenches) if reader == "fr" else (frenches, englishes))
    said = {p for _, own in entries for sentence in own for p in pieces(sentence)}
    found = []
    for foreign, own in entries:
        for sentence in filter(None, foreign):
            for piece in pieces(sentence):
                if len(piece) < 3 or piece in said or any(piece in o for o in own):
                    continue
                found.append(piece)
    return tuple(dict.fromkeys(found))


def _public_pages(client, t) -> dict[str, str]:
    me = player(t, "Player A001")
    pages = {
        "event": reverse("public:event", args=[t.slug]) + "?pick=1",
        "search": reverse("public:event", args=[t.slug]) + "?q=player+a00",
        "search-none": reverse("public:event", args=[t.slug]) + "?q=zzz",
        "card": reverse("public:card", args=[t.slug, me.pk]),
        "ledger": reverse("public:ledger", args=[t.slug, me.pk]),
        "standings": reverse("public:standings", args=[t.slug]) + "?division=A",
        "index": reverse("public:index"),
        "projector": reverse("public:projector", args=[t.slug]),
    }
    out = {}
    for name, address in pages.items():
        r = client.get(address)
        assert r.status_code == 200, name
        out[name] = r.content.decode()
    return out


@pytest.mark.slow  # a walk over every public page
@pytest.mark.django_db
def test_the_public_pages_read_in_french_show_no_english_sentence_that_has_a_translation(
    client, make_tournament
) -> None:
    t = event_after(make_tournament, 3, played=2)
    rnd = Round.objects.get(tournament=t, number=3)
    # The projector between rounds shows the seating; once started, the standings.
    client.cookies["django_language"] = "fr"
    seated = _public_pages(client, t)
    rounds.start_round(rnd, by="test", now=timezone.now())
    running = _public_pages(client, t)
    found = {
        f"{state}/{name}": left
        for state, pages in (("seated", seated), ("running", running))
        for name, page in pages.items()
        if (left := _english_left(_reader_text(page)))
    }
    assert found == {}
    # The check sees English where there is some: the same pages in English are full of it.
    client.cookies["django_language"] = "en"
    english = _public_pages(client, t)
    assert {"Standings", "Running total", "Find yourself"} <= {
        piece for page in english.values() for piece in _english_left(_reader_text(page))
    }
    rnd.refresh_from_db()
    fake_results(rnd)  # and a finished round reads in French too
    client.cookies["django_language"] = "fr"
    assert all(not _english_left(_reader_text(p)) for p in _public_pages(client, t).values())


@pytest.mark.django_db
def test_the_series_page_a_proxy_caches_for_everyone_stays_english_for_a_french_phone(
    client,
) -> None:
    from tournaments.core.models.series import Series
    from tournaments.series.services import create_series

    series = create_series("Club League", points_table=Series.Table.TOTAL)
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("series_public:series", args=[series.slug]))
    assert "public" in page["Cache-Control"]
    body = page.content.decode()
    assert "0 events" in body and "tournoi" not in body


# --- the director console ------------------------------------------------------------------


def _director_pages(client, t, number: int) -> dict[str, str]:
    pages = {
        "overview": reverse("director:tournament", args=[t.slug]),
        "players": reverse("director:players", args=[t.slug]),
        "players-absent": reverse("director:players", args=[t.slug]) + "?show=absent",
        "desk": reverse("director:desk", args=[t.slug]) + "?q=player",
        "desk-none": reverse("director:desk", args=[t.slug]) + "?q=zzz",
        "desk-empty": reverse("director:desk", args=[t.slug]),
        "console": reverse("director:round", args=[t.slug, number]),
        "board": reverse("director:board", args=[t.slug, number]),
        "board-attention": reverse("director:board", args=[t.slug, number]) + "?only=attention",
        "standings": reverse("director:standings", args=[t.slug]),
    }
    out = {}
    for name, address in pages.items():
        r = client.get(address)
        assert r.status_code == 200, name
        out[name] = r.content.decode()
    return out


@pytest.mark.slow  # a walk over every console page
@pytest.mark.django_db
def test_the_director_console_read_in_french_shows_no_english_sentence_that_has_a_translation(
    director_client, make_tournament
) -> None:
    """The round console, its live board, the players' list, the check-in desk and the
    overview: what a francophone director uses most, in each state of a round."""
    client = director_client
    t = event_after(make_tournament, 3, played=2)
    rnd = Round.objects.get(tournament=t, number=3)
    client.cookies["django_language"] = "fr"
    states = {"seated": _director_pages(client, t, 3)}
    rounds.start_round(rnd, by="test", now=timezone.now())
    states["running"] = _director_pages(client, t, 3)
    finished = {
        f"{state}/{name}": left
        for state, pages in states.items()
        for name, page in pages.items()
        if (left := _english_left(_reader_text(page)))
    }
    assert finished == {}
    assert 'lang="fr"' in states["running"]["console"]
    assert "Démarrer le chrono" in states["seated"]["console"]
    assert "Temps écoulé" in states["running"]["console"]
    # The check sees English where there is some: the same pages in English are full of it.
    client.cookies["django_language"] = "en"
    english = _director_pages(client, t, 3)
    assert {"Check-in desk", "Players", "Only tables that need attention"} <= {
        piece for page in english.values() for piece in _english_left(_reader_text(page))
    }


@pytest.mark.django_db
def test_the_director_chooses_french_in_the_top_bar_and_the_choice_costs_no_query(
    director_client, make_tournament
) -> None:
    client = director_client
    t = event_after(make_tournament, 3, played=2)
    console = reverse("director:round", args=[t.slug, 3])
    page = client.get(console).content.decode()
    switch = reverse("language", args=["fr"])
    assert f'href="{switch}?next=' in page  # the same switch as the phones'
    r = client.get(switch, {"next": console})
    assert r.status_code == 302 and r["Location"] == console
    french = client.get(console)
    assert "Démarrer le chrono" in french.content.decode()
    with CaptureQueriesContext(connection) as english_q:
        client.cookies["django_language"] = "en"
        client.get(console)
    with CaptureQueriesContext(connection) as french_q:
        client.cookies["django_language"] = "fr"
        client.get(console)
    assert len(french_q) == len(english_q)


@pytest.mark.slow  # a walk over the rest of the console
@pytest.mark.django_db
def test_the_rest_of_the_console_read_in_french_shows_no_english_sentence_that_has_a_translation(
    director_client, make_tournament
) -> None:
    """The table page, seating, the final, the settings, the import, a player's edit
    page, the people and series pages and the home page: the director pages beyond the
    round console's."""
    client = director_client
    t = event_after(make_tournament, 3, played=2)
    rnd = Round.objects.get(tournament=t, number=3)
    rounds.start_round(rnd, by="test", now=timezone.now())
    pages = {
        "home": reverse("director:home"),
        "create": reverse("director:create"),
        "settings": reverse("director:settings", args=[t.slug]),
        "table": reverse("director:table", args=[t.slug, 3, 1]),
        "seating": reverse("director:seating", args=[t.slug, 3]),
        "final": reverse("director:final", args=[t.slug]),
        "import": reverse("director:import", args=[t.slug]),
        "edit": reverse("director:player_edit", args=[t.slug, player(t, "Player A001").pk]),
        # Not the activity log: its lines are stored in English (left for later).
        "people": reverse("league:people"),
        "series": reverse("league:series_list"),
    }
    client.cookies["django_language"] = "fr"
    found = {}
    for name, address in pages.items():
        r = client.get(address)
        assert r.status_code == 200, name
        if left := _english_left(_reader_text(r.content.decode())):
            found[name] = left
    assert found == {}
    client.cookies["django_language"] = "en"
    english = client.get(pages["table"]).content.decode()
    assert {"Hand log", "Tablet link", "Override the winner"} <= set(
        _english_left(_reader_text(english))
    )


@pytest.mark.django_db
def test_a_refusal_reads_in_the_language_of_whoever_asked(director_client, make_tournament):
    t = make_tournament(2)
    rounds.draw_first_round(t, by="test", seed=5)
    client = director_client
    client.cookies["django_language"] = "fr"
    page = client.post(reverse("director:final_seed", args=[t.slug])).content.decode()
    assert re.search(r"Terminez d’abord les \d+ rondes préliminaires \(0 terminées\)\.", page)
    client.cookies["django_language"] = "en"
    page = client.post(reverse("director:final_seed", args=[t.slug])).content.decode()
    assert re.search(r"Finish all \d+ preliminary rounds first \(0 finished\)\.", page)


# --- the tablet ----------------------------------------------------------------------------


def test_the_javascript_catalogue_is_served_per_language_in_its_address(client) -> None:
    french = client.get(reverse("javascript_catalog", args=["fr"]))
    assert french.status_code == 200 and "javascript" in french["Content-Type"]
    body = french.content.decode()
    assert "Renonce \\u00e0 la donne %(n)s" in body or "Renonce à la donne %(n)s" in body
    english = client.get(reverse("javascript_catalog", args=["en"])).content.decode()
    assert "Renonce" not in english and "interpolate" in english
    assert client.get(reverse("javascript_catalog", args=["de"])).status_code == 404


def test_the_tablets_script_builds_no_sentence_by_concatenation() -> None:
    """Each sentence is one gettext() msgid with named placeholders: no English words in a
    template literal or a string glued with +, outside the catalogue's calls."""
    offenders = []
    for path in sorted((ROOT / "static" / "tablet").glob("*.js")):
        code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", path.read_text(), flags=re.S)
        for literal in re.findall(r"`([^`]*)`", code):
            words = re.sub(r"\$\{[^}]*\}", " ", literal)
            words = re.sub(r"\S*-\S*", " ", words)  # class names (tb-hand tb-hand-…)
            if re.search(r"[A-Za-z]{3,} [A-Za-z]{2,}", words):
                offenders.append((path.name, literal))
        for text in re.findall(r'"([^"\n]*)"\s*\+|\+\s*"([^"\n]*)"', code):
            if re.search(r"[A-Za-z]{3,} [A-Za-z]{2,}", "".join(text)):
                offenders.append((path.name, text))
    assert offenders == []


@pytest.mark.django_db
def test_the_table_chooses_the_tablets_language_and_the_other_team_reads_once_in_its_own(
    make_tournament,
) -> None:
    from django.test import Client

    from tests.test_tablet import link

    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=11)
    rounds.start_round(rnd, by="test")
    tablet = Client()
    assert tablet.get(f"/t/{link(t, 1).token}/").status_code == 302
    screen = reverse("tablet:table")
    # The scorekeeper chooses French with the switch under Display: a cookie on the tablet.
    r = tablet.get(reverse("language", args=["fr"]), {"next": screen})
    assert r.status_code == 302 and r["Location"] == screen
    page = tablet.get(screen).content.decode()
    assert '<html lang="fr">' in page and "Enregistrer la donne" in page
    assert f'src="{reverse("javascript_catalog", args=["fr"])}"' in page
    # The other team reads the confirmation screen in English, once.
    once = tablet.get(screen, {"lang": "en"}).content.decode()
    assert '<html lang="en">' in once and "Save hand" in once
    assert f'src="{reverse("javascript_catalog", args=["en"])}"' in once
    assert "Back to the table&#x27;s language" in once or "Back to the table's language" in once
    # The table's choice is unchanged: the next load is French again.
    assert "Enregistrer la donne" in tablet.get(screen).content.decode()


def test_the_tablets_undo_dialog_does_not_offer_two_buttons_that_both_say_annuler(
    make_tournament,
) -> None:
    """Walked at the hall in French: "Annuler la donne 1?" offered "Annuler la donne" and
    "Annuler" side by side, the second one keeping the hand. Its dismiss button says
    something else than the undo."""
    import polib
    from django.test import Client

    from tests.test_tablet import link

    t = make_tournament(2)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=11), by="test")
    tablet = Client()
    tablet.cookies["django_language"] = "fr"
    tablet.get(f"/t/{link(t, 1).token}/")
    page = tablet.get(reverse("tablet:table")).content.decode()
    dismiss = re.search(r'id="tb-dialog-cancel">([^<]*)<', page)
    assert dismiss is not None
    undo = polib.pofile(str(JS_PO)).find("Undo hand")
    assert undo is not None and undo.msgstr.startswith("Annuler")
    assert not dismiss.group(1).startswith("Annuler")


@pytest.mark.django_db
def test_the_sign_in_page_offers_francais_before_anyone_signs_in(client) -> None:
    """Walked at the hall: the laptop's first screen, the sign-in, read in English with no
    way to choose French until signed in."""
    page = client.get("/accounts/login/?next=/director/").content.decode()
    assert 'href="/lang/fr/?next=/accounts/login/%3Fnext%3D/director/"' in page
    r = client.get("/lang/fr/", {"next": "/accounts/login/?next=/director/"})
    assert r.status_code == 302 and r["Location"] == "/accounts/login/?next=/director/"
    assert "Connexion de la direction" in client.get(r["Location"]).content.decode()


@pytest.mark.django_db
def test_the_directors_choice_follows_the_account_to_another_browser(
    director_client, director, make_tournament
) -> None:
    from django.test import Client

    from tournaments.core.models.staff import AccountLanguage

    t = make_tournament(2)
    console = reverse("director:tournament", args=[t.slug])
    director_client.get(reverse("language", args=["fr"]), {"next": console})
    assert AccountLanguage.objects.get(user=director).language == "fr"
    # Another laptop: signing in brings the account's French back.
    laptop = Client()
    r = laptop.post(
        reverse("login"),
        {"username": "director", "password": "a-long-director-password", "next": console},
    )
    assert r.status_code == 302 and r.cookies["django_language"].value == "fr"
    assert '<html lang="fr">' in laptop.get(console).content.decode()
    # A phone's choice belongs to the phone: no account, nothing stored.
    phone = Client()
    phone.get(reverse("language", args=["en"]), {"next": "/"})
    assert AccountLanguage.objects.count() == 1


# --- CSV files (headers where a person reads them) -----------------------------


@pytest.mark.django_db
def test_csv_downloads_have_headers_in_the_readers_language(director_client, make_tournament):
    t = make_tournament(2)
    rounds.draw_first_round(t, by="test", seed=11)
    seating = reverse("director:seating_csv", args=[t.slug, 1])
    standings = reverse("director:standings_csv", args=[t.slug, "A"])

    def first_line(address: str) -> str:
        return director_client.get(address).content.decode().splitlines()[0]

    assert first_line(seating) == "name,division,table,seat,partner,opponents"
    assert first_line(standings).startswith("rank,player,round 1,round 2,")
    assert ",bonuses,awards and penalties,total,wins,margin," in first_line(standings)
    director_client.cookies["django_language"] = "fr"
    assert first_line(seating) == "nom,division,table,place,partenaire,adversaires"
    assert first_line(standings).startswith("rang,joueur,ronde 1,ronde 2,")
    assert ",bonis,primes et pénalités,total,victoires,écart," in first_line(standings)


@pytest.mark.django_db
def test_the_import_formats_take_their_header_in_either_language(make_tournament) -> None:
    from tournaments.core.services.players import import_players

    t = make_tournament(1)
    for n, header in enumerate(("name,division", "nom,division", "Nom,Division")):
        report = import_players(t, f"{header}\nNew {n},A\n", by="test")
        assert report.ok and [r.name for r in report.rows] == [f"New {n}"]
    invited = services.invite(t, "nom\nInvited Ida\n", by="test")
    assert [name for name, _token in invited.invited] == ["Invited Ida"]


@pytest.mark.parametrize(("a", "b"), [(0, 0), (2, 1), (4, 6), (5, 4)])
def test_why_round_one_cannot_be_drawn_reads_in_french_and_as_the_rules_say_in_english(
    a: int, b: int
) -> None:
    from tournaments.core.reads.console import shortfall_text
    from tournaments.domain.seating import shortfall

    assert shortfall_text(a, b) == shortfall(a, b)  # the rules' own sentence, in English
    with translation.override("fr"):
        french = shortfall_text(a, b)
    assert french is not None and french.startswith("Impossible de placer")
    assert _english_left(french) == []


def test_counts_that_seat_exactly_have_no_shortfall_in_either_language() -> None:
    from tournaments.core.reads.console import shortfall_text

    with translation.override("fr"):
        assert shortfall_text(4, 4) is None


# --- refusals ----------------------------------------------------------------------------

GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "pgettext", "pgettext_lazy"}
# Refusals no person reads, each with why:
# - BadRequest: ours answers a body no client of ours sends (errors.BadRequest); Django's
#   (views/sheets.py) is answered by the 400 page, which never shows the message.
UNREAD_CLASSES = {"BadRequest"}
# - the tablet's JSON bodies (core/forms_tablet.py, and the call for the director's in
#   devices/forms.py) check a shape our tablet never sends (forms_tablet's docstring), so
#   their words are for whoever wrote the client.
UNREAD_FILES = {"tournaments/core/forms_tablet.py", "tournaments/devices/forms.py"}
# - InvalidResults' first argument is where in the file (``rounds[2].tables[1].seats``): a
#   path into the JSON, the same in every language; its second, the problem, is read.
LOCATOR_FIRST = {"InvalidResults"}


def _refusal_classes(trees: list[ast.Module]) -> set[str]:
    """ServiceError and every class deriving from it, found in the source, and Django's
    ValidationError."""
    found = {"ServiceError"}
    while True:
        more = {
            node.name
            for tree in trees
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            and any(getattr(b, "id", getattr(b, "attr", None)) in found for b in node.bases)
        }
        if more <= found:
            return found | {"ValidationError"}
        found |= more


def _untranslated(node: ast.AST) -> bool:
    """A message built from English words not passed through gettext."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(re.search(r"[A-Za-z]", node.value))
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        # Any literal glued on, even ".": a sentence built by concatenation.
        parts = (node.left, node.right)
        return any(isinstance(p, (ast.Constant, ast.JoinedStr)) or _untranslated(p) for p in parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _untranslated(node.left)  # "... %(n)s" % {...} without _() around it
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and _untranslated(node.func.value)
    return False


def untranslated_refusals(source: str, where: str, classes: set[str]) -> list[str]:
    offences = []
    raises = sorted(
        (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Raise)), key=lambda n: n.lineno
    )
    for node in raises:
        if not isinstance(node.exc, ast.Call):
            continue
        call = node.exc
        name = getattr(call.func, "id", getattr(call.func, "attr", None))
        if name not in classes or name in UNREAD_CLASSES:
            continue
        args = call.args[1:] if name in LOCATOR_FIRST else call.args
        messages = [*args, *(k.value for k in call.keywords if k.arg in ("message", "problem"))]
        offences += [
            f"{where}:{node.lineno}: {ast.unparse(m)[:80]}" for m in messages if _untranslated(m)
        ]
    return offences


def test_every_refusal_a_person_reads_is_a_translated_message() -> None:
    """A service's or a form's refusal is a gettext message with named placeholders: no
    English literal, f-string, concatenation or %-format of an untranslated sentence."""
    sources = {path: path.read_text() for path in sorted((ROOT / "tournaments").rglob("*.py"))}
    classes = _refusal_classes([ast.parse(s) for s in sources.values()])
    assert {"Conflict", "NotFound", "Throttled", "InvalidResults"} <= classes
    offences = [
        offence
        for path, source in sources.items()
        if path.relative_to(ROOT).as_posix() not in UNREAD_FILES
        for offence in untranslated_refusals(source, str(path.relative_to(ROOT)), classes)
    ]
    assert offences == []


def test_the_refusal_scan_finds_each_way_of_building_an_english_message() -> None:
    probe = """
def f(name, n):
    raise ServiceError("Registration is closed.")
    raise Conflict(f"{name} has already applied.")
    raise ServiceError(problem[0].upper() + problem[1:] + ".")
    raise NotFound("No player %(n)s." % {"n": n})
    raise forms.ValidationError("Pick {}.".format(n), code="invalid")
    raise InvalidResults("rounds[0]", f"player {n} is not in players")
    raise ServiceError(_("Registration is closed."))
    raise Conflict(_("%(name)s has already applied.") % {"name": name})
    raise ServiceError(refusal)
    raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
    raise InvalidResults("rounds[0]", _("four different players must sit at a table"))
    raise BadRequest("The body must be JSON.")
"""
    classes = {"ServiceError", "Conflict", "NotFound", "InvalidResults", "ValidationError"}
    found = untranslated_refusals(probe, "probe", classes | {"BadRequest"})
    assert [line.split(":")[1] for line in found] == ["3", "4", "5", "6", "7", "8"]


# --- the players' registration and the club's join page ------------------------------------


@pytest.fixture
def open_event(db):
    t = create_tournament("Tournoi du printemps", by="test", lot_seed=3)
    services.save_settings(t, open=True, cap_total=4, cap_a=None, cap_b=None, by="test")
    return t


def _apply_form(client, t, name: str) -> str:
    data = {"name": name, "division": "", "contact": "", "consent": "on", "client_key": name}
    r = client.post(reverse("public:register", args=[t.slug]), data)
    return r.content.decode() if r.status_code != 302 else r["Location"]


@pytest.mark.django_db
def test_the_registration_form_and_its_refusals_read_in_french(client, open_event) -> None:
    client.cookies["django_language"] = "fr"
    form = client.get(reverse("public:register", args=[open_event.slug])).content.decode()
    assert _english_left(_reader_text(form)) == []
    mine = _apply_form(client, open_event, "Ann Smith")
    assert mine.startswith("/")
    again = _apply_form(client, open_event, "ann smith")
    assert "ann smith a déjà fait une demande d’inscription." in html.unescape(again)
    assert _english_left(_reader_text(again)) == []
    page = client.get(mine).content.decode()
    assert _english_left(_reader_text(page)) == []
    services.save_settings(open_event, open=False, cap_total=None, cap_a=None, cap_b=None, by="d")
    closed = html.unescape(_apply_form(client, open_event, "Late Larry"))
    assert "Les inscriptions à ce tournoi sont fermées." in closed
    assert _english_left(_reader_text(closed)) == []


@pytest.mark.django_db
def test_a_revoked_private_link_is_refused_in_french(client, open_event) -> None:
    client.cookies["django_language"] = "fr"
    mine = _apply_form(client, open_event, "Ann Smith")
    reg = Registration.objects.get(tournament=open_event)
    services.revoke(open_event, reg.pk, by="d")
    refused = html.unescape(client.get(mine).content.decode())
    assert "La direction a révoqué ce lien; demandez-lui le nouveau." in refused
    unknown = client.get(reverse("public:registration", args=[open_event.slug, "x" * 20]))
    assert "Ce lien d’inscription n’existe pas." in html.unescape(unknown.content.decode())


@pytest.mark.django_db
def test_the_join_page_and_its_refusals_read_in_french(client, django_user_model) -> None:
    club = create_club("Alpha club", "alpha")
    invitation = invite(club, DESK, by="olga")
    client.cookies["django_language"] = "fr"
    link = reverse("join", args=[invitation.token])
    page = client.get(link).content.decode()
    assert _english_left(_reader_text(page)) == []
    revoke_invitation(club, invitation.pk)
    revoked = html.unescape(client.get(link).content.decode())
    assert "Cette invitation a été révoquée; demandez-en une nouvelle au propriétaire" in revoked
    # Taken by another between the page and the click: the service's own refusal.
    used = invite(club, DESK, by="olga")
    with pytest.raises(ServiceError) as refused, translation.override("fr"):
        Invitation.objects.filter(pk=used.pk).update(used_at=timezone.now())
        accept_invitation(used.token, django_user_model.objects.create_user("d"))
    assert (
        refused.value.message
        == "Cette invitation a déjà servi; chaque lien n’est valable qu’une fois."
    )
