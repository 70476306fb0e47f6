"""The printed sheets in French, in English and in both: each sheet read back
with pypdf; the event's own language for the pages nobody chose one on."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.test_french import _english_left
from tests.test_public_phones import event_after, player
from tests.test_sheets import pages, url
from tournaments.core.forms import TournamentForm
from tournaments.core.models.event import Tournament
from tournaments.core.models.rounds import Round
from tournaments.core.simulate import simulate


@pytest.fixture
def event(db) -> Tournament:
    """A whole simulated two-table event: five rounds and the final."""
    return simulate(2, seed=11, name="Simulated Snowman")


def sheets_of(t: Tournament) -> dict[str, str]:
    final = Round.objects.get(tournament=t, kind=Round.Kind.FINAL).number
    return {
        "standings": url("standings", t.slug, "A"),
        "seating": url("seating", t.slug, 2),
        "table cards": url("table_cards", t.slug),
        "scoresheets": url("scoresheets", t.slug, 2),
        "final scoresheets": url("scoresheets", t.slug, final),
        "final results": url("final", t.slug),
        "prizes": url("prizes", t.slug),
    }


def read(client, address: str, **query: str) -> list[str]:
    glue = "&" if "?" in address else "?"
    extra = "&".join(f"{k}={v}" for k, v in query.items())
    return pages(client.get(address + (glue + extra if extra else "")))


def names_out(text: str, t: Tournament) -> str:
    """The players' names are names, not words ("Player", "Mark")."""
    for name in t.players.values_list("name", flat=True):
        text = text.replace(name, " ")
    return text.replace(t.name, " ")


@pytest.mark.slow  # a walk over every sheet, each a PDF
def test_every_sheet_printed_for_a_french_reader_shows_no_english_sentence_that_has_a_translation(
    director_client, event
):
    director_client.cookies["django_language"] = "fr"
    for sheet, address in sheets_of(event).items():
        text = names_out("\n".join(read(director_client, address)), event)
        assert _english_left(text) == [], sheet
    standings = "\n".join(read(director_client, url("standings", event.slug, "A")))
    # Times the Canadian way, the seat letters and the words of the glossary.
    assert re.search(r"imprimé le \d{4}-\d\d-\d\d \d{1,2} h \d\d", standings), standings
    assert "Victoires" in standings and "Écart" in standings
    seating = "\n".join(read(director_client, url("seating", event.slug, 2)))
    assert "Placement par table · Ronde 2" in seating and "Équipe EO" in seating
    assert re.search(r"\bO +\S", seating)  # West is Ouest


def test_the_seating_sheets_sit_out_line_puts_its_colon_the_french_way(
    director_client, make_tournament
):
    """Printed at the hall in French: "Au repos, Ronde 1 (1): …", the colon glued on in
    the code, English style."""
    from tournaments.core.services import rounds
    from tournaments.core.services.players import register_player

    t = make_tournament(2)
    register_player(t, "Odile Ouellet", "A", by="desk", checked_in=True)
    rounds.draw_first_round(t, by="test", seed=2, remedy="sit-out")
    director_client.cookies["django_language"] = "fr"
    text = "\n".join(read(director_client, url("seating", t.slug, 1)))
    assert re.search(r"Au repos, Ronde 1 \(1\)[\xa0 ]:", text), text
    assert "(1):" not in text


def test_a_sheet_printed_bilingual_holds_both_languages_the_events_first(director_client, event):
    Tournament.objects.filter(pk=event.pk).update(language="fr")
    cards = "\n".join(read(director_client, url("table_cards", event.slug), lang="both"))
    assert "Ronde 5 / Round 5" in cards or "Finale / Final" in cards
    assert "Balayez pour tenir le pointage sur la tablette" in cards
    assert "Scan to keep score on the tablet" in cards
    sheet = "\n".join(read(director_client, url("scoresheets", event.slug, 2), lang="both"))
    assert "Feuille de pointage de secours · Ronde 2 / Backup scoresheet · Round 2" in sheet
    for french, english in (("Équipe NS", "Team NS"), ("Donneur", "Dealer"), ("Levées", "Tricks")):
        assert french in sheet and english in sheet
    assert sheet.index("Équipe NS") < sheet.index("Team NS")  # the event's language leads
    # One language when the director picks one, whatever the reader's.
    english = "\n".join(read(director_client, url("scoresheets", event.slug, 2), lang="en"))
    assert "Round 2" in english and "Ronde" not in english


def test_an_event_that_prints_bilingual_sheets_prints_both_unless_the_director_picks_one(
    director_client, event
):
    address = url("standings", event.slug, "A")
    assert "Classement" not in "\n".join(read(director_client, address))
    Tournament.objects.filter(pk=event.pk).update(bilingual_sheets=True)
    both = "\n".join(read(director_client, address))
    assert "Standings, division A" in both and "Classement, division A" in both
    french = "\n".join(read(director_client, address, lang="fr"))
    assert "Classement, division A" in french and "Standings" not in french
    r = director_client.get(address + "?lang=de")
    assert r.status_code == 400


def test_each_sheet_keeps_its_page_count_in_french_and_bilingual(director_client, event):
    for sheet, address in sheets_of(event).items():
        texts = {lang: read(director_client, address, lang=lang) for lang in ("en", "fr", "both")}
        # The bilingual sheet is longer than either, and still on as many pages.
        assert len("".join(texts["both"])) > len("".join(texts["fr"])), sheet
        counts = {lang: len(text) for lang, text in texts.items()}
        assert counts["fr"] == counts["en"] == counts["both"], (sheet, counts)


def test_a_scoresheet_with_hands_recorded_stays_on_one_page_in_both_languages(
    director_client, event
):
    # Round 2's table 1 has its whole match printed in the grid, notes included.
    text = read(director_client, url("scoresheets", event.slug, 2, table="1"), lang="both")
    assert len(text) == 1
    assert "Premier donneur" in text[0] and "First dealer" in text[0]


# --- the event's language -------------------------------------------------------------


def test_the_director_sets_the_events_language_and_bilingual_sheets_on_its_form(
    director_client, make_tournament
):
    form = {k: v for k, v in TournamentForm.initial_for(None).items() if v not in (False, None)}
    r = director_client.post(
        reverse("director:create"),
        {**form, "name": "Omnium de Québec", "language": "fr", "bilingual_sheets": "on"},
    )
    assert r.status_code == 302
    t = Tournament.objects.get(name="Omnium de Québec")
    assert (t.language, t.bilingual_sheets) == ("fr", True)
    page = director_client.get(reverse("director:settings", args=[t.slug])).content.decode()
    assert re.search(r'<option value="fr" selected>Français</option>', page)
    # Saved back unticked; an old form without the fields keeps both.
    edit = {k: v for k, v in TournamentForm.initial_for(t).items() if v not in (False, None)}
    edit.pop("bilingual_sheets")
    director_client.post(reverse("director:settings", args=[t.slug]), edit)
    t.refresh_from_db()
    assert (t.language, t.bilingual_sheets) == ("fr", False)
    edit.pop("language")
    director_client.post(reverse("director:settings", args=[t.slug]), edit)
    t.refresh_from_db()
    assert t.language == "fr"


def test_the_print_links_of_a_bilingual_event_offer_english_francais_and_bilingual(
    director_client, make_tournament
):
    t = event_after(make_tournament, 2, played=0)
    console = reverse("director:round", args=[t.slug, 1])
    assert "print-languages" not in director_client.get(console).content.decode()
    Tournament.objects.filter(pk=t.pk).update(bilingual_sheets=True)
    body = director_client.get(console).content.decode()
    scoresheets = url("scoresheets", t.slug, 1, paper="letter")
    for lang in ("en", "fr", "both"):
        assert f'href="{scoresheets}&amp;lang={lang}"' in body, lang
    assert ">Français</a>" in body and ">Bilingual</a>" in body


def test_a_phone_that_chose_no_language_reads_the_event_in_the_events_language(
    client, make_tournament
):
    t = event_after(make_tournament, 2, played=1)
    Tournament.objects.filter(pk=t.pk).update(language="fr")
    event = reverse("public:event", args=[t.slug])
    page = client.get(event)
    assert '<html lang="fr">' in page.content.decode() and page["Content-Language"] == "fr"
    # The active offer is there, and the reader's choice comes first.
    client.cookies["django_language"] = "en"
    assert "Find yourself" in client.get(event).content.decode()
    del client.cookies["django_language"]
    card = reverse("public:card", args=[t.slug, player(t, "Player A001").pk])
    assert "Ronde 2" in client.get(card).content.decode()
    # The projector too, unless the director asks for another in its address.
    projector = reverse("public:projector", args=[t.slug])
    assert "Ronde 2" in client.get(projector).content.decode()
    assert "Round 2" in client.get(projector, {"lang": "en"}).content.decode()
    clock = client.get(reverse("public:clock", args=[t.slug])).json()
    assert clock["round"] == "Ronde 2"


def test_the_events_language_costs_no_query(client, make_tournament) -> None:
    t = event_after(make_tournament, 2, played=1)
    pages_ = {
        "event": reverse("public:event", args=[t.slug]),
        "card": reverse("public:card", args=[t.slug, player(t, "Player A001").pk]),
        "standings": reverse("public:standings", args=[t.slug]),
        "projector part": reverse("public:projector_standings", args=[t.slug]),
    }
    for address in pages_.values():  # a first read fills what a process caches once
        client.get(address)
    counts: dict[str, dict[str, int]] = {}
    for lang in ("en", "fr"):
        Tournament.objects.filter(pk=t.pk).update(language=lang)
        for name, address in pages_.items():
            with CaptureQueriesContext(connection) as q:
                r = client.get(address)
            assert r.status_code == 200 and r["Content-Language"] == lang, name
            counts.setdefault(name, {})[lang] = len(q)
            # A phone holding the page gets its 304 after the one version query.
            with CaptureQueriesContext(connection) as q:
                again = client.get(address, HTTP_IF_NONE_MATCH=r["ETag"])
            assert again.status_code == 304 and len(q) == 1, name
    assert all(c["fr"] == c["en"] for c in counts.values()), counts


def test_the_club_page_offers_english_and_francais_and_reads_in_the_one_in_its_address(
    client, make_tournament
):
    t = make_tournament(1)
    page = reverse("club_public:club", args=[t.club.slug])
    english = client.get(page).content.decode()
    assert '<a href="?lang=fr" lang="fr" hreflang="fr">Français</a>' in english
    assert "Upcoming and running events" in english
    french = client.get(page, {"lang": "fr"}).content.decode()
    assert '<html lang="fr">' in french and "Tournois à venir et en cours" in french


def test_the_final_results_and_the_console_say_in_french_why_a_leader_is_not_in_the_final(
    director_client, make_tournament
):
    from tests.test_public_phones import fake_results
    from tournaments.core.reads.standings import standings
    from tournaments.core.services.players import set_withdrawn
    from tournaments.core.services.standings import seed_final

    t = event_after(make_tournament, 2, 0, preliminary_rounds=1)
    fake_results(t.rounds.get(number=1))
    leader = standings(t)["A"][0].player
    set_withdrawn(leader, True, by="director")
    seed_final(t, by="director")
    director_client.cookies["django_language"] = "fr"
    sheet = "\n".join(read(director_client, url("final", t.slug)))
    assert f"Passé pour la finale : {leader.name} (division A) : retrait après la ronde 1" in sheet
    # The top of division A marks her, the mark wrapped under the name.
    assert f"1 {leader.name} (retrait" in sheet and "\naprès la ronde 1)" in sheet
    assert _english_left(names_out(sheet, t)) == []
    console = director_client.get(reverse("director:final", args=[t.slug])).content.decode()
    reason = f"({leader.name}, retrait après la ronde 1\xa0: ne peut pas entrer en finale)"
    assert reason in console
    assert "withdrawn" not in console


@pytest.mark.parametrize(
    "how",
    [{"cookie": "fr"}, {"accept": "fr-CA,fr;q=0.9,en;q=0.5"}, {"cookie": "fr", "accept": "fr"}],
    ids=["cookie", "accept-language", "both"],
)
def test_the_club_page_follows_the_readers_french_and_stays_cacheable_per_reader(
    client, make_tournament, how
):
    """The club page read English to a reader whose cookie and browser said French; only
    ``?lang=fr`` worked, and the French console links it without."""
    t = make_tournament(1)
    page = reverse("club_public:club", args=[t.club.slug])
    if "cookie" in how:
        client.cookies["django_language"] = how["cookie"]
    headers = {"HTTP_ACCEPT_LANGUAGE": how["accept"]} if "accept" in how else {}
    r = client.get(page, **headers)
    body = r.content.decode()
    assert '<html lang="fr">' in body and "Tournois à venir et en cours" in body
    assert r["Content-Language"] == "fr"
    vary = {v.strip().lower() for v in r["Vary"].split(",")}
    assert {"cookie", "accept-language"} <= vary
    assert "public" in r["Cache-Control"] and "max-age=60" in r["Cache-Control"]
    # The address's own choice still comes first: the "English" link reads English.
    english = client.get(page, {"lang": "en"}, **headers).content.decode()
    assert '<html lang="en">' in english and "Upcoming and running events" in english


def test_the_club_page_reads_english_to_a_reader_who_chose_nothing_else(client, make_tournament):
    t = make_tournament(1)
    page = reverse("club_public:club", args=[t.club.slug])
    r = client.get(page, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert r["Content-Language"] == "en" and "Upcoming and running events" in r.content.decode()
