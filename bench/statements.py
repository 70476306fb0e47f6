"""What each statement of the hand path costs, built by the ORM per call and compiled once.

One process, production settings, a fresh database: a 20-table event with round 1
running and eight hands at table 1. Each statement the hand path runs is timed both ways
(``--repeat`` times each, inside a transaction that is rolled back, so every repeat
finds the same rows), beside the floor (``bench/core.py``'s: one UPDATE in its own
transaction) measured in the same run.

    .venv/bin/python -m bench.statements --db sqlite
    .venv/bin/python -m bench.statements --db postgres
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import time
from collections.abc import Callable


class _Rollback(Exception):
    pass


def timed(call: Callable[[], object], repeat: int) -> float:
    """Seconds per call, the calls in one transaction that is then rolled back."""
    from django.db import transaction

    try:
        with transaction.atomic():
            call()  # the first call compiles, as the first hand of a worker does
            started = time.perf_counter()
            for _ in range(repeat):
                call()
            seconds = (time.perf_counter() - started) / repeat
            raise _Rollback
    except _Rollback:
        pass
    return seconds


def measure(repeat: int) -> list[tuple[str, float, float]]:
    from django.db import transaction
    from django.utils import timezone

    from bench.core import floor
    from bench.scenario import matches, prepare_event
    from tournaments.core.db import compiled
    from tournaments.core.models.log import Activity
    from tournaments.core.models.play import HandEntry, Match, TableLink
    from tournaments.core.models.rounds import Seating
    from tournaments.core.reads.tablet.link import TableScope, live_link
    from tournaments.core.services import locking_matches, log, play
    from tournaments.domain.hands import Seat
    from tournaments.domain.simulation import random_hand

    t = prepare_event(20, name="Statements")
    ids = matches(t.rounds.get(number=1))
    match = Match.objects.get(pk=ids[1])
    play.set_first_dealer(match, Seat.N, by="bench")
    rng = random.Random(1)
    for n in range(1, 9):
        if play.record_hand(match.pk, random_hand(rng), client_key=f"s{n}", by="b").state.over:
            break
    link = TableLink.objects.get(tournament=t, table=1, revoked_at__isnull=True)
    at = play.AtTable(t.pk, 1, allowed=live_link(TableScope(t.pk, 1, link.pk)))
    with transaction.atomic():
        locked = play.lock(match.pk, at)
    seats = list(Seating.objects.filter(round_id=locked.round_id, table=1))
    now = timezone.now()
    counter = iter(range(30000))

    def entry() -> HandEntry:
        return HandEntry(
            match=locked,
            number=100 + (n := next(counter)),
            client_key=f"stmt-{n}",
            outcome="misdeal",
            dealer="N",
            entered_at=now,
            entered_by="bench",
        )

    rows = [
        (
            "lock the match (with round, tournament, link check)",
            lambda: locking_matches().annotate(allowed=at.allowed).get(pk=match.pk),
            lambda: play.lock(match.pk, at),
        ),
        (
            "read the match's entries",
            lambda: sorted(locked.hands.order_by(), key=lambda e: (e.number, e.entered_at, e.pk)),
            lambda: play.history(locked),
        ),
        (
            # Both columns compiled: the lock and the entries read apart, and in one
            # statement (the hand path's since issue 22's third pass).
            "lock + entries, compiled: 2 statements → 1",
            lambda: play.history(play.lock(match.pk, at)),
            lambda: play.history(play.lock(match.pk, at, history=True)),
        ),
        ("insert the entry", lambda: entry().save(), lambda: compiled.insert(entry())),
        ("update the match", lambda: locked.save(), lambda: compiled.update(locked)),
        (
            "update the four seats (a match's end)",
            lambda: Seating.objects.bulk_update(seats, list(play.SEAT_RESULTS)),
            lambda: compiled.update_many(seats, play.SEAT_RESULTS),
        ),
        (
            "log an activity (undo, answer, confirm)",
            lambda: Activity.objects.create(
                tournament=t, actor="b", action="x", summary="y", match=locked, at=now
            ),
            lambda: log(t, "b", "x", "y", match=locked, at=now),
        ),
    ]
    floor_s = floor(repeat, match.pk)
    out = [("floor: one UPDATE in its own transaction", floor_s, floor_s)]
    for name, orm, fast in rows:
        out.append((name, timed(orm, repeat), timed(fast, repeat)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--repeat", type=int, default=500)
    parser.add_argument("--name", default="snowman_bench_statements")
    args = parser.parse_args(argv)

    from bench.burst import VAR, fresh_database
    from bench.server import setup_django

    _, static = setup_django(fresh_database(args.db, args.name), VAR)
    try:
        rows = measure(args.repeat)
        floor_s = rows[0][1]
        print(f"{args.db}: µs per statement (× the floor), ORM per call → compiled once")
        for name, orm, fast in rows:
            print(
                f"  {name:<52} {orm * 1e6:7.0f} ({orm / floor_s:4.1f}×) → "
                f"{fast * 1e6:7.0f} ({fast / floor_s:4.1f}×)"
            )
        return 0
    finally:
        shutil.rmtree(static, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
