"""Burst benchmark: N tablets send a whole match's hands at the same instant.

Starts the app under gunicorn with production settings on 127.0.0.1 against a fresh
database, then: the floor (the same number of requests to a trivial view); the burst
(every tablet flushes its match at once through the real tablet endpoints); the replay
(the same requests again); and the next round with every request sent twice at the
same instant. The hands are then counted in the database.

    .venv/bin/python -m bench.burst --db sqlite -n 100
    .venv/bin/python -m bench.burst --db postgres -n 500 --workers 5

Exit status 1 if any hand is lost or doubled or any request failed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path
from urllib.parse import quote

from bench.server import SERVERS, Server, free_port, setup_django

VAR = Path("/tmp/hardening-bench")
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


def fresh_database(kind: str, name: str, pg_host: str = "127.0.0.1", var: Path = VAR) -> str:
    """An empty database called ``name`` (a SQLite file in ``var``, or a PostgreSQL
    database dropped and made again): its DATABASE_URL."""
    if kind == "sqlite":
        var.mkdir(parents=True, exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{var / name}.sqlite3{suffix}").unlink(missing_ok=True)
        return f"sqlite:///{var / name}.sqlite3"
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    # A host that is a directory means PostgreSQL's Unix socket there.
    return f"postgres://postgres@{quote(pg_host, safe='')}:5432/{name}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("-n", "--tables", type=int, default=100)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--server", choices=SERVERS, default="gunicorn")
    parser.add_argument("--worker-class", default="sync", help="gunicorn's only")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--port", type=int, default=8105)
    parser.add_argument("--name", default="snowman_bench")
    parser.add_argument(
        "--pg-host",
        default="127.0.0.1",
        help="PostgreSQL's host, or the directory of its Unix socket",
    )
    parser.add_argument(
        "--conn-max-age",
        default="60",
        help="CONN_MAX_AGE for the server (0: a connection per request)",
    )
    args = parser.parse_args(argv)

    database = fresh_database(args.db, args.name, args.pg_host)
    env, static = setup_django(database, VAR, CONN_MAX_AGE=args.conn_max_age)

    from bench.scenario import prepare_event, run

    started = time.perf_counter()
    t = prepare_event(args.tables)
    print(f"prepared {args.tables} tables in {time.perf_counter() - started:.1f} s")
    port = args.port or free_port()
    server = Server(
        env,
        port,
        workers=args.workers,
        worker_class=args.worker_class,
        threads=args.threads,
        log=VAR / f"{args.server}.log",
        server=args.server,
    )
    print(
        f"{args.db} (CONN_MAX_AGE={args.conn_max_age}): "
        f"{args.server} {args.workers} x "
        f"{args.worker_class if args.server == 'gunicorn' else 'process'}"
        f"{f' x {args.threads} threads' if args.threads > 1 else ''} on 127.0.0.1:{port}, "
        f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f}"
    )
    try:
        with server:
            report = run(t, port, cpu=server.cpu_seconds)
    finally:
        shutil.rmtree(static, ignore_errors=True)
    for line in report.lines():
        print(line)
    return 0 if report.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())
