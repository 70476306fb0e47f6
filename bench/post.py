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
    parser.add_argument(
        "--stages",
        action="store_true",
        help="time each stage of the hand POST (exclusive times, a hand's median)",
    )
    args = parser.parse_args(argv)

    _, static = setup_django(fresh_database(args.db, args.name), VAR)
    try:
        return measure(args)
    finally:
        shutil.rmtree(static, ignore_errors=True)


# The hand path's stages: (label, module, attribute). Each is timed around its call, and
# a stage's time excludes the stages it calls, so the rows add up to the timed part of
# the view; what the request spends outside them is the "rest" (middleware, the
# session cookie, the view's decorators).
STAGES = [
    ("cookie", "django.http.HttpRequest", "get_signed_cookie"),
    ("session", "tournaments.core.services.tablet", "scope_of"),
    ("body", "tournaments.core.views.tablet", "_body"),
    ("form", "tournaments.core.forms_tablet", "HandForm.__init__"),
    ("form", "tournaments.core.forms_tablet", "TabletForm.is_valid"),
    ("form", "tournaments.core.forms_tablet", "HandForm.hand"),
    ("form", "tournaments.core.forms_tablet", "HandForm.details"),
    ("service", "tournaments.core.services.tablet", "record"),
    ("service", "tournaments.core.services.play", "record_hand"),
    ("lock + read", "tournaments.core.services.play", "_lock"),
    ("rules", "tournaments.core.services.play", "_record"),
    ("insert", "tournaments.core.db.compiled", "insert"),
    ("update", "tournaments.core.db.compiled", "update_many"),
    ("commit", "django.db.transaction", "Atomic.__exit__"),
    ("answer", "tournaments.core.services.tablet", "state_after_hand"),
    ("answer", "tournaments.core.services.tablet", "entry_json"),
    ("json", "tournaments.core.views.tablet", "JsonResponse.__init__"),
]


class Stages:
    """Exclusive time of each stage a request passes through (``STAGES``)."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.stack: list[list[float]] = []
        self.undo: list[tuple[object, str, object]] = []

    def install(self) -> None:
        import importlib

        for label, module, name in STAGES:
            head, _, tail = module.rpartition(".")
            try:
                owner: object = importlib.import_module(module)
            except ImportError:  # a class named with its module
                owner = getattr(importlib.import_module(head), tail)
            *path, attr = name.split(".")
            for part in path:
                owner = getattr(owner, part)
            if isinstance(owner, type) and attr not in vars(owner):
                owner = next(k for k in owner.__mro__ if attr in vars(k))
            original = getattr(owner, attr)
            self.undo.append((owner, attr, original))
            setattr(owner, attr, self.wrap(label, original))

    def remove(self) -> None:
        for owner, attr, original in reversed(self.undo):
            setattr(owner, attr, original)

    def wrap(self, label: str, func):  # type: ignore[no-untyped-def]
        def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
            frame = [time.perf_counter(), 0.0]  # started, time spent in inner stages
            self.stack.append(frame)
            try:
                return func(*args, **kwargs)
            finally:
                self.stack.pop()
                spent = time.perf_counter() - frame[0]
                self.totals[label] = self.totals.get(label, 0.0) + spent - frame[1]
                if self.stack:
                    self.stack[-1][1] += spent

        return timed

    def take(self) -> dict[str, float]:
        totals, self.totals = self.totals, {}
        return totals


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
    least_profile = cProfile.Profile() if args.profile else None  # beside it: FILE.least
    stages = Stages() if args.stages else None
    per_hand: list[dict[str, float]] = []
    for table, (client, csrf) in clients.items():
        for _ in range(5):
            timed(lambda c=client: c.get("/bench/ping"), *floor)
        for post in posts[table][:5] if spare is not None else []:
            if least_profile:
                least_profile.enable()
            status, _sql = timed(
                lambda c=client, p=post, k=csrf, m=ids[table]: c.post(
                    f"/bench/least-hand/{spare}/{m}",
                    p.body,
                    content_type="application/json",
                    headers={"X-CSRFToken": k},
                ),
                *least,
            )
            if least_profile:
                least_profile.disable()
            assert status == 201, status
        for post in posts[table]:
            if profile:
                profile.enable()
            if stages:
                stages.install()
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
            if stages:
                stages.remove()
                per_hand.append(stages.take() | {"whole": hands[0][-1]})
            assert status == 201, status
            if post.number == 2 and not second_hand:
                second_hand = sql
        for _ in range(3):
            timed(lambda c=client: c.get("/t/table/state.json"), *polls)
    if profile:
        profile.dump_stats(args.profile)
    if least_profile:
        least_profile.dump_stats(f"{args.profile}.least")
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
    if per_hand:
        print_stages(per_hand, statistics.median(least[0]) if least[0] else None)
    for name, measured in [("least hand", least)] * bool(least[0]) + [("hand POST", hands)]:
        ratio = statistics.median(measured[0]) / statistics.median(floor[0])
        cpu_ratio = statistics.median(measured[1]) / statistics.median(floor[1])
        print(f"{name} / floor: {ratio:.1f}x wall, {cpu_ratio:.1f}x this process's CPU")
    return 0


def print_stages(per_hand: list[dict[str, float]], least: float | None) -> None:
    """Each stage's median over the hands (timed, so a little above the plain run's)."""
    labels = list(dict.fromkeys(label for label, _, _ in STAGES))
    whole = statistics.median(h["whole"] for h in per_hand)
    print("a hand POST's stages (median ms; the wrappers add a few µs each):")
    inside = 0.0
    for label in labels:
        ms = statistics.median(h.get(label, 0.0) for h in per_hand) * 1000
        inside += ms
        print(f"  {label:<12} {ms:6.3f} ms")
    print(f"  {'rest':<12} {whole * 1000 - inside:6.3f} ms  (middleware, cookie, decorators)")
    print(f"  {'whole':<12} {whole * 1000:6.3f} ms", end="")
    print(f"  (least hand {least * 1000:.3f} ms)" if least else "")


if __name__ == "__main__":
    sys.exit(main())
