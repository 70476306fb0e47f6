"""The end-of-round burst at N = 50 against gunicorn with production settings.

The same scenario as ``bench/burst.py`` (which measures; this only counts): 50 tablets
flush a whole match at the same instant, then replay every request, then in the next
round send every request twice at once. Every hand must be stored exactly once, with no
server error, on whichever database the tests run on.
"""

from __future__ import annotations

import pytest
from django.db import connection

from bench import scenario
from bench.server import for_test_database
from tournaments.core.models.play import HandEntry

# Seconds per test: skipped by `pytest -m "not slow"`, always run by .ci/run.
pytestmark = pytest.mark.slow

TABLES = 50


@pytest.fixture
def gunicorn(transactional_db, tmp_path, static_root):
    server = for_test_database(connection.settings_dict, tmp_path, static_root)
    with server:
        yield server


def test_fifty_tablets_at_once_store_every_hand_exactly_once(gunicorn):
    t = scenario.prepare_event(TABLES)
    report = scenario.run(t, gunicorn.port, floor=False)
    assert not report.problems, "\n".join(report.lines())
    for phase in report.phases:
        assert phase.server_errors == 0 and phase.no_answer == 0, phase.line()
    burst, replay, double = (report.phase(n) for n in ("burst", "replay", "double send"))
    first_round = HandEntry.objects.filter(match__round__number=1).count()
    assert set(burst.statuses) == {201} and burst.statuses[201] == first_round
    # The replay adds nothing; the double send creates each hand once and answers the twin
    # as a retry.
    assert replay.statuses == {200: first_round}
    assert report.rows["after replay"] == report.rows["after burst"] == first_round
    second_round = report.rows["after double send"] - first_round
    assert double.statuses == {200: second_round, 201: second_round}
