"""Registrations per second: players apply on the event's page through two app servers.

Starts two app servers (granian, production settings) on one fresh database; N players,
from ``--clients`` threads at once, each open the registration form on one server and send
it, then send the same form again to the other server (a double submit racing across
servers). The event has a cap, so the last applications land on the waitlist. Then the
database is counted: one application per player, places and waitlist as the cap says.

    .venv/bin/python -m bench.registration --db postgres -n 400 --clients 16

Exit status 1 if an application is lost or doubled or a request failed.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import threading
import time
from urllib.parse import urlencode

from bench.burst import VAR, fresh_database
from bench.server import Server, free_port, setup_django

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
KEY = re.compile(r'name="client_key" value="([^"]+)"')


def register(ports: tuple[int, int], slug: str, name: str) -> tuple[int, int, float]:
    """One player: the form from one server, the application to it and again to the
    other. Returns both POSTs' statuses and the seconds of the first GET and POST."""
    started = time.perf_counter()
    first = http.client.HTTPConnection("127.0.0.1", ports[0], timeout=60)
    first.request("GET", f"/e/{slug}/register/")
    page = first.getresponse()
    body = page.read().decode()
    cookie = "; ".join(
        c.split(";", 1)[0] for k, c in page.getheaders() if k.lower() == "set-cookie"
    )
    token, key = TOKEN.search(body), KEY.search(body)
    assert token and key, f"no form on the page ({page.status})"
    form = urlencode(
        {
            "csrfmiddlewaretoken": token.group(1),
            "client_key": key.group(1),
            "name": name,
            "division": "",
            "contact": "",
            "consent": "on",
        }
    )
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    statuses = []
    for port in ports:
        conn = first if port == ports[0] else http.client.HTTPConnection("127.0.0.1", port)
        conn.request("POST", f"/e/{slug}/register/", body=form, headers=headers)
        answer = conn.getresponse()
        answer.read()
        statuses.append(answer.status)
        if port == ports[0]:
            seconds = time.perf_counter() - started
        conn.close()
    return statuses[0], statuses[1], seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    parser.add_argument("-n", "--players", type=int, default=400)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2, help="processes per app server")
    parser.add_argument("--name", default="snowman_bench_registration")
    args = parser.parse_args(argv)

    database = fresh_database(args.db, args.name)
    limits = str(args.players * 10)
    env, static = setup_django(
        database,
        VAR,
        REGISTRATION_LIMIT_PER_ADDRESS=limits,
        REGISTRATION_LIMIT_PER_EVENT=limits,
    )
    from tournaments.core.services.tournaments import create_tournament
    from tournaments.registration import services
    from tournaments.registration.models import Registration, RegistrationPass

    t = create_tournament("Bench Open", by="bench", lot_seed=1)
    cap = args.players * 3 // 4
    services.save_settings(t, open=True, cap_total=cap, cap_a=None, cap_b=None, by="bench")
    ports = (free_port(), free_port())
    servers = [
        Server(env, port, workers=args.workers, server="granian", log=VAR / f"reg-{port}.log")
        for port in ports
    ]
    names = [f"Player {n:05d}" for n in range(args.players)]
    results: list[tuple[int, int, float]] = []
    failures: list[str] = []
    lock = threading.Lock()

    def worker(mine: list[tuple[int, str]]) -> None:
        for n, name in mine:
            order = ports if n % 2 == 0 else (ports[1], ports[0])
            try:
                got = register(order, t.slug, name)
            except Exception as exc:  # counted and printed below
                with lock:
                    failures.append(f"{name}: {exc!r}")
                continue
            with lock:
                results.append(got)

    try:
        for s in servers:
            s.start()
        threads = [
            threading.Thread(target=worker, args=(list(enumerate(names))[i :: args.clients],))
            for i in range(args.clients)
        ]
        started = time.perf_counter()
        [th.start() for th in threads]
        [th.join() for th in threads]
        wall = time.perf_counter() - started
    finally:
        for s in servers:
            s.stop()
        shutil.rmtree(static, ignore_errors=True)

    bad = [r for r in results if r[:2] != (302, 302)]
    stored = Registration.objects.filter(tournament=t)
    counts = {s: stored.filter(status=s).count() for s in ("pending", "waitlist")}
    latencies = sorted(r[2] for r in results)
    p50 = latencies[len(latencies) // 2] if latencies else 0
    p95 = latencies[int(len(latencies) * 0.95)] if latencies else 0
    print(
        f"{args.db}: 2 app servers x {args.workers} granian processes, {args.clients} clients, "
        f"{os.cpu_count()} cpus"
    )
    print(
        f"{len(results)} players in {wall:.1f} s: {len(results) / wall:.1f} registrations/s "
        f"(each a form GET, the POST, and the POST again on the other server); "
        f"form+POST p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"
    )
    print(
        f"stored {stored.count()} applications ({counts['pending']} with a place, "
        f"{counts['waitlist']} waitlisted, cap {cap}), {RegistrationPass.objects.count()} passes"
    )
    ok = (
        not failures
        and not bad
        and stored.count() == args.players
        and counts == {"pending": cap, "waitlist": args.players - cap}
        and RegistrationPass.objects.count() == args.players
    )
    for line in failures[:5] + [f"statuses {r[:2]}" for r in bad[:5]]:
        print(line)
    print("OK: nothing lost, nothing doubled" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
