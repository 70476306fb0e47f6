"""Compute benchmark: the rules engine alone for a 1,000-table event.

Times the winner-split rotation, the standings of both divisions after five rounds and
the final seeding, on plain integers (no database), so the figures are the floor any
request that needs them pays.

    .venv/bin/python -m bench.compute --tables 1000 --repeat 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tournaments.domain.final import seed_final
from tournaments.domain.hands import Team
from tournaments.domain.rules import TIEBREAK_KEYS
from tournaments.domain.seating import TableResult, draw, rotate
from tournaments.domain.standings import PlayerRecord, RoundLine, rank


def timed(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median, max) wall time in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    t = args.tables
    a_ids, b_ids = list(range(1, 2 * t + 1)), list(range(2 * t + 1, 4 * t + 1))

    seating = draw(a_ids, b_ids, rng)
    results = [TableResult(s, rng.choice((Team.NS, Team.EW))) for s in seating]

    lines: dict[int, list[RoundLine]] = {p: [] for p in a_ids + b_ids}
    for number in range(1, args.rounds + 1):
        for pid in lines:
            won = rng.random() < 0.5
            score = 10 if won else rng.randint(0, 9)
            margin = rng.randint(1, 10) * (1 if won else -1)
            lines[pid].append(
                RoundLine(
                    number,
                    score,
                    rng.choice((0, 0, 1, 3)) if won else 0,
                    rng.choice((0, 0, 0, 1, -2)),
                    won,
                    margin,
                )
            )
    records_a = [PlayerRecord(p, tuple(lines[p])) for p in a_ids]
    records_b = [PlayerRecord(p, tuple(lines[p])) for p in b_ids]

    def standings() -> tuple[list, list]:
        return (
            rank(records_a, TIEBREAK_KEYS, args.seed),
            rank(records_b, TIEBREAK_KEYS, args.seed),
        )

    ranked_a, ranked_b = standings()

    figures = {
        "draw (round 1)": timed(lambda: draw(a_ids, b_ids, random.Random(1)), args.repeat),
        "rotate (next round)": timed(lambda: rotate(results), args.repeat),
        f"rank both divisions ({args.rounds} rounds)": timed(standings, args.repeat),
        "seed final": timed(
            lambda: seed_final([s.player for s in ranked_a], [s.player for s in ranked_b]),
            args.repeat,
        ),
    }
    print(
        f"compute benchmark: {t} tables, {4 * t} players, {args.repeat} repetitions, median / max"
    )
    for name, (median, worst) in figures.items():
        print(f"  {name:<38} {median:9.2f} ms  {worst:9.2f} ms")


if __name__ == "__main__":
    main()
