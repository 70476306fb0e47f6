"""Random but realistic hands for the simulator and the demo.

Vocabulary as in ``hands``: the *maker* names trump, may go *alone*, and the makers
take 0–5 tricks (a *euchre* at 2 or fewer, a *march* at 5); now and then a *renege* or
a *misdeal*. The generator is passed in, so the same seed plays the same event.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from tournaments.domain.hands import SEATS, Hand, Outcome


def random_hand(rng: random.Random) -> Hand:
    roll = rng.random()
    if roll < 0.03:
        return Hand(Outcome.MISDEAL)
    if roll < 0.05:
        return Hand(Outcome.RENEGE, renege_by=rng.choice(SEATS))
    maker = rng.choice(SEATS)
    alone = rng.random() < 0.12
    tricks_roll = rng.random()
    if alone:
        tricks = (
            rng.choice((0, 1, 2))
            if tricks_roll < 0.25
            else (rng.choice((3, 4)) if tricks_roll < 0.7 else 5)
        )
    else:
        tricks = (
            rng.choice((0, 1, 2))
            if tricks_roll < 0.2
            else (rng.choice((3, 4)) if tricks_roll < 0.8 else 5)
        )
    return Hand(Outcome.PLAYED, maker=maker, alone=alone, maker_tricks=tricks)


def hand_duration(rng: random.Random) -> timedelta:
    """How long a hand takes at the table: about two minutes, sometimes more."""
    return timedelta(seconds=rng.randint(70, 230))


@dataclass(frozen=True)
class Mess:
    """When the room changes in a simulated event (§6).

    ``withdrawals`` lists (round, mid_match): a player withdraws during that round,
    mid-match with a substitute when ``mid_match``, else once the round is over;
    ``arrivals`` lists the rounds during which a late player checks in (round 1 or
    later, so they are seated from the next round); ``uneven`` the per-division
    count offsets of the room at round 1 (each -3..3)."""

    withdrawals: tuple[tuple[int, bool], ...] = ()
    arrivals: tuple[int, ...] = ()
    uneven: tuple[int, int] = (0, 0)


def plan_mess(
    rng: random.Random, rounds: int, *, withdraw: int = 0, late: int = 0, uneven: bool = False
) -> Mess:
    """Random moments for the mess; the same generator gives the same plan."""
    last = max(1, rounds - 1)
    withdrawals = tuple(sorted((rng.randint(1, last), rng.random() < 0.5) for _ in range(withdraw)))
    arrivals = tuple(sorted(rng.randint(1, last) for _ in range(late)))
    offsets = (0, 0)
    if uneven:
        offsets = (rng.randint(-3, 3), rng.randint(-3, 3))
        if offsets == (0, 0):
            offsets = (rng.choice((-1, 1)), 0)
    return Mess(withdrawals, arrivals, offsets)
