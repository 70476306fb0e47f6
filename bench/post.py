"""In-process cost of the tablet's requests: a hand POST and a state poll.

No server and no network: Django's test client in this process, production settings, a
500-table event with round 1 running. Each of ``--sample`` tables posts its whole match;
every POST is timed and its queries counted, then every table polls its state. The
trivial view (``/bench/ping``) is timed the same way, as the floor.

    .venv/bin/python -m bench.post --db sqlite
    .venv/bin/python -m bench.post --db postgres
    .venv/bin/python -m bench.post --db sqlite --show-sql --profile /tmp/post.prof

This is the figure to watch while making a hand cheaper: the burst (``bench.burst``)
is bounded by it, at about ``workers / cost`` POSTs a second once the cores are busy.
"""

from __future__ import annotations

import argparse
import cProfile
import shutil
import statistics
import sys
import time

from bench.burst import VAR, fresh_database
from bench.server import setup_django


def summary(name: str, seconds: list[float], cpu: list[float], queries: list[int]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"{name:<12} n={len(ms):<5} median {statistics.median(ms):6.2f} ms  "
        f"p95 {p95:6.2f} ms  this process's CPU median "
        f"{statistics.median(cpu) * 1000:5.2f} ms  {statistics.median(queries):.0f} queries"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("-n", "--tables", type=int, default=500)
    parser.add_argument("--sample", type=int, default=40, help="tables that post")
    parser.add_argument("--name", default="snowman_bench_post")
    parser.add_argument(
        "--show-sql", action="store_true", help="print the statements of one hand POST"
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="write a cProfile of the hand POSTs to FILE"
    )
    args = parser.parse_args(argv)

    _, static = setup_django(fresh_database(args.db, args.name), VAR)
    try:
        return measure(args)
    finally:
        shutil.rmtree(static, ignore_errors=True)


def measure(args: argparse.Namespace) -> int:
    from django.db import connection
    from django.test import Client

    from bench.load import plan
    from bench.scenario import RULES, matches, prepare_event, tokens

    t = prepare_event(args.tables, name="Post")
    links = tokens(t)
    step = max(1, args.tables // args.sample)
    sample = sorted(links)[::step][: args.sample]
    ids = matches(t.rounds.get(number=1))
    posts = plan({table: ids[table] for table in sample}, RULES, seed=args.tables, tag="post")

    clients = {}
    for table in sample:
        client = Client(enforce_csrf_checks=True, HTTP_HOST="127.0.0.1")
        assert client.get(f"/t/{links[table]}/").status_code == 302
        assert client.get("/t/table/state.json").status_code == 200
        clients[table] = (client, client.cookies["csrftoken"].value)

    def timed(
        call, times: list[float], cpu: list[float], counts: list[int]
    ) -> tuple[int, list[str]]:
        # Counted by an execute wrapper rather than Django's debug cursor, which would
        # add its own bookkeeping (a few hundred µs a hand) to the CPU measured.
        sql: list[str] = []

        def note(execute, statement, params, many, context):  # type: ignore[no-untyped-def]
            sql.append(statement)
            return execute(statement, params, many, context)

        with connection.execute_wrapper(note):
            started, cpu_started = time.perf_counter(), time.process_time()
            status = call().status_code
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        counts.append(len(sql))
        return status, sql

    # The least a hand can cost (bench/urls.py) writes to a match no tablet posts to.
    spare = next((ids[table] for table in sorted(ids) if table not in clients), None)
    floor: tuple[list[float], list[float], list[int]] = ([], [], [])
    least: tuple[list[float], list[float], list[int]] = ([], [], [])
    hands: tuple[list[float], list[float], list[int]] = ([], [], [])
    polls: tuple[list[float], list[float], list[int]] = ([], [], [])
    second_hand: list[str] = []  # a hand that neither starts nor ends its match
    # The profile covers the hand POSTs alone (the figure being cut).
    profile = cProfile.Profile() if args.profile else None
    for table, (client, csrf) in clients.items():
        for _ in range(5):
            timed(lambda c=client: c.get("/bench/ping"), *floor)
        for post in posts[table][:5] if spare is not None else []:
            status, _sql = timed(
                lambda c=client, p=post, k=csrf, m=ids[table]: c.post(
                    f"/bench/least-hand/{spare}/{m}",
                    p.body,
                    content_type="application/json",
                    headers={"X-CSRFToken": k},
                ),
                *least,
            )
            assert status == 201, status
        for post in posts[table]:
            if profile:
                profile.enable()
            status, sql = timed(
                lambda c=client, p=post, k=csrf: c.post(
                    "/t/table/hands",
                    p.body,
                    content_type="application/json",
                    headers={"X-CSRFToken": k},
                ),
                *hands,
            )
            if profile:
                profile.disable()
            assert status == 201, status
            if post.number == 2 and not second_hand:
                second_hand = sql
        for _ in range(3):
            timed(lambda c=client: c.get("/t/table/state.json"), *polls)
    if profile:
        profile.dump_stats(args.profile)
    if args.show_sql:
        print("the statements of a hand POST (the second of a match):")
        for sql in second_hand:
            print("  " + sql[:150])
    print(f"{args.db}, {args.tables} tables, {len(sample)} tablets posting")
    print(summary("floor", *floor))
    if least[0]:
        print(summary("least hand", *least))
    print(summary("hand POST", *hands))
    print(summary("state GET", *polls))
    for name, measured in [("least hand", least)] * bool(least[0]) + [("hand POST", hands)]:
        ratio = statistics.median(measured[0]) / statistics.median(floor[0])
        cpu_ratio = statistics.median(measured[1]) / statistics.median(floor[1])
        print(f"{name} / floor: {ratio:.1f}x wall, {cpu_ratio:.1f}x this process's CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
