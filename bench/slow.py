"""Slow clients: does a client that trickles its request stall everyone else?

Starts the app with production settings on 127.0.0.1 against a fresh SQLite database,
connects ``--slow`` clients that each send a request one byte a second (a phone on a
weak Wi-Fi edge, or someone doing it on purpose), and meanwhile times ordinary requests
(the sign-in page) from a well-connected client. Bounded: the slow clients give up after
``--seconds``, every ordinary request after 10 s.

    .venv/bin/python -m bench.slow --server granian --workers 2 --threads 8
    .venv/bin/python -m bench.slow --server gunicorn --workers 2

Exit status 1 if any ordinary request took 1 s or more.
"""

from __future__ import annotations

import argparse
import http.client
import shutil
import socket
import statistics
import threading
import time
from pathlib import Path

from bench.server import SERVERS, Server, free_port, setup_django

VAR = Path("/tmp/snowman-bench-slow")


def slow_client(port: int, stop: threading.Event, kind: str) -> None:
    """Send a request a byte a second until told to stop (or the server hangs up)."""
    if kind == "headers":
        request = b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    else:  # a body that never finishes arriving
        request = (
            b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n"
            + b"u"
            * 500
        )
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        for i in range(len(request)):
            if stop.is_set():
                return
            try:
                sock.sendall(request[i : i + 1])
            except OSError:
                return
            stop.wait(1.0)


def timed_get(port: int, path: str) -> float:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        assert response.status == 200, response.status
    except (OSError, AssertionError):
        return float("inf")
    finally:
        conn.close()
    return time.perf_counter() - started


def measure(port: int, slow: int, seconds: float, kind: str) -> list[float]:
    stop = threading.Event()
    clients = [
        threading.Thread(target=slow_client, args=(port, stop, kind), daemon=True)
        for _ in range(slow)
    ]
    for c in clients:
        c.start()
    time.sleep(1.5)  # let the slow clients take whatever they can take
    latencies = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        latencies.append(timed_get(port, "/accounts/login/"))
        time.sleep(0.2)
    stop.set()
    for c in clients:
        c.join(timeout=5)
    return latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", choices=SERVERS, default="granian")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--slow", type=int, default=2, help="slow clients")
    parser.add_argument("--kind", choices=["headers", "body"], default="headers")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)

    VAR.mkdir(parents=True, exist_ok=True)
    db = VAR / "slow.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    env, static = setup_django(f"sqlite:///{db}", VAR)
    port = args.port or free_port()
    server = Server(
        env,
        port,
        workers=args.workers,
        threads=args.threads,
        server=args.server,
        log=VAR / f"{args.server}.log",
    )
    try:
        with server:
            quiet = [timed_get(port, "/accounts/login/") for _ in range(5)]
            latencies = measure(port, args.slow, args.seconds, args.kind)
    finally:
        shutil.rmtree(static, ignore_errors=True)
    answered = [x for x in latencies if x != float("inf")]
    worst = max(latencies)
    print(
        f"{args.server} {args.workers} x {args.threads}: {args.slow} slow clients "
        f"({args.kind}); sign-in page without them: median {statistics.median(quiet) * 1000:.0f} "
        f"ms; with them: {len(latencies)} requests, {len(latencies) - len(answered)} "
        f"unanswered in 10 s, median {statistics.median(latencies) * 1000:.0f} ms, "
        f"worst {'none in 10 s' if worst == float('inf') else f'{worst * 1000:.0f} ms'}"
    )
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
