"""Which tests CI runs on both databases and which once, in the SQLite run (the rule in
tests/conftest.py): a test runs once only where its outcome cannot depend on the database."""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

import pytest
from django.db import connection

from tests.conftest import asks_for_the_database, dishonest_claims, runs_once, split_for

# A test that names the connection, its vendor or the database settings can branch on the
# database without asking pytest-django for one (the benchmarks pick theirs so), and one
# that unblocks the database reaches it without the fixtures.
READS_THE_DATABASE = re.compile(
    r"\bconnections?\b|DATABASE_URL|DATABASES|\.vendor\b|django_db_blocker"
)


@dataclass
class Stub:
    """The part of a pytest item the rule reads."""

    nodeid: str
    fixturenames: list[str] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)

    def get_closest_marker(self, name: str) -> pytest.Mark | None:
        return getattr(pytest.mark, name).mark if name in self.marks else None


BROWSER = Stub("walk", ["page", "live_server", "transactional_db"], ["browser", "django_db"])
PURE = Stub("rule", [], ["db_independent"])
STORED = Stub("service", ["db"], ["django_db"])
UNMARKED = Stub("helper", [])


@pytest.mark.db_independent
def test_postgresql_leaves_browser_walks_and_database_independent_tests_to_sqlite() -> None:
    items = [BROWSER, PURE, STORED, UNMARKED]
    kept, once = split_for("postgresql", items)  # type: ignore[arg-type]
    assert kept == [STORED, UNMARKED] and once == [BROWSER, PURE]
    assert split_for("sqlite", items) == (items, [])  # type: ignore[arg-type]
    assert split_for("postgresql", items, every_test=True) == (items, [])  # type: ignore[arg-type]


@pytest.mark.db_independent
def test_a_test_asking_for_the_database_cannot_claim_to_be_independent_of_it() -> None:
    liar = Stub("liar", ["transactional_db"], ["db_independent"])
    marked_only = Stub("marked", [], ["db_independent", "django_db"])
    assert dishonest_claims([PURE, STORED, liar, marked_only]) == ["liar", "marked"]  # type: ignore[list-item]
    assert asks_for_the_database(BROWSER) and not asks_for_the_database(UNMARKED)  # type: ignore[arg-type]


@pytest.mark.db_independent
def test_every_test_marked_db_independent_neither_asks_for_nor_names_the_database(
    request: pytest.FixtureRequest,
) -> None:
    marked = [item for item in request.session.items if item.get_closest_marker("db_independent")]
    assert request.node in marked
    for item in marked:
        assert not asks_for_the_database(item), item.nodeid
        source = inspect.getsource(item.function)  # type: ignore[attr-defined]
        assert not READS_THE_DATABASE.search(source), item.nodeid


def test_this_run_holds_no_test_left_to_the_sqlite_run(request: pytest.FixtureRequest) -> None:
    """Runs on both databases: on PostgreSQL no browser walk and no db_independent test
    is among the tests run (unless --every-test asks for them)."""
    if connection.vendor == "sqlite" or request.config.getoption("every_test"):
        return
    assert not [item.nodeid for item in request.session.items if runs_once(item)]
