"""Clubs load (issue 25): 10 clubs each running a 50-table event at once, on PostgreSQL
with two app servers behind HAProxy; every tablet flushes its match at the time call while
2,000 phones poll their cards.

In the same run, against the same servers: the floor (a trivial view, as many requests as
the burst); the single event (one club, one event with as many tables as all the clubs
together) under the same burst and the same phones; then the clubs. Each burst is checked
in the database: every hand row stored exactly once (rows and distinct client keys).
The load average is printed with each figure: the machine is shared, the ratios matter.

    .venv/bin/python -m bench.clubs
    .venv/bin/python -m bench.clubs --clubs 10 --tables 10   # a loaded machine

Exit status 1 if any hand is lost or doubled or any request failed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.burst import VAR, fresh_database
from bench.load import Phase, Tablet, at_once, open_all, ping_all, plan, send_all
from bench.phones import Log, Phones
from bench.proxy import Proxy
from bench.server import Server, free_port, setup_django


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


@dataclass
class Burst:
    name: str
    phase: Phase
    phones: Log
    wall: float
    load: str
    problems: list[str] = field(default_factory=list)
    rows: int = 0
    keys: int = 0
    expected: int = 0

    def failures(self) -> int:
        return self.phase.server_errors + self.phase.no_answer + self.phones.failures

    def lines(self) -> list[str]:
        phones = self.phones.summary(f"{self.name}: card poll", self.wall)
        return [
            f"{self.phase.line()}  {self.load}",
            f"{phones}  {self.load}",
            f"  hands: {self.rows} rows, {self.keys} distinct client keys, {self.expected} sent",
            *(f"  PROBLEM: {p}" for p in self.problems),
        ]


def burst(name: str, port: int, events: list, phones: int, period: float) -> Burst:
    """Phones poll the events' cards; once they hold their cards, every tablet of every
    event flushes its whole match at the same instant."""
    from django.db import connections

    from bench.scenario import matches, tokens, verify
    from tournaments.core.models.event import Player
    from tournaments.core.models.play import HandEntry

    tablets: dict[tuple[int, int], Tablet] = {}
    posts: dict[int, dict] = {}
    slugs: dict[int, str] = {}
    for t in events:
        for table, token in tokens(t).items():
            tablets[t.pk, table] = Tablet(port, token)
        posts[t.pk] = plan(matches(t.rounds.get(number=1)), t.rules, seed=1, tag=f"cl-{t.pk}")
        each = Player.objects.filter(tournament=t).order_by("pk").values_list("pk", flat=True)
        slugs.update(dict.fromkeys(each[: max(1, phones // len(events))], t.slug))
    open_all(list(tablets.values()))
    connections.close_all()

    poll = Phones(port, "", list(slugs), period, period, slugs=slugs)
    poll.start(threads=min(48, len(slugs)))
    poll.settle(period)
    poll.reset_log()
    started = time.perf_counter()
    phase = at_once(
        name, [send_all(tablet, posts[pk][table]) for (pk, table), tablet in tablets.items()]
    )
    wall = time.perf_counter() - started
    done = Burst(name, phase, poll.reset_log(), wall, load())
    poll.stop()
    for tablet in tablets.values():
        tablet.close()

    for t in events:
        done.problems += verify(t, t.rounds.get(number=1), posts[t.pk])
    stored = HandEntry.objects.filter(match__round__tournament__in=events)
    done.rows = stored.count()
    done.keys = stored.values("client_key").distinct().count()
    done.expected = sum(len(p) for ps in posts.values() for p in ps.values())
    if not done.rows == done.keys == done.expected:
        done.problems.append(f"{done.rows} rows, {done.keys} keys, {done.expected} expected")
    connections.close_all()
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=10)
    parser.add_argument("-n", "--tables", type=int, default=50, help="tables of each club's event")
    parser.add_argument("--phones", type=int, default=2000)
    parser.add_argument("--period", type=float, default=15, help="seconds between a card's polls")
    parser.add_argument(
        "--port", type=int, default=8130, help="the proxy's; the servers take the next two (0: any)"
    )
    parser.add_argument("--name", default="snowman_clubbench")
    parser.add_argument("--pg-host", default="127.0.0.1")
    args = parser.parse_args(argv)

    database = fresh_database("postgres", args.name, args.pg_host)
    var = Path(tempfile.mkdtemp(prefix="clubbench-", dir=VAR.parent))
    env, static = setup_django(database, var, CONN_MAX_AGE="60")
    # Both instances trust the proxy, as deployed; the proxy's health check names no host.
    env.update(HTTPS="0", TRUSTED_PROXIES="127.0.0.1", ALLOWED_HOSTS="*")

    from django.contrib.auth import get_user_model

    from bench.scenario import matches, prepare_event
    from tournaments.clubs.services import create_club, set_membership
    from tournaments.core.roles import DIRECTOR

    started = time.perf_counter()
    events = []
    for i in range(1, args.clubs + 1):
        club = create_club(f"Bench club {i}", f"bench-{i}")
        events.append(prepare_event(args.tables, name=f"Club {i}", club=club))
        director = get_user_model().objects.create_user(f"bench-director-{i}")
        set_membership(director, club, DIRECTOR, [events[-1]])
    single = prepare_event(args.clubs * args.tables, name="Single")
    print(
        f"prepared {args.clubs} clubs x {args.tables} tables and one event of "
        f"{args.clubs * args.tables} tables in {time.perf_counter() - started:.1f} s"
    )

    if args.port:
        front, one, two = args.port, args.port + 1, args.port + 2
    else:
        front, one, two = free_port(), free_port(), free_port()
    servers = [
        Server(env, port, workers=1, threads=4, server="granian", log=var / f"{port}.log")
        for port in (one, two)
    ]
    print(
        f"postgres: two granian instances (1 worker x 4 threads each) behind HAProxy on "
        f"127.0.0.1:{front}, {os.cpu_count()} cpus, {load()}; phones every {args.period} s"
    )
    tablets = args.clubs * args.tables
    try:
        with servers[0], servers[1], Proxy(var, front, one, two):
            ping = [Tablet(front, "") for _ in range(tablets)]
            # As many requests as the burst: each tablet, as many as its longest match.
            per_tablet = max(
                len(p)
                for p in plan(matches(single.rounds.get(number=1)), single.rules, 1, "f").values()
            )
            floor = at_once("floor (trivial view)", ping_all(ping, per_tablet))
            for p in ping:
                p.close()
            print(f"{floor.line()}  {load()}", flush=True)
            runs = []
            for name, which in (
                (f"1 event x {tablets} tables", [single]),
                (f"{args.clubs} clubs x {args.tables} tables", events),
            ):
                runs.append(burst(name, front, which, args.phones, args.period))
                for line in runs[-1].lines():
                    print(line, flush=True)
    finally:
        shutil.rmtree(static, ignore_errors=True)
    one_event, clubs = runs
    f, s, c = (x.latency()["p95"] for x in (floor, one_event.phase, clubs.phase))
    polls = min(len(clubs.phones.seconds), len(one_event.phones.seconds))
    cards = (
        f"x{clubs.phones.p95() / one_event.phones.p95():.2f}"
        if polls >= 2
        else f"too few polls inside the bursts to compare ({polls})"
    )
    print(
        f"hand POST p95: clubs / one event x{c / s:.2f}, clubs / floor x{c / f:.1f}; "
        f"card poll p95: clubs / one event {cards}"
    )
    ok = all(not r.problems and not r.failures() for r in runs) and not (
        floor.server_errors or floor.no_answer
    )
    print("every hand stored exactly once, zero 5xx" if ok else "FAILED")
    shutil.rmtree(var, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
