"""The activity log's lines are a key and its arguments, read in the reader's language:
a line written from an English console reads in French, an old row keeps its
stored English, a sentence mended later reads mended in the rows already written, and no
service logs a sentence it formatted itself."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tournaments.core import loglines
from tournaments.core.logtext import Joined, render, said
from tournaments.core.models.log import Activity
from tournaments.core.services import log, players, rounds

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "tournaments").rglob("*.py"))
# Calls that give text in the writer's language, never a line for the log (a helper that
# returns ``said(...)`` is fine: mypy and log() itself refuse anything else).
TRANSLATING = {"_", "gettext", "ngettext", "pgettext", "str", "format_html"}


def _is_key(node: ast.AST, names: dict[str, list[ast.AST]]) -> bool:
    """A literal key of ``loglines.LINES``, a choice between such, or a name only ever
    given one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in loglines.LINES
    if isinstance(node, ast.IfExp):
        return _is_key(node.body, names) and _is_key(node.orelse, names)
    if isinstance(node, ast.Name):
        given = names.get(node.id, [])
        return bool(given) and all(_is_key(value, {}) for value in given)
    return False


def _assignments(function: ast.AST) -> dict[str, list[ast.AST]]:
    names: dict[str, list[ast.AST]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names.setdefault(target.id, []).append(node.value)
    return names


def _calls(name: str) -> list[tuple[str, ast.Call, dict[str, list[ast.AST]]]]:
    return _calls_by_name().get(name, [])


@functools.cache
def _calls_by_name() -> dict[str, list[tuple[str, ast.Call, dict[str, list[ast.AST]]]]]:
    """Every call of a plain name in the source, with the names its function assigns:
    the source read and walked once for every check that asks."""
    found: dict[str, list[tuple[str, ast.Call, dict[str, list[ast.AST]]]]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            names = _assignments(function)
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.setdefault(node.func.id, []).append((where, node, names))
    return found


@pytest.mark.db_independent  # reads the source, no database
def test_every_log_call_passes_a_msgid_and_arguments_never_a_formatted_sentence() -> None:
    formatted = (ast.JoinedStr, ast.BinOp, ast.Constant)
    logs = _calls("log")
    assert len(logs) > 50  # every service's log(...) is looked at
    offenders = []
    for where, call, _names in logs:
        line = call.args[3] if len(call.args) > 3 else None
        if line is None or isinstance(line, formatted):
            offenders.append(where)
        elif isinstance(line, ast.Call) and (
            isinstance(line.func, ast.Attribute)  # "…".format(), ", ".join()
            or ast.unparse(line.func) in TRANSLATING
        ):
            offenders.append(where)  # a sentence made in the writer's language
    assert offenders == []
    # Each said(...) names its line's key literally (nothing formatted, nothing computed).
    bad = [where for where, call, names in _calls("said") if not _is_key(call.args[0], names)]
    assert bad == []


@pytest.mark.db_independent  # reads the source, no database
def test_every_line_in_the_catalogue_is_written_somewhere_and_no_key_is_unknown() -> None:
    written = {
        node.value
        for path in SOURCES
        if path.name != "loglines.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert set(loglines.LINES) - written == set()  # a line no code writes any more
    with pytest.raises(KeyError):
        said("rounds.no_such_line")


def test_a_line_mended_later_reads_mended_in_the_rows_already_written(
    make_tournament, monkeypatch
) -> None:
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="director")
    rounds.start_round(rnd, by="director")
    started = Activity.objects.get(tournament=t, action="start")
    assert started.message == "rounds.started"
    monkeypatch.setitem(loglines.LINES, "rounds.started", "%(round)s under way.")
    with translation.override("en"):
        assert Activity.objects.get(pk=started.pk).text == "Round 1 under way."


def test_log_refuses_a_sentence_already_formatted(make_tournament) -> None:
    t = make_tournament(1)
    with pytest.raises(TypeError):
        log(t, "director", "note", "Checked in Ann.")  # type: ignore[arg-type]
    assert not Activity.objects.filter(action="note").exists()


def test_a_line_written_from_an_english_console_reads_in_french(make_tournament) -> None:
    t = make_tournament(2)
    with translation.override("en"):
        rnd = rounds.draw_first_round(t, by="director")
        rounds.start_round(rnd, by="director")
        players.add_house_player(t, "Hal House", "A", by="director")
    started = Activity.objects.get(tournament=t, action="start")
    drew = Activity.objects.get(tournament=t, action="draw")
    house = Activity.objects.get(tournament=t, action="house")
    assert started.summary == "" and started.message == "rounds.started"
    with translation.override("en"):
        assert started.text == "Round 1 started."
        assert house.text == "Added house player Hal House (A)."
    with translation.override("fr"):
        assert started.text == "Ronde 1\u00a0: départ donné."
        assert house.text == "Réserviste Hal House ajouté (A)."
        assert drew.text.startswith("Tirage de la ronde 1\u00a0: 2 tables, germe ")


def test_the_activity_page_reads_each_line_and_action_in_the_directors_language(
    director_client, make_tournament
) -> None:
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="director")
    rounds.call_time(rounds.start_round(rnd, by="director"), by="director")
    page = reverse("director:activity", args=[t.slug])
    english = director_client.get(page).content.decode()
    assert "Time called in Round 1." in english and ">call time<" in english
    director_client.cookies["django_language"] = "fr"
    french = director_client.get(page).content.decode()
    assert "Ronde 1\u00a0: temps écoulé." in french
    assert "Round 1" not in french and ">temps écoulé<" in french
    assert 'value="call time"' in french  # the filter still names the stored key


def test_a_tablets_who_reads_in_the_directors_language_and_an_account_as_it_is(
    director_client, make_tournament
) -> None:
    t = make_tournament(1)
    at = timezone.now()
    line = said("table_codes.table_new_device_took", table=3)
    for actor in ("Table 3 tablet", "Table 3 device 2", "online", "dora"):
        log(t, actor, "takeover", line, at=at)
    director_client.cookies["django_language"] = "fr"
    page = director_client.get(reverse("director:activity", args=[t.slug])).content.decode()
    assert "Tablette de la table 3" in page and "Table 3, appareil 2" in page
    assert ">en ligne<" in page and ">dora<" in page
    assert "Table 3 tablet" not in page and "Table 3 device 2" not in page
    with translation.override("fr"):
        assert Activity.objects.get(actor="Table 3 tablet").who == "Tablette de la table 3"


def test_a_seat_in_a_line_reads_with_the_readers_letter() -> None:
    """Walked at the hall in French: "Ronde 1, table 3, place W : …" (West is O)."""
    line = said(
        "substitutions.seat_from_hand",
        match=said("words.table", round=said("words.round", n=1), table=3),
        position="W",
        what="x",
        hand=4,
    )
    with translation.override("fr"):
        assert render(line.key, line.stored()).startswith("Ronde 1, table 3, place O\xa0:")
        dealers = {"match": "m", "seat": "W", "was": "W", "n": 2}
        assert "fixé à O (auparavant O)" in render("play.first_dealer_set_dealers", dealers)
    assert render(line.key, line.stored()).startswith("Round 1 table 3 seat W:")


def test_a_hands_worth_and_the_finals_seats_read_with_the_readers_letters() -> None:
    """Walked at the hall in French: "donne 3 corrigée (NS +2, E -2)" kept the English
    letters of a score ("EW", "W") and "Finale placée : … W Francine Bergeron"."""
    from tournaments.core.logtext import of_score, of_seats
    from tournaments.domain.hands import HandScore, Seat, Team

    score = HandScore(points={Team.NS: 0, Team.EW: 2}, individual={Seat.W: -2})
    line = said("play.hand_corrected", match="m", n=3, score=of_score(score))
    seated = said("standings.final_seeded", seats=of_seats({"N": "Ann", "W": "Wes"}))
    with translation.override("fr"):
        assert "(EO +2, O −2)" in render(line.key, line.stored())
        assert render(seated.key, seated.stored()).endswith("N Ann, O Wes.")
    assert "(EW +2, W −2)" in render(line.key, line.stored())


@pytest.mark.django_db
def test_a_row_written_before_the_messages_shows_its_stored_text(make_tournament) -> None:
    t = make_tournament(1)
    old = Activity.objects.create(
        tournament=t, at=timezone.now(), actor="director", action="draw", summary="Drew round 1."
    )
    with translation.override("fr"):
        assert old.text == "Drew round 1."


def test_words_inside_the_arguments_are_read_in_the_same_language() -> None:
    line = said(
        "rounds.reopened_seating_discarded",
        round=said("words.round", n=3),
        dropped=Joined([said("words.round", n=4), said("words.final")]),
    )
    stored = line.stored()
    assert stored["round"] == {"m": "words.round", "a": {"n": 3}}
    with translation.override("fr"):
        assert render(line.key, stored) == (
            "Ronde 3 rouverte; le placement de Ronde 4, Finale a été annulé."
        )
    # A translation that does not fit its arguments falls back to the English.
    assert render("%(missing)s x", {}) == "%(missing)s x"
