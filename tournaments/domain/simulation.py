"""Random but realistic hands for the simulator and the demo.

Vocabulary as in ``hands``: the *maker* names trump, may go *alone*, and the makers
take 0–5 tricks (a *euchre* at 2 or fewer, a *march* at 5); now and then a *renege* or
a *misdeal*. The generator is passed in, so the same seed plays the same event.
"""

from __future__ import annotations

import random
from datetime import timedelta

from .hands import SEATS, Hand, Outcome


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
