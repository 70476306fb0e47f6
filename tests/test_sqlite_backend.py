"""The SQLite backend (snowman/sqlite): writers queue on a lock file beside the database."""

from __future__ import annotations

import fcntl
import os

import pytest
from django.db import connection, transaction
from django.utils import timezone

from tournaments.core.models.event import Tournament
from tournaments.core.models.log import Activity
from tournaments.core.services.tournaments import site_club

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite backend only"),
]


def other_writer_could_begin() -> bool:
    """Whether another process's writer would get the lock file now."""
    fd = os.open(f"{connection.settings_dict['NAME']}.writer-lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    finally:
        os.close(fd)


def test_a_transaction_holds_the_writer_lock_until_it_commits():
    assert connection.vendor == "sqlite" and other_writer_could_begin()
    with transaction.atomic():
        t = Tournament.objects.create(name="Locked", lot_seed=1, club=site_club())
        assert not other_writer_could_begin()
        with transaction.atomic():  # a savepoint takes nothing more
            Activity.objects.create(
                tournament=t, at=timezone.now(), actor="test", action="note", summary="x"
            )
        assert not other_writer_could_begin()
    assert other_writer_could_begin()
    assert Activity.objects.filter(tournament=t).count() == 1


def test_a_failed_transaction_rolls_back_and_frees_the_writer_lock():
    with pytest.raises(RuntimeError), transaction.atomic():
        Tournament.objects.create(name="Rolled back", lot_seed=1, club=site_club())
        raise RuntimeError("boom")
    assert other_writer_could_begin()
    assert not Tournament.objects.filter(name="Rolled back").exists()


def test_closing_the_connection_frees_the_writer_lock():
    connection.ensure_connection()
    connection._start_transaction_under_autocommit()  # what atomic() begins with
    assert not other_writer_could_begin()
    # A worker that drops its connection mid-transaction must not stall the others.
    connection.close()
    assert other_writer_could_begin()


def test_a_statement_is_rewritten_for_sqlite_as_django_rewrites_it_and_once():
    """Issue 22: the "format" to "qmark" rewrite is kept per statement; it gives what
    Django's gives (escaped percents, placeholders, named parameters) and is not redone."""
    from django.db.backends.sqlite3.base import SQLiteCursorWrapper

    from tournaments.core.db.sqlite import base

    connection.ensure_connection()
    django_cursor = connection.connection.cursor(factory=SQLiteCursorWrapper)
    with connection.cursor() as cursor:
        ours = cursor.cursor
        assert isinstance(ours, base._Cursor)
        for sql in (
            "SELECT %s, '100%%' WHERE a = %s",
            "SELECT '%%s' || %s",
            "SELECT 1",
        ):
            assert ours.convert_query(sql) == django_cursor.convert_query(sql)
        named = "SELECT %(a)s, %(b)s"
        assert ours.convert_query(named, param_names=["a", "b"]) == (
            django_cursor.convert_query(named, param_names=["a", "b"])
        )
        before = base._qmark.cache_info()
        statement = "SELECT %s + %s -- issue 22"
        ours.convert_query(statement)
        ours.convert_query(statement)
        after = base._qmark.cache_info()
        assert (after.misses - before.misses, after.hits - before.hits) == (1, 1)
        cursor.execute("SELECT %s || '%%'", ["7"])
        assert cursor.fetchone() == ("7%",)
