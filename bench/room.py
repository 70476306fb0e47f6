"""Do the devices' reads grow with the room? The same reads at a small and a large event.

One process, production settings, one fresh database holding two events prepared the
same way (round 1 running, every table linked, hands at tables 1-4), one of ``--small``
tables and one of ``--large``. Each read is timed at both sizes, alternating, as this
process's CPU per request (Django's test client): the tablet's state read (full, and the
304 of its conditional read), the phone's card (full, and its 304), and the director's
live board (which shows every table, so it grows with the room by its nature). The
trivial view is the floor of the same run. Issue 22, item 3.

    .venv/bin/python -m bench.room --db sqlite
    .venv/bin/python -m bench.room --db postgres
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import time
from collections.abc import Callable

from bench.burst import VAR, fresh_database
from bench.server import setup_django


def cpu_per_request(get: Callable[[], object], requests: int) -> float:
    """Median of five batches, this process's CPU seconds per request."""
    batches = []
    for _ in range(5):
        started = time.process_time()
        for _ in range(requests):
            status = get().status_code  # type: ignore[attr-defined]
            assert status in (200, 304), status
        batches.append((time.process_time() - started) / requests)
    return statistics.median(batches)


def readers(t) -> dict[str, Callable[[], object]]:  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from bench.scenario import matches, tokens
    from tournaments.core.models.rounds import Seating
    from tournaments.core.services import play
    from tournaments.domain.hands import Seat
    from tournaments.domain.simulation import random_hand

    rnd = t.rounds.get(number=1)
    ids = matches(rnd)
    rng = random.Random(22)
    for table in (1, 2, 3, 4):
        play.set_first_dealer(ids[table], Seat.N, by="bench")
        for n in range(1, 9):
            play.record_hand(ids[table], random_hand(rng), client_key=f"{t.pk}-{table}-{n}", by="b")
    links = tokens(t)
    tablet = Client(HTTP_HOST="127.0.0.1")
    assert tablet.get(f"/t/{links[1]}/").status_code == 302
    etag = tablet.get("/t/table/state.json").headers["ETag"]
    player = Seating.objects.get(round=rnd, table=1, position="N").player_id
    card_url = f"/e/{t.slug}/me/{player}/card/"
    phone = Client(HTTP_HOST="127.0.0.1")
    card_etag = phone.get(card_url).headers["ETag"]
    director = Client(HTTP_HOST="127.0.0.1")
    director.force_login(User.objects.get(username="bench-director"))
    board = reverse("director:board", args=[t.slug, 1])
    answer = director.get(board)
    assert answer.status_code == 200, (answer.status_code, answer.headers.get("Location"))
    return {
        "floor (trivial view)": lambda: phone.get("/bench/ping"),
        "tablet state, full": lambda: tablet.get("/t/table/state.json"),
        "tablet state, 304": lambda: tablet.get(
            "/t/table/state.json", headers={"If-None-Match": etag}
        ),
        "phone card, full": lambda: phone.get(card_url),
        "phone card, 304": lambda: phone.get(card_url, headers={"If-None-Match": card_etag}),
        # A phone that still shows an earlier seat (the turnover's first ask): the new
        # seat alone, from the version query (docs/performance.md §9.10).
        "phone card, new seat": lambda: phone.get(card_url, headers={"X-Snowman-Seat": "0:0N"}),
        "director's live board": lambda: director.get(board),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--small", type=int, default=4)
    parser.add_argument("--large", type=int, default=500)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--name", default="snowman_bench_room")
    args = parser.parse_args(argv)

    _, static = setup_django(fresh_database(args.db, args.name), VAR)
    try:
        from bench.reads import director_cookie
        from bench.scenario import prepare_event

        director_cookie()  # the director, signed in by the test client
        sizes = {n: readers(prepare_event(n, name="Room")) for n in (args.small, args.large)}
        print(f"{args.db}: CPU ms per request, load {os.getloadavg()[0]:.1f}")
        print(f"  {'read':<24} {args.small:>6} tables {args.large:>6} tables   ratio")
        for name in sizes[args.small]:
            small = cpu_per_request(sizes[args.small][name], args.requests)
            large = cpu_per_request(sizes[args.large][name], args.requests)
            print(
                f"  {name:<24} {small * 1e3:9.2f} ms {large * 1e3:9.2f} ms   {large / small:5.2f}x"
            )
        print(f"load after: {os.getloadavg()[0]:.1f}")
        return 0
    finally:
        shutil.rmtree(static, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
