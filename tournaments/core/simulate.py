"""A whole event played through the service layer on a simulated clock.

Used by the ``simulate`` and ``seed_demo`` commands, the benches and the tests: it
exercises the same services as the tablets and the director, so a green simulation means
the rules, the rotation, the standings and the final hold together. It is a caller of the
commands, as the views and the management commands are, not a command itself: it locks
nothing and writes nothing but through ``services``, so it lives above them.

Where it differs from a room of tablets, and why:

- One transaction per match, not per hand. A tablet's hand must be durable the moment it
  is answered; a simulated match has nobody waiting on its hands, so each match's hands
  (and its first dealer, named with its first hand, its substitution, its answer to the
  call) commit together: in one hold's transaction, or one around a substitution's. The
  services are the same and each still takes its own lock and savepoint inside that
  transaction, so nothing they check or write differs: ``per_match=False`` plays the
  per-hand way, and tests/test_simulate.py proves the two store the same event, row for
  row, on the same seed. What it saves is a commit per hand (and on SQLite the writer
  lock taken and released with it).
- One lock of a match for a run of its hands, not one a hand. Inside the match's
  transaction nobody else can write the match, so ``play.holding`` locks it and reads its
  entries once, and each ``play.record_hand(held, ...)`` goes on from the instance and
  the entries as the previous hand left them: what that hand's own lock would have read
  again (and with no savepoint a hand, which only a refusal would need; the simulation's
  hands are never refused). A substitution or an answer to the call is a service of its
  own, so the hold ends before it and is taken again after. The same reference test
  covers it: the per-hand path locks and reads for every hand.
- Nothing a browser needs: the simulation reads no tablet state, phone card or board
  between hands; ``play.record_hand`` answers with the state it computed anyway.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime, timedelta
from operator import attrgetter

from django.db import transaction

from tournaments.core.db.durability import commits_unflushed
from tournaments.core.models.event import Club, Player, Tournament
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.reads.rounds import remedies, seat_division
from tournaments.core.reads.substitutions import substitutes_for
from tournaments.core.services import closing, play, players, rounds, standings
from tournaments.core.services.stationary import end_stationary, mark_stationary
from tournaments.core.services.substitutions import Signed, substitute
from tournaments.core.services.tournaments import create_tournament
from tournaments.domain.hands import SEATS, Seat
from tournaments.domain.simulation import Mess, hand_duration, plan_mess, random_hand

FIRST = [
    "Ann",
    "Bob",
    "Cara",
    "Dev",
    "Eli",
    "Fay",
    "Gus",
    "Hana",
    "Ivan",
    "Jo",
    "Kai",
    "Lena",
    "Max",
    "Nia",
    "Otto",
    "Pia",
    "Quinn",
    "Rosa",
    "Sam",
    "Tess",
    "Uma",
    "Vic",
    "Wes",
    "Xena",
    "Yuri",
    "Zoe",
]
LAST = [
    "Lee",
    "Moreau",
    "Novak",
    "Okafor",
    "Park",
    "Quist",
    "Reyes",
    "Schmidt",
    "Tanaka",
    "Ueda",
    "Vogel",
    "Walsh",
    "Young",
    "Zhang",
    "Brandt",
    "Costa",
    "Dunn",
    "Evans",
]
SIM = "simulation"
EPOCH = datetime(2026, 1, 10, 9, 0, tzinfo=UTC)


def player_names(count: int, rng: random.Random) -> list[str]:
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name in seen:
            name = f"{name} {len(names) + 1}"
        seen.add(name)
        names.append(name)
    return names


class Simulation:
    def __init__(
        self,
        tables: int,
        seed: int,
        name: str | None = None,
        *,
        withdraw: int = 0,
        late: int = 0,
        house: int = 0,
        uneven: bool = False,
        stationary: int = 0,
        per_match: bool = True,
        club: Club | None = None,
        rehearsal: bool = False,
    ) -> None:
        self.club = club
        self.rng = random.Random(seed)
        self.per_match = per_match
        self.tables = tables
        self.seed = seed
        self.name = name or f"Simulated {tables}-table event, seed {seed}"
        self.clock = EPOCH
        # Each match's first dealer, drawn before its first hand names it (play_match).
        self.first_dealers: dict[int, Seat] = {}
        self.messy = bool(withdraw or late or house or uneven)
        self.house = house
        # Drawn from its own generator so that a plain event plays exactly as before.
        self.mess = (
            plan_mess(random.Random(seed + 1), 5, withdraw=withdraw, late=late, uneven=uneven)
            if self.messy
            else Mess()
        )
        self.late_count = 0
        self.rehearsal = rehearsal
        self.stationary = stationary
        # Called with the event just before the first draw: a test may take fees or
        # change settings at the door, as a desk would.
        self.before_draw: Callable[[Tournament], None] | None = None

    def setup(self) -> Tournament:
        t = create_tournament(
            self.name,
            by=SIM,
            lot_seed=self.rng.getrandbits(48),
            now=self.clock,
            club=self.club,
            rehearsal=self.rehearsal,
        )
        da, db = self.mess.uneven
        counts = {"A": max(2, 2 * self.tables + da), "B": max(2, 2 * self.tables + db)}
        names = player_names(counts["A"] + counts["B"], self.rng)
        divisions = ["A"] * counts["A"] + ["B"] * counts["B"]
        if counts["A"] == counts["B"]:
            divisions = ["A" if i % 2 == 0 else "B" for i in range(len(names))]
        csv_text = "name,division\n" + "".join(
            f"{n},{d}\n" for n, d in zip(names, divisions, strict=True)
        )
        report = players.import_players(t, csv_text, by=SIM, checked_in=True, now=self.clock)
        assert report.ok, report.error_text()
        for i in range(self.house):
            players.add_house_player(t, f"House Helper {i + 1}", "AB"[i % 2], by=SIM)
        self.mark_stationary(t)
        if self.before_draw is not None:
            self.before_draw(t)
            t.refresh_from_db()
        remedy = ""
        if remedies(t):
            remedy = self.rng.choice([r.kind for r in remedies(t)])
        rounds.draw_first_round(
            t, by=SIM, seed=self.rng.getrandbits(48), remedy=remedy, now=self.clock
        )
        self.tournament = t
        return t

    def mark_stationary(self, t: Tournament) -> None:
        """RULES.md §3.1: ``stationary`` players marked before the draw, named for table 1,
        the last table, then table 2 (beside table 1), ...; A and B players in turn. Drawn
        from a generator of their own, so that an event without them plays as before."""
        if not self.stationary:
            return
        rng = random.Random(self.seed + 2)
        tables = max(1, self.tables)
        order = [1, tables] + [n for n in range(2, tables) if n != tables]
        pool = {
            d: sorted(
                Player.objects.filter(tournament=t, division=d, house=False), key=attrgetter("pk")
            )
            for d in "AB"
        }
        for i in range(self.stationary):
            division = "AB"[i % 2]
            player = pool[division].pop(rng.randrange(len(pool[division])))
            mark_stationary(
                t,
                player,
                reason="simulated: cannot walk the room",
                table=order[i % len(order)],
                by=SIM,
                now=self.clock,
            )

    def end_a_stationary_mark(self, number: int) -> None:
        """After round 3 the director ends the second mark (the player walks again)."""
        if self.stationary < 2 or number != 3:
            return
        marks = StationaryMark.objects.filter(tournament=self.tournament).active()
        second = list(marks.select_related("player"))[1]
        end_stationary(
            self.tournament, second.player, reason="simulated: walks again", by=SIM, now=self.clock
        )

    # --- the mess of §6 -----------------------------------------------------------

    def arrive(self, number: int) -> None:
        for _ in range(self.mess.arrivals.count(number)):
            self.late_count += 1
            players.register_player(
                self.tournament,
                f"Late Arrival {self.late_count}",
                self.rng.choice("AB"),
                by=SIM,
                checked_in=True,
                now=self.clock,
            )

    def withdraw_between(self, number: int) -> None:
        for _ in range(self.mess.withdrawals.count((number, False))):
            rnd = self.tournament.rounds.get(number=number)
            ids = sorted(
                Seating.objects.filter(
                    round=rnd, player__withdrawn=False, player__house=False
                ).values_list("player_id", flat=True)
            )
            if len(ids) <= 8:  # keep a room that can still seat two tables
                return
            player = Player.objects.get(pk=self.rng.choice(ids))
            players.set_withdrawn(player, True, by=SIM, reason="simulated", now=self.clock)

    def interrupt_for(self, rnd: Round) -> dict[int, Callable[[Match, int], bool]]:
        """Matches of this round where a player leaves mid-match for a substitute."""
        count = self.mess.withdrawals.count((rnd.number, True))
        tables = sorted(rnd.matches.values_list("table", flat=True))
        chosen = self.rng.sample(tables, min(count, len(tables)))
        return {table: self.substitute_mid_match for table in chosen}

    def substitute_mid_match(self, match: Match, hands: int) -> bool:
        """A random seat's player leaves after ``hands`` hands; True if someone came in."""
        position = self.rng.choice(SEATS).value
        division = seat_division(match.round, match.table, position)
        candidates = [p for p in substitutes_for(match) if p.house or p.division == division]
        if not candidates:
            return False
        sub = self.rng.choice(sorted(candidates, key=lambda p: p.pk))
        out = Seating.objects.get(round=match.round, table=match.table, position=position).player
        players.set_withdrawn(out, True, by=SIM, reason="left mid-match", now=self.clock)
        substitute(match, position, hands + 1, sub, Signed(SIM, "simulated"))
        return True

    def match_transaction(self, apart: bool = True) -> AbstractContextManager[object]:
        """A match's hands commit together (the module's docstring says why). ``apart``:
        the match's hands are held in more than one run (a substitution between them);
        a single run is a transaction of its own already (``play.holding``)."""
        return transaction.atomic() if self.per_match and apart else nullcontext()

    def key(self, match: Match | play.Held, n: int) -> str:
        if isinstance(match, play.Held):
            match = match.match
        return f"sim-{self.tournament.pk}-{match.round.number}-{match.table}-{match.game}-{n}"

    def hands_of(self, match: Match) -> AbstractContextManager[Match | play.Held]:
        """The match held for a run of its hands (the module's docstring says why), or the
        match itself, each hand locking it, on the per-hand path."""
        return play.holding(match) if self.per_match else nullcontext(match)

    def play_hand(self, match: Match | play.Held, n: int, at: datetime) -> play.Recorded:
        """The table's n-th hand: a random one, entered by the simulation at ``at``; the
        first names the table's first dealer, as a tablet's first hand may."""
        named = match.match if isinstance(match, play.Held) else match
        return play.record_hand(
            match,
            random_hand(self.rng),
            client_key=self.key(match, n),
            by=SIM,
            source=HandEntry.Source.SIMULATION,
            first_dealer=self.first_dealers.pop(named.pk, None) if n == 1 else None,
            now=at,
        )

    def play_match(
        self,
        match: Match,
        start: datetime,
        deadline: datetime | None,
        interrupt: Callable[[Match, int], bool] | None = None,
    ) -> int | None:
        """Play regular hands until the target or the deadline; the number of hands
        played if the match is still going at the deadline, None if it is over.

        ``interrupt`` is called once, after the first hand or two, for a substitution."""
        # Named with the first hand, inside its hold: naming it apart locked and wrote the
        # match once more (a fifth of a simulation's statements).
        self.first_dealers[match.pk] = self.rng.choice(SEATS)
        at, n = start, 0
        stop = self.rng.randint(1, 2) if interrupt else None
        while True:
            with self.hands_of(match) as held:
                while True:
                    at += hand_duration(self.rng)
                    if deadline is not None and at >= deadline:
                        return n
                    n += 1
                    if self.play_hand(held, n, at).state.over:
                        return None
                    if n == stop and interrupt is not None:
                        break
            # The substitution is a service of its own: out of the hold, which ends.
            self.clock = at
            interrupt(match, n)

    def after_call(self, match: Match, deadline: datetime, played: int) -> None:
        """The hands of a match still going at the call; ``played`` is the number its
        table had played (``play_match`` counted them: reading the match again for it
        cost a tenth of the simulation)."""
        at = deadline + timedelta(seconds=self.rng.randint(20, 120))
        n = played
        in_progress = self.rng.random() < 0.75
        if not in_progress:
            state = play.answer_time_call(match, False, by=SIM, now=at)
        with self.hands_of(match) as held:
            if in_progress:
                n += 1
                state = self.play_hand(held, n, at).state
            while not state.over:
                at += hand_duration(self.rng)
                n += 1
                state = self.play_hand(held, n, at).state

    def play_round(self, rnd: Round) -> None:
        start = self.clock
        rounds.start_round(rnd, by=SIM, now=start)
        deadline = start + timedelta(minutes=self.tournament.round_minutes)
        matches = list(rnd.matches.select_related("round__tournament").order_by("table"))
        interrupts = self.interrupt_for(rnd) if self.messy else {}
        if self.messy:
            self.clock = start + timedelta(minutes=1)
            self.arrive(rnd.number)
        going = []
        for m in matches:
            with self.match_transaction(apart=m.table in interrupts):
                played = self.play_match(
                    m,
                    start + timedelta(seconds=self.rng.randint(10, 90)),
                    deadline,
                    interrupts.get(m.table),
                )
            if played is not None:
                going.append((m, played))
        for m, played in going:
            with self.match_transaction():
                self.after_call(m, deadline, played)
        end = deadline + timedelta(minutes=8)
        for m in matches:
            closing.confirm_match(m, agree=True, by=f"Table {m.table}", now=end)
        rounds.finish_round(rnd.tournament, rnd, by=SIM, now=end, backup=False, seat=False)
        self.clock = end + timedelta(minutes=10)
        if self.messy:
            self.withdraw_between(rnd.number)
        self.end_a_stationary_mark(rnd.number)

    def run(self) -> Tournament:
        # Nobody waits on a simulated match's commit; finishing the event commits the usual
        # way, which makes every earlier one durable (tournaments/core/db/durability.py).
        with commits_unflushed():
            t = self.setup()
            for number in range(1, t.preliminary_rounds + 1):
                if number > 1:
                    rounds.seat_next_round(t, by=SIM, now=self.clock)
                self.play_round(t.rounds.get(number=number))
            final = standings.seed_final(t, by=SIM, now=self.clock)
            while standings.champions(t) is None:
                game = final.matches.select_related("round__tournament").order_by("-game").first()
                assert game is not None
                with self.match_transaction(apart=False):
                    self.play_match(game, self.clock, None)
                self.clock += timedelta(minutes=25)
        standings.finish_event(t, by=SIM, now=self.clock, backup=False)
        t.refresh_from_db()
        return t


def simulate(tables: int, seed: int, name: str | None = None, **mess: object) -> Tournament:
    """A whole event; ``mess`` takes withdraw, late, house (counts) and uneven (§6), and
    stationary (a count, RULES.md §3.1)."""
    return Simulation(tables, seed, name, **mess).run()  # type: ignore[arg-type]


def demo_event(
    tables: int,
    name: str,
    *,
    round_started: datetime,
    seed: int = 2026,
    rounds_played: int = 2,
    club: Club | None = None,
) -> Tournament:
    """A tournament part-way through: some rounds played, the next one running now."""
    sim = Simulation(tables, seed, name, club=club)
    sim.clock = round_started - timedelta(minutes=45 * rounds_played)
    with commits_unflushed():  # as in Simulation.run: the next seating's commit flushes
        t = sim.setup()
        for number in range(1, rounds_played + 1):
            if number > 1:
                rounds.seat_next_round(t, by=SIM, now=sim.clock)
            sim.play_round(t.rounds.get(number=number))
    rounds.seat_next_round(t, by=SIM, now=sim.clock)
    current = t.rounds.get(number=rounds_played + 1)
    rounds.start_round(current, by=SIM, now=round_started)
    # A few hands at most tables, so the board shows a room in play.
    for match in current.matches.select_related("round__tournament").order_by("table"):
        if match.table % 3 == 0:
            continue
        play.set_first_dealer(match, sim.rng.choice(SEATS), by=SIM)
        at = round_started
        for n in range(1, sim.rng.randint(1, 4) + 1):
            at += timedelta(seconds=sim.rng.randint(60, 100))
            result = play.record_hand(
                match,
                random_hand(sim.rng),
                client_key=sim.key(match, n),
                by=f"Table {match.table}",
                now=min(at, round_started + timedelta(minutes=6)),
            )
            if result.state.over:
                break
    return t
