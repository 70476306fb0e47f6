"""Bad input: arbitrary payloads never cause a server error or a partial write.

Hypothesis throws random and near-valid input at the CSV import, the tablet endpoints
and the director's forms. Every answer must be a clear refusal (4xx or a form error) or
a complete success, and a refusal must leave the database as it was.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tournaments.models import Player
from tournaments.services.players import import_players, parse_players_csv

FUZZ = settings(
    max_examples=60, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- CSV import --------------------------------------------------------------------

nasty_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=120
)
names = st.one_of(
    st.text(min_size=0, max_size=90),
    nasty_text,
    st.sampled_from(["Ann Lee", " ann  lee ", "ANN LEE", "Straße", "STRASSE", "x" * 81,
                     "x" * 80, "a\x00b", "tab\there", '"quoted, name"', "=cmd|' /C calc'!A0",
                     "Zoë", "\u202eevil", "line\nbreak", ""]),
)
divisions = st.one_of(
    st.sampled_from(["A", "B", "a", " b ", "C", "", "AB", "Ａ"]), st.text(max_size=3)
)
rows = st.lists(
    st.one_of(
        st.tuples(names, divisions).map(list),
        st.lists(names, min_size=0, max_size=4),
    ),
    max_size=12,
)


def to_csv(cells_per_row: list[list[str]], header: bool, line_end: str) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator=line_end)
    if header:
        writer.writerow(["name", "division"])
    writer.writerows(cells_per_row)
    return out.getvalue()


csv_payloads = st.one_of(
    st.builds(to_csv, rows, st.booleans(), st.sampled_from(["\n", "\r\n", "\r"])),
    st.builds(lambda s: s.encode("utf-8"),
              st.builds(to_csv, rows, st.booleans(), st.just("\n"))),
    st.builds(lambda s: "\ufeff" + s, st.builds(to_csv, rows, st.booleans(), st.just("\n"))),
    st.binary(max_size=300),
    st.builds(lambda s: s.encode("latin-1", "replace"), nasty_text),
    nasty_text,
)


def player_rows(tournament) -> list[tuple]:
    return list(Player.objects.filter(tournament=tournament).order_by("pk").values_list())


@given(payload=csv_payloads)
@FUZZ
def test_the_csv_import_refuses_bad_files_whole_and_never_crashes(make_tournament, payload):
    t = make_tournament(1)
    before = player_rows(t)
    preview = parse_players_csv(t, payload)
    assert player_rows(t) == before, "checking a file must not write"
    report = import_players(t, payload, by="fuzz")
    after = player_rows(t)
    if report.ok:
        assert len(after) == len(before) + len(report.rows)
        assert [(r.name, r.division) for r in report.rows] == [
            (r.name, r.division) for r in preview.rows
        ]
        added = Player.objects.filter(tournament=t).exclude(pk__in=[r[0] for r in before])
        for player in added:
            assert player.name.strip() and len(player.name) <= 80
            assert player.name.isprintable() and player.division in ("A", "B")
    else:
        assert after == before
        assert report.errors and all(message for _, message in report.errors)
        for line, _ in report.errors:
            assert line >= 0


@given(extra=st.lists(st.tuples(names, divisions), max_size=6))
@FUZZ
def test_a_file_with_one_bad_row_imports_nothing(make_tournament, extra):
    t = make_tournament(1)
    good = [["Valid Person", "A"], ["Other Person", "B"]]
    bad_rows = [list(r) for r in extra]
    report = parse_players_csv(t, to_csv(good + bad_rows, True, "\n"))
    assume(report.errors)
    before = player_rows(t)
    assert not import_players(t, to_csv(good + bad_rows, True, "\n"), by="fuzz").ok
    assert player_rows(t) == before


@pytest.mark.parametrize("payload", [b"\xff\xfe\x00n\x00a", "name,division\n" + "x,A\n" * 3,
                                     "name,division\n\"unterminated,A\n", "\x00,A\n"])
def test_known_bad_files_are_refused_with_a_reason(make_tournament, payload):
    t = make_tournament(1)
    before = player_rows(t)
    report = import_players(t, payload, by="fuzz")
    assert not report.ok and report.error_text()
    assert player_rows(t) == before
