"""Series benchmark, in-process: import 100 events x 2,000 people from snowman.results/1
files, recompute every rating, and render the series standings page (docs/rating.md).

The events are the rating benchmark's simulated series (``bench.rating``), written as the
export writes them. SQLite by default; ``--db postgres`` uses the ``snowman_i16`` database
(dropped and created afresh).

    .venv/bin/python -m bench.series --people 2000 --events 100 [--db postgres]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var" / "bench-series"

MORE_FIRST = (
    "Abe",
    "Bea",
    "Cy",
    "Dora",
    "Ed",
    "Flo",
    "Gil",
    "Hal",
    "Ida",
    "Jack",
    "Kim",
    "Lou",
    "Mo",
    "Ned",
)
MORE_LAST = (
    "Fischer",
    "Garcia",
    "Haas",
    "Ito",
    "Jensen",
    "Kowalski",
    "Larsen",
    "Meyer",
    "Nagy",
    "Olsen",
    "Patel",
    "Rossi",
    "Silva",
    "Torres",
    "Varga",
    "Weber",
    "Xu",
    "Yilmaz",
    "Ziegler",
    "Abbott",
    "Baker",
    "Clark",
    "Diaz",
    "Ellis",
)


def names(count: int, seed: int) -> list[str]:
    # The simulator's names, and more of them: 2,000 people need a larger pool.
    from tournaments.core.simulate import FIRST, LAST

    rng = random.Random(seed)
    pool = [f"{f} {last}" for f in (*FIRST, *MORE_FIRST) for last in (*LAST, *MORE_LAST)]
    rng.shuffle(pool)
    return [pool[i] if i < len(pool) else f"{pool[i % len(pool)]} {i}" for i in range(count)]


def document(event: Any, who: list[str], lot_seed: int) -> dict[str, Any]:
    from bench.rating import event_standings, match_points

    rounds = []
    for number, matches in enumerate(event.rounds, start=1):
        out = []
        for m in matches:
            hands = []
            for n, (team, points) in enumerate(m.hands, start=1):
                maker = "N" if team == "NS" else "E"
                hands.append(
                    {
                        "number": n,
                        "dealer": "NESW"[(n - 1) % 4],
                        "outcome": "played",
                        "makers": team,
                        "maker": maker,
                        "alone": False,
                        "maker_tricks": 5 if points == 2 else 3,
                        "renege_by": None,
                        "phase": "regular",
                        "points": {
                            "NS": points if team == "NS" else 0,
                            "EW": points if team == "EW" else 0,
                        },
                    }
                )
            bonus = {t: match_points(m, t) - m.score[t] for t in ("NS", "EW")}
            out.append(
                {
                    "table": m.table,
                    "seats": m.seats,
                    "hands": hands,
                    "score": m.score,
                    "winner": m.winner,
                    "override": None,
                    "bonuses": bonus,
                    "players": {
                        str(p): match_points(m, "NS" if pos in "NS" else "EW")
                        for pos, p in m.seats.items()
                    },
                }
            )
        rounds.append(
            {"number": number, "kind": "preliminary", "status": "finished", "matches": out}
        )
    table = event_standings(event, lot_seed)
    return {
        "schema": "snowman.results/1",
        "tournament": {
            "name": f"Series night {event.number}",
            "slug": f"series-night-{event.number}",
            "lot_seed": lot_seed,
            "rules": {},
        },
        "players": [
            {"id": p, "name": who[p], "division": d, "withdrawn": False}
            for p, d in sorted(event.division.items())
        ],
        "rounds": rounds,
        "standings": {
            d: [
                {
                    "rank": s.rank,
                    "player": s.player,
                    "total": s.record.total,
                    "wins": s.record.wins,
                    "margin": s.record.margin,
                    "by_lot": s.decided_by_lot,
                }
                for s in rows
            ]
            for d, rows in table.items()
        },
        "final": None,
    }


def setup(db: str) -> None:
    VAR.mkdir(parents=True, exist_ok=True)
    if db == "sqlite":
        path = VAR / "series.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        url = f"sqlite:///{path}"
    else:
        import psycopg

        with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            c.execute('DROP DATABASE IF EXISTS "snowman_i16" WITH (FORCE)')
            c.execute('CREATE DATABASE "snowman_i16"')
        url = "postgres://postgres@127.0.0.1:5432/snowman_i16"
    os.environ.update(
        DATABASE_URL=url,
        SNOWMAN_VAR_DIR=str(VAR),
        DJANGO_SETTINGS_MODULE="snowman.settings",
        # Production-like: DEBUG off (no query log kept), the test client's host allowed.
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        STATIC_ROOT=str(VAR / "static"),
    )
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup(args.db)
    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.rating import simulate_series
    from tournaments.clubs.services import assign
    from tournaments.core.models.people import Person, PersonProposal
    from tournaments.core.models.play import HandEntry
    from tournaments.core.roles import DIRECTOR_GROUP
    from tournaments.core.services.people import recompute_ratings
    from tournaments.series.results_import import import_event
    from tournaments.series.services import create_series

    _, events = simulate_series(args.people, args.events, args.seed)
    who = names(args.people, args.seed)
    files = [json.dumps(document(e, who, 1000 + e.number)) for e in events]
    size = sum(len(f) for f in files) / 1e6
    print(f"{args.db}: {len(files)} files, {size:.0f} MB of JSON")

    start = time.perf_counter()
    per_file = []
    series = create_series("Bench series", best_of=8)
    for text in files:
        t0 = time.perf_counter()
        # The import and the series' new event, as the series page's "import" does.
        import_event(text, by="bench", series=series, ratings=False)
        per_file.append(time.perf_counter() - t0)
    took = time.perf_counter() - start
    print(
        f"import: {took:.1f} s for {len(files)} events ({Person.objects.count()} people, "
        f"{HandEntry.objects.count()} hands, {PersonProposal.objects.count()} close-name "
        f"proposals); per file median {statistics.median(per_file) * 1000:.0f} ms, "
        f"max {max(per_file) * 1000:.0f} ms"
    )
    t0 = time.perf_counter()
    again = sum(not import_event(text, by="bench", ratings=False).created for text in files[:10])
    print(f"re-import of 10 files: {again} unchanged, {time.perf_counter() - t0:.2f} s")

    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        matches = recompute_ratings()
        times.append(time.perf_counter() - t0)
    print(f"recompute ratings: {matches} matches, median {statistics.median(times):.2f} s")

    user = get_user_model().objects.create_user("bench", password="x", is_staff=True)
    assign(user, DIRECTOR_GROUP)  # the series pages are the director's; staff is no role
    client = Client()
    client.force_login(user)
    for label, url in (
        ("director", f"/director/league/series/{series.slug}/"),
        ("public", f"/series/{series.slug}/"),
    ):
        times = []
        for _ in range(args.repeat):
            reset_queries()
            with CaptureQueriesContext(connection) as queries:
                t0 = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - t0)
            assert response.status_code == 200, response.content[:300]
        print(
            f"series page ({label}, {len(response.content) / 1e6:.1f} MB, "
            f"{len(queries)} queries): median {statistics.median(times) * 1000:.0f} ms, "
            f"max {max(times) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
