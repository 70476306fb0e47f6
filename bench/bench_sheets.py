"""Sheets benchmark: how long each printed PDF takes for a big event (run by hand).

Builds a realistic event in a fresh database, then times every document twice over:
the query that gathers its rows (``reads.sheets``) and the reportlab build
(``tournaments.pdf``), median of ``--repeat`` runs, with page counts and sizes.

The event is made through the services where it is cheap (players, the draw, every
rotation, the final) and in bulk where playing through them would take minutes: each
preliminary match is played hand by hand with the simulator's random hands and scored
by the rules engine (``domain.match.replay``), then its hands, match row and seat
results are bulk-written exactly as ``services.play`` would have left them.

    .venv/bin/python -m bench.bench_sheets --tables 500
    .venv/bin/python -m bench.bench_sheets --tables 500 --db postgres
    .venv/bin/python -m bench.bench_sheets --reuse          # time again, same data

Target: the standings sheet for 1,000 players within 2 s on 2 cores. The
load average is printed because the cores are usually shared.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VAR = Path("/tmp/sheets-bench")
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_NAME = "snowman_sheets_bench"
NAME = "Bench Sheets Open"
EPOCH = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)
BY = "bench"


def configure(db: str, reuse: bool) -> None:
    """Point Django at the bench database (fresh unless reusing) before it loads."""
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "snowman.settings"
    os.environ["SNOWMAN_VAR_DIR"] = str(VAR)
    VAR.mkdir(parents=True, exist_ok=True)
    if db == "postgres":
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{PG_NAME}"
        if not reuse:
            import psycopg

            with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{PG_NAME}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{PG_NAME}"')
    else:
        os.environ.pop("DATABASE_URL", None)
        if not reuse:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{VAR / 'snowman.sqlite3'}{suffix}").unlink(missing_ok=True)
    import django

    django.setup()
    if not reuse:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)


def play_match(rng: random.Random, rules: Any) -> tuple[Any, list[Any], Any]:
    """One timed match: regular hands until the target or the time limit, then the hand
    in progress at the call and tie-break hands while tied (docs/rules.md §2.2)."""
    from tournaments.domain.hands import SEATS
    from tournaments.domain.match import Phase, PhasedHand, TimeCall, replay
    from tournaments.domain.simulation import random_hand

    first = rng.choice(SEATS)
    budget = rng.randint(6, 12)  # hands that fit in the time limit at this table
    hands: list[PhasedHand] = []
    while True:
        n = len(hands)
        phase = Phase.REGULAR if n < budget else Phase.AT_CALL if n == budget else Phase.TIEBREAK
        hands.append(PhasedHand(random_hand(rng), phase))
        called = phase is not Phase.REGULAR
        state = replay(
            hands,
            first_dealer=first,
            rules=rules,
            time=TimeCall(called=called, hand_in_progress=True if called else None),
        )
        if state.over:
            return first, hands, state


def play_round_in_bulk(rnd: Any, rng: random.Random, start: datetime) -> None:
    from django.db import transaction

    from tournaments.core.models.play import HandEntry, Match
    from tournaments.core.models.rounds import Round, Seating
    from tournaments.domain.hands import Outcome, Seat, Team

    rules = rnd.tournament.rules
    end = start + timedelta(minutes=rnd.tournament.round_minutes + 8)
    matches = {m.table: m for m in Match.objects.filter(round=rnd)}
    seats: dict[int, list[Seating]] = {}
    for seat in Seating.objects.filter(round=rnd):
        seats.setdefault(seat.table, []).append(seat)
    entries: list[HandEntry] = []
    for table, match in matches.items():
        first, hands, state = play_match(rng, rules)
        at = start
        for scored, phased in zip(state.hands, hands, strict=True):
            at += timedelta(seconds=rng.randint(70, 230))
            h = scored.hand
            entries.append(
                HandEntry(
                    match=match,
                    number=scored.number,
                    client_key=f"bench-{match.pk}-{scored.number}",
                    outcome=h.outcome.value,
                    maker=h.maker.value if h.maker else "",
                    alone=h.alone,
                    maker_tricks=h.maker_tricks,
                    renege_by=h.renege_by.value if h.renege_by else "",
                    dealer=scored.dealer.value,
                    phase=phased.phase.value,
                    points_ns=scored.score.points[Team.NS],
                    points_ew=scored.score.points[Team.EW],
                    source=HandEntry.Source.SIMULATION,
                    entered_at=at,
                    entered_by=f"Table {table}",
                )
            )
        assert state.winner is not None
        match.status = Match.Status.CONFIRMED
        match.first_dealer = first.value
        match.hand_in_progress_at_call = True if state.time_called else None
        match.score_ns, match.score_ew = state.score[Team.NS], state.score[Team.EW]
        match.bonus_ns, match.bonus_ew = state.bonuses[Team.NS], state.bonuses[Team.EW]
        match.hands_played = len(state.hands)
        match.has_renege = any(s.hand.outcome is Outcome.RENEGE for s in state.hands)
        match.recorded_winner = match.winner = state.winner.value
        match.last_entry_at, match.confirmed_at = at, end
        match.confirmed_by = f"Table {table}"
        for seat in seats[table]:
            position = Seat(seat.position)
            team = position.team
            seat.team_score = state.score[team]
            seat.bonus = state.bonuses.get(team, 0)
            seat.individual = state.individual.get(position, 0)
            seat.points = state.player_points(position)
            seat.won = state.winner is team
            seat.margin = state.margin(team)
    with transaction.atomic():
        HandEntry.objects.bulk_create(entries, batch_size=2000)
        Match.objects.bulk_update(
            list(matches.values()),
            [
                "status",
                "first_dealer",
                "hand_in_progress_at_call",
                "score_ns",
                "score_ew",
                "bonus_ns",
                "bonus_ew",
                "hands_played",
                "has_renege",
                "recorded_winner",
                "winner",
                "last_entry_at",
                "confirmed_at",
                "confirmed_by",
            ],
            batch_size=1000,
        )
        Seating.objects.bulk_update(
            [s for table in seats.values() for s in table],
            ["team_score", "bonus", "individual", "points", "won", "margin"],
            batch_size=2000,
        )
        Round.objects.filter(pk=rnd.pk).update(
            status=Round.Status.FINISHED, started_at=start, finished_at=end
        )


def build_event(tables: int, rounds: int, seed: int) -> Any:
    from tournaments.core.services import players
    from tournaments.core.services.rounds import draw_first_round, seat_next_round
    from tournaments.core.services.tournaments import create_tournament
    from tournaments.core.simulate import player_names
    from tournaments.domain.rules import RuleSettings

    rng = random.Random(seed)
    t = create_tournament(NAME, by=BY, lot_seed=seed, rules=RuleSettings(preliminary_rounds=rounds))
    names = player_names(4 * tables, rng)
    # A few names from outside Helvetica's encoding, as a real field would have.
    names[5], names[6] = "Łukasz Dvořák", "Şükrü Çağlar"
    csv_text = "name,division\n" + "".join(
        f"{n},{'A' if i % 2 == 0 else 'B'}\n" for i, n in enumerate(names)
    )
    report = players.import_players(t, csv_text, by=BY, checked_in=True)
    assert report.ok, report.error_text()
    draw_first_round(t, by=BY, seed=seed)
    clock = EPOCH
    for number in range(1, rounds + 1):
        if number > 1:
            seat_next_round(t, by=BY)
        play_round_in_bulk(t.rounds.get(number=number), rng, clock)
        clock += timedelta(minutes=45)
    t.refresh_from_db()
    return t


def play_final(t: Any, seed: int) -> None:
    """The final through the services: a handful of games, so playing them is cheap."""
    from tournaments.core.services import play, standings
    from tournaments.domain.hands import SEATS
    from tournaments.domain.simulation import random_hand

    rng = random.Random(seed)
    final = standings.seed_final(t, by=BY)
    n = 0
    while standings.champions(t) is None:
        game = final.matches.select_related("round__tournament").order_by("-game").first()
        play.set_first_dealer(game, rng.choice(SEATS), by=BY)
        while True:
            n += 1
            result = play.record_hand(game, random_hand(rng), client_key=f"bench-final-{n}", by=BY)
            if result.state.over:
                break
    standings.finish_event(t, by=BY, backup=False)


def timed(action: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median wall time in seconds and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--paper", choices=["letter", "a4"], default="letter")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="time the event left by the previous run instead of building one",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="also write each PDF into this folder, to look at"
    )
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    configure(args.db, args.reuse)

    from pypdf import PdfReader

    from tournaments.core.models.event import Tournament
    from tournaments.core.models.rounds import Round
    from tournaments.core.pdf import final, scoresheets, seating, standings, table_cards
    from tournaments.core.reads import sheets

    start = time.perf_counter()
    if args.reuse:
        t = Tournament.objects.get(name=NAME)
    else:
        t = build_event(args.tables, args.rounds, args.seed)
    built = time.perf_counter() - start
    tables = t.rounds.get(number=1).matches.count()
    last = t.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("-number").first()

    def link(token: str) -> str:
        return f"https://snowman.example.org/t/{token}/"

    documents: list[tuple[str, Callable[[], Any], Callable[[Any], bytes]]] = [
        (
            "standings, division A",
            lambda: sheets.standings_sheet(t, "A"),
            lambda s: standings.build(s, args.paper),
        ),
        (
            "standings, division B",
            lambda: sheets.standings_sheet(t, "B"),
            lambda s: standings.build(s, args.paper),
        ),
        (
            f"seating, round {last.number}",
            lambda: sheets.seating_sheet(last),
            lambda s: seating.build(s, args.paper),
        ),
        (
            f"scoresheets, round {last.number}",
            lambda: sheets.scoresheets(last),
            lambda s: scoresheets.build(s, args.paper),
        ),
        # Cards for every table of the last preliminary round, even once the final is on.
        (
            f"table cards, round {last.number}",
            lambda: sheets.table_cards(t, link, rnd=last),
            lambda s: table_cards.build(s, args.paper),
        ),
    ]
    rows = []
    for label, query, build in documents:
        q_time, data = timed(query, args.repeat)
        b_time, pdf = timed(lambda data=data, build=build: build(data), args.repeat)
        rows.append((label, q_time, b_time, pdf))
    if t.status == Tournament.Status.PRELIMINARY:
        play_final(t, args.seed)
        t.refresh_from_db()
    q_time, data = timed(lambda: sheets.final_results(t), args.repeat)
    b_time, pdf = timed(lambda: final.build(data, args.paper), args.repeat)
    rows.append(("final results", q_time, b_time, pdf))

    print(
        f"sheets benchmark: {tables} tables, {4 * tables} players, {args.db}, "
        f"{args.paper}, median of {args.repeat}; event "
        f"{'reused' if args.reuse else f'built in {built:.1f} s'}"
    )
    print(
        f"  cpus {os.cpu_count()}, load average before {load_before[0]:.2f} "
        f"{load_before[1]:.2f} {load_before[2]:.2f}"
    )
    print(f"  {'document':<26} {'query':>8} {'build':>8} {'total':>8} {'pages':>6} {'size':>9}")
    for label, q_time, b_time, pdf in rows:
        pages = len(PdfReader(BytesIO(pdf)).pages)
        print(
            f"  {label:<26} {q_time:7.2f}s {b_time:7.2f}s {q_time + b_time:7.2f}s "
            f"{pages:6d} {len(pdf) / 1024:7.0f} kB"
        )
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{label.replace(', ', '-').replace(' ', '-')}.pdf").write_bytes(pdf)
    after = os.getloadavg()
    print(f"  load average after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}")


if __name__ == "__main__":
    main()
