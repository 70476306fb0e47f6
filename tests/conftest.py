"""Shared fixtures. Area-specific fixtures live in the area's own test file."""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournaments.core.models.event import Tournament
from tournaments.core.services.players import import_players
from tournaments.core.services.tournaments import create_tournament

# Playwright's sync API runs an event loop in the test thread; the ORM calls that the
# browser tests make around it are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]


# Django's default hasher spends a third of a second on every password by design; the
# tests create hundreds of accounts, so they store passwords with a fast hash. The
# project's settings keep the strong one (tests/test_security.py says so), and a test whose
# password crosses into a server process of its own asks for it (strong_password_hashing).
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        yield


@pytest.fixture(autouse=True, scope="session")
def compiled_translations() -> None:
    """The .mo files are not committed: compiled from locale/*.po as bin/serve does."""
    from tournaments.common.translations import compile_catalogues

    compile_catalogues()


@pytest.fixture(autouse=True)
def english_to_start_with() -> Iterator[None]:
    """Each test starts in English: a request read in French leaves French active in its
    thread (LocaleMiddleware activates, nothing deactivates), and the next test's service
    refusals would then read in French."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def strong_password_hashing(settings) -> None:
    """The project's own hashers, for an account that another process signs in to."""
    from django.conf import global_settings

    import snowman.settings

    settings.PASSWORD_HASHERS = getattr(
        snowman.settings, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS
    )


@pytest.fixture(scope="session")
def static_root(tmp_path_factory) -> Path:
    """The static files collected as for production, for the app servers that tests start
    in processes of their own: collectstatic takes seconds, and no server writes there."""
    from bench.server import collected_static

    return collected_static(tmp_path_factory.mktemp("static"))


@pytest.fixture
def director(django_user_model):
    from tournaments.clubs.services import assign

    user = django_user_model.objects.create_user(
        "director", "director@example.com", "a-long-director-password", is_staff=True
    )
    assign(user, "director")  # a staff flag alone is no role
    return user


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def players_csv(tables: int) -> str:
    rows = [f"Player A{i:03d},A" for i in range(1, 2 * tables + 1)]
    rows += [f"Player B{i:03d},B" for i in range(1, 2 * tables + 1)]
    return "name,division\n" + "\n".join(rows) + "\n"


@pytest.fixture
def make_tournament(db):
    """A tournament with 4 x tables checked-in players, not yet drawn."""

    def make(tables: int = 2, name: str = "Club Night", **rules: object) -> Tournament:
        from tournaments.domain.rules import RuleSettings

        t = create_tournament(name, by="test", lot_seed=7, rules=RuleSettings(**rules))
        report = import_players(t, players_csv(tables), by="test", checked_in=True)
        assert report.ok, report.error_text()
        return t

    return make


@pytest.fixture(scope="session")
def session_chromium() -> Iterator[object]:
    """One headless Debian Chromium for the session, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class ClosingBrowser:
    """The session's browser as one test sees it: every context it opens is closed when
    the test ends.

    A page left open keeps polling the session's live server after its test (the tablet's
    health ping, the projector's refresh). Outside any test those requests fail, and the
    server thread prints a traceback; on Python 3.11 that traceback runs ``ast.parse``,
    which races with a test's own ``ast.parse`` (CPython gh-106905): it failed CI once.
    """

    def __init__(self, browser) -> None:  # Playwright's Browser
        self._browser = browser
        self._contexts: list = []
        self.browser_type = browser.browser_type

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        self._contexts.append(context)
        return context

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def close_all(self) -> None:
        for context in self._contexts:
            context.close()
        self._contexts.clear()


@pytest.fixture
def chromium(session_chromium) -> Iterator[ClosingBrowser]:
    browser = ClosingBrowser(session_chromium)
    yield browser
    browser.close_all()
    # Only a context opened on the session's browser behind this fixture's back is left.
    assert session_chromium.contexts == [], "a browser test left a page open"


@pytest.fixture
def page(chromium):
    return chromium.new_page(viewport={"width": 1280, "height": 800})


# The fixtures through which a test reaches the database (pytest-django blocks every
# other way but django_db_blocker, which every test holds through pytest-django's own
# autouse fixtures and which NAMES_THE_DATABASE looks for in a test's words).
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
    }
)


def asks_for_the_database(item: pytest.Item) -> bool:
    names = set(getattr(item, "fixturenames", ()))
    return bool(names & DATABASE_FIXTURES) or item.get_closest_marker("django_db") is not None


def runs_once(item: pytest.Item) -> str | None:
    """Why this test runs in the SQLite run only (None: on every database).

    CI runs the suite on SQLite and again on PostgreSQL so that each database's own
    behaviour is tested; a test whose outcome cannot differ between them only doubles the
    wait. A browser walk drives the pages, not the database (and costs seconds), so every
    one, present or future, runs once by its marker; any other test runs once when it says
    so with ``db_independent``, which it may only say while it asks for no database.
    """
    if item.get_closest_marker("browser"):
        return "a browser walk"
    if item.get_closest_marker("db_independent"):
        return "independent of the database"
    return None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--every-test",
        action="store_true",
        help="on PostgreSQL, also run the tests that run once, in the SQLite run "
        "(browser walks and tests marked db_independent)",
    )


# A test that names the connection, its vendor or the database settings can branch on the
# database without asking pytest-django for one (the benchmarks pick theirs so), and one
# that unblocks the database reaches it without the fixtures.
NAMES_THE_DATABASE = re.compile(
    r"\bconnections?\b|DATABASE_URL|DATABASES|\.vendor\b|django_db_blocker"
)


def dishonest_claims(items: list[pytest.Item]) -> list[str]:
    """The tests marked db_independent that ask for the database, or name it, all the same."""
    return [
        item.nodeid
        for item in items
        if item.get_closest_marker("db_independent")
        and (
            asks_for_the_database(item)
            or NAMES_THE_DATABASE.search(inspect.getsource(getattr(item, "function", object)))
        )
    ]


def split_for(
    vendor: str, items: list[pytest.Item], every_test: bool = False
) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """(the tests to run on this database, the tests left to the SQLite run)."""
    if vendor == "sqlite" or every_test:
        return items, []
    once = [item for item in items if runs_once(item)]
    return [item for item in items if not runs_once(item)], once


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A real browser costs seconds per test, so every browser test is also slow.
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)
    # The long tests first, each file's in its order: with a worker per core (.ci/run's
    # --dist worksteal) the run then ends on short tests, shared out as the workers free
    # up, not on one worker finishing a walk of a minute while the other waits.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if claims := dishonest_claims(items):
        raise pytest.UsageError(
            "marked db_independent, yet asks for or names the database: " + ", ".join(claims)
        )
    from django.db import connection

    kept, once = split_for(connection.vendor, items, config.getoption("every_test"))
    if once:
        config.hook.pytest_deselected(items=once)
        items[:] = kept
