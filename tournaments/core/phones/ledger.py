"""A player's ledger on their phone: each round's result, partner and opponents, and their
rank, as players may see them (``core.reads.visibility``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Subquery

from tournaments.common.names import public_name
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution
from tournaments.core.phones.reads import (
    FULL_NAME,
    house_named,
    round_label,
    seating_alone,
    withdrawn_after,
)
from tournaments.core.reads.visibility import Visibility as Visibility
from tournaments.core.reads.visibility import (
    of_event,
    visible_standings,
)
from tournaments.domain.hands import SEATS, Seat, Team


@dataclass(frozen=True)
class LedgerLine:
    number: int
    label: str
    table: int | None = None
    position: str = ""
    partner: str = ""
    opponents: str = ""
    us: int | None = None
    them: int | None = None
    won: bool | None = None
    bonus: int | None = None
    individual: int | None = None
    points: int | None = None
    running: int | None = None
    # The round's state for this player: "sat_out" (a §6 sit-out, scored), "not_here"
    # (not checked in yet when it was seated), "waiting" (checked in after it was
    # seated), "seated" (seated, the clock not started), "playing", "hidden" (over, its
    # figures hidden from players, §5), "left" (a substitute took the seat from hand
    # ``left_from``), "done".
    state: str = "done"
    left_from: int | None = None

    @property
    def sat_out(self) -> bool:
        return self.state == "sat_out"

    @property
    def playing(self) -> bool:
        return self.state == "playing"


@dataclass(frozen=True)
class Ledger:
    """A player's rounds one by one and their total and rank in their division; while the
    standings are hidden, as they stood after round ``through`` (§5)."""

    tournament: Tournament
    player: Player
    lines: tuple[LedgerLine, ...]
    hidden: bool
    total: int | None = None
    rank: str | None = None  # as players see it: "=3" when shared (§4)
    ranked_of: int | None = None
    withdrawn_after: int | None = None
    through: int | None = None


def _rounds_for(tournament: Tournament, player: Player) -> list[Round]:
    """The event's rounds in order, each marked whether the player sat it out and from
    which hand a substitute took their seat."""
    return list(
        Round.objects.filter(tournament=tournament)
        .annotate(
            sat_out=Exists(SitOut.objects.filter(round=OuterRef("pk"), player=player)),
            # The hand from which a substitute took this player's seat (§6).
            left_from=Subquery(
                Substitution.objects.filter(match__round=OuterRef("pk"), player_out=player).values(
                    "from_hand"
                )[:1]
            ),
        )
        .order_by("number")
    )


_Names = dict[tuple[int, int], dict[str, str]]
_Scores = dict[tuple[int, int], dict[Team, int | None]]


def _tables_of(seats: dict[int, Seating]) -> tuple[_Names, _Scores]:
    """Who sat at each of the player's tables, as public pages name them, and each
    table's match score."""
    tables = {(s.round_id, s.table) for s in seats.values()}
    names: _Names = defaultdict(dict)
    # Each table's match score, in the same query: a substitute's own team points are
    # only the hands they played (§6), so "us–them" is read from the match itself.
    scores: _Scores = {}
    if seats:
        match = Match.objects.filter(round=OuterRef("round_id"), table=OuterRef("table"))
        for round_id, table, position, name, house, full, ns, ew in (
            Seating.objects.filter(round_id__in=list(seats), table__in={t for _, t in tables})
            .annotate(
                ns=Subquery(match.order_by("game").values("score_ns")[:1]),
                ew=Subquery(match.order_by("game").values("score_ew")[:1]),
            )
            .values_list(
                "round_id",
                "table",
                "position",
                "player__name",
                "player__house",
                f"player__{FULL_NAME}",
                "ns",
                "ew",
            )
        ):
            if (round_id, table) in tables:
                names[(round_id, table)][position] = house_named(public_name(name, full), house)
                scores[(round_id, table)] = {Team.NS: ns, Team.EW: ew}
    return names, scores


def _seatless_line(
    tournament: Tournament,
    player: Player,
    rnd: Round,
    vis: Visibility,
    by_round: dict[int, int],
    running: int,
    *,
    sat_out: bool,
    latest: bool,
    out: int | None,
) -> tuple[LedgerLine | None, int]:
    """The line of a round the player holds no seat in (left it to a substitute, sat it
    out, or not seated), if any, and the running total after it. ``out``: the round a
    withdrawn player left after."""
    label = round_label(rnd)
    prelim = rnd.kind == Round.Kind.PRELIMINARY
    left_from = getattr(rnd, "left_from", None)
    if left_from is not None:
        # Left during the match: the hands played before the substitute count (§6).
        points = by_round.get(rnd.number) if vis.shows_round(rnd.number) and prelim else None
        if points is not None:
            running += points
        line = LedgerLine(
            rnd.number,
            label,
            points=points,
            running=running if points is not None else None,
            state="left",
            left_from=left_from,
        )
        return line, running
    if sat_out:
        shown = vis.shows_round(rnd.number) and prelim
        points = by_round.get(rnd.number) if shown else None
        if points is not None:
            running += points
        line = LedgerLine(
            rnd.number,
            label,
            points=points,
            running=running if points is not None else None,
            state="sat_out",
        )
        return line, running
    if prelim and not player.house and (out is None or rnd.number <= out):
        waiting = latest and player.checked_in and not player.withdrawn
        state = "waiting" if waiting else "not_here"
        if player.checked_in and seating_alone(tournament, vis, rnd.number):
            state = "hidden_absent"
        return LedgerLine(rnd.number, label, state=state), running
    return None, running


def _seat_state(rnd: Round, done: bool, visible: bool) -> str:
    # A hidden round over: its result is hidden, also where its figures never came
    # (the club site's copy of what the hall published, docs/series.md).
    if done or (not visible and rnd.status == Round.Status.FINISHED):
        return "done" if visible else "hidden"
    if rnd.status == Round.Status.SEATED:
        return "seated"
    if rnd.status == Round.Status.RUNNING:
        return "playing"
    return "done"


def _seated_line(
    rnd: Round,
    seat: Seating,
    at: dict[str, str],
    played: dict[Team, int | None],
    vis: Visibility,
    by_round: dict[int, int],
    running: int,
) -> tuple[LedgerLine, int]:
    """The line of a round the player sat in, its figures as players may see them, and
    the running total after it."""
    prelim = rnd.kind == Round.Kind.PRELIMINARY
    mine = Seat(seat.position)
    partner = at.get(mine.partner.value, "")
    opponents = " & ".join(at[s.value] for s in SEATS if s.team is not mine.team and s.value in at)
    done = seat.points is not None
    visible = vis.shows_round(rnd.number, final=not prelim)
    show_match = done and visible
    show_points = show_match and prelim
    if show_points:
        running += by_round.get(rnd.number, seat.points or 0)
    us, them = seat.team_score, None
    if show_match and seat.team_score is not None and seat.margin is not None:
        them = seat.team_score - seat.margin
        if prelim and played.get(mine.team) is not None:
            us, them = played[mine.team], played[mine.team.other]
    line = LedgerLine(
        rnd.number,
        round_label(rnd),
        seat.table,
        seat.position,
        partner,
        opponents,
        us=us if show_match else None,
        them=them,
        won=seat.won if show_match else None,
        bonus=seat.bonus if show_points else None,
        individual=seat.individual if show_points else None,
        points=seat.points if show_points else None,
        running=running if show_points else None,
        state=_seat_state(rnd, done, visible),
    )
    return line, running


def ledger(tournament: Tournament, player: Player) -> Ledger:
    """Round by round: the match score, bonuses, individual points, and the running total,
    which counts sit-out points as the standings do and ends at the standings' total."""
    rounds = _rounds_for(tournament, player)
    latest = rounds[-1] if rounds else None
    vis = of_event(tournament, latest)
    hidden = vis.hidden
    seats = {
        s.round_id: s for s in Seating.objects.filter(player=player, round__tournament=tournament)
    }
    sat_out = {r.pk for r in rounds if getattr(r, "sat_out", False)}
    names, scores = _tables_of(seats)
    # The points of each round as the standings count them (a sit-out's included), so
    # the running total ends where the standings' total does.
    # While hidden, the standings as they stood after the last visible round: the running
    # total stops there, and the hidden rounds' lines show no figure (§5).
    rows = visible_standings(tournament, vis).get(player.division, [])
    ranked = [r for r in rows if r.record.rounds]
    mine_row = next((r for r in ranked if r.player.pk == player.pk), None)
    by_round = mine_row.by_round if mine_row is not None else {}
    out = withdrawn_after(player)
    lines = []
    running = 0
    for rnd in rounds:
        seat = seats.get(rnd.pk)
        if seat is None:
            seatless, running = _seatless_line(
                tournament,
                player,
                rnd,
                vis,
                by_round,
                running,
                sat_out=rnd.pk in sat_out,
                latest=rnd is latest,
                out=out,
            )
            if seatless is not None:
                lines.append(seatless)
            continue
        played = scores.get((rnd.pk, seat.table), {})
        line, running = _seated_line(
            rnd, seat, names[(rnd.pk, seat.table)], played, vis, by_round, running
        )
        lines.append(line)
    total = rank = ranked_of = None
    if mine_row is not None:
        total, rank, ranked_of = mine_row.record.total, mine_row.shown_rank, len(ranked)
    return Ledger(
        tournament, player, tuple(lines), hidden, total, rank, ranked_of, out, vis.through
    )
