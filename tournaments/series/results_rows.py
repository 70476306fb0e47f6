"""A checked ``snowman.results/1`` file as the rows it becomes, built unsaved before the
import's write transaction opens (the transaction then only inserts them).

This is the file → rows half of the interchange, as ``reads/export.py`` is the rows →
file half: a mapping of the file checked by ``results_file`` onto the models, with no
lock, no query and no write (``services.results_import`` inserts what is built here, in
the order given), so it sits beside ``results_file`` and ``replay`` rather than among the
commands.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from tournaments.core.db.compiled import PreparedRows
from tournaments.core.models.event import Club, Player, Tournament
from tournaments.core.models.people import EventResult, ImportedEvent
from tournaments.core.models.play import HandEntry, Match, WinnerOverride
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.replay import entry_of_json, rule_values
from tournaments.domain.hands import Team
from tournaments.series.results_file import SEATS, TEAM_OF, Checked, _Game


@dataclass
class Rows:
    """Every row of one import, built (unsaved) before the write transaction opens, so
    that the transaction only inserts them; each list in the order it is inserted."""

    tournament: Tournament
    imported: ImportedEvent
    players: list[Player]
    rounds: list[Round]
    seats: list[Seating]
    sit_outs: list[SitOut]
    matches: list[Match]
    overrides: list[WinnerOverride]
    hands: list[HandEntry]
    subs: list[Substitution]
    results: list[EventResult]
    seat_rows: PreparedRows | None = None
    hand_rows: PreparedRows | None = None
    stationary: list[StationaryMark] = field(default_factory=list)


_HeldRound = tuple[Round, list[tuple[int, int, _Game]], list[int]]


def _tournament_of(checked: Checked, club: Club, at: datetime) -> Tournament:
    info = checked.doc["tournament"]
    return Tournament(
        club=club,
        name=info["name"].strip(),
        slug=info["slug"],
        # Where the event stood when the file was written: a running event's file (the
        # hall publishing as it goes) is a running event here too, hidden as the hall
        # hides it (reads/visibility.py reads the same columns). Older files: finished.
        status=info.get("status") or Tournament.Status.FINISHED,
        standings_revealed_at=at if info.get("standings_revealed") else None,
        lot_seed=info["lot_seed"],
        **rule_values(checked.rules),
    )


def _players_of(checked: Checked, tournament: Tournament) -> tuple[list[Player], dict[int, Player]]:
    """The players in the file's id order, and each by its id in the file."""
    # In the file's id order: the lot draws by id order, so the imported event ranks
    # its players exactly as the source did.
    sources = sorted(checked.doc["players"], key=lambda p: p["id"])
    players = [
        Player(
            tournament=tournament,
            name=checked.names[p["id"]],
            division=p["division"],
            withdrawn=p.get("withdrawn", p.get("status") == "withdrawn"),
            house=p.get("status") == "house",
            withdrawn_after_round=p.get("withdrawn_after_round"),
            # Older files do not say: not checked in, as before.
            checked_in=p.get("checked_in", False),
            registration_uid=uuid.UUID(p["registration"]) if p.get("registration") else None,
        )
        for p in sources
    ]
    return players, {p["id"]: row for p, row in zip(sources, players, strict=True)}


def _rounds_of(checked: Checked, tournament: Tournament, at: datetime) -> list[_HeldRound]:
    """Each round with its games (table, game number, game) and its sit-outs' ids; the
    final last, when the file has one."""
    rounds: list[_HeldRound] = []
    for source in checked.rounds:
        row = Round(
            tournament=tournament,
            number=source.number,
            kind=Round.Kind.PRELIMINARY,
            status=source.status,
            started_at=None if source.status == "seated" else at,
            finished_at=at if source.status == "finished" else None,
        )
        held = [(table, 1, game) for table, game in source.matches]
        rounds.append((row, held, [pid for _, pid, _ in source.sit_outs]))
    if checked.doc["final"] is not None:
        number = max((r.number for r in checked.rounds), default=0) + 1
        # As at the hall: the final is played until the event is finished.
        over = tournament.status == Tournament.Status.FINISHED
        row = Round(
            tournament=tournament,
            number=number,
            kind=Round.Kind.FINAL,
            status=Round.Status.FINISHED if over else Round.Status.RUNNING,
            started_at=at,
            finished_at=at if over else None,
        )
        rounds.append((row, [(1, i + 1, g) for i, g in enumerate(checked.final)], []))
    return rounds


def _substitutions_of(
    game: _Game, match: Match, player_of: dict[int, Player], by: str, at: datetime
) -> list[Substitution]:
    return [
        Substitution(
            match=match,
            position=sub.position,
            from_hand=sub.from_hand,
            player_out=player_of[sub.out],
            player_in=player_of[sub.into],
            out_team_score=sub.out_team,
            out_individual=sub.out_individual,
            reason="imported",
            created_by=by,
            created_at=at,
        )
        for sub in game.subs
    ]


def _stationary_of(
    checked: Checked, tournament: Tournament, player_of: dict[int, Player], by: str, at: datetime
) -> list[StationaryMark]:
    return [
        StationaryMark(
            tournament=tournament,
            player=player_of[pid],
            table=table,
            # The reason stays at the hall; the file carries the marks only.
            reason="imported",
            from_round=first,
            until_round=until,
            marked_at=at,
            marked_by=by,
            ended_at=None if until is None else at,
            ended_by="" if until is None else by,
        )
        for pid, table, first, until in checked.stationary
    ]


def _results_of(
    checked: Checked, tournament: Tournament, player_of: dict[int, Player]
) -> list[EventResult]:
    """The standings as the file ranks them, kept as the event's results."""
    return [
        EventResult(
            tournament=tournament,
            player=player_of[row["player"]],
            division=division,
            rank=row["rank"],
            total=row["total"],
            wins=row["wins"],
            margin=row["margin"],
            played=row.get("played", checked.played.get(row["player"], 0)),
        )
        for division, rows in checked.doc["standings"].items()
        for row in rows
    ]


def event_rows(
    checked: Checked, digest: str, *, by: str, filename: str, at: datetime, club: Club
) -> Rows:
    tournament = _tournament_of(checked, club, at)
    imported = ImportedEvent(
        tournament=tournament,
        digest=digest,
        filename=filename,
        imported_at=at,
        imported_by=by,
    )
    players, player_of = _players_of(checked, tournament)
    rounds = _rounds_of(checked, tournament, at)
    seats: list[Seating] = []
    sit_outs: list[SitOut] = []
    matches: list[Match] = []
    overrides: list[WinnerOverride] = []
    hands: list[HandEntry] = []
    subs: list[Substitution] = []
    for stored, held, outs in rounds:
        sit_outs += [SitOut(round=stored, player=player_of[pid]) for pid in outs]
        for table, number, game in held:
            if stored.kind == Round.Kind.PRELIMINARY or number == 1:
                seats += seats_of(stored, table, game, player_of)
            match = match_of(stored, table, number, game)
            matches.append(match)
            if game.override is not None:
                overrides.append(
                    WinnerOverride(
                        match=match,
                        winner=game.override["winner"],
                        reason=game.override["reason"],
                        created_by=by,
                        created_at=at,
                    )
                )
            for h in game.hands:
                hands.append(
                    entry_of_json(
                        h,
                        match=match,
                        # Unique: the digest is unique to the file, the count to the hand.
                        client_key=f"import-{digest[:24]}-{len(hands) + 1}",
                        source=HandEntry.Source.IMPORTED,
                        entered_at=at,
                        entered_by=by,
                    )
                )
            subs += _substitutions_of(game, match, player_of, by, at)
    return Rows(
        tournament,
        imported,
        players,
        [r for r, _, _ in rounds],
        seats,
        sit_outs,
        matches,
        overrides,
        hands,
        subs,
        _results_of(checked, tournament, player_of),
        seat_rows=PreparedRows(Seating, seats),
        hand_rows=PreparedRows(HandEntry, hands),
        stationary=_stationary_of(checked, tournament, player_of, by, at),
    )


def seats_of(rnd: Round, table: int, game: _Game, player_of: dict[int, Player]) -> list[Seating]:
    out = []
    final = rnd.kind == Round.Kind.FINAL
    for position in SEATS:
        seat = Seating(
            round=rnd, table=table, position=position, player=player_of[game.seats[position]]
        )
        r = game.results.get(position)
        if not final and r is not None and r.points is not None:
            seat.team_score = r.team_score
            seat.bonus = r.bonus
            seat.individual = r.individual
            seat.points = r.points
            seat.won = game.winner == TEAM_OF[position]
            seat.margin = r.margin
        out.append(seat)
    return out


def match_of(rnd: Round, table: int, number: int, game: _Game) -> Match:
    state = game.state
    over = state.over
    return Match(
        round=rnd,
        table=table,
        game=number,
        status=Match.Status.CONFIRMED
        if over
        else Match.Status.PLAYING
        if game.hands
        else Match.Status.WAITING,
        score_ns=state.score[Team.NS],
        score_ew=state.score[Team.EW],
        bonus_ns=state.bonuses.get(Team.NS, 0),
        bonus_ew=state.bonuses.get(Team.EW, 0),
        hands_played=len(game.hands),
        recorded_winner=game.recorded_winner,
        winner=game.winner or "",
        has_override=game.override is not None,
        has_renege=any(h["outcome"] == "renege" for h in game.hands),
        first_dealer=game.hands[0]["dealer"] if game.hands else "",
        hand_in_progress_at_call=game.hand_in_progress,
    )
