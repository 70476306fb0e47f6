"""Standings, the final and the tournament's end."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from ..domain.final import FinalState, final_state
from ..domain.final import seed_final as seed_final_rule
from ..domain.hands import Team
from ..domain.seating import SeatingError
from ..domain.standings import PlayerRecord, RoundLine, Standing, rank
from ..models import Match, Player, Round, Tournament
from ..models import Seat as SeatRow
from . import ServiceError, log, now_or
from .play import game_winners
from .rounds import _lock_tournament, _write_seating


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    player: Player
    by_round: dict[int, int]

    @property
    def rank(self) -> int:
        return self.standing.rank

    @property
    def record(self) -> PlayerRecord:
        return self.standing.record


# Ranking a 500-table event (2,000 players, 8,000 round results) costs about 50 ms, and
# the standings page, its CSV and PDF, the projector and the console all ask for it while
# the results change only when a match ends. So each process keeps the last ranking of
# each tournament with the inputs it was computed from, and reuses it only while those
# inputs, read afresh on every call, are equal: it cannot go stale.
_ranked: dict[int, tuple[tuple, dict[str, list[StandingRow]]]] = {}
_RANKED_TOURNAMENTS = 8


def standings(tournament: Tournament) -> dict[str, list[StandingRow]]:
    """Each division ranked by the tiebreak chain, from the preliminary matches over."""
    people = tuple(
        Player.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "name", "division", "withdrawn")
    )
    results = tuple(
        SeatRow.objects.filter(
            round__tournament=tournament,
            round__kind=Round.Kind.PRELIMINARY,
            points__isnull=False,
        )
        .order_by("pk")
        .values_list(
            "player_id",
            "round__number",
            "team_score",
            "bonus",
            "individual",
            "won",
            "margin",
        )
    )
    inputs = (people, results, tournament.tiebreaks, tournament.lot_seed)
    kept = _ranked.get(tournament.pk)
    if kept is not None and kept[0] == inputs:
        table = kept[1]
    else:
        table = _rank(tournament, results)
        if len(_ranked) >= _RANKED_TOURNAMENTS:
            _ranked.clear()
        _ranked[tournament.pk] = (inputs, table)
    # Callers get lists of their own; the rows themselves are frozen.
    return {division: list(rows) for division, rows in table.items()}


def _rank(tournament: Tournament, results: tuple) -> dict[str, list[StandingRow]]:
    # The rows carry the players themselves (pages and sheets read them), which cost
    # five times the plain values compared above: read only when ranking.
    players = list(Player.objects.filter(tournament=tournament))
    lines: dict[int, list[RoundLine]] = defaultdict(list)
    for pid, number, score, bonus, individual, won, margin in results:
        lines[pid].append(RoundLine(number, score, bonus, individual, bool(won), margin))
    chain = tournament.tiebreaks.split(",")
    by_id = {p.pk: p for p in players}
    table: dict[str, list[StandingRow]] = {}
    for division in ("A", "B"):
        records = [
            PlayerRecord(p.pk, tuple(sorted(lines[p.pk], key=lambda r: r.round_number)))
            for p in players
            if p.division == division
        ]
        table[division] = [
            StandingRow(s, by_id[s.player], {r.round_number: r.points for r in s.record.rounds})
            for s in rank(records, chain, tournament.lot_seed)
        ]
    return table


def final_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(kind=Round.Kind.FINAL).first()


def final_progress(tournament: Tournament) -> FinalState | None:
    rnd = final_round(tournament)
    if rnd is None:
        return None
    games = rnd.matches.order_by("game")
    return final_state(game_winners(games), tournament.final_games_to_win)


def seed_final(tournament: Tournament, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        if final_round(tournament) is not None:
            raise ServiceError("The final is already seated.")
        prelim = tournament.rounds.filter(kind=Round.Kind.PRELIMINARY)
        done = prelim.filter(status=Round.Status.FINISHED).count()
        if done < tournament.preliminary_rounds or prelim.count() != done:
            raise ServiceError(
                f"Finish all {tournament.preliminary_rounds} preliminary rounds first "
                f"({done} finished)."
            )
        table = standings(tournament)
        eligible = {
            d: [row.player.pk for row in rows if not row.player.withdrawn]
            for d, rows in table.items()
        }
        try:
            seating = seed_final_rule(eligible["A"], eligible["B"])
        except SeatingError as exc:
            raise ServiceError(str(exc)) from exc
        rnd = Round.objects.create(
            tournament=tournament,
            number=done + 1,
            kind=Round.Kind.FINAL,
            status=Round.Status.RUNNING,
            started_at=now,
        )
        _write_seating(rnd, [seating])
        tournament.status = Tournament.Status.FINAL
        tournament.save(update_fields=["status"])
        names = dict(Player.objects.filter(pk__in=seating.seats.values()).values_list("pk", "name"))
        log(
            tournament,
            by,
            "final",
            "Final seeded: "
            + ", ".join(f"{s.value} {names[p]}" for s, p in seating.seats.items())
            + ".",
            at=now,
        )
    return rnd


def champions(tournament: Tournament) -> str | None:
    """'A' or 'B' once a pair has won the final, else None."""
    progress = final_progress(tournament)
    if progress is None or progress.champions is None:
        return None
    return "A" if progress.champions is Team.NS else "B"


def finish_tournament(
    tournament: Tournament, *, by: str, now: datetime | None = None
) -> Tournament:
    now = now_or(now)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        winner = champions(tournament)
        if winner is None:
            raise ServiceError("The final has no champions yet.")
        rnd = final_round(tournament)
        assert rnd is not None
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED, finished_at=now)
        Match.objects.filter(round=rnd, status=Match.Status.FINISHED).update(
            status=Match.Status.CONFIRMED, confirmed_by=by, confirmed_at=now
        )
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        log(
            tournament,
            by,
            "finish",
            f"Tournament finished: division {winner} pair champions.",
            at=now,
        )
    from .people import recompute_ratings

    # The finished event's matches now count in every person's rating.
    recompute_ratings()
    return tournament
