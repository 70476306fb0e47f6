"""SQLite whose writers queue on a lock file instead of in SQLite's busy handler.

Every transaction here begins with BEGIN IMMEDIATE, so a second writer gets SQLITE_BUSY
and SQLite's busy handler retries after sleeping 1, 2, 5, 10 … up to 100 ms, whether or
not the lock has freed meanwhile. When every table writes at once at the end of a round,
workers sleep while the write lock sits free and the cores idle (a quarter of them, in
the 500-tablet burst of docs/performance.md). So a transaction first takes an exclusive
flock(2) on a file beside the database: the kernel wakes the next writer the moment the
previous one commits, and BEGIN IMMEDIATE then finds SQLite's lock free.

The database file is made (or tightened) to 0600 before SQLite opens it: SQLite gives
its -wal and -shm files the database's mode, and they hold every session.

The lock file only orders writers; SQLite's own lock still guards the data, and the busy
timeout still covers writers that do not take the file lock (the sqlite3 shell, a
statement in autocommit). The kernel drops the lock of a process that dies.
"""

from __future__ import annotations

import fcntl
import functools
import os
from pathlib import Path
from typing import Any

from django.db.backends.sqlite3 import base


def private_database_file(path: Path) -> None:
    """``path`` (and its -wal, -shm) readable by this user only, made empty if missing,
    whoever made the folder (bin/serve makes it 0700; a bare manage.py did not)."""
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if file.exists() and file.stat().st_mode & 0o077:
            os.chmod(file, 0o600)


@functools.lru_cache(maxsize=4096)
def _qmark(query: str) -> str:
    """Django's "format" to "qmark" rewrite of a statement, kept: the rewrite is a regular
    expression with a look-behind over the whole SQL, about 100-250 µs for the hand path's
    5,600-character lock statement (more than SQLite takes to run it), and the compiled
    statements (tournaments/compiled.py) are the same string every time, so a
    cached one costs a dictionary look-up (issue 22)."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class _Cursor(base.SQLiteCursorWrapper):
    def convert_query(self, query: str, *, param_names: list[str] | None = None) -> str:
        if param_names is None:
            return _qmark(query)
        return str(super().convert_query(query, param_names=param_names))


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_fd: int | None = None
    _writer_locked = False

    def create_cursor(self, name: str | None = None) -> Any:
        return self.connection.cursor(factory=_Cursor)

    def _writer_lock_path(self) -> str | None:
        if self.is_in_memory_db():
            return None
        return f"{self.settings_dict['NAME']}.writer-lock"

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if not self.is_in_memory_db():
            private_database_file(Path(self.settings_dict["NAME"]))
        return super().get_new_connection(conn_params)

    def _take_writer_lock(self) -> None:
        if self._writer_fd is None:
            path = self._writer_lock_path()
            if path is None:
                return
            self._writer_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._writer_fd, fcntl.LOCK_EX)
        self._writer_locked = True

    def _release_writer_lock(self) -> None:
        if self._writer_locked and self._writer_fd is not None:
            fcntl.flock(self._writer_fd, fcntl.LOCK_UN)
        self._writer_locked = False

    def _start_transaction_under_autocommit(self) -> None:
        self._take_writer_lock()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # private, absent from the stubs
        except BaseException:
            self._release_writer_lock()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]  # private, absent from the stubs
        finally:
            self._release_writer_lock()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]  # private, absent from the stubs
        finally:
            self._release_writer_lock()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]  # private, absent from the stubs
        finally:
            self._release_writer_lock()
            if self._writer_fd is not None:
                os.close(self._writer_fd)
                self._writer_fd = None
