"""Rating benchmark: a simulated series with hidden true skills (docs/rating.md).

People have a hidden skill; each event draws some of them, splits them into divisions A
and B by a noisy view of skill (as a director guesses), seats round 1 by lot and later
rounds by the winner-split rotation (``tournaments.domain.seating``), and plays each match
hand by hand to 10, a hand going to a pair with a probability set by the difference of
the pairs' mean skills. The models are trained on the first events and then predict every
match of each later event *before* seeing it (held out), updating only after the event.

Reported: log-loss and accuracy on the held-out matches for
- ``coin``: every match 50/50;
- ``points``: each pair's mean of its players' points per match so far (the totals so far,
  per match played), turned into a probability by a logistic curve fitted on the training
  events;
- ``snowman``: ``tournaments.domain.rating`` (the mean-of-pair TrueSkill update);
- ``openskill`` (Plackett-Luce and Thurstone-Mosteller) and ``trueskill``, when installed.

    .venv/bin/python -m bench.rating --people 2000 --events 100 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tournaments.domain.hands import Seat, Team
from tournaments.domain.rating import MatchResult, Ratings, RatingSettings
from tournaments.domain.rules import TIEBREAK_KEYS
from tournaments.domain.seating import TableResult, TableSeating, draw, rotate
from tournaments.domain.standings import PlayerRecord, RoundLine, rank

HAND_SLOPE = 0.5  # logit of a hand per unit of pair-skill difference
ROUNDS = 5


@dataclass
class SimMatch:
    table: int
    seats: dict[str, int]  # N E S W -> person
    hands: list[tuple[str, int]]  # (team scoring, points)
    score: dict[str, int]
    winner: str

    @property
    def result(self) -> MatchResult:
        s = self.seats
        return MatchResult((s["N"], s["S"]), (s["E"], s["W"]), self.winner == "NS")


@dataclass
class SimEvent:
    number: int
    division: dict[int, str]
    rounds: list[list[SimMatch]] = field(default_factory=list)


def play_match(rng: random.Random, seating: TableSeating, skill: Sequence[float]) -> SimMatch:
    seats = {s.value: p for s, p in seating.seats.items()}
    ns = (skill[seats["N"]] + skill[seats["S"]]) / 2
    ew = (skill[seats["E"]] + skill[seats["W"]]) / 2
    p_ns = 1 / (1 + math.exp(-HAND_SLOPE * (ns - ew)))
    score = {"NS": 0, "EW": 0}
    hands = []
    while max(score.values()) < 10:
        team = "NS" if rng.random() < p_ns else "EW"
        points = 2 if rng.random() < 0.3 else 1
        score[team] += points
        hands.append((team, points))
    winner = "NS" if score["NS"] > score["EW"] else "EW"
    return SimMatch(seating.table, seats, hands, score, winner)


def match_points(m: SimMatch, team: str) -> int:
    """A player's points: team score + reach bonus 1 + skunk bonus 2 (no awards simulated)."""
    bonus = 0
    if m.winner == team:
        bonus = 1 + (2 if m.score["EW" if team == "NS" else "NS"] == 0 else 0)
    return m.score[team] + bonus


def simulate_series(
    people: int, events: int, seed: int, tables: tuple[int, int] = (20, 60)
) -> tuple[list[float], list[SimEvent]]:
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(people)]
    # Some people come often, some rarely, as at a club.
    keen = [rng.random() ** 2 + 0.05 for _ in range(people)]
    out = []
    for number in range(1, events + 1):
        count = 4 * rng.randint(*tables)
        chosen: set[int] = set()
        while len(chosen) < min(count, people - people % 4):
            pick = rng.choices(range(people), weights=keen, k=count - len(chosen))
            chosen.update(pick)
        present = sorted(chosen)[:count] if len(chosen) > count else sorted(chosen)
        present = present[: len(present) - len(present) % 4]
        guess = sorted(present, key=lambda p: -(skill[p] + rng.gauss(0, 0.8)))
        half = len(guess) // 2
        division = {p: ("A" if i < half else "B") for i, p in enumerate(guess)}
        a = [p for p in present if division[p] == "A"]
        b = [p for p in present if division[p] == "B"]
        event = SimEvent(number, division)
        seating = draw(a, b, rng)
        for r in range(ROUNDS):
            matches = [play_match(rng, t, skill) for t in seating]
            event.rounds.append(matches)
            if r < ROUNDS - 1:
                seating = rotate(
                    [TableResult(t, Team(m.winner)) for t, m in zip(seating, matches, strict=True)]
                )
        out.append(event)
    return skill, out


def event_standings(event: SimEvent, lot_seed: int) -> dict[str, list]:
    lines: dict[int, list[RoundLine]] = defaultdict(list)
    for number, matches in enumerate(event.rounds, start=1):
        for m in matches:
            for pos, person in m.seats.items():
                team = Seat(pos).team.value
                other = "EW" if team == "NS" else "NS"
                pts = match_points(m, team)
                lines[person].append(
                    RoundLine(
                        number,
                        m.score[team],
                        pts - m.score[team],
                        0,
                        m.winner == team,
                        m.score[team] - m.score[other],
                    )
                )
    table = {}
    for division in ("A", "B"):
        records = [
            PlayerRecord(p, tuple(ls)) for p, ls in lines.items() if event.division[p] == division
        ]
        table[division] = rank(records, TIEBREAK_KEYS, lot_seed)
    return table


# --- Models --------------------------------------------------------------------------


class Model:
    name = "?"

    def predict(self, m: SimMatch) -> float:
        raise NotImplementedError

    def learn(self, event: SimEvent) -> None:
        raise NotImplementedError

    def fit(self, train: Sequence[SimEvent]) -> None:
        for event in train:
            self.learn(event)


class Coin(Model):
    name = "coin (50/50)"

    def predict(self, m: SimMatch) -> float:
        return 0.5

    def learn(self, event: SimEvent) -> None:
        pass


class PointsSoFar(Model):
    name = "points so far"

    def __init__(self) -> None:
        self.total: dict[int, int] = defaultdict(int)
        self.played: dict[int, int] = defaultdict(int)
        self.slope = 0.0

    def strength(self, person: int) -> float:
        if not self.played[person]:
            return self.mean
        return self.total[person] / self.played[person]

    @property
    def mean(self) -> float:
        played = sum(self.played.values())
        return sum(self.total.values()) / played if played else 0.0

    def diff(self, m: SimMatch) -> float:
        s = m.seats
        return (self.strength(s["N"]) + self.strength(s["S"])) / 2 - (
            self.strength(s["E"]) + self.strength(s["W"])
        ) / 2

    def predict(self, m: SimMatch) -> float:
        return 1 / (1 + math.exp(-self.slope * self.diff(m)))

    def learn(self, event: SimEvent) -> None:
        for matches in event.rounds:
            for m in matches:
                for pos, person in m.seats.items():
                    self.total[person] += match_points(m, Seat(pos).team.value)
                    self.played[person] += 1

    def fit(self, train: Sequence[SimEvent]) -> None:
        # The curve's slope is fitted on the training events, each predicted before learning
        # it, so the baseline gets the same held-out discipline as the ratings.
        seen: list[tuple[float, bool]] = []
        for event in train:
            seen += [(self.diff(m), m.winner == "NS") for ms in event.rounds for m in ms]
            self.learn(event)

        def loss(a: float) -> float:
            return sum(log_loss(1 / (1 + math.exp(-a * d)), y) for d, y in seen)

        # The log-loss of a logistic curve is convex in its slope: a ternary search finds it.
        low, high = 0.0, 5.0
        for _ in range(40):
            a, b = low + (high - low) / 3, high - (high - low) / 3
            low, high = (low, b) if loss(a) < loss(b) else (a, high)
        self.slope = (low + high) / 2


class Snowman(Model):
    name = "snowman rating (mean of pair, TrueSkill update)"

    def __init__(self) -> None:
        self.ratings = Ratings()

    def predict(self, m: SimMatch) -> float:
        r = m.result
        return self.ratings.win_probability(r.pair, r.opponents)

    def learn(self, event: SimEvent) -> None:
        for matches in event.rounds:
            for m in matches:
                self.ratings.update(m.result)


class OpenSkill(Model):
    def __init__(self, model_name: str) -> None:
        from openskill import models

        # The same start as the Snowman rating (sigma0), so the update rule is what differs.
        self.model = getattr(models, model_name)(sigma=RatingSettings().sigma0)
        self.name = f"openskill {model_name}"
        self.table: dict[int, object] = {}

    def rating(self, p: int):  # noqa: ANN201 - an openskill rating
        if p not in self.table:
            self.table[p] = self.model.rating()
        return self.table[p]

    def predict(self, m: SimMatch) -> float:
        s = m.seats
        teams = [
            [self.rating(s["N"]), self.rating(s["S"])],
            [self.rating(s["E"]), self.rating(s["W"])],
        ]
        return self.model.predict_win(teams)[0]

    def learn(self, event: SimEvent) -> None:
        for matches in event.rounds:
            for m in matches:
                s = m.seats
                ns = [self.rating(s["N"]), self.rating(s["S"])]
                ew = [self.rating(s["E"]), self.rating(s["W"])]
                ranks = [1, 2] if m.winner == "NS" else [2, 1]
                (n, so), (e, w) = self.model.rate([ns, ew], ranks=ranks)
                self.table[s["N"]], self.table[s["S"]] = n, so
                self.table[s["E"]], self.table[s["W"]] = e, w


class TrueSkillLib(Model):
    name = "trueskill (library)"

    def __init__(self) -> None:
        import trueskill

        self.ts = trueskill.TrueSkill(draw_probability=0.0, sigma=RatingSettings().sigma0)
        self.table: dict[int, object] = {}

    def rating(self, p: int):  # noqa: ANN201
        if p not in self.table:
            self.table[p] = self.ts.create_rating()
        return self.table[p]

    def predict(self, m: SimMatch) -> float:
        s = m.seats
        a = [self.rating(s["N"]), self.rating(s["S"])]
        b = [self.rating(s["E"]), self.rating(s["W"])]
        delta = sum(r.mu for r in a) - sum(r.mu for r in b)
        var = sum(r.sigma**2 for r in a + b) + 4 * self.ts.beta**2
        return self.ts.cdf(delta / math.sqrt(var))

    def learn(self, event: SimEvent) -> None:
        for matches in event.rounds:
            for m in matches:
                s = m.seats
                ns = (self.rating(s["N"]), self.rating(s["S"]))
                ew = (self.rating(s["E"]), self.rating(s["W"]))
                ranks = [0, 1] if m.winner == "NS" else [1, 0]
                (n, so), (e, w) = self.ts.rate([ns, ew], ranks=ranks)
                self.table[s["N"]], self.table[s["S"]] = n, so
                self.table[s["E"]], self.table[s["W"]] = e, w


def log_loss(p: float, won: bool) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return -math.log(p if won else 1 - p)


@dataclass(frozen=True)
class Score:
    name: str
    log_loss: float
    accuracy: float
    matches: int
    seconds: float


def evaluate(model: Model, events: Sequence[SimEvent], train_share: float = 0.8) -> Score:
    cut = round(len(events) * train_share)
    start = time.perf_counter()
    model.fit(events[:cut])
    losses, right, count = 0.0, 0.0, 0
    for event in events[cut:]:
        predictions = [(model.predict(m), m.winner == "NS") for ms in event.rounds for m in ms]
        for p, won in predictions:
            losses += log_loss(p, won)
            right += 0.5 if p == 0.5 else float((p > 0.5) == won)
            count += 1
        model.learn(event)
    return Score(model.name, losses / count, right / count, count, time.perf_counter() - start)


def models(with_libraries: bool = True) -> list[Callable[[], Model]]:
    found: list[Callable[[], Model]] = [Coin, PointsSoFar, Snowman]
    if with_libraries:
        try:
            import openskill  # noqa: F401

            found += [
                lambda: OpenSkill("PlackettLuce"),
                lambda: OpenSkill("ThurstoneMostellerFull"),
            ]
        except ImportError:
            pass
        try:
            import trueskill  # noqa: F401

            found.append(TrueSkillLib)
        except ImportError:
            pass
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-libraries", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    _, events = simulate_series(args.people, args.events, args.seed)
    matches = sum(len(ms) for e in events for ms in e.rounds)
    print(
        f"simulated {args.events} events, {args.people} people, {matches} matches "
        f"in {time.perf_counter() - start:.1f} s"
    )
    print(f"{'model':50} {'log-loss':>9} {'accuracy':>9} {'held-out':>9} {'seconds':>8}")
    for make in models(not args.no_libraries):
        s = evaluate(make(), events)
        print(f"{s.name:50} {s.log_loss:9.4f} {s.accuracy:9.1%} {s.matches:9d} {s.seconds:8.2f}")


if __name__ == "__main__":
    main()
