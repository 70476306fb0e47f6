"""When a commit may return before the disk has it: only for work nobody waits on.

A tablet's hand must be on disk the moment it is answered, so every request commits the
usual way. A simulation (``manage.py simulate``, the demo, the benches) commits a match at
a time for hundreds of matches, and on PostgreSQL each commit waited for the disk: 60% of a
100-table simulation's time. Inside ``commits_unflushed`` a commit returns once it is in the
write-ahead log's buffer (``synchronous_commit = off``: the database stays consistent, and
a crash can lose only the last fraction of a second of simulated hands). SQLite's commits
in WAL mode with ``synchronous=NORMAL`` (snowman/settings.py) already do not wait.

The first ordinary commit after the block waits for the log up to itself, so it makes
everything committed inside the block durable too: the caller ends with one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def commits_unflushed() -> Iterator[None]:
    """Commits inside the block do not wait for the disk (PostgreSQL; a no-op elsewhere)."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET synchronous_commit")
