"""Backups of the event's database, and putting one back.

SQLite (one laptop): an online copy through SQLite's backup API, consistent while the
server keeps writing, every ``BACKUP_MINUTES`` while ``bin/serve`` runs and after every
finalize; the last ``BACKUP_KEEP`` are kept in ``BACKUP_DIR`` (``var/backups``) with a
copy of the secret key, so the folder alone carries the event to another machine.
PostgreSQL: the same schedule with ``pg_dump`` (custom format) and ``pg_restore``.

Nothing here takes part in a request's transaction: a backup reads a committed snapshot.
It copies and puts back the database's file as a whole, below the rows and the rules, so
it sits beside the database layer (as ``compiled.py`` does) rather than among the
services, which call it after a finalize (``rounds.finish_round``, ``standings.finish_event``).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import sqlite3
import subprocess
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common.errors import ServiceError
from tournaments.core.db.sqlite.base import private_database_file

log = logging.getLogger(__name__)

NAME = re.compile(r"^snowman-(\d{8}-\d{6}-\d{6})-([a-z0-9-]+)\.(sqlite3|pgdump)$")
KEY_COPY = "secret_key"
_lock = threading.Lock()


@dataclass(frozen=True)
class Backup:
    path: Path
    taken_at: datetime
    reason: str

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def _database() -> dict[str, Any]:
    return connections["default"].settings_dict


def _kind() -> str:
    vendor = connections["default"].vendor
    if vendor not in ("sqlite", "postgresql"):
        raise ServiceError(_("No backups for a %(vendor)s database.") % {"vendor": vendor})
    return vendor


def _directory() -> Path:
    directory = Path(settings.BACKUP_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    os.chmod(directory, 0o700)  # the copies hold every session and the key
    return directory


def backups(directory: Path | None = None) -> list[Backup]:
    """The backups in ``directory`` (default ``BACKUP_DIR``), oldest first."""
    directory = Path(directory or settings.BACKUP_DIR)
    if not directory.is_dir():
        return []
    found = []
    for path in directory.iterdir():
        match = NAME.match(path.name)
        if match:
            stamp = datetime.strptime(match.group(1), "%Y%m%d-%H%M%S-%f")
            found.append(Backup(path, stamp.replace(tzinfo=UTC), match.group(2)))
    return sorted(found, key=lambda b: b.path.name)


def _pg_env(db: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    args = ["--host", db.get("HOST") or "127.0.0.1", "--port", str(db.get("PORT") or 5432)]
    if db.get("USER"):
        args += ["--username", db["USER"]]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return args, env


def take_backup(reason: str = "scheduled", *, now: datetime | None = None) -> Backup:
    """Copy the database now into a new file of ``BACKUP_DIR``; prune to ``BACKUP_KEEP``."""
    if not re.fullmatch(r"[a-z0-9-]+", reason):
        raise ServiceError(
            _("A backup's reason is a word, not %(reason)s.") % {"reason": repr(reason)}
        )
    kind = _kind()
    now = now or timezone.now()
    directory = _directory()
    suffix = "sqlite3" if kind == "sqlite" else "pgdump"
    final = directory / f"snowman-{now:%Y%m%d-%H%M%S-%f}-{reason}.{suffix}"
    partial = final.with_name(final.name + ".partial")
    db = _database()
    # One backup at a time in this process (the timer and a finalize may meet).
    with _lock:
        if kind == "sqlite":
            source = sqlite3.connect(db["NAME"], timeout=30)
            target = sqlite3.connect(partial)
            try:
                # All pages in one step: a consistent snapshot even while tablets write.
                source.backup(target)
            finally:
                target.close()
                source.close()
        else:
            args, env = _pg_env(db)
            result = subprocess.run(
                ["pg_dump", *args, "--format=custom", "--file", str(partial), db["NAME"]],
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            if result.returncode != 0:
                partial.unlink(missing_ok=True)
                raise ServiceError(
                    _("pg_dump failed: %(error)s") % {"error": result.stderr.strip()}
                )
        os.chmod(partial, 0o600)
        partial.replace(final)  # never a half-written file under a backup's name
        _keep_key_copy(directory)
        for old in backups(directory)[: -settings.BACKUP_KEEP]:
            old.path.unlink(missing_ok=True)
    return Backup(final, now, reason)


def _keep_key_copy(directory: Path) -> None:
    key_file = os.environ.get("SECRET_KEY_FILE")
    if not key_file or not Path(key_file).is_file():
        return
    copy = directory / KEY_COPY
    if not copy.exists() or copy.read_bytes() != Path(key_file).read_bytes():
        shutil.copyfile(key_file, copy)
        os.chmod(copy, 0o600)


def backup_after_finalize(label: str) -> Backup | None:
    """The backup at a finalize, when ``BACKUP_ON_FINALIZE`` is on. A failed backup must
    not fail the finalize that has just been committed: it is logged instead."""
    if not settings.BACKUP_ON_FINALIZE:
        return None
    try:
        return take_backup(f"finalize-{label}")
    except (ServiceError, OSError, sqlite3.Error) as exc:
        log.error("Backup after finalize failed: %s", exc)
        return None


def restore(source: Path, *, force: bool = False) -> Path:
    """Put ``source`` (a backup file) in place of the database. Refuses to replace a
    database that has data unless ``force``; the replaced SQLite file is kept beside it
    as ``.before-restore``. The server must be stopped."""
    source = Path(source)
    if not source.is_file() or not NAME.match(source.name):
        raise ServiceError(_("%(source)s is not a Snowman backup file.") % {"source": source})
    kind = _kind()
    db = _database()
    if (source.suffix == ".sqlite3") != (kind == "sqlite"):
        raise ServiceError(
            _("%(source)s is not a backup of a %(kind)s database.")
            % {"source": source.name, "kind": kind}
        )
    if kind == "sqlite":
        _check_sqlite(source)
        target = Path(db["NAME"])
        if target.exists() and _has_data_sqlite(target) and not force:
            raise ServiceError(
                _(
                    "%(target)s already holds an event; add --force to replace it (it is "
                    "kept as .before-restore)."
                )
                % {"target": target}
            )
        connections.close_all()
        if target.exists():
            kept = target.with_name(target.name + ".before-restore")
            shutil.copyfile(target, kept)
            os.chmod(kept, 0o600)
        private_database_file(target)
        src = sqlite3.connect(source)
        dst = sqlite3.connect(target, timeout=30)
        try:
            src.backup(dst)  # through SQLite, so a stale -wal file cannot win
        finally:
            dst.close()
            src.close()
    else:
        if _has_data_pg() and not force:
            raise ServiceError(
                _("%(db)s already holds an event; add --force to replace it.") % {"db": db["NAME"]}
            )
        connections.close_all()
        args, env = _pg_env(db)
        result = subprocess.run(
            [
                "pg_restore",
                *args,
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                "--dbname",
                db["NAME"],
                str(source),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if result.returncode != 0:
            raise ServiceError(_("pg_restore failed: %(error)s") % {"error": result.stderr.strip()})
    _restore_key(source.parent)
    return source


def _restore_key(directory: Path) -> None:
    """The event's key comes back with its database: the tablets' table sessions were
    signed with it. A key this checkout made meanwhile is kept as .before-restore."""
    key_file = os.environ.get("SECRET_KEY_FILE")
    copy = directory / KEY_COPY
    if not key_file or not copy.is_file():
        return
    target = Path(key_file)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        if target.read_bytes() == copy.read_bytes():
            return
        target.replace(target.with_name(target.name + ".before-restore"))
    shutil.copyfile(copy, target)
    os.chmod(target, 0o600)


# A Snowman database has these: the core of an event, the accounts, the sessions.
EXPECTED_TABLES = frozenset(
    {
        "django_migrations",
        "django_session",
        "auth_user",
        "tournaments_tournament",
        "tournaments_player",
        "tournaments_round",
        "tournaments_match",
        "tournaments_seating",
        "tournaments_handentry",
    }
)


def _known_migrations() -> set[str]:
    """This checkout's migrations of the tournaments app (a backup may be older: the
    server migrates it on start; a newer one's schema is unknown here)."""
    folder = Path(__file__).resolve().parent / "migrations"
    return {p.stem for p in folder.glob("[0-9][0-9][0-9][0-9]_*.py")}


def _check_sqlite(path: Path) -> None:
    """A Snowman backup, not any SQLite file: whole (integrity_check), with the expected
    tables, and a migration history of this app that this checkout knows."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            applied = (
                {
                    name
                    for (name,) in conn.execute(
                        "SELECT name FROM django_migrations WHERE app = 'tournaments'"
                    )
                }
                if "django_migrations" in tables
                else set()
            )
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise ServiceError(
            _("%(path)s cannot be read: %(exc)s") % {"path": path.name, "exc": exc}
        ) from exc
    if ok != "ok":
        raise ServiceError(_("%(path)s is damaged (%(ok)s).") % {"path": path.name, "ok": ok})
    missing = sorted(EXPECTED_TABLES - tables)
    if missing:
        raise ServiceError(
            _("%(path)s is not a Snowman database: it has no %(names)s.")
            % {"path": path.name, "names": ", ".join(missing)}
        )
    if "0001_initial" not in applied:
        raise ServiceError(
            _(
                "%(path)s is not a Snowman database: its migration history has none of "
                "Snowman's migrations."
            )
            % {"path": path.name}
        )
    unknown = sorted(applied - _known_migrations())
    if unknown:
        raise ServiceError(
            _(
                "%(path)s was made by a newer or another Snowman (migrations %(names)s are "
                "unknown here); update this checkout first."
            )
            % {"path": path.name, "names": ", ".join(unknown)}
        )


def _has_data_sqlite(path: Path) -> bool:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return bool(
            conn.execute(
                "SELECT 1 FROM sqlite_master WHERE name = 'tournaments_tournament'"
            ).fetchone()
            and conn.execute("SELECT 1 FROM tournaments_tournament LIMIT 1").fetchone()
        )
    finally:
        conn.close()


def _has_data_pg() -> bool:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT to_regclass('tournaments_tournament')")
        if cursor.fetchone()[0] is None:
            return False
        cursor.execute("SELECT 1 FROM tournaments_tournament LIMIT 1")
        return cursor.fetchone() is not None


class Timer:
    """Takes a backup every ``minutes`` on a daemon thread, until ``stop()``."""

    def __init__(self, minutes: float) -> None:
        self.interval = minutes * 60
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="backups", daemon=True)

    def start(self) -> Timer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                made = take_backup("scheduled")
                log.info("Backup %s", made.path.name)
            except Exception:  # noqa: BLE001 - a failed backup must not end the timer
                log.exception("Scheduled backup failed")
            finally:
                connections.close_all()
