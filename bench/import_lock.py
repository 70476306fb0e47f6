"""How long one big import holds the database's write lock (issue 20, item 18).

Imports ``--warm`` events of ``--players`` players each (so that many people exist to
compare names with), then one more, timing that last import's write transaction and, from
a second thread, how long a small write (a desk's check-in) waits meanwhile. SQLite by
default; ``--db postgres`` uses the ``snowman_import_lock`` database.

    .venv/bin/python -m bench.import_lock --players 3000 --warm 2 [--db postgres]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.burst import fresh_database

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var" / "bench-import-lock"


def setup(db: str) -> None:
    url = fresh_database(db, "snowman_import_lock", var=VAR)
    os.environ.update(
        DATABASE_URL=url,
        SNOWMAN_VAR_DIR=str(VAR),
        DJANGO_SETTINGS_MODULE="snowman.settings",
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
    )
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--warm", type=int, default=2)
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    setup(args.db)
    from django.db import connection, transaction

    from bench.rating import simulate_series
    from bench.series import document, names
    from tournaments.core.models.event import Tournament
    from tournaments.core.models.people import Person
    from tournaments.series import results_import

    tables = args.players // 4
    _, events = simulate_series(args.players * 2, args.warm + 1, 1, tables=(tables, tables))
    who = names(args.players * 2, 1)
    files = [json.dumps(document(e, who, 1000 + e.number)) for e in events]
    for text in files[:-1]:
        results_import.import_event(text, by="bench", ratings=False)
    print(f"{args.db}: {Person.objects.count()} people before the measured import")

    held: list[float] = []
    real = transaction.atomic

    class Timed:
        @staticmethod
        @contextmanager
        def atomic(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            with real(*a, **kw):
                yield
            held.append(time.perf_counter() - t0)

    waits: list[float] = []
    done = threading.Event()
    desk = Tournament.objects.first()
    assert desk is not None

    def check_ins() -> None:
        # A desk's check-in: one short write transaction, every 50 ms.
        while not done.is_set():
            t0 = time.perf_counter()
            with real():
                Tournament.objects.filter(pk=desk.pk).update(name=desk.name)
            waits.append(time.perf_counter() - t0)
            time.sleep(0.05)
        connection.close()

    results_import.transaction = Timed  # type: ignore[attr-defined,assignment]
    thread = threading.Thread(target=check_ins)
    thread.start()
    t0 = time.perf_counter()
    outcome = results_import.import_event(files[-1], by="bench", ratings=False)
    took = time.perf_counter() - t0
    done.set()
    thread.join()
    print(
        f"import of {outcome.players} players: {took:.2f} s in all; write transaction held "
        f"{held[-1]:.2f} s; a concurrent check-in waited at most {max(waits):.2f} s "
        f"({len(waits)} check-ins)"
    )


if __name__ == "__main__":
    main()
