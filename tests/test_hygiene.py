"""Input and output hygiene: CSV cells that cannot run as formulas, one rule for a
player's name in the forms and the import, clear 4xx answers instead of 500s, links only
for tables that exist, tokens kept out of logs, no-store on what shows a token, and
every module and function imported under its own name."""

from __future__ import annotations

import ast
import csv
import io
import logging
from pathlib import Path

import pytest
from django.urls import reverse

from snowman.middleware import RedactTokens
from tournaments.common.csvcells import safe_cell
from tournaments.core.models.event import Player
from tournaments.core.models.play import TableLink
from tournaments.core.services import rounds
from tournaments.core.services.players import import_players

FORMULAS = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


def rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_a_formula_leading_cell_is_written_as_text():
    assert [safe_cell(v) for v in FORMULAS] == ["'" + v for v in FORMULAS]
    # Numbers stay numbers (a negative margin is not a formula), plain text stays as is.
    assert [safe_cell(v) for v in (-3, 0, 2.5, "Ann Lee", "", None)] == [
        -3,
        0,
        2.5,
        "Ann Lee",
        "",
        None,
    ]


@pytest.fixture
def formula_event(make_tournament):
    t = make_tournament(2)
    # Registered by someone at the desk: names the import and the forms accept.
    for i, name in enumerate(("=cmd|' /C calc'!A0", "@SUM(1+1)", "+Ann", "-Bob")):
        player = Player.objects.filter(tournament=t, division="AB"[i % 2]).order_by("pk")[i]
        Player.objects.filter(pk=player.pk).update(name=name)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    return t


def test_standings_and_seating_csvs_neutralise_formula_names(director_client, formula_event):
    t = formula_event
    cells = []
    for division in ("A", "B"):
        cells += [
            c
            for row in rows(
                director_client.get(reverse("director:standings_csv", args=[t.slug, division]))
            )
            for c in row
        ]
    cells += [
        c
        for row in rows(director_client.get(reverse("director:seating_csv", args=[t.slug, 1])))
        for c in row
    ]
    dangerous = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert not dangerous, dangerous
    for name in ("'=cmd|' /C calc'!A0", "'@SUM(1+1)", "'+Ann", "'-Bob"):
        assert name in cells


@pytest.mark.parametrize(
    "name",
    ["Ann\u202eeeL", "Zero\u200bWidth", "Bell\x07", "Nul\x00Byte", "Esc\x1b[31m"],
    ids=["rtl-override", "zero-width", "bell", "nul", "escape"],
)
def test_the_register_form_and_the_import_refuse_the_same_names(
    director_client, make_tournament, name
):
    t = make_tournament(1)
    before = Player.objects.count()
    response = director_client.post(
        reverse("director:players", args=[t.slug]), {"name": name, "division": "A"}
    )
    assert response.status_code == 422
    report = import_players(t, f"name,division\n{name},A\n", by="test")
    assert not report.ok
    if "\x00" not in name:
        # The same words, from the one rule (a NUL is refused by Django's field first).
        assert "control or invisible formatting characters" in response.content.decode()
        assert "control or invisible formatting characters" in report.error_text()
    player = Player.objects.filter(tournament=t).first()
    edit = director_client.post(
        reverse("director:player_edit", args=[t.slug, player.pk]), {"name": name, "division": "A"}
    )
    assert edit.status_code == 422
    assert Player.objects.count() == before


@pytest.fixture
def running(make_tournament):
    t = make_tournament(2)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=1), by="test")
    return t


@pytest.mark.parametrize("table", [0, 3, 99, 2**31, 2**63])
def test_relinking_a_table_the_round_does_not_seat_is_a_404_and_makes_no_link(
    director_client, running, table
):
    links = TableLink.objects.count()
    url = f"/director/{running.slug}/rounds/1/tables/{table}/relink/"
    assert director_client.post(url).status_code == 404
    assert TableLink.objects.count() == links


def test_the_relink_service_refuses_a_table_that_does_not_exist(running):
    from tournaments.core.services import ServiceError

    with pytest.raises(ServiceError, match="no table 99"):
        rounds.revoke_link(running, 99, by="test")
    assert not TableLink.objects.filter(table=99).exists()


def test_relinking_a_seated_table_still_works(director_client, running):
    old = TableLink.objects.get(tournament=running, table=2, revoked_at__isnull=True)
    response = director_client.post(f"/director/{running.slug}/rounds/1/tables/2/relink/")
    assert response.status_code == 302
    new = TableLink.objects.get(tournament=running, table=2, revoked_at__isnull=True)
    assert new.token != old.token


@pytest.mark.parametrize("page", ["players", "desk"])
def test_a_nul_byte_in_a_search_is_a_400(director_client, running, page):
    response = director_client.get(
        reverse(f"director:{page}", args=[running.slug]), {"q": "a\x00b"}
    )
    assert response.status_code == 400
    ok = director_client.get(reverse(f"director:{page}", args=[running.slug]), {"q": "Player"})
    assert ok.status_code == 200


def test_every_page_and_file_that_shows_a_token_is_no_store(director_client, running):
    link = TableLink.objects.filter(tournament=running, revoked_at__isnull=True).first()
    pages = [
        f"/director/{running.slug}/rounds/1/tables/1/",
        reverse("sheets:table_cards", args=[running.slug]),
        reverse("director:seating_csv", args=[running.slug, 1]),
        reverse("director:standings_csv", args=[running.slug, "A"]),
        reverse("director:round", args=[running.slug, 1]),
    ]
    for url in pages:
        response = director_client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
    tablet = director_client.__class__()
    opened = tablet.get(f"/t/{link.token}/")
    assert opened.status_code == 302 and "no-store" in opened["Cache-Control"]
    # A staff invitation's page, whose address is the invitation itself.
    from tournaments.clubs.services import invite

    invitation = invite(running.club, "desk", by="test")
    joining = director_client.__class__().get(f"/join/{invitation.token}/")
    assert joining.status_code == 200 and "no-store" in joining["Cache-Control"]
    assert "no-store" in tablet.get("/t/table/").get("Cache-Control", "")
    # The public pages show no token and may be cached as before.
    assert "no-store" not in director_client.get("/").get("Cache-Control", "")


def test_tokens_never_reach_the_access_log(client, running, caplog):
    link = TableLink.objects.filter(tournament=running, revoked_at__isnull=True).first()
    caplog.set_level(logging.INFO, logger="snowman.access")
    client.get(f"/t/{link.token}/")
    client.get("/t/table/state.json")
    client.get("/t/not-a-real-token-at-all/")
    lines = [r.getMessage() for r in caplog.records if r.name == "snowman.access"]
    assert len(lines) == 3, lines
    assert all(link.token not in line for line in lines)
    assert "GET /t/[token] 302" in lines[0].replace("/ 302", " 302")
    assert "/t/table/state.json" in lines[1]


def test_registration_passes_and_staff_invitations_never_reach_the_access_log(
    client, director, running, caplog
):
    """A player's private link is her key (withdraw, change, the check-in pass) and an
    invitation makes its bearer staff of the club: neither may be read from the log,
    nor may the pass the desk's scan page looks up by GET."""
    from urllib.parse import urlencode

    from django.test import Client

    from tests.test_hidden import passes
    from tournaments.clubs.services import invite

    token = passes(running)[0]  # an accepted application's private link
    invitation = invite(running.club, "director", by="test")
    desk = Client()
    desk.force_login(director)
    caplog.set_level(logging.INFO, logger="snowman.access")
    link = f"/e/{running.slug}/r/{token}/"
    client.get(link + "?pass")
    client.get(link + "qr.svg")
    client.post(link + "withdraw")
    client.get(f"/join/{invitation.token}/")
    scan = reverse("director:scan", args=[running.slug])
    desk.get(scan + "?" + urlencode({"pass": f"http://hall.example{link}"}))
    desk.get(scan + "?" + urlencode({"pass": token, "x": "1"}))
    lines = [r.getMessage() for r in caplog.records if r.name == "snowman.access"]
    assert len(lines) == 6, lines
    for line in lines:
        assert token not in line and invitation.token not in line, line
    assert f"/e/{running.slug}/r/[token]/qr.svg" in lines[1]
    assert "/join/[token]/" in lines[3]
    assert "?pass=[token]&x=1" in lines[5]


def test_the_log_filter_redacts_tokens_in_djangos_own_warnings():
    token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde"
    record = logging.LogRecord(
        "django.request", logging.WARNING, "", 0, "Forbidden: %s", (f"/t/{token}/",), None
    )
    assert RedactTokens().filter(record)
    assert token not in record.getMessage() and "/t/[token]/" in record.getMessage()
    kept = logging.LogRecord("x", logging.INFO, "", 0, "GET /t/table/state.json", None, None)
    RedactTokens().filter(kept)
    assert kept.getMessage() == "GET /t/table/state.json"
    from django.conf import settings

    handlers = settings.LOGGING["handlers"]
    assert all("redact_tokens" in h.get("filters", []) for h in handlers.values())


# A module is read under its own name (or a function under its own): an alias is one more
# name to look up. Only the names xgettext finds strings by, and hypothesis's ``st``.
_IDIOMS = {
    ("django.utils.translation", "gettext", "_"),
    ("django.utils.translation", "gettext_lazy", "_"),
    ("tournaments.common.bilingual", "tr", "_"),
    ("tournaments.common.bilingual", "trn", "ngettext"),
}
_TEST_IDIOMS = {("hypothesis", "strategies", "st")}


def renamed_imports(source: str, path: str) -> list[str]:
    """Each import in ``source`` that binds a name other than the one imported, anywhere
    in it (functions too); ``X as X``, a re-export, binds the same name."""
    allowed = _IDIOMS | (_TEST_IDIOMS if path.startswith("tests/") else set())
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found += [
                f"{path}:{node.lineno} from {module} import {a.name} as {a.asname}"
                for a in node.names
                if a.asname not in (None, a.name) and (module, a.name, a.asname) not in allowed
            ]
        elif isinstance(node, ast.Import):
            found += [
                f"{path}:{node.lineno} import {a.name} as {a.asname}"
                for a in node.names
                if a.asname is not None
            ]
    return found


@pytest.mark.db_independent  # reads the source, no database
def test_no_module_imports_a_name_under_another_name():
    root = Path(__file__).resolve().parent.parent
    found = []
    for folder in ("tournaments", "snowman", "bench", "tests"):
        for file in sorted((root / folder).rglob("*.py")):
            path = file.relative_to(root).as_posix()
            found += renamed_imports(file.read_text(), path)
    assert found == []


@pytest.mark.db_independent
def test_the_alias_check_finds_a_renamed_module_function_and_package():
    source = (
        "from django.utils.translation import gettext as _\n"
        "from tournaments.common.bilingual import trn as ngettext\n"
        "from tournaments.common.errors import Conflict as Conflict\n"
        "from hypothesis import strategies as st\n"
        "from tournaments.core.services import rounds as round_service\n"
        "def late():\n"
        "    from .reads import players as player_reads\n"
        "    import django_tables2 as tables\n"
    )
    assert renamed_imports(source, "tournaments/x.py") == [
        "tournaments/x.py:4 from hypothesis import strategies as st",
        "tournaments/x.py:5 from tournaments.core.services import rounds as round_service",
        "tournaments/x.py:7 from .reads import players as player_reads",
        "tournaments/x.py:8 import django_tables2 as tables",
    ]
    assert renamed_imports(source, "tests/test_x.py")[0].endswith("rounds as round_service")
