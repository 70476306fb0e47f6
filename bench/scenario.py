"""The end-of-round burst, shared by ``bench/burst.py`` and the burst and fault tests.

The event is prepared through the services in this process (Django set up against the
same database as the server); the load goes through gunicorn; the counts come from the
database afterwards.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connections

from bench.load import (
    ACKNOWLEDGED,
    Phase,
    Post,
    Tablet,
    at_once,
    open_all,
    ping_all,
    plan,
    send_all,
    send_twice,
)
from tournaments.core.models.event import Club, Tournament
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Round
from tournaments.core.services import rounds
from tournaments.core.services.players import import_players
from tournaments.core.services.tournaments import create_tournament
from tournaments.domain.rules import RuleSettings

BY = "bench"
# Long rounds: the clock must not call time in the middle of a benchmark.
RULES = RuleSettings(round_minutes=240)


def prepare_event(tables: int, name: str = "Burst", club: Club | None = None) -> Tournament:
    """A tournament (of ``club``; the site's club when None) with round 1 drawn and
    running, every table with a live link."""
    t = create_tournament(
        f"{name} {tables} tables {time.time_ns()}", by=BY, rules=RULES, lot_seed=tables, club=club
    )
    rows = [f"Player {d}{i:04d},{d}" for d in "AB" for i in range(1, 2 * tables + 1)]
    report = import_players(t, "name,division\n" + "\n".join(rows), by=BY, checked_in=True)
    assert report.ok, report.error_text()
    rnd = rounds.draw_first_round(t, by=BY, seed=tables)
    rounds.start_round(rnd, by=BY)
    return t


def tokens(t: Tournament) -> dict[int, str]:
    return dict(
        TableLink.objects.filter(tournament=t, revoked_at__isnull=True).values_list(
            "table", "token"
        )
    )


def matches(rnd: Round) -> dict[int, int]:
    """Table → the id of its match in the round."""
    return dict(Match.objects.filter(round=rnd, game=1).values_list("table", "id"))


def next_round(t: Tournament) -> Round:
    """Finalize the round the tablets finished and start the next one."""
    current = t.rounds.order_by("-number").first()
    rounds.finish_round(t, current, by=BY, backup=False, seat=False)
    return rounds.start_round(rounds.seat_next_round(t, by=BY), by=BY)


def verify(t: Tournament, rnd: Round, posts: dict[int, list[Post]]) -> list[str]:
    """Every expected hand stored exactly once, nothing else: the problems found."""
    problems = []
    expected = {p.client_key: (p.table, p.number) for ps in posts.values() for p in ps}
    stored = list(
        HandEntry.objects.filter(match__round=rnd).values_list(
            "client_key", "match__table", "number", "state"
        )
    )
    got = {key: (table, number) for key, table, number, _ in stored}
    if len(stored) != len(expected):
        problems.append(f"{rnd}: {len(stored)} hand rows stored, {len(expected)} expected")
    missing = expected.keys() - got.keys()
    extra = got.keys() - expected.keys()
    if missing:
        problems.append(f"{rnd}: {len(missing)} hands lost, e.g. {sorted(missing)[:3]}")
    if extra:
        problems.append(f"{rnd}: {len(extra)} unexpected hands, e.g. {sorted(extra)[:3]}")
    misplaced = [k for k in expected.keys() & got.keys() if expected[k] != got[k]]
    if misplaced:
        problems.append(f"{rnd}: {len(misplaced)} hands at the wrong table or number")
    not_standing = [key for key, *_, state in stored if state != HandEntry.State.STANDING]
    if not_standing:
        problems.append(f"{rnd}: {len(not_standing)} hands not standing")
    for m in Match.objects.filter(round=rnd):
        want = len(posts.get(m.table, []))
        if m.hands_played != want or (want and m.status != Match.Status.FINISHED):
            problems.append(
                f"{rnd} table {m.table}: {m.hands_played} hands, "
                f"status {m.status}; expected {want} and finished"
            )
    return problems


@dataclass
class Report:
    tables: int
    phases: list[Phase] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)

    def ok(self) -> bool:
        return not self.problems and all(
            p.server_errors == 0 and p.no_answer == 0 for p in self.phases
        )

    def phase(self, name: str) -> Phase:
        return next(p for p in self.phases if p.name == name)

    def lines(self) -> list[str]:
        out = [p.line() for p in self.phases]
        floor, burst = (
            next((p for p in self.phases if p.name == n), None)
            for n in ("floor (trivial view)", "burst")
        )
        if floor and burst:
            f, b = floor.latency(), burst.latency()
            out.append(
                f"burst / floor: p50 x{b['p50'] / f['p50']:.1f}, p95 x{b['p95'] / f['p95']:.1f}, "
                f"throughput x{burst.throughput / floor.throughput:.2f}"
            )
        out.append(f"rows: {self.rows}")
        out += [f"PROBLEM: {p}" for p in self.problems] or ["every hand stored exactly once"]
        return out


def run(
    t: Tournament,
    port: int,
    *,
    floor: bool = True,
    before_double: Callable[[], None] | None = None,
    cpu: Callable[[], tuple[float, float]] | None = None,
) -> Report:
    """Burst, replay, then the next round with every request sent twice at once."""
    t1 = t.rounds.get(number=1)
    links = tokens(t)
    tables = sorted(links)
    report = Report(len(tables))
    tablets = {n: Tablet(port, links[n]) for n in tables}
    open_all(list(tablets.values()))
    first = plan(matches(t1), t.rules, seed=1, tag=f"r1-{t.pk}")
    per_tablet = max(len(p) for p in first.values())
    connections.close_all()

    if floor:
        report.phases.append(
            at_once("floor (trivial view)", ping_all(list(tablets.values()), per_tablet), cpu=cpu)
        )
    report.phases.append(
        at_once("burst", [send_all(tablets[n], first[n]) for n in tables], cpu=cpu)
    )
    report.problems += verify(t, t1, first)
    report.rows["after burst"] = HandEntry.objects.filter(match__round__tournament=t).count()

    report.phases.append(
        at_once("replay", [send_all(tablets[n], first[n]) for n in tables], cpu=cpu)
    )
    report.problems += verify(t, t1, first)
    report.rows["after replay"] = HandEntry.objects.filter(match__round__tournament=t).count()
    replay = report.phase("replay")
    if set(replay.statuses) - {200}:
        report.problems.append(f"replay answered {replay.statuses}, expected only 200")

    t2 = next_round(t)
    if before_double:
        before_double()
    second = plan(matches(t2), t.rules, seed=2, tag=f"r2-{t.pk}")
    jobs = []
    for n in tables:
        twin = Tablet(port, links[n])
        twin.cookies = dict(tablets[n].cookies)
        jobs += send_twice(tablets[n], twin, second[n])
    connections.close_all()
    report.phases.append(at_once("double send", jobs, cpu=cpu))
    report.problems += verify(t, t2, second)
    report.rows["after double send"] = HandEntry.objects.filter(match__round__tournament=t).count()
    double = report.phase("double send")
    created = double.statuses.get(201, 0)
    if created != sum(len(p) for p in second.values()):
        report.problems.append(f"double send created {created} hands: {double.statuses}")
    if set(double.statuses) - ACKNOWLEDGED:
        report.problems.append(f"double send answered {double.statuses}")
    for tablet in tablets.values():
        tablet.close()
    return report


def run_with_crash(
    t: Tournament,
    port: int,
    restart: Callable[[], None],
    crash: Callable[[], None],
    at_fraction: float = 0.4,
) -> Report:
    """Kill the server once ``at_fraction`` of the hands are acknowledged, restart it,
    and let every tablet resend what it has not seen acknowledged."""
    rnd = t.rounds.get(number=1)
    links = tokens(t)
    tables = sorted(links)
    report = Report(len(tables))
    tablets = {n: Tablet(port, links[n]) for n in tables}
    open_all(list(tablets.values()))
    posts = plan(matches(rnd), t.rules, seed=3, tag=f"crash-{t.pk}")
    total = sum(len(p) for p in posts.values())
    connections.close_all()

    def crash_midway(logs: list[list]) -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            acknowledged = sum(1 for log in logs for r in list(log) if r.status == 201)
            if acknowledged >= total * at_fraction:
                break
            time.sleep(0.01)
        crash()
        report.rows["acknowledged before the crash"] = sum(
            1 for log in logs for r in list(log) if r.status == 201
        )
        time.sleep(1)
        restart()

    phase = at_once(
        "burst with a crash", [send_all(tablets[n], posts[n]) for n in tables], during=crash_midway
    )
    report.phases.append(phase)
    report.problems += verify(t, rnd, posts)
    report.rows["stored"] = HandEntry.objects.filter(match__round=rnd).count()
    report.rows["expected"] = total
    if phase.server_errors:
        report.problems.append(f"server errors: {phase.statuses}")
    for tablet in tablets.values():
        tablet.close()
    return report
