"""Phones benchmark (issue 15): a 500-table event, 2,000 simulated phones polling their
card while 500 tablets send hands, then the round turnover.

Starts the app under gunicorn with production settings on 127.0.0.1 against a fresh
database, prepares the event through the services (round 1 running), and measures:

1. the floor: the same number of requests to a trivial view;
2. phones alone: every phone polls its card every ``--period`` s with the ETag it holds
   (what a quiet round costs: mostly 304s);
3. tablets alone: every tablet sends a hand every ``--gap`` s and reads its state every
   ``--tablet-poll`` s with the ETag it holds, as the tablet screen does (mostly 304s);
4. tablets + phones: the same two loads at once (hand POST p95 with and without phones);
5. round turnover: the tablets finish their matches before the call, and once every
   phone's card shows its match over (the phones then ask every ``--fast`` s, as the
   card does from a match's end or the call until the next seating) the director
   finalizes the round and at once seats round 2 (the case where the phones wait
   longest: no phone has seen the round finalized); the time until every phone's card
   and every tablet's state shows the new round is measured.

    .venv/bin/python -m bench.phones --db sqlite -n 500
    .venv/bin/python -m bench.phones --db postgres -n 500

Exit status 1 if any request failed or a device never saw its new seat.
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import os
import random
import re
import shutil
import statistics
import threading
import time
from dataclasses import dataclass, field

from bench.burst import VAR, fresh_database
from bench.server import SERVERS, Server, free_port, setup_django

ROUND = re.compile(rb'data-round="(\d*)"')
SEAT = re.compile(rb'data-seat="(\w*)"')
PARTIAL = re.compile(rb'data-partial="1"')
KIND = re.compile(rb'data-kind="(\w+)"')
OVER = re.compile(rb'data-match-over="1"')


@dataclass
class Log:
    seconds: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, seconds: float) -> None:
        with self.lock:
            self.seconds.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def summary(self, name: str, wall: float) -> str:
        times = sorted(self.seconds)
        if len(times) < 2:
            return f"{name:<28} {len(times)} requests"
        cuts = statistics.quantiles(times, n=100, method="inclusive")
        return (
            f"{name:<28} {len(times):>6} req  p50 {cuts[49] * 1000:7.1f} ms  "
            f"p95 {cuts[94] * 1000:7.1f} ms  max {times[-1] * 1000:7.1f} ms  "
            f"{len(times) / wall:6.1f} req/s  statuses {dict(sorted(self.statuses.items()))}"
        )

    def p95(self) -> float:
        """NaN with no request; the one time with one (a short burst on a loaded machine
        may leave a phone a single poll inside it)."""
        times = sorted(self.seconds)
        if len(times) < 2:
            return times[-1] if times else float("nan")
        return statistics.quantiles(times, n=100, method="inclusive")[94]

    @property
    def failures(self) -> int:
        return sum(n for s, n in self.statuses.items() if s == 0 or s >= 500)


class Client:
    """One keep-alive connection; resends once when the server closed it while idle."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> tuple[int, float, bytes, dict[str, str]]:
        h = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            h["Content-Type"] = "application/json"
            h["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        start = time.perf_counter()
        for attempt in (1, 2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                self.conn.request(method, path, body=body, headers=h)
                r = self.conn.getresponse()
                data = r.read()
                break
            except (OSError, http.client.HTTPException):
                if self.conn is not None:
                    self.conn.close()
                self.conn = None
                if attempt == 2:
                    return 0, time.perf_counter() - start, b"", {}
        elapsed = time.perf_counter() - start
        got = {k.lower(): v for k, v in r.getheaders()}
        for k, v in r.getheaders():
            if k.lower() == "set-cookie":
                name, _, rest = v.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return r.status, elapsed, data, got


# --- phones ---------------------------------------------------------------------------


class Phones:
    """``count`` phones, each polling its card every ``period`` s (``fast`` s once its card
    shows the round over), served by a pool of threads from one schedule."""

    def __init__(
        self,
        port: int,
        slug: str,
        players: list[int],
        period: float,
        fast: float,
        slugs: dict[int, str] | None = None,
    ):
        """``slugs``: each player's event, when the phones follow several (bench/clubs.py)."""
        self.port, self.slug, self.period, self.fast = port, slug, period, fast
        self.slugs = slugs or {}
        self.players = players
        self.etags: dict[int, str] = {}
        self.round: dict[int, int] = {}
        self.kind: dict[int, str] = {}
        self.over: dict[int, bool] = {}
        self.seat: dict[int, str] = {}  # what the card shows, as the script sends it back
        self.partial: dict[int, bool] = {}
        self.seen_round_at: dict[int, float] = {}
        self.whole_card_at: dict[int, float] = {}
        self.watch_round: int | None = None
        self.log = Log()
        self.running = False
        self.lock = threading.Lock()
        self.heap: list[tuple[float, int]] = []
        self.threads: list[threading.Thread] = []

    def start(self, threads: int = 48) -> None:
        now = time.monotonic()
        rng = random.Random(1)
        self.heap = [(now + rng.random() * self.period, p) for p in self.players]
        heapq.heapify(self.heap)
        self.running = True
        self.threads = [threading.Thread(target=self._work, daemon=True) for _ in range(threads)]
        for t in self.threads:
            t.start()

    def stop(self) -> None:
        self.running = False
        for t in self.threads:
            t.join()

    def settle(self, period: float) -> None:
        """Until every phone holds its card's ETag (its first answer is a full card),
        then one more period, so the measured phase starts in the steady state."""
        deadline = time.monotonic() + 120
        while len(self.etags) < len(self.players) and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(period)

    def reset_log(self) -> Log:
        old, self.log = self.log, Log()
        return old

    def _work(self) -> None:
        client = Client(self.port)
        rng = random.Random()
        while self.running:
            with self.lock:
                due, player = heapq.heappop(self.heap)
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(min(wait, 0.5))
                if wait > 0.5:
                    with self.lock:
                        heapq.heappush(self.heap, (due, player))
                    continue
            self._poll(client, player)
            # As the card's script: fast from the call, or from the player's match's end;
            # after the new seat alone, the whole card within a few fast beats.
            fast = self.over.get(player) or self.kind.get(player) in ("finished", "called")
            pace = self.fast if fast else self.period
            if self.partial.get(player):
                pace = self.fast * (1 + rng.random() * 3)
            with self.lock:
                heapq.heappush(self.heap, (due + pace, player))
        if client.conn:
            client.conn.close()

    def _poll(self, client: Client, player: int) -> None:
        headers = {"If-None-Match": self.etags[player]} if player in self.etags else {}
        if player in self.seat:
            headers["X-Snowman-Seat"] = self.seat[player]
        status, seconds, body, got = client.request(
            "GET", f"/e/{self.slugs.get(player, self.slug)}/me/{player}/card/", headers=headers
        )
        self.log.add(status, seconds)
        if status == 200:
            partial = PARTIAL.search(body) is not None
            self.partial[player] = partial
            if not partial:  # the new seat alone carries no version
                self.etags[player] = got.get("etag", "")
            m = ROUND.search(body)
            self.round[player] = int(m.group(1)) if m and m.group(1) else 0
            seat = SEAT.search(body)
            self.seat[player] = (
                f"{m.group(1).decode() if m else ''}:{seat.group(1).decode() if seat else ''}"
            )
            k = KIND.search(body)
            self.kind[player] = k.group(1).decode() if k else ""
            self.over[player] = OVER.search(body) is not None
            if self.watch_round is not None and self.round[player] == self.watch_round:
                self.seen_round_at.setdefault(player, time.monotonic())
                if not partial:
                    self.whole_card_at.setdefault(player, time.monotonic())


# --- tablets ----------------------------------------------------------------------------


class Tablets:
    """Each tablet sends its next hand every ``gap`` s and reads its state ``poll`` s after
    its last read was answered (twice the round trip when answers are slow), on one
    connection, one thread per tablet, with the ETag of its last full read (as
    ``static/tablet/api.js`` does; a hand's answer drops it, so the next read is full)."""

    def __init__(self, port: int, links: dict[int, str], posts: dict, gap: float, poll: float):
        self.port, self.gap, self.poll = port, gap, poll
        self.links, self.posts = links, posts
        self.clients = {n: Client(port) for n in links}
        self.sent = dict.fromkeys(links, 0)
        self.hands = Log()
        self.states = Log()
        self.etags: dict[int, str] = {}
        self.seen_round_at: dict[int, float] = {}
        self.watch_round: int | None = None
        self.running = False
        self.threads: list[threading.Thread] = []

    def open(self) -> None:
        for n, c in self.clients.items():
            status, *_ = c.request("GET", f"/t/{self.links[n]}/")
            assert status == 302, status
            status, _, _, got = c.request("GET", "/t/table/state.json")
            assert status == 200 and "csrftoken" in c.cookies, status
            self.etags[n] = got.get("etag", "")

    def start(self, send_hands: bool, poll_state: bool) -> None:
        self.running = True
        self.threads = [
            threading.Thread(target=self._work, args=(n, send_hands, poll_state), daemon=True)
            for n in self.clients
        ]
        for t in self.threads:
            t.start()

    def stop(self) -> None:
        self.running = False
        for t in self.threads:
            t.join()

    def _work(self, table: int, send_hands: bool, poll_state: bool) -> None:
        client = self.clients[table]
        rng = random.Random(table)
        now = time.monotonic()
        next_hand = now + rng.random() * self.gap if send_hands else float("inf")
        next_poll = now + rng.random() * self.poll if poll_state else float("inf")
        while self.running:
            due = min(next_hand, next_poll)
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(min(wait, 0.5))
                continue
            if due == next_hand:
                posts = self.posts[table]
                if self.sent[table] < len(posts):
                    post = posts[self.sent[table]]
                    status, seconds, _, _ = client.request("POST", "/t/table/hands", post.body)
                    self.hands.add(status, seconds)
                    if status in (200, 201):
                        self.sent[table] += 1
                        self.etags.pop(table, None)
                    next_hand += self.gap
                else:
                    next_hand = float("inf")
            else:
                held = self.etags.get(table)
                status, seconds, body, got = client.request(
                    "GET", "/t/table/state.json", headers={"If-None-Match": held} if held else {}
                )
                self.states.add(status, seconds)
                # As static/tablet/tablet.js does: the next poll ``poll`` s after this one
                # is answered, or twice its round trip when answers are slow.
                next_poll = time.monotonic() + max(self.poll, 2 * seconds)
                if status == 200:
                    self.etags[table] = got.get("etag", "")
                if status == 200 and self.watch_round is not None:
                    data = json.loads(body)
                    # The tablet shows the new seats as soon as its state names the
                    # seated round (before the round starts, as "next round").
                    numbers = {
                        (data.get("round") or {}).get("number"),
                        (data.get("next_round") or {}).get("number"),
                    }
                    if self.watch_round in numbers:
                        self.seen_round_at.setdefault(table, time.monotonic())

    def settle(self) -> None:
        """Until every tablet holds its state's ETag, then one more poll period."""
        deadline = time.monotonic() + 120
        while len(self.etags) < len(self.clients) and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(self.poll)

    def flush(self) -> None:
        """Send every hand not yet sent, all tablets at once."""

        def run(table: int) -> None:
            client = self.clients[table]
            for post in self.posts[table][self.sent[table] :]:
                for _ in range(50):
                    status, *_ = client.request("POST", "/t/table/hands", post.body)
                    if status in (200, 201):
                        break
                    time.sleep(0.2)
                self.sent[table] += 1
            self.etags.pop(table, None)

        threads = [threading.Thread(target=run, args=(n,)) for n in self.clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def floor(port: int, requests: int, threads: int = 48) -> Log:
    log = Log()
    per = max(1, requests // threads)

    def run() -> None:
        c = Client(port)
        for _ in range(per):
            status, seconds, _, _ = c.request("GET", "/bench/ping")
            log.add(status, seconds)

    ts = [threading.Thread(target=run) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return log


def percentile(values: list[float], p: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(sorted(values), n=100, method="inclusive")[p - 1]


def per_request(server: Server, before: tuple[float, float], requests: int, wall: float) -> str:
    used = sum(server.cpu_seconds()) - sum(before)
    return (
        f"  server CPU {used / wall:.2f} cores, {used * 1000 / max(1, requests):.2f} ms a request; "
        f"machine load {os.getloadavg()[0]:.1f}"
    )


def spread(name: str, times: list[float], out_of: int) -> str:
    return (
        f"{name}: {len(times)}/{out_of}, p50 {percentile(times, 50):.1f} s, "
        f"p95 {percentile(times, 95):.1f} s, last {max(times, default=float('nan')):.1f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("-n", "--tables", type=int, default=500)
    parser.add_argument("--phones", type=int, default=2000)
    parser.add_argument("--period", type=float, default=15)
    parser.add_argument("--fast", type=float, default=3)
    parser.add_argument(
        "--gap", type=float, default=60, help="seconds between a tablet's hands (real: ~100)"
    )
    parser.add_argument("--tablet-poll", type=float, default=3)
    parser.add_argument(
        "--phones-only-turnover",
        action="store_true",
        help="the tablets do not read their state in the turnover: the phones' part alone",
    )
    parser.add_argument(
        "--no-state-during-play",
        dest="state_during_play",
        action="store_false",
        help="tablets only send hands while playing (they read their state in the turnover)",
    )
    parser.add_argument(
        "--turnover-only",
        action="store_true",
        help="the floor, then the round turnover alone (phases 2-4 skipped): issue 22's figure",
    )
    parser.add_argument("--seconds", type=float, default=60, help="length of each load phase")
    parser.add_argument("--workers", type=int, default=4)
    # The event server (bin/serve) is granian with 2 workers x 4 threads.
    parser.add_argument("--server", choices=SERVERS, default="gunicorn")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--port", type=int, default=8151)
    parser.add_argument("--name", default="snowman_i15_phones")
    parser.add_argument("--pg-host", default="127.0.0.1")
    args = parser.parse_args(argv)

    database = fresh_database(args.db, args.name, args.pg_host)
    env, static = setup_django(database, VAR / "phones", CONN_MAX_AGE="60")

    from django.db import connections

    from bench.load import plan
    from bench.scenario import BY, matches, prepare_event, tokens
    from tournaments.core.models.event import Player
    from tournaments.core.models.rounds import Round
    from tournaments.core.services import rounds

    started = time.perf_counter()
    t = prepare_event(args.tables, name="Phones")
    players = list(Player.objects.filter(tournament=t).order_by("pk").values_list("pk", flat=True))[
        : args.phones
    ]
    r1 = t.rounds.get(number=1)
    posts = plan(matches(r1), t.rules, seed=1, tag=f"ph-{t.pk}")
    links = tokens(t)
    print(
        f"prepared {args.tables} tables, {len(players)} phones in "
        f"{time.perf_counter() - started:.1f} s"
    )
    connections.close_all()
    port = args.port or free_port()
    server = Server(
        env,
        port,
        workers=args.workers,
        threads=args.threads,
        server=args.server,
        log=VAR / "phones" / f"{args.server}.log",
    )
    print(
        f"{args.db}: {args.server} {args.workers} workers"
        f"{f' x {args.threads} threads' if args.threads > 1 else ''} on 127.0.0.1:{port}, "
        f"{os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f} (other work on the machine); "
        f"phones every {args.period} s "
        f"({args.fast} s between rounds), tablets: a hand every {args.gap} s, "
        f"state every {args.tablet_poll} s"
    )
    ok = True
    try:
        with server:
            tablets = Tablets(port, links, posts, args.gap, args.tablet_poll)
            tablets.open()
            phones = Phones(port, t.slug, players, args.period, args.fast)

            cpu0 = server.cpu_seconds()
            w = time.perf_counter()
            fl = floor(port, len(players))
            print(fl.summary("floor (trivial view)", time.perf_counter() - w))
            floor_p95 = fl.p95()
            print(per_request(server, cpu0, len(fl.seconds), time.perf_counter() - w))

            if args.turnover_only:
                # The phones hold their cards' ETags, as after a round's play.
                phones.start()
                phones.settle(args.period)
            else:
                phones.start()
                phones.settle(args.period)
                phones.reset_log()
                cpu0 = server.cpu_seconds()
                w = time.perf_counter()
                time.sleep(args.seconds)
                quiet = phones.reset_log()
                print(quiet.summary("phones alone (card poll)", time.perf_counter() - w))
                print(per_request(server, cpu0, len(quiet.seconds), time.perf_counter() - w))
                phones.stop()

                cpu0 = server.cpu_seconds()
                w = time.perf_counter()
                tablets.start(send_hands=True, poll_state=args.state_during_play)
                time.sleep(args.seconds)
                tablets.stop()
                wall = time.perf_counter() - w
                alone_cpu = sum(server.cpu_seconds()) - sum(cpu0)
                alone = tablets.hands
                print(alone.summary("tablets alone: hand POST", wall))
                print(tablets.states.summary("tablets alone: state read", wall))
                requests = len(alone.seconds) + len(tablets.states.seconds)
                print(
                    f"  server CPU {alone_cpu / wall:.2f} cores, "
                    f"{alone_cpu * 1000 / max(1, requests):.2f} ms a request "
                    "(hands and state reads)"
                )
                tablets.hands, tablets.states = Log(), Log()

                phones.start()
                phones.settle(args.period)
                phones.reset_log()
                cpu0 = server.cpu_seconds()
                w = time.perf_counter()
                tablets.start(send_hands=True, poll_state=args.state_during_play)
                time.sleep(args.seconds)
                tablets.stop()
                wall = time.perf_counter() - w
                mixed_cpu = sum(server.cpu_seconds()) - sum(cpu0)
                mixed_phones = phones.reset_log()
                mixed = tablets.hands
                print(mixed.summary("tablets+phones: hand POST", wall))
                print(tablets.states.summary("tablets+phones: state read", wall))
                print(mixed_phones.summary("tablets+phones: card poll", wall))
                requests = (
                    len(mixed.seconds) + len(tablets.states.seconds) + len(mixed_phones.seconds)
                )
                print(
                    f"  server CPU {mixed_cpu / wall:.2f} cores, "
                    f"{mixed_cpu * 1000 / max(1, requests):.2f} ms a request (hands, states, cards)"
                )
                cost = mixed.p95() / alone.p95() - 1
                print(f"hand POST p95 with phones / without: {cost * 100:+.0f}%")
                ok &= not (alone.failures or mixed.failures or mixed_phones.failures)

            # Round turnover.
            tablets.flush()
            connections.close_all()
            deadline = time.monotonic() + args.period + 10
            while time.monotonic() < deadline and sum(
                1 for p in players if phones.over.get(p)
            ) < len(players):
                time.sleep(0.5)
            over = sum(1 for p in players if phones.over.get(p))
            print(f"phones showing their match over before the seating: {over}/{len(players)}")
            if not args.phones_only_turnover:
                # The tablets read their state all along, as the screen does: each holds
                # the ETag of its finished match before the seating.
                tablets.start(send_hands=False, poll_state=True)
                tablets.settle()
            tablets.watch_round = phones.watch_round = 2
            tablets.hands, tablets.states = Log(), Log()
            phones.reset_log()
            # Finalized and seated back to back: no phone has seen the round over.
            rounds.finish_round(t, Round.objects.get(pk=r1.pk), by=BY, backup=False, seat=False)
            cpu0 = server.cpu_seconds()
            t0 = time.monotonic()
            seat_started = time.perf_counter()
            rounds.seat_next_round(t, by=BY)
            seat_seconds = time.perf_counter() - seat_started
            connections.close_all()
            limit = t0 + 60
            tablets_expected = 0 if args.phones_only_turnover else len(links)
            while time.monotonic() < limit and (
                len(phones.seen_round_at) < len(players)
                or len(tablets.seen_round_at) < tablets_expected
            ):
                time.sleep(0.2)
            # The new seat may come alone first (views/public.SEAT_HEADER): the whole
            # card (partner, opponents, clock) follows within a few fast beats.
            while time.monotonic() < limit and len(phones.whole_card_at) < len(players):
                time.sleep(0.2)
            tablets.stop()
            phones.stop()
            turnover_log = phones.reset_log()
            print(turnover_log.summary("turnover: card poll", time.monotonic() - t0))
            print(
                per_request(
                    server,
                    cpu0,
                    len(turnover_log.seconds) + len(tablets.states.seconds),
                    time.monotonic() - t0,
                )
            )
            print(tablets.states.summary("turnover: tablet state", time.monotonic() - t0))
            phone_times = [v - t0 for v in phones.seen_round_at.values()]
            tablet_times = [v - t0 for v in tablets.seen_round_at.values()]
            print(f"seating round 2 (the service call): {seat_seconds:.2f} s")
            print(spread("phones with the new seat", phone_times, len(players)))
            print(spread("tablets with the new seat", tablet_times, len(links)))
            whole = [v - t0 for v in phones.whole_card_at.values()]
            print(spread("phones with the whole card", whole, len(players)))
            everyone = max(phone_times + tablet_times, default=float("nan"))
            who = "every phone" if args.phones_only_turnover else "every phone and tablet"
            print(
                f"ROUND TURNOVER ({who}): max {everyone:.1f} s, "
                f"p95 {percentile(phone_times + tablet_times, 95):.1f} s "
                f"(target: max 5 s); the floor's p95 in this run {floor_p95 * 1000:.0f} ms, "
                f"load {os.getloadavg()[0]:.1f}"
            )
            ok &= len(phone_times) == len(players) and len(tablet_times) == tablets_expected
            ok &= not turnover_log.failures
    finally:
        shutil.rmtree(static, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
