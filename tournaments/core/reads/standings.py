"""The standings as they stand: each division ranked, the final's entrants and progress,
the champions. The commands on them (break a tie, seed the final, finish) are
``services.standings``."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, cast

from django.utils.translation import gettext

from tournaments.common.bilingual import tr
from tournaments.common.names import sort_key
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import HandEntry
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution, TieBreak
from tournaments.core.replay import game_winners
from tournaments.domain.final import DIVISION_OF_TEAM, FinalState, entrants, final_state
from tournaments.domain.rules import sit_out_points_setting
from tournaments.domain.seating import PlayerId
from tournaments.domain.standings import PlayerRecord, RoundLine, Standing, rank, sit_out_lines


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

    @property
    def played(self) -> int:
        return self.standing.record.played

    @property
    def sit_outs(self) -> int:
        return len(self.standing.record.sit_outs)

    @property
    def withdrawn_mark(self) -> str:
        """ "withdrawn after round r" for a withdrawn player, else ""."""
        if not self.player.withdrawn:
            return ""
        return withdrawn_text(self.player.withdrawn_after_round)


def withdrawn_text(after: int | None) -> str:
    """The withdrawn mark in the reader's language, or in each of a sheet's languages: the
    phrase the public pages' templates show too."""
    return tr("withdrawn after round %(n)s", n=after) if after else tr("withdrawn")


# Ranking a 500-table event (2,000 players, 8,000 round results) costs about 50 ms, and
# the standings page, its CSV and PDF, the projector and the console all ask for it while
# the results change only when a match ends. So each process keeps the last ranking of
# each tournament with the inputs it was computed from, and reuses it only while those
# inputs, read afresh on every call, are equal: it cannot go stale.
_ranked: dict[tuple[int, int | None], tuple[tuple[Any, ...], dict[str, list[StandingRow]]]] = {}


_RANKED_TOURNAMENTS = 8


def standings(
    tournament: Tournament, *, through: int | None = None
) -> dict[str, list[StandingRow]]:
    """Each division ranked by the tiebreak chain, from the preliminary matches over; with
    ``through``, as they stood after that round (what players see while standings are
    hidden: reads/visibility.py)."""
    upto = {} if through is None else {"round__number__lte": through}
    people = tuple(
        Player.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "name", "division", "withdrawn", "house", "withdrawn_after_round")
    )
    results = tuple(
        Seating.objects.filter(
            round__tournament=tournament,
            round__kind=Round.Kind.PRELIMINARY,
            points__isnull=False,
            **upto,
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
    sat_out = tuple(
        SitOut.objects.filter(
            round__tournament=tournament, round__kind=Round.Kind.PRELIMINARY, **upto
        )
        .order_by("pk")
        .values_list("player_id", "round__number")
    )
    # The part of a substituted match that the player who left sat for (§6).
    partial = tuple(
        Substitution.objects.filter(
            match__round__tournament=tournament,
            out_team_score__isnull=False,
            **{f"match__{k}": v for k, v in upto.items()},
        )
        .order_by("pk")
        .values_list("player_out_id", "match__round__number", "out_team_score", "out_individual")
    )
    inputs = (
        people,
        results,
        sat_out,
        partial,
        tournament.tiebreaks,
        tournament.lot_seed,
        tournament.sit_out_score,
    )
    key = (tournament.pk, through)
    kept = _ranked.get(key)
    if kept is not None and kept[0] == inputs:
        table = kept[1]
    else:
        table = _rank(tournament, results, sat_out, partial)
        if len(_ranked) >= _RANKED_TOURNAMENTS:
            _ranked.clear()
        _ranked[key] = (inputs, table)
    # Callers get lists of their own; the rows themselves are frozen.
    return {division: list(rows) for division, rows in table.items()}


def _rank(
    tournament: Tournament,
    results: tuple[Any, ...],
    sat_out: tuple[Any, ...] = (),
    partial: tuple[Any, ...] = (),
) -> dict[str, list[StandingRow]]:
    """Rank the players who played at least one match; house players never (§4, §6)."""
    # The rows carry the players themselves (pages and sheets read them), which cost
    # five times the plain values compared above: read only when ranking.
    players = list(Player.objects.filter(tournament=tournament, house=False))
    lines: dict[int, list[RoundLine]] = defaultdict(list)
    for pid, number, score, bonus, individual, won, margin in results:
        lines[pid].append(RoundLine(number, score, bonus, individual, bool(won), margin))
    for pid, number, score, individual in partial:
        # Played, neither won nor lost for them: the win and margin go to the seat's
        # holder at the end of the match.
        lines[pid].append(RoundLine(number, score, 0, individual or 0, False, 0))
    outs: dict[int, list[int]] = defaultdict(list)
    for pid, number in sat_out:
        outs[pid].append(number)
    setting = sit_out_points_setting(tournament.sit_out_score) or "average"
    chain = tournament.tiebreaks.split(",")
    by_id = {p.pk: p for p in players}
    table: dict[str, list[StandingRow]] = {}
    for division in ("A", "B"):
        records = []
        for p in players:
            if p.division != division or not lines[p.pk]:
                continue
            played = tuple(sorted(lines[p.pk], key=lambda r: r.round_number))
            records.append(PlayerRecord(p.pk, played, sit_out_lines(setting, played, outs[p.pk])))
        rows = []
        for s in rank(records, chain, tournament.lot_seed):
            by_round = {r.round_number: r.points for r in s.record.rounds}
            for r in s.record.rounds:  # a substituted match and a later seat in one round
                by_round[r.round_number] = sum(
                    x.points for x in s.record.rounds if x.round_number == r.round_number
                )
            by_round |= {o.round_number: o.points for o in s.record.sit_outs}
            rows.append(StandingRow(s, by_id[cast(int, s.player)], by_round))
        table[division] = rows
    return table


def never_played(tournament: Tournament) -> list[Player]:
    """Registered players (not house) without a single preliminary match: listed apart."""
    played = Seating.objects.filter(
        round__tournament=tournament, round__kind=Round.Kind.PRELIMINARY
    ).values("player_id")
    partial = Substitution.objects.filter(match__round__tournament=tournament).values(
        "player_out_id"
    )
    never = (
        Player.objects.filter(tournament=tournament, house=False)
        .exclude(pk__in=played)
        .exclude(pk__in=partial)
    )
    return sorted(never, key=lambda p: (p.division, sort_key(p.name)))


@dataclass(frozen=True)
class Skipped:
    """A withdrawn player ranked high enough for the final, who cannot enter it (§4)."""

    player: Player
    division: str
    after: int | None  # withdrawn after this round (None: before playing one)

    @property
    def why(self) -> str:
        return withdrawn_text(self.after)


@dataclass(frozen=True)
class FinalEntry:
    """One division's way into the final: who enters, who is skipped and why, and a
    shared rank the director must break first."""

    division: str
    finalists: list[Player]
    skipped: list[Skipped]
    tied: list[StandingRow]
    tie_break: TieBreak | None


def final_entries(tournament: Tournament) -> dict[str, FinalEntry]:
    """Who would enter the final from the standings as they are now: what seeding it
    seats. Once it is seated, who plays it and why is ``final_skipped``'s record."""
    table = standings(tournament)
    breaks: dict[str, TieBreak] = {}
    for newest in TieBreak.objects.filter(tournament=tournament):
        breaks.setdefault(newest.division, newest)  # newest first by Meta.ordering
    result: dict[str, FinalEntry] = {}
    for division, rows in table.items():
        eligible = [row for row in rows if not row.player.withdrawn]
        tb = breaks.get(division)
        order = [int(x) for x in tb.order.split(",")] if tb else []
        pairs: list[tuple[PlayerId, int]] = [(row.player.pk, row.rank) for row in eligible]
        entry = entrants(pairs, order)
        by_pk: dict[PlayerId, StandingRow] = {row.player.pk: row for row in rows}
        finalists = [by_pk[pk].player for pk in entry.finalists]
        cut = max((by_pk[pk].rank for pk in entry.finalists), default=None)
        if entry.tied:
            cut = by_pk[entry.tied[0]].rank
        skipped = [
            Skipped(row.player, division, row.player.withdrawn_after_round)
            for row in rows
            if row.player.withdrawn and cut is not None and row.rank <= cut
        ]
        # The director's order counts only while it breaks the tie that stands now.
        used = tb if tb and not entry.tied and entrants(pairs).tied else None
        result[division] = FinalEntry(
            division, finalists, skipped, [by_pk[pk] for pk in entry.tied], used
        )
    return result


def skipped_record(entries: dict[str, FinalEntry]) -> list[dict[str, Any]]:
    """What seeding the final keeps of who it passed over (``Round.skipped``)."""
    return [
        {"player": s.player.pk, "division": s.division, "after": s.after}
        for s in skipped_of(entries)
    ]


def skipped_of(entries: dict[str, FinalEntry]) -> list[Skipped]:
    return [s for _division, entry in sorted(entries.items()) for s in entry.skipped]


def recorded_skipped(final: Round) -> list[Skipped] | None:
    """Who the final's seeding passed over, as it recorded them (None: a final seeded
    before the record was kept)."""
    if final.skipped is None:
        return None
    players = Player.objects.in_bulk([fact["player"] for fact in final.skipped])
    return [
        Skipped(players[fact["player"]], fact["division"], fact["after"])
        for fact in final.skipped
        if fact["player"] in players
    ]


def final_skipped(tournament: Tournament) -> list[Skipped]:
    """The withdrawn players the final passes over, division A first: once the final is
    seated, those its seeding recorded, whatever was withdrawn or reinstated since (every
    reader of the final tells the same story); before, those it would pass over now."""
    rnd = final_round(tournament)
    recorded = None if rnd is None else recorded_skipped(rnd)
    return skipped_of(final_entries(tournament)) if recorded is None else recorded


def final_seat_refusal(player: Player) -> str | None:
    """Why ``player`` cannot be withdrawn: they hold a seat in the final, which is played
    by the pairs its seeding found (§4); None when they hold none."""
    rnd = final_round(player.tournament)
    if rnd is None or not Seating.objects.filter(round=rnd, player=player).exists():
        return None
    if not HandEntry.objects.filter(match__round=rnd).exists():
        last = rnd.number - 1
        return gettext(
            "%(name)s is seated in the final, which has not begun. For the next eligible "
            "player to play instead, reopen round %(round)s (the final's seating is "
            "discarded), withdraw %(name)s, then finalize round %(round)s and seed the "
            "final again."
        ) % {"name": player.name, "round": last}
    return gettext(
        "%(name)s plays in the final, which has begun: the final stays with the pairs it "
        "was seeded with, and a finalist cannot be withdrawn. A finished game's winner can "
        "be overridden, with the reason, on that game's hand log."
    ) % {"name": player.name}


def final_readiness(tournament: Tournament) -> tuple[int, bool]:
    """The finished preliminary rounds, and whether the final may be seated: every
    preliminary round the event has is played and finished, and none is left unseated."""
    prelim = tournament.rounds.filter(kind=Round.Kind.PRELIMINARY)
    done = prelim.filter(status=Round.Status.FINISHED).count()
    return done, done >= tournament.preliminary_rounds and prelim.count() == done


def final_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(kind=Round.Kind.FINAL).first()


def final_progress(tournament: Tournament) -> FinalState | None:
    rnd = final_round(tournament)
    if rnd is None:
        return None
    games = rnd.matches.order_by("game")
    return final_state(game_winners(list(games)), tournament.final_games_to_win)


def champions(tournament: Tournament) -> str | None:
    """'A' or 'B' once a pair has won the final, else None."""
    progress = final_progress(tournament)
    if progress is None or progress.champions is None:
        return None
    return DIVISION_OF_TEAM[progress.champions]
