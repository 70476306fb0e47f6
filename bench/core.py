"""The regression guard: the write path and the device reads as ratios to a floor.

One process, under a minute, no server: a trivial ORM write loop (the floor: one UPDATE
in its own transaction), the hand path (``play.record_hand`` by match id, as a tablet's
POST calls it: 1,000 hands over 100 matches, the room's order, a hand at every table
before the next), a 100-table ``simulate``, the tablet's state read and the phone's card
(Django's test client, no ETag: the full answer). Each is measured in this process's CPU
time and printed in milliseconds and as a ratio to the floor measured in the same run
(ratios, not seconds: machines and their load vary ±30%, a ratio much less), beside the
ratio recorded for this release in ``bench/core.json``.

    .venv/bin/python -m bench.core                    # SQLite, the full size
    .venv/bin/python -m bench.core --db postgres
    .venv/bin/python -m bench.core --size small       # what CI runs (tests/test_core_bench.py)
    .venv/bin/python -m bench.core --record           # write this run's ratios as the release's

Exit status 1 if a ratio grew past ``LIMIT`` times its recorded value.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RECORDED = Path(__file__).with_name("core.json")
# A ratio may grow this much before the guard fails: a noisy machine moves a ratio by
# well under this (docs/history/performance.md §9), a hand path that reads its history twice
# more does not.
LIMIT = 2.0


@dataclass(frozen=True)
class Size:
    floor: int  # trivial writes
    tables: int  # matches the hands go to
    hands: int
    simulate: int  # tables of the simulated event
    reads: int  # each of the two reads


SIZES = {
    "full": Size(floor=2000, tables=100, hands=1000, simulate=100, reads=300),
    "small": Size(floor=400, tables=20, hands=200, simulate=6, reads=60),
}


def clock() -> float:
    """This process's CPU time: what the work costs, not how long the shared machine made
    it wait for a core (the database's CPU too on SQLite, which runs in this process; on
    PostgreSQL only the client's side). Wall time under a load of 8 varied 3× between
    two runs of the same code; CPU time by a fraction of that."""
    return time.process_time()


def best_of(runs: int, call: Callable[[], float]) -> float:
    """The least of a few runs of ``call`` (seconds per operation): the one the machine
    disturbed least."""
    return min(call() for _ in range(runs))


def floor(ops: int, match_id: int) -> float:
    """Seconds per trivial ORM write: one UPDATE of one row in its own transaction."""
    from django.db import transaction
    from django.utils import timezone

    from tournaments.core.models.play import Match

    now = timezone.now()
    started = clock()
    for _ in range(ops):
        with transaction.atomic():
            Match.objects.filter(pk=match_id).update(last_contact_at=now)
    return (clock() - started) / ops


def hand_path(match_ids: list[int], hands: int, seed: int = 22) -> float:
    """Seconds per hand recorded through ``play.record_hand``, a hand at every table in
    turn (as the room plays), until ``hands`` are recorded."""
    from tournaments.core.models.play import HandEntry
    from tournaments.core.services import play
    from tournaments.domain.hands import Seat
    from tournaments.domain.simulation import random_hand

    rng = random.Random(seed)
    for match_id in match_ids:
        play.set_first_dealer(play.Match.objects.get(pk=match_id), Seat.N, by="bench")
    going = list(match_ids)
    count, n = 0, 0
    started = clock()
    while count < hands and going:
        n += 1
        for match_id in list(going):
            result = play.record_hand(
                match_id,
                random_hand(rng),
                client_key=f"core-{match_id}-{n}",
                by="bench",
                source=HandEntry.Source.TABLET,
            )
            count += 1
            if result.state.over:
                going.remove(match_id)
            if count == hands:
                break
    return (clock() - started) / count


def simulate(tables: int) -> float:
    """Seconds for a whole simulated event (``tournaments.simulate``)."""
    import tournaments.core.simulate

    started = clock()
    tournaments.core.simulate.simulate(tables, seed=tables)
    return clock() - started


def reads(t, requests: int) -> tuple[float, float]:
    """Seconds per tablet state read and per phone card, full answers."""
    from django.test import Client

    from bench.scenario import tokens
    from tournaments.core.models.rounds import Seating

    links = tokens(t)
    tablet = Client(HTTP_HOST="127.0.0.1")
    assert tablet.get(f"/t/{links[min(links)]}/").status_code == 302
    phone = Client(HTTP_HOST="127.0.0.1")
    players = list(
        Seating.objects.filter(round__tournament=t).values_list("player_id", flat=True)[:20]
    )

    def each(get: Callable[[int], object]) -> float:
        started = clock()
        for i in range(requests):
            response = get(i)
            assert response.status_code == 200, response.status_code  # type: ignore[attr-defined]
        return (clock() - started) / requests

    state = best_of(2, lambda: each(lambda i: tablet.get("/t/table/state.json")))
    card = best_of(2, lambda: each(lambda i: phone.get(f"/e/{t.slug}/me/{players[i % 20]}/card/")))
    return state, card


def measure(size: Size) -> dict[str, float]:
    """Seconds per operation of each measure (the simulation: per event)."""
    from bench.scenario import matches, prepare_event

    t = prepare_event(size.tables, name="Core")
    ids = list(matches(t.rounds.get(number=1)).values())
    floor_s = best_of(3, lambda: floor(size.floor // 3, ids[0]))
    hand_s = hand_path(ids, size.hands)
    state_s, card_s = reads(t, size.reads)
    sim_s = simulate(size.simulate)
    # The floor again after the rest: the lesser of the two stands for the run.
    floor_s = min(floor_s, best_of(3, lambda: floor(size.floor // 3, ids[0])))
    return {
        "floor": floor_s,
        "hand": hand_s,
        "simulate": sim_s,
        "tablet state": state_s,
        "phone card": card_s,
    }


def ratios(seconds: dict[str, float]) -> dict[str, float]:
    return {k: v / seconds["floor"] for k, v in seconds.items() if k != "floor"}


def recorded(key: str) -> dict[str, float]:
    """The ratios recorded for ``key`` (database and size, e.g. "sqlite small")."""
    data = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
    return dict(data.get(key, {}).get("ratios", {}))


def regressions(found: dict[str, float], was: dict[str, float]) -> list[str]:
    return [
        f"{k}: {found[k]:.1f}× the floor, recorded {was[k]:.1f}× (limit {LIMIT * was[k]:.1f}×)"
        for k in was
        if k in found and found[k] > LIMIT * was[k]
    ]


def report(key: str, seconds: dict[str, float]) -> list[str]:
    found = ratios(seconds)
    was = recorded(key)
    lines = [f"floor (one UPDATE, own transaction): {seconds['floor'] * 1000:.3f} ms"]
    for k, r in found.items():
        unit = "s" if k == "simulate" else "ms"
        shown = seconds[k] if k == "simulate" else seconds[k] * 1000
        before = f"  recorded {was[k]:8.1f}×  now/recorded {r / was[k]:.2f}" if k in was else ""
        lines.append(f"{k:<13} {shown:9.3f} {unit:<2}  {r:8.1f}× the floor{before}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--size", choices=sorted(SIZES), default="full")
    parser.add_argument("--name", default="snowman_bench_core")
    parser.add_argument("--record", action="store_true", help="write the ratios to core.json")
    args = parser.parse_args(argv)

    from bench.burst import VAR, fresh_database
    from bench.server import setup_django

    _, static = setup_django(fresh_database(args.db, args.name), VAR)
    try:
        key = f"{args.db} {args.size}"
        started = time.perf_counter()
        seconds = measure(SIZES[args.size])
        print(f"{key}, {time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.1f}")
        print("\n".join(report(key, seconds)))
        if args.record:
            data = json.loads(RECORDED.read_text()) if RECORDED.exists() else {}
            data[key] = {
                "ratios": {k: round(v, 1) for k, v in ratios(seconds).items()},
                "floor_ms": round(seconds["floor"] * 1000, 3),
                "load": round(os.getloadavg()[0], 1),
            }
            RECORDED.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        bad = regressions(ratios(seconds), recorded(key))
        for line in bad:
            print("REGRESSION " + line)
        return 1 if bad else 0
    finally:
        shutil.rmtree(static, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
