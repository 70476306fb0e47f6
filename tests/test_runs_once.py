"""Which tests CI runs on both databases and which once, in the SQLite run (the rule in
tests/conftest.py): a test runs once only where its outcome cannot depend on the database."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.db import connection

from tests.conftest import asks_for_the_database, dishonest_claims, runs_once, split_for


@dataclass
class Stub:
    """The part of a pytest item the rule reads."""

    nodeid: str
    fixturenames: list[str] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)
    function: Callable[[], None] = lambda: None

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
def test_a_test_asking_for_or_naming_the_database_cannot_claim_to_be_independent_of_it() -> None:
    liar = Stub("liar", ["transactional_db"], ["db_independent"])
    marked_only = Stub("marked", [], ["db_independent", "django_db"])
    vendor = Stub("vendor", [], ["db_independent"], branches_on_the_vendor)
    settings = Stub("settings", [], ["db_independent"], reads_the_settings)
    items = [PURE, STORED, liar, marked_only, vendor, settings]
    assert dishonest_claims(items) == ["liar", "marked", "vendor", "settings"]  # type: ignore[arg-type]
    assert asks_for_the_database(BROWSER) and not asks_for_the_database(UNMARKED)  # type: ignore[arg-type]


def branches_on_the_vendor() -> None:
    from django.db import connection

    assert connection.vendor


def reads_the_settings() -> None:
    from django.conf import settings

    assert settings.DATABASES


def test_this_run_holds_no_test_left_to_the_sqlite_run(request: pytest.FixtureRequest) -> None:
    """Runs on both databases: on PostgreSQL no browser walk and no db_independent test
    is among the tests run (unless --every-test asks for them)."""
    if connection.vendor == "sqlite" or request.config.getoption("every_test"):
        return
    assert not [item.nodeid for item in request.session.items if runs_once(item)]
