"""Simulated tablets: the load generator for the burst benchmark and tests.

Each ``Tablet`` is one scorekeeper's device: it opens its table link (trading the token
for a session cookie, like the real screen), then posts hands to the real endpoints
with a keep-alive HTTP connection. Plain ``http.client`` and threads: one thread per
tablet, all released at the same instant by a barrier.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from tournaments.domain.hands import SEATS, Seat
from tournaments.domain.match import PhasedHand, replay
from tournaments.domain.rules import RuleSettings
from tournaments.domain.simulation import random_hand

HANDS = "/t/table/hands"
ACKNOWLEDGED = {200, 201}


# --- The hands each table will send ---------------------------------------------------


@dataclass(frozen=True)
class Post:
    """One hand as the tablet queues it: the JSON body never changes between resends."""

    table: int
    number: int
    client_key: str
    body: bytes


def match_hands(
    table: int, match: int, rules: RuleSettings, rng: random.Random, tag: str
) -> list[Post]:
    """A whole match (to the target, no time call) as the tablet would send it: naming
    the match, as the tablet does so that a queued hand never lands in a later round."""
    first_dealer = rng.choice(SEATS)
    hands: list[PhasedHand] = []
    posts = []
    while True:
        hand = random_hand(rng)
        hands.append(PhasedHand(hand))
        number = len(hands)
        key = f"{tag}-{table}-{number}-{uuid.UUID(int=rng.getrandbits(128)).hex[:12]}"
        body = {
            "client_key": key,
            "number": number,
            "match": match,
            "outcome": hand.outcome.value,
            "maker": hand.maker.value if hand.maker else None,
            "alone": hand.alone,
            "maker_tricks": hand.maker_tricks,
            "renege_by": hand.renege_by.value if hand.renege_by else None,
            "first_dealer": first_dealer.value,
            "entered_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        }
        posts.append(Post(table, number, key, json.dumps(body).encode()))
        if replay(hands, first_dealer=Seat(first_dealer), rules=rules).over:
            return posts


def plan(
    matches: Mapping[int, int], rules: RuleSettings, seed: int, tag: str
) -> dict[int, list[Post]]:
    """Each table's match (``matches``: table → match id) as its tablet will send it."""
    return {
        t: match_hands(t, m, rules, random.Random(f"{seed}-{tag}-{t}"), tag)
        for t, m in matches.items()
    }


# --- One tablet ----------------------------------------------------------------------


@dataclass
class Result:
    status: int  # 0: no answer (connection refused, reset, timed out)
    seconds: float
    error: str = ""


class Tablet:
    def __init__(self, port: int, token: str, *, timeout: float = 60) -> None:
        self.port, self.token, self.timeout = port, token, timeout
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def _connection(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        return self.conn

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[Result, bytes]:
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/json"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        start = time.perf_counter()
        while True:
            reused = self.conn is not None
            try:
                conn = self._connection()
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
                break
            except (OSError, http.client.HTTPException) as exc:
                self.close()
                if reused and isinstance(exc, http.client.RemoteDisconnected | ConnectionError):
                    # The server had closed the idle keep-alive connection as the request
                    # went out, unanswered: like a browser, resend once on a new one.
                    continue
                # A dead or restarted server: the caller decides to resend.
                return Result(0, time.perf_counter() - start, f"{type(exc).__name__}: {exc}"), b""
        elapsed = time.perf_counter() - start
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return Result(response.status, elapsed), data

    def open(self) -> None:
        """Trade the link's token for a table session, then load the table's state (which
        sets the CSRF cookie; the screen itself comes from the service worker's cache)."""
        result, _ = self.request("GET", f"/t/{self.token}/")
        if result.status != 302:
            raise RuntimeError(f"opening the table link answered {result.status} {result.error}")
        result, _ = self.request("GET", "/t/table/state.json")
        if result.status != 200 or "csrftoken" not in self.cookies:
            raise RuntimeError(f"the table state answered {result.status} {result.error}")

    def send(self, post: Post) -> Result:
        result, data = self.request("POST", HANDS, post.body)
        if result.status not in ACKNOWLEDGED and result.status:
            result.error = data[:200].decode("utf-8", "replace")
        return result

    def send_until_acknowledged(
        self, post: Post, log: list[Result], give_up: float = 120
    ) -> Result:
        """What the offline queue does: resend the same body until the server has it."""
        deadline = time.monotonic() + give_up
        while True:
            result = self.send(post)
            log.append(result)
            if result.status in ACKNOWLEDGED or time.monotonic() > deadline:
                return result
            if result.status and result.status < 500:
                return result  # a refusal is an answer: resending would not change it
            time.sleep(0.2)


def open_all(tablets: Sequence[Tablet], concurrency: int = 16) -> None:
    run_parallel([t.open for t in tablets], concurrency)


def run_parallel(actions: Sequence[Callable[[], object]], concurrency: int) -> None:
    """Run the actions on at most ``concurrency`` threads; re-raise the first failure."""
    errors: list[BaseException] = []
    pending = list(actions)
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                if not pending or errors:
                    return
                action = pending.pop()
            try:
                action()
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
                errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(min(concurrency, len(actions)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


# --- Phases --------------------------------------------------------------------------


@dataclass
class Phase:
    name: str
    results: list[Result] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float | None = None  # the server's and the database's, when measured
    db_cpu_seconds: float | None = None  # the database's part of it
    # This process's: the simulated tablets share the server's cores, so what they burn
    # is CPU the server did not get.
    client_cpu_seconds: float | None = None

    @property
    def statuses(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for r in self.results:
            counts[r.status] = counts.get(r.status, 0) + 1
        return dict(sorted(counts.items()))

    @property
    def server_errors(self) -> int:
        return sum(1 for r in self.results if r.status >= 500)

    @property
    def no_answer(self) -> int:
        return sum(1 for r in self.results if r.status == 0)

    def latency(self) -> dict[str, float]:
        times = sorted(r.seconds for r in self.results if r.status)
        if not times:
            return {"p50": 0.0, "p95": 0.0, "max": 0.0}
        cuts = (
            statistics.quantiles(times, n=100, method="inclusive")
            if len(times) > 1
            else [times[0]] * 99
        )
        return {"p50": cuts[49], "p95": cuts[94], "max": times[-1]}

    @property
    def throughput(self) -> float:
        return len(self.results) / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        lat = self.latency()
        return (
            f"{self.name:<26} {len(self.results):>6} req  "
            f"p50 {lat['p50'] * 1000:7.1f} ms  p95 {lat['p95'] * 1000:7.1f} ms  "
            f"max {lat['max'] * 1000:7.1f} ms  {self.throughput:7.1f} req/s  "
            f"statuses {self.statuses}"
            + (
                f"  server CPU {self.cpu_seconds * 1000 / len(self.results):.2f} ms/req"
                f" (PostgreSQL {(self.db_cpu_seconds or 0) * 1000 / len(self.results):.2f})"
                if self.cpu_seconds is not None and self.results
                else ""
            )
            + (
                f"  tablets' CPU {self.client_cpu_seconds * 1000 / len(self.results):.2f} ms/req"
                if self.client_cpu_seconds is not None and self.results
                else ""
            )
        )


def at_once(
    name: str,
    jobs: Sequence[Callable[[list[Result]], None]],
    during: Callable[[list[list[Result]]], None] | None = None,
    cpu: Callable[[], tuple[float, float]] | None = None,
) -> Phase:
    """Run one job per thread, all released together; every job logs into the phase.

    ``during`` runs in the calling thread while the jobs run, watching their logs (the
    fault test uses it to kill the server part-way)."""
    phase = Phase(name)
    barrier = threading.Barrier(len(jobs) + 1)
    logs: list[list[Result]] = [[] for _ in jobs]
    failures: list[BaseException] = []

    def run(job: Callable[[list[Result]], None], log: list[Result]) -> None:
        barrier.wait()
        try:
            job(log)
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            failures.append(exc)

    threads = [
        threading.Thread(target=run, args=(j, log), daemon=True)
        for j, log in zip(jobs, logs, strict=True)
    ]
    for t in threads:
        t.start()
    cpu_before = cpu() if cpu else (0.0, 0.0)
    client_before = time.process_time()
    barrier.wait()
    start = time.perf_counter()
    if during is not None:
        during(logs)
    for t in threads:
        t.join()
    phase.seconds = time.perf_counter() - start
    phase.client_cpu_seconds = time.process_time() - client_before
    if cpu:
        app, database = (after - before for after, before in zip(cpu(), cpu_before, strict=True))
        phase.cpu_seconds, phase.db_cpu_seconds = app + database, database
    for log in logs:
        phase.results += log
    if failures:
        raise failures[0]
    return phase


def send_all(tablet: Tablet, posts: Sequence[Post]) -> Callable[[list[Result]], None]:
    """A tablet flushing its queue: each hand in order, each until acknowledged."""

    def job(log: list[Result]) -> None:
        for post in posts:
            result = tablet.send_until_acknowledged(post, log)
            if result.status not in ACKNOWLEDGED:
                return  # the rest of the queue would be refused too; the count shows it

    return job


def send_twice(
    first: Tablet, second: Tablet, posts: Sequence[Post]
) -> list[Callable[[list[Result]], None]]:
    """Two connections of one tablet send every hand at the same instant."""
    gate = threading.Barrier(2)

    def job(tablet: Tablet) -> Callable[[list[Result]], None]:
        def run(log: list[Result]) -> None:
            for post in posts:
                gate.wait()
                log.append(tablet.send(post))

        return run

    return [job(first), job(second)]


def ping_all(tablets: Sequence[Tablet], count: int) -> list[Callable[[list[Result]], None]]:
    """The floor: the same number of requests to a trivial view."""

    def job(tablet: Tablet) -> Callable[[list[Result]], None]:
        def run(log: list[Result]) -> None:
            for _ in range(count):
                log.append(tablet.request("GET", "/bench/ping")[0])

        return run

    return [job(t) for t in tablets]
