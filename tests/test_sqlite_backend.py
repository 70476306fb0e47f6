"""The SQLite backend (snowman/sqlite): writers queue on a lock file beside the database."""

from __future__ import annotations

import fcntl
import os

import pytest
from django.db import connection, transaction
from django.utils import timezone

from tournaments.models import Activity, Tournament
from tournaments.services.clubs import site_club

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
