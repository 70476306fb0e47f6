"""Read-only queries for the director console and the projector.

Every helper answers in a fixed number of queries whatever the size of the event (the
tests pin them), and takes its verdicts from the rules engine and the other services:
nothing here decides a rule, it only arranges rows for a page.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common.names import sort_key
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match, PaperTable, TableLink
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.reads import current_round as current_round
from tournaments.core.reads.players import division_counts
from tournaments.core.reads.standings import (
    StandingRow,
    final_entries,
    final_skipped,
    recorded_skipped,
    skipped_of,
    standings,
)
from tournaments.core.replay import round_clock, table_call, table_remaining
from tournaments.domain.clock import RoundClock
from tournaments.domain.hands import SEATS, Seat
from tournaments.domain.seating import house_fill, shortfall_of

# A playing table that has sent nothing for this long is worth a walk over.
STALE_AFTER = timedelta(minutes=6)
# A table that has not entered its first hand this long after the start is worth a look.
SLOW_START_AFTER = timedelta(minutes=4)
# At or below this, not charging: "low battery" on the board.
LOW_BATTERY = 20


@dataclass(frozen=True)
class DeviceView:
    """A table's device as the board shows it."""

    seen_at: datetime | None
    unsent: int | None
    battery: int | None
    charging: bool | None

    def silent(self, now: datetime, after: timedelta, since: datetime | None) -> bool:
        """Not heard from for ``after`` (counted from ``since``, the round's start, for a
        device never heard from in it)."""
        last = max((t for t in (self.seen_at, since) if t is not None), default=None)
        return last is not None and now - last > after

    @property
    def low_battery(self) -> bool:
        return self.battery is not None and self.battery <= LOW_BATTERY and not self.charging


@dataclass(frozen=True)
class ClockView:
    started: bool
    paused: bool
    called: bool
    finished: bool
    remaining_seconds: int
    limit_seconds: int
    call_at: datetime | None
    final: bool = False  # the final has no time limit (§4): no countdown, never "called"

    def as_json(self, now: datetime) -> dict[str, object]:
        return {
            "server_now": now.isoformat(),
            "final": self.final,
            "started": self.started,
            "paused": self.paused,
            "called": self.called,
            "finished": self.finished,
            "remaining_seconds": self.remaining_seconds,
            "limit_seconds": self.limit_seconds,
            "call_at": self.call_at.isoformat() if self.call_at else None,
        }


def clock_view(rnd: Round, now: datetime, clock: RoundClock | None = None) -> ClockView:
    clock = clock or round_clock(rnd)
    is_final = rnd.kind == Round.Kind.FINAL
    remaining = timedelta(0) if is_final else clock.remaining(now)
    return ClockView(
        started=clock.started,
        paused=clock.paused(now),
        called=not is_final and clock.is_called(now),
        finished=rnd.status == Round.Status.FINISHED,
        remaining_seconds=int(remaining.total_seconds()),
        limit_seconds=int(clock.limit.total_seconds()),
        call_at=None if is_final else clock.call_instant(now),
        final=is_final,
    )


# --- players and check-in -------------------------------------------------------------


@dataclass(frozen=True)
class Readiness:
    """Who is here, how many tables that seats, and exactly what stands in the way."""

    counts: dict[str, dict[str, int]]
    tables: int
    problem: str | None
    absent: dict[str, list[str]]
    house: int = 0  # the house players who fill the empty seats (they count at once)

    @property
    def a(self) -> int:
        return self.counts["A"]["checked_in"]

    @property
    def b(self) -> int:
        return self.counts["B"]["checked_in"]


def shortfall_text(a_count: int, b_count: int) -> str | None:
    """Why round 1 cannot be drawn from these checked-in counts (the rules' shortfall),
    in the reader's language; None when they seat exactly."""
    short = shortfall_of(a_count, b_count)
    if short is None:
        return None

    def players(n: int, division: str, more: bool = False) -> str:
        values = {"n": n, "division": division}
        if more:
            return (
                ngettext("%(n)s more %(division)s player", "%(n)s more %(division)s players", n)
                % values
            )
        return ngettext("%(n)s %(division)s player", "%(n)s %(division)s players", n) % values

    def both(parts: list[str]) -> str:
        if len(parts) == 1:
            return parts[0]
        return _("%(first)s and %(second)s") % {"first": parts[0], "second": parts[1]}

    head = _("Cannot seat %(a)s and %(b)s: every table needs 2 A and 2 B players.") % {
        "a": players(short.a, "A"),
        "b": players(short.b, "B"),
    }
    missing = both([players(n, d, more=True) for n, d in short.missing])
    need = ngettext(
        "For %(tables)s table, %(missing)s needed",
        "For %(tables)s tables, %(missing)s needed",
        short.up,
    ) % {"tables": short.up, "missing": missing}
    if not short.down:
        return _("%(head)s %(need)s.") % {"head": head, "need": need}
    extra = both([players(n, d) for n, d in short.extra])
    fewer = ngettext(
        "for %(tables)s table, %(extra)s too many",
        "for %(tables)s tables, %(extra)s too many",
        short.down,
    ) % {"tables": short.down, "extra": extra}
    return _("%(head)s %(need)s; or %(fewer)s.") % {"head": head, "need": need, "fewer": fewer}


def readiness(tournament: Tournament) -> Readiness:
    counts = division_counts(tournament)
    a, b = counts["A"]["checked_in"], counts["B"]["checked_in"]
    absent: dict[str, list[str]] = {"A": [], "B": []}
    free = {"A": 0, "B": 0}
    for name, division, checked_in, house in Player.objects.filter(
        tournament=tournament, withdrawn=False
    ).values_list("name", "division", "checked_in", "house"):
        if house:
            free[division] += 1
        elif not checked_in:
            absent[division].append(name)
    problem = shortfall_text(a, b)
    if problem is not None and (filled := house_fill(a, b, free["A"], free["B"])) is not None:
        # The house players the director added fill the empty seats: ready as it stands.
        return Readiness(counts, filled.tables, None, absent, filled.house_a + filled.house_b)
    return Readiness(counts, min(a // 2, b // 2), problem, absent)


# --- seating ----------------------------------------------------------------------------


@dataclass
class TableRow:
    table: int
    seats: dict[str, Player] = field(default_factory=dict)

    def at(self, seat: str) -> Player | None:
        return self.seats.get(seat)

    @property
    def turned(self) -> bool:
        """The letters turned for a stationary player (RULES.md §3.1): the A players no
        longer sit N and E, so the page marks each player's division."""
        return any(
            p.division != division
            for position, division in (("N", "A"), ("E", "A"), ("S", "B"), ("W", "B"))
            if (p := self.seats.get(position)) is not None and not p.house
        )

    @property
    def ns(self) -> str:
        return _pair(self.seats, Seat.N, Seat.S)

    @property
    def ew(self) -> str:
        return _pair(self.seats, Seat.E, Seat.W)


def _pair(seats: dict[str, Player], first: Seat, second: Seat) -> str:
    names = [seats[s.value].name for s in (first, second) if s.value in seats]
    return " & ".join(names)


@dataclass(frozen=True)
class SeatFinder:
    """One line of the alphabetical "find your seat" list."""

    name: str
    division: str
    table: int
    seat: str
    partner: str
    opponents: str

    @property
    def sort_name(self) -> tuple[str, str]:
        """The name's place in every list a person reads (``tournaments.names``)."""
        return sort_key(self.name)


def seating_tables(rnd: Round) -> list[TableRow]:
    tables: dict[int, TableRow] = {}
    for seat in Seating.objects.filter(round=rnd).select_related("player"):
        tables.setdefault(seat.table, TableRow(seat.table)).seats[seat.position] = seat.player
    return [tables[t] for t in sorted(tables)]


def find_your_seat(tables: list[TableRow]) -> list[SeatFinder]:
    lines = []
    for row in tables:
        for seat in SEATS:
            player = row.at(seat.value)
            if player is None:
                continue
            partner = row.at(seat.partner.value)
            opponents = [row.at(s.value) for s in SEATS if s.team is not seat.team]
            lines.append(
                SeatFinder(
                    name=player.name,
                    division=player.division,
                    table=row.table,
                    seat=seat.value,
                    partner=partner.name if partner else "",
                    opponents=" & ".join(p.name for p in opponents if p is not None),
                )
            )
    return sorted(lines, key=lambda line: sort_key(line.name))


# --- the live board ---------------------------------------------------------------------

STATUS_LABELS = {
    "waiting": "Waiting",
    "playing": "Playing",
    "time_called": "Time called",
    "finished": "Finished",
    "confirmed": "Confirmed",
    "disputed": "Disputed",
}
# Lower sorts first when the director asks for the tables that need attention.
URGENCY = {
    "disputed": 0,
    "time_called": 1,
    "silent": 2,
    "stale": 2,
    "low_battery": 3,
    "slow_start": 3,
    "unconfirmed": 4,
}


@dataclass
class BoardRow:
    match: Match
    status: str
    ns: str
    ew: str
    since_entry: timedelta | None
    time_called: bool
    flags: list[str]
    attention: list[str]
    urgency: int
    # An extended table's own countdown, in seconds (None for other tables).
    own_remaining: int | None = None
    # What the table's device last reported, and whether it has gone silent.
    device: DeviceView | None = None
    silent: bool = False
    # Scored on paper (no tablet): no device to hear from, no entries to wait for.
    paper: bool = False

    @property
    def own_remaining_text(self) -> str:
        seconds = self.own_remaining or 0
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def table(self) -> int:
        return self.match.table

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]


ATTENTION_TEXT = {
    "disputed": "result disputed",
    "time_called": "time called, still playing",
    "stale": "no entry for a while",
    "slow_start": "no hand entered yet",
    "unconfirmed": "finished, not confirmed",
    "silent": "tablet silent",
    "low_battery": "tablet battery low",
}


def _flags(match: Match) -> list[str]:
    """What happened at the table that the director may want to look at."""
    return [
        label
        for flag, label in (
            (match.has_renege, "renege"),
            (match.has_override, "override"),
            (match.has_correction, "correction"),
            (match.has_late_sync, "late sync"),
        )
        if flag
    ]


def _stalled(
    match: Match, clock: RoundClock, now: datetime, started_at: datetime | None
) -> list[str]:
    """Why a tablet table still playing looks stuck: no entry for a while, or none yet
    long after the start (never while the clock is paused)."""
    reasons = []
    last = match.last_contact_at or match.last_entry_at
    if (
        match.status == Match.Status.PLAYING
        and last
        and now - last > STALE_AFTER
        and not clock.paused(now)
    ):
        reasons.append("stale")
    if (
        match.hands_played == 0
        and started_at is not None
        and now - started_at > SLOW_START_AFTER
        and not clock.paused(now)
    ):
        reasons.append("slow_start")
    return reasons


def _device_of(match: Match) -> DeviceView:
    return DeviceView(
        getattr(match, "device_seen_at", None),
        getattr(match, "device_unsent", None),
        getattr(match, "device_battery", None),
        getattr(match, "device_charging", None),
    )


def _silent(
    match: Match,
    device: DeviceView,
    clock: RoundClock,
    now: datetime,
    started_at: datetime | None,
) -> bool:
    """Whether the table's tablet has stopped reporting while its round runs."""
    # Only while the table's round runs: between rounds a tablet may sleep.
    playing = (
        not match.is_over
        and match.round.status == Round.Status.RUNNING
        and started_at is not None
        and not clock.paused(now)
    )
    return playing and device.silent(
        now, timedelta(seconds=match.round.tournament.silent_after_seconds), started_at
    )


def _board_row(
    match: Match,
    names: dict[str, str],
    clock: RoundClock,
    now: datetime,
    started_at: datetime | None,
) -> BoardRow:
    over = match.is_over
    called = table_call(match, now, clock) is not None
    if over:
        status = match.status
    elif called:
        status = "time_called"
    else:
        status = match.status
    since = now - match.last_entry_at if match.last_entry_at else None
    reasons: list[str] = []
    if match.status == Match.Status.DISPUTED:
        reasons.append("disputed")
    if status == "time_called":
        reasons.append("time_called")
    paper = bool(getattr(match, "on_paper", False))
    if not paper and not over:
        reasons += _stalled(match, clock, now, started_at)
    if match.status == Match.Status.FINISHED:
        reasons.append("unconfirmed")
    device = _device_of(match)
    silent = not paper and _silent(match, device, clock, now, started_at)
    if silent:
        reasons.append("silent")
    if not paper and not over and device.low_battery:
        reasons.append("low_battery")
    urgency = min((URGENCY[r] for r in reasons), default=9)
    return BoardRow(
        match=match,
        status=status,
        ns=" & ".join(n for n in (names.get("N"), names.get("S")) if n),
        ew=" & ".join(n for n in (names.get("E"), names.get("W")) if n),
        since_entry=since,
        time_called=called,
        flags=_flags(match),
        attention=[ATTENTION_TEXT[r] for r in reasons],
        urgency=urgency,
        own_remaining=(
            int(table_remaining(match, now, clock).total_seconds())
            if match.extension_seconds and not over and not called
            else None
        ),
        device=device,
        silent=silent,
        paper=paper,
    )


def live_board(
    rnd: Round, now: datetime, *, attention_only: bool = False, sort: str = "table"
) -> list[BoardRow]:
    """Every match of the round with what the director needs to see; three queries."""
    clock = round_clock(rnd)
    names: defaultdict[int, dict[str, str]] = defaultdict(dict)
    for table, seats in Seating.objects.filter(round=rnd).by_table("player__name").items():
        names[table] = {position: name for position, (name,) in seats.items()}
    rows = []
    # Each table's device (its live link's last report), read with the matches.
    link = TableLink.objects.live().filter(tournament_id=rnd.tournament_id, table=OuterRef("table"))
    matches = Match.objects.filter(round=rnd).annotate(
        device_seen_at=Subquery(link.values("seen_at")[:1]),
        device_unsent=Subquery(link.values("unsent")[:1]),
        device_battery=Subquery(link.values("battery")[:1]),
        device_charging=Subquery(link.values("charging")[:1]),
        on_paper=Exists(
            PaperTable.objects.filter(tournament_id=rnd.tournament_id, table=OuterRef("table"))
        ),
    )
    for match in matches.order_by("table", "game"):
        match.round = rnd  # the round (and its tournament) is already loaded
        rows.append(_board_row(match, names[match.table], clock, now, rnd.started_at))
    if attention_only:
        rows = [r for r in rows if r.attention or r.flags]
    if sort == "attention":
        rows.sort(
            key=lambda r: (r.urgency, -(r.since_entry or timedelta(0)).total_seconds(), r.table)
        )
    elif sort == "idle":
        rows.sort(
            key=lambda r: (
                r.since_entry is None,
                -(r.since_entry or timedelta(0)).total_seconds(),
                r.table,
            )
        )
    return rows


def board_summary(rows: list[BoardRow]) -> dict[str, int]:
    summary = {key: 0 for key in STATUS_LABELS}
    for row in rows:
        summary[row.status] += 1
    summary["attention"] = sum(1 for r in rows if r.attention)
    return summary


# --- standings and the final ------------------------------------------------------------


@dataclass(frozen=True)
class Finalist:
    seat: str
    division: str
    row: StandingRow
    skipped: tuple[str, ...]
    lot_seed: int = 0  # the event's lot, shown where it decides (§4)

    @property
    def why(self) -> str:
        r = self.row.record
        text = ngettext(
            "Rank %(rank)s in division %(division)s: %(total)s points, %(wins)s win, "
            "margin %(margin)s",
            "Rank %(rank)s in division %(division)s: %(total)s points, %(wins)s wins, "
            "margin %(margin)s",
            r.wins,
        ) % {
            "rank": self.row.rank,
            "division": self.division,
            "total": r.total,
            "wins": r.wins,
            "margin": f"{r.margin:+d}",
        }
        if self.row.standing.decided_by_lot:
            text = _("%(why)s, placed by lot (seed %(seed)s)") % {
                "why": text,
                "seed": self.lot_seed,
            }
        if self.skipped:
            text = _("%(why)s (%(skipped)s: cannot enter the final)") % {
                "why": text,
                "skipped": "; ".join(self.skipped),
            }
        return _("%(why)s.") % {"why": text}


def finalists(
    tournament: Tournament,
    table: dict[str, list[StandingRow]] | None = None,
    seated: dict[int, str] | None = None,
    final: Round | None = None,
) -> list[Finalist]:
    """Who plays the final and why: the final's seats if seeded, else who would be.

    ``seated`` maps player id to final seat (``final`` is then its round, when the caller
    has it); without it the top two eligible players of each division are shown, as
    ``services.standings.seed_final`` will seat them.
    """
    table = table if table is not None else standings(tournament)
    # §4: who enters (a shared rank the director has not broken yet enters nobody).
    entries = final_entries(tournament) if seated is None else {}
    # Who is passed over: once the final is seated, as its seeding recorded them.
    if seated is None:
        skips = skipped_of(entries)
    else:
        recorded = None if final is None else recorded_skipped(final)
        skips = final_skipped(tournament) if recorded is None else recorded
    passed = {s.player.pk: s for s in skips}
    result = []
    for division, seats in (("A", ("N", "S")), ("B", ("E", "W"))):
        skipped: list[str] = []
        picked = []
        entering = [p.pk for p in entries[division].finalists] if entries else []
        for row in table[division]:
            if row.player.pk in passed:
                skipped.append(
                    # Translators: a player the final passes over, and why: "Bob, withdrawn
                    # after round 3".
                    _("%(name)s, %(why)s")
                    % {"name": row.player.name, "why": passed[row.player.pk].why}
                )
            if seated is not None:
                if row.player.pk in seated:
                    picked.append((seated[row.player.pk], row, tuple(skipped)))
                continue
            if row.player.pk in entering:
                picked.append((seats[entering.index(row.player.pk)], row, tuple(skipped)))
        result += [
            Finalist(seat, division, row, skip, tournament.lot_seed) for seat, row, skip in picked
        ]
    return sorted(result, key=lambda f: "NSEW".index(f.seat))
