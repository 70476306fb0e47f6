"""The rows behind the printed sheets (tournaments.pdf).

Each function here gathers one document's data in a handful of queries and returns
plain frozen dataclasses, so the PDF builders never touch the ORM or a request and can
be benchmarked and tested on their own. Names are resolved here once; the builders
only lay them out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from tournaments.common import bilingual
from tournaments.common.bilingual import tr as _
from tournaments.common.bilingual import trn as ngettext
from tournaments.common.names import sort_key as sort_key
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Round, Seating, SitOut
from tournaments.core.reads import current_round, now_or
from tournaments.core.reads.standings import (
    StandingRow,
    final_progress,
    final_round,
    final_skipped,
    standings,
)
from tournaments.core.reads.tablet.link import shown
from tournaments.core.reads.visibility import EVERYTHING, of_event, visible_standings
from tournaments.domain.hands import SEATS, Seat, Team
from tournaments.domain.rules import RuleSettings


def event_label(tournament: Tournament) -> str:
    """The event's name as every printed sheet shows it: a rehearsal's says so in each
    title and on each page's footer (issue 25)."""
    if tournament.rehearsal:
        return _("REHEARSAL · %(name)s", name=tournament.name)
    return tournament.name


def _status_word(match: Match) -> str:
    return str(match.get_status_display()).lower()


def round_label(rnd: Round) -> str:
    """ "Round 3" or "Final" in the sheet's language(s): "Ronde 3 / Round 3"."""
    if rnd.kind == Round.Kind.FINAL:
        return _("Final")
    return _("Round %(n)s", n=rnd.number)


@dataclass(frozen=True)
class Seated:
    """A player at a seat; the division is printed beside the name as an A/B mark."""

    name: str
    division: str
    house: bool = False  # §6: a stand-in, printed "house" instead of a division

    @property
    def mark(self) -> str:
        return bilingual.player_mark(self.division, self.house)


@dataclass(frozen=True)
class StandingLine:
    rank: int
    shared: bool  # another player holds the same rank (printed "3=")
    name: str
    withdrawn: bool
    by_round: tuple[int | None, ...]  # one entry per column of StandingsSheet.rounds
    bonuses: int
    individual: int
    total: int
    wins: int
    margin: int
    by_lot: bool
    withdrawn_after: int | None = None
    played: int = 0
    sit_outs: int = 0


@dataclass(frozen=True)
class StandingsSheet:
    event: str
    division: str
    rounds: tuple[int, ...]
    status: str  # "After round 3", "Round 4 in progress", ...
    lot_seed: int
    lines: tuple[StandingLine, ...]
    printed_at: datetime
    # While the standings are hidden (§5): on the wall's copy, which rounds it leaves out;
    # on the director's copy, the mark printed at the top of every page.
    hidden_note: str = ""
    director_mark: str = ""


@dataclass(frozen=True)
class TableLine:
    table: int
    seats: dict[Seat, Seated]


@dataclass(frozen=True)
class FindLine:
    name: str
    division: str
    table: int
    seat: Seat
    partner: str
    house: bool = False

    @property
    def mark(self) -> str:
        return bilingual.player_mark(self.division, self.house)


@dataclass(frozen=True)
class SeatingSheet:
    event: str
    round_label: str
    tables: tuple[TableLine, ...]
    players: tuple[FindLine, ...]  # alphabetical
    printed_at: datetime
    sit_outs: tuple[str, ...] = ()  # §6: checked-in players without a seat this round


@dataclass(frozen=True)
class TableCard:
    table: int
    url: str | None  # None when the table has no live tablet link
    seats: dict[Seat, Seated]
    # The table's code (issue 23), as printed; typed at ``code_url`` on any device.
    code: str = ""

    @property
    def code_url(self) -> str:
        """Where the code is typed: the tablet link's own ``/t/``, without its token."""
        if not self.url or "/t/" not in self.url:
            return ""
        return self.url[: self.url.rindex("/t/") + 3]


@dataclass(frozen=True)
class TableCards:
    event: str
    round_label: str
    cards: tuple[TableCard, ...]
    printed_at: datetime


@dataclass(frozen=True)
class HandLine:
    number: int
    dealer: Seat
    makers: Team | None
    alone: bool
    tricks: int | None
    note: str  # "misdeal", "renege by N", "tie-break", ...
    points_ns: int
    points_ew: int
    total_ns: int
    total_ew: int


@dataclass(frozen=True)
class Scoresheet:
    table: int
    game: int | None  # the final's game number, None in a preliminary round
    seats: dict[Seat, Seated]
    first_dealer: Seat | None
    hands: tuple[HandLine, ...]  # hands already recorded, printed so the table carries on


@dataclass(frozen=True)
class Scoresheets:
    event: str
    round_label: str
    final: bool
    games_to_win: int
    round_minutes: int
    rules: RuleSettings  # target and the bonus and award values printed in the boxes
    sheets: tuple[Scoresheet, ...]
    printed_at: datetime


@dataclass(frozen=True)
class FinalGame:
    number: int
    score_ns: int
    score_ew: int
    winner: Team | None
    status: str


@dataclass(frozen=True)
class FinalResults:
    event: str
    status: str
    finished: bool
    champions: Team | None
    pairs: dict[Team, tuple[str, str]]  # empty until the final is seated
    games: tuple[FinalGame, ...]
    wins: dict[Team, int]
    top: dict[str, tuple[StandingLine, ...]]
    printed_at: datetime
    skipped: tuple[str, ...] = ()  # §4: withdrawn players passed over, with the reason
    # Its top of each division reads the live standings: while they are hidden (§5) the
    # sheet is the director's, marked so on every page.
    director_mark: str = ""


def _lines(rows: list[StandingRow], rounds: tuple[int, ...]) -> tuple[StandingLine, ...]:
    counts: dict[int, int] = defaultdict(int)
    for row in rows:
        counts[row.rank] += 1
    return tuple(
        StandingLine(
            rank=row.rank,
            shared=counts[row.rank] > 1,
            name=row.player.name,
            withdrawn=row.player.withdrawn,
            by_round=tuple(row.by_round.get(n) for n in rounds),
            bonuses=row.record.bonuses,
            individual=row.record.individual,
            total=row.record.total,
            wins=row.record.wins,
            margin=row.record.margin,
            by_lot=row.standing.decided_by_lot,
            withdrawn_after=row.player.withdrawn_after_round if row.player.withdrawn else None,
            played=row.played,
            sit_outs=row.sit_outs,
        )
        for row in rows
    )


def _prelim_status(tournament: Tournament) -> tuple[tuple[int, ...], str]:
    """The round columns (every planned preliminary round) and where the event stands."""
    prelims = list(tournament.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("number"))
    columns = tuple(
        range(1, max([tournament.preliminary_rounds, *(r.number for r in prelims)]) + 1)
    )
    finished = [r.number for r in prelims if r.status == Round.Status.FINISHED]
    running = [r.number for r in prelims if r.status == Round.Status.RUNNING]
    if running:
        status = _("Round %(n)s in progress: finished matches included", n=running[-1])
    elif finished:
        status = _(
            "After round %(n)s of %(rounds)s", n=finished[-1], rounds=tournament.preliminary_rounds
        )
    else:
        status = _("Before round 1")
    return columns, status


def standings_sheet(
    tournament: Tournament,
    division: str,
    now: datetime | None = None,
    *,
    director_copy: bool = False,
) -> StandingsSheet:
    """The sheet posted on the wall: the standings as players may see them (§5), as they
    stood after the last visible round while hidden, marked so. ``director_copy``: the
    live standings, which while hidden carry "not for posting" on every page."""
    columns, status = _prelim_status(tournament)
    vis = of_event(tournament)
    hidden_note = director_mark = ""
    if vis.hidden:
        hidden = [n for n in columns if not vis.shows_round(n)]
        if director_copy:
            director_mark = _("Director's copy — not for posting: includes hidden rounds.")
        else:
            status = (
                _("As it stood after round %(n)s; hidden until the final.", n=vis.through)
                if vis.through
                else _("Hidden until the final.")
            )
        hidden_note = ngettext(
            "Round %(rounds)s is hidden from the players until the final.",
            "Rounds %(rounds)s are hidden from the players until the final.",
            len(hidden),
            rounds=", ".join(map(str, hidden)),
        )
    rows = visible_standings(tournament, EVERYTHING if director_copy else vis)[division]
    return StandingsSheet(
        event=event_label(tournament),
        division=division,
        rounds=columns,
        status=status,
        lot_seed=tournament.lot_seed,
        lines=_lines(rows, columns),
        printed_at=now_or(now),
        hidden_note=hidden_note,
        director_mark=director_mark,
    )


def _seats_by_table(rnd: Round) -> dict[int, dict[Seat, Seated]]:
    tables = Seating.objects.filter(round=rnd).by_table(
        "player__name", "player__division", "player__house"
    )
    return {
        t: {s: Seated(*seats[s.value]) for s in SEATS if s.value in seats}
        for t, seats in sorted(tables.items())
    }


def seating_sheet(rnd: Round, now: datetime | None = None) -> SeatingSheet:
    tables = _seats_by_table(rnd)
    players = [
        FindLine(
            p.name,
            p.division,
            table,
            seat,
            seats[seat.partner].name if seat.partner in seats else "",
            p.house,
        )
        for table, seats in tables.items()
        for seat, p in seats.items()
    ]
    players.sort(key=lambda line: sort_key(line.name))
    return SeatingSheet(
        event=event_label(rnd.tournament),
        round_label=round_label(rnd),
        tables=tuple(TableLine(t, s) for t, s in tables.items()),
        players=tuple(players),
        printed_at=now_or(now),
        sit_outs=tuple(
            sorted(
                SitOut.objects.filter(round=rnd).values_list("player__name", flat=True),
                key=sort_key,
            )
        ),
    )


def table_cards(
    tournament: Tournament,
    link_url: Callable[[str], str],
    now: datetime | None = None,
    rnd: Round | None = None,
) -> TableCards | None:
    """One card per table of ``rnd`` (the current round by default); None before the
    first draw.

    ``link_url`` turns a token into the absolute tablet URL: only the view knows the
    host the tablets will reach.
    """
    rnd = rnd or current_round(tournament)
    if rnd is None:
        return None
    tables = _seats_by_table(rnd)
    links = {
        table: (token, code)
        for table, token, code in TableLink.objects.live()
        .filter(tournament=tournament, table__in=list(tables))
        .values_list("table", "token", "code")
    }
    return TableCards(
        event=event_label(tournament),
        round_label=round_label(rnd),
        cards=tuple(
            TableCard(
                t,
                link_url(links[t][0]) if t in links else None,
                seats,
                shown(links[t][1]) if t in links else "",
            )
            for t, seats in tables.items()
        ),
        printed_at=now_or(now),
    )


def _hand_note(entry: HandEntry) -> str:
    if entry.outcome == HandEntry.Outcome.MISDEAL:
        return _("misdeal")
    if entry.outcome == HandEntry.Outcome.RENEGE:
        return _("renege by %(seat)s", seat=bilingual.seat(str(entry.renege_by)))
    if entry.phase == HandEntry.Phase.TIEBREAK:
        # Translators: a hand played on after time, while the scores were tied.
        return _("tie-break")
    if entry.phase == HandEntry.Phase.AT_CALL:
        return _("at the call")
    return ""


def _hand_lines(entries: list[HandEntry], cap: int | None = None) -> tuple[HandLine, ...]:
    """The grid's rows; ``cap`` is the target when scores are capped at it, as the match
    score is (a hand's own points are stored uncapped)."""
    lines = []
    ns = ew = 0
    for e in entries:
        ns, ew = ns + e.points_ns, ew + e.points_ew
        if cap is not None:
            ns, ew = min(ns, cap), min(ew, cap)
        played = e.outcome == HandEntry.Outcome.PLAYED
        lines.append(
            HandLine(
                number=e.number,
                dealer=Seat(e.dealer),
                makers=Seat(e.maker).team if played and e.maker else None,
                alone=e.alone,
                tricks=e.maker_tricks if played else None,
                note=_hand_note(e),
                points_ns=e.points_ns,
                points_ew=e.points_ew,
                total_ns=ns,
                total_ew=ew,
            )
        )
    return tuple(lines)


def scoresheets(rnd: Round, table: int | None = None, now: datetime | None = None) -> Scoresheets:
    """Backup scoresheets for a round (or one table of it).

    Hands the tablet already recorded are printed in the grid, so a table whose tablet
    died carries on from the last hand instead of starting over.
    """
    tournament = rnd.tournament
    final = rnd.kind == Round.Kind.FINAL
    tables = _seats_by_table(rnd)
    if table is not None:
        tables = {table: tables[table]} if table in tables else {}
    matches = {
        (m.table, m.game): m for m in Match.objects.filter(round=rnd, table__in=list(tables))
    }
    hands: dict[int, list[HandEntry]] = defaultdict(list)
    for entry in (
        HandEntry.objects.standing()
        .filter(match__in=[m.pk for m in matches.values()])
        .order_by("match_id", "number")
    ):
        hands[entry.match_id].append(entry)
    # The final gets a sheet for every game it could need (best of three: three sheets).
    games = range(1, 2 * tournament.final_games_to_win) if final else [1]
    cap = None
    if tournament.cap_at_target:
        cap = tournament.final_target if final else tournament.target
    sheets = []
    for t, seats in tables.items():
        for game in games:
            match = matches.get((t, game))
            sheets.append(
                Scoresheet(
                    table=t,
                    game=game if final else None,
                    seats=seats,
                    first_dealer=Seat(match.first_dealer) if match and match.first_dealer else None,
                    hands=_hand_lines(hands[match.pk], cap) if match else (),
                )
            )
    return Scoresheets(
        event=event_label(tournament),
        round_label=round_label(rnd),
        final=final,
        games_to_win=tournament.final_games_to_win,
        round_minutes=tournament.round_minutes,
        rules=tournament.rules,
        sheets=tuple(sheets),
        printed_at=now_or(now),
    )


def final_results(
    tournament: Tournament, top: int = 10, now: datetime | None = None
) -> FinalResults:
    """Champions, the final's games and the top of each division."""
    columns, status = _prelim_status(tournament)
    table = standings(tournament)
    rnd = final_round(tournament)
    pairs: dict[Team, tuple[str, str]] = {}
    games: tuple[FinalGame, ...] = ()
    wins = {Team.NS: 0, Team.EW: 0}
    champions: Team | None = None
    if rnd is not None:
        seats = _seats_by_table(rnd).get(1, {})
        pairs = {
            team: (seats[team.seats[0]].name, seats[team.seats[1]].name)
            for team in Team
            if all(s in seats for s in team.seats)
        }
        games = tuple(
            FinalGame(
                m.game,
                m.score_ns,
                m.score_ew,
                Team(m.winner) if m.is_over and m.winner else None,
                bilingual.each(partial(_status_word, m)),
            )
            for m in rnd.matches.order_by("game")
        )
        progress = final_progress(tournament)
        if progress is not None:
            wins, champions = dict(progress.wins), progress.champions
    finished = tournament.status == Tournament.Status.FINISHED
    if finished:
        status = _("Final results")
    elif champions is not None:
        status = _("Final decided; results not yet closed by the director")
    elif rnd is not None:
        status = _("Final in progress: provisional")
    else:
        status = _("Provisional: %(status)s", status=status)
    return FinalResults(
        event=event_label(tournament),
        status=status,
        finished=finished,
        champions=champions,
        pairs=pairs,
        games=games,
        wins=wins,
        top={
            d: tuple(line for line in _lines(rows, columns) if line.rank <= top)
            for d, rows in table.items()
        },
        printed_at=now_or(now),
        skipped=tuple(
            _("%(name)s (division %(d)s): %(why)s", name=s.player.name, d=s.division, why=s.why)
            for s in final_skipped(tournament)
        ),
        director_mark=_("Director's copy — not for posting: includes hidden rounds.")
        if of_event(tournament).hidden
        else "",
    )
