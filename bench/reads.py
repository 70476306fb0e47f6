"""Read benchmark: standings (HTML, CSV, PDF) and the live board of a 500-table event.

The event is played through the services by the simulator (rounds 1-4 finished, round 5
running with hands at half the tables) and kept between runs (``--rebuild`` to redo
it). The pages are found by URL name; a page not built yet is reported as missing.
Each page is measured single-user (sequential requests) and under concurrent readers,
through gunicorn with production settings.

    .venv/bin/python -m bench.reads --db sqlite --tables 500
    .venv/bin/python -m bench.reads --db postgres --tables 500 --readers 20
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from collections.abc import Callable

from bench.burst import VAR, fresh_database
from bench.server import Server, free_port, setup_django

PAGES = [
    # (label, URL name, arguments after the slug)
    ("standings HTML", "director:standings", ()),
    ("standings CSV (A)", "director:standings_csv", ("A",)),
    ("standings PDF (A)", "sheets:standings", ("A",)),
    ("live board (round 5)", "director:board", (5,)),
    ("round console (round 5)", "director:round", (5,)),
    ("projector standings", "public:projector_standings", ()),
]


def build_event(tables: int, seed: int):
    """Four rounds played and finalized, the fifth running with hands at half the tables."""
    from tournaments.core.models.play import HandEntry
    from tournaments.core.services import play, rounds
    from tournaments.core.simulate import Simulation
    from tournaments.domain.hands import Seat
    from tournaments.domain.simulation import random_hand

    sim = Simulation(tables, seed, name=f"Reads {tables} tables")
    t = sim.setup()
    for number in range(1, 5):
        if number > 1:
            rounds.seat_next_round(t, by="bench")
        started = time.perf_counter()
        sim.play_round(t.rounds.get(number=number))
        print(f"  round {number} played in {time.perf_counter() - started:.0f} s", flush=True)
    live = rounds.start_round(rounds.seat_next_round(t, by="bench"), by="bench")
    for match in live.matches.select_related("round__tournament").filter(table__lte=tables // 2):
        play.set_first_dealer(match, Seat(sim.rng.choice("NESW")), by="bench")
        for n in range(1, 1 + sim.rng.randint(1, 5)):
            play.record_hand(
                match,
                random_hand(sim.rng),
                client_key=f"live-{match.pk}-{n}",
                by="bench",
                source=HandEntry.Source.SIMULATION,
            )
    return t


def director_cookie() -> str:
    """A signed-in director's session cookie, made directly (the login form is not what
    this benchmark measures)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from tournaments.clubs.services import assign

    user, _ = User.objects.get_or_create(username="bench-director", defaults={"is_staff": True})
    user.set_password("bench-director-password")
    user.is_staff = True
    user.save()
    assign(user, "director")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--readers", type=int, default=10)
    parser.add_argument("--requests", type=int, default=10, help="per reader, per page")
    parser.add_argument("--single", type=int, default=15, help="single-user requests")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--port", type=int, default=8106)
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args(argv)

    name = f"snowman_bench_reads{args.tables}"
    marker = VAR / f"{name}.{args.db}.built"
    if args.rebuild or not marker.exists():
        database = fresh_database(args.db, name)
        marker.unlink(missing_ok=True)
    elif args.db == "sqlite":
        database = f"sqlite:///{VAR / name}.sqlite3"
    else:
        database = f"postgres://postgres@127.0.0.1:5432/{name}"
    env, static = setup_django(database, VAR)
    from django.db import connections
    from django.urls import NoReverseMatch, reverse

    from tournaments.core.models.event import Tournament
    from tournaments.core.models.play import HandEntry

    if not marker.exists():
        print(f"building a {args.tables}-table event (once; kept in {database})", flush=True)
        started = time.perf_counter()
        build_event(args.tables, args.seed)
        marker.write_text(database)
        print(f"  built in {time.perf_counter() - started:.0f} s")
    t = Tournament.objects.get(name=f"Reads {args.tables} tables")
    print(
        f"event: {t.players.count()} players, {t.rounds.count()} rounds, "
        f"{HandEntry.objects.filter(match__round__tournament=t).count()} hands"
    )
    cookie = director_cookie()
    connections.close_all()

    from bench.load import Result, Tablet, at_once

    urls, missing = [], []
    for label, url_name, extra in PAGES:
        try:
            urls.append((label, reverse(url_name, args=[t.slug, *extra])))
        except NoReverseMatch:
            missing.append(f"{label} ({url_name})")

    port = args.port or free_port()
    print(
        f"{args.db}: gunicorn {args.workers} x sync on 127.0.0.1:{port}, {os.cpu_count()} "
        f"cpus, load {os.getloadavg()[0]:.2f}; {args.readers} concurrent readers"
    )

    def reader() -> Tablet:
        client = Tablet(port, "")
        client.cookies = {"sessionid": cookie}
        return client

    def reads(client: Tablet, url: str, count: int) -> Callable[[list[Result]], None]:
        def run(log: list[Result]) -> None:
            log.extend(client.request("GET", url)[0] for _ in range(count))

        return run

    failures = 0
    try:
        with Server(env, port, workers=args.workers, log=VAR / "gunicorn-reads.log"):
            for label, url in urls:
                client = reader()
                first, body = client.request("GET", url)
                if first.status != 200:
                    print(f"{label:<26} {url}: answered {first.status}")
                    failures += 1
                    continue
                single = at_once(f"{label} single", [reads(client, url, args.single)])
                crowd = at_once(
                    f"{label} x{args.readers}",
                    [reads(reader(), url, args.requests) for _ in range(args.readers)],
                )
                s, c = single.latency(), crowd.latency()
                bad = {k: v for k, v in {**single.statuses, **crowd.statuses}.items() if k != 200}
                failures += bool(bad)
                print(
                    f"{label:<26} {len(body) / 1024:7.0f} KiB  single p50 "
                    f"{s['p50'] * 1000:6.0f} ms p95 {s['p95'] * 1000:6.0f} ms | "
                    f"{args.readers} readers p50 {c['p50'] * 1000:6.0f} ms p95 "
                    f"{c['p95'] * 1000:6.0f} ms max {c['max'] * 1000:6.0f} ms "
                    f"{crowd.throughput:6.1f} req/s" + (f"  NOT 200: {bad}" if bad else ""),
                    flush=True,
                )
    finally:
        shutil.rmtree(static, ignore_errors=True)
    if missing:
        print("missing (not built yet): " + ", ".join(missing))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
