"""The table's state as the tablet shows it, as JSON (docs/tablet-api.md, state.json)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.common.errors import ServiceError
from tournaments.core.db import compiled
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.reads import now_or
from tournaments.core.reads.substitutions import earlier_holders
from tournaments.core.reads.tablet.link import TableScope
from tournaments.core.reads.tablet.lookup import match_for, table_rounds
from tournaments.core.replay import (
    as_decided,
    coming_call,
    game_winners,
    hand_fields_json,
    history,
    match_time,
    replay_entries,
    round_clock,
    standing_of,
    table_remaining,
)
from tournaments.domain.clock import RoundClock
from tournaments.domain.final import final_state
from tournaments.domain.hands import SEATS, Seat, Team
from tournaments.domain.match import InvalidMatch, MatchState
from tournaments.domain.rules import SCORING_SETTINGS, RuleSettings


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _seats_here(round_id: int, table: int) -> QuerySet[Seating]:
    return Seating.objects.filter(round_id=round_id, table=table).select_related("player")


def _seats_going_to(round_id: int, table: int, next_round_id: int) -> QuerySet[Seating]:
    """The next round's seats at every table this table's players go to."""
    here = Seating.objects.filter(round_id=round_id, table=table).values("player_id")
    going_to = Seating.objects.filter(round_id=next_round_id, player_id__in=here).values("table")
    return Seating.objects.filter(round_id=next_round_id, table__in=going_to).select_related(
        "player"
    )


# Compiled once per connection (tournaments/compiled.py): building these statements was
# two fifths of a full state read's CPU, which every tablet pays at a round's turnover.
_SEATS_HERE = compiled.CompiledSelect(_seats_here)
_SEATS_GOING_TO = compiled.CompiledSelect(_seats_going_to)


def table_seats(match: Match, next_round: Round | None) -> list[Seating]:
    """This table's seats and, once the next round is seated, the seats of the tables its
    players go to: only those, since a 500-table round has 2,000 seats and every tablet
    asks for its state every few seconds."""
    here = _SEATS_HERE(match.round_id, match.table)
    if next_round is None:
        return here
    return here + _SEATS_GOING_TO(match.round_id, match.table, next_round.pk)


def entry_json(entry: HandEntry) -> dict[str, Any]:
    return {
        "number": entry.number,
        "client_key": entry.client_key,
        **hand_fields_json(entry),
        "late_sync": entry.late_sync,
        "dealer": entry.dealer,
        "phase": entry.phase,
        "points": {"NS": entry.points_ns, "EW": entry.points_ew},
        "state": entry.state,
        "source": entry.source,
        "entered_at": _iso(entry.entered_at),
        "entered_by": entry.entered_by,
        "ended_at": _iso(entry.ended_at),
        "ended_by": entry.ended_by,
        "reason": entry.reason or entry.end_reason,
    }


# What the tablet's own scorer reads (static/tablet/rules.js): every setting that scores a
# hand, each value taken from the rules dataclass (a default or a rule for the final is
# written once, in domain/rules.py).
TABLET_RULES = SCORING_SETTINGS


def tablet_rules(rules: RuleSettings, final: bool) -> dict[str, Any]:
    played = rules.for_final() if final else rules
    return {name: getattr(played, name) for name in TABLET_RULES}


def _bonus_reason(state: MatchState, team: Team, target: int) -> str:
    parts = []
    if state.score[team] >= target:
        parts.append(f"reached {target}")
    if state.score[team.other] == 0:
        parts.append("opponents on 0")
    return ", ".join(parts)


def _base_json(scope: TableScope, now: datetime) -> dict[str, Any]:
    t = scope.tournament
    return {
        "server_now": _iso(now),
        "tournament": {"id": t.pk, "name": t.name, "status": t.status},
        "table": scope.table,
        "match": None,
        "round": None,
        "seats": [],
        "hands": [],
        "history": [],
        "clock": {
            "server_now": _iso(now),
            "limited": False,
            "started": False,
            "remaining_seconds": None,
            "call_at": None,
            "time_called": False,
            "paused": False,
        },
        "next_round": None,
    }


def table_match(
    scope: TableScope, match_id: int | None = None
) -> tuple[Match | None, Round | None]:
    """The match the table screen shows and the round it goes to next (none when the
    tablet asks for an earlier match, being offline)."""
    where = table_rounds(scope)
    match, next_round = where.match, where.next_round
    if match_id is not None and not (match is not None and str(match_id) == str(match.pk)):
        named = match_for(scope, match_id)
        if match is None or named.pk != match.pk:
            # An earlier match of this table, asked for by a tablet that was offline.
            match, next_round = named, None
    if match is not None:
        scope.knows(match.round.tournament)
    return match, next_round


def table_state(
    scope: TableScope,
    now: datetime | None = None,
    match_id: int | None = None,
    *,
    at: tuple[Match | None, Round | None] | None = None,
) -> dict[str, Any]:
    """Everything the table screen shows, as JSON; ``at`` is ``table_match``'s answer when
    the caller has it (``services.tablet.table_state`` does, to note the tablet's contact)."""
    now = now_or(now)
    match, next_round = at if at is not None else table_match(scope, match_id)
    base = _base_json(scope, now)
    if match is None:
        return base
    entries = history(match)
    clock = round_clock(match.round)
    try:
        state = replay_entries(match, standing_of(entries), match_time(match, now, clock, entries))
    except InvalidMatch as exc:
        # A history the rules cannot replay is the director's to repair; the tablet is
        # told so instead of failing.
        raise ServiceError(
            _("This table's hands need the director: %(exc)s") % {"exc": exc}
        ) from exc
    return _match_json(base, scope, match, next_round, entries, clock, state, now)


def state_after_hand(
    scope: TableScope,
    match: Match,
    entries: list[HandEntry],
    clock: RoundClock,
    state: MatchState,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The table's state in answer to a hand, from what recording already read: the
    locked match as written, every entry of the match in order, the round's clock and the
    replayed state (``services.tablet.state_after_hand`` says when that is enough)."""
    now = now_or(now)
    scope.knows(match.round.tournament)
    base = _base_json(scope, now)
    return _match_json(base, scope, match, None, entries, clock, state, now, seating=False)


def _match_json(
    base: dict[str, Any],
    scope: TableScope,
    match: Match,
    next_round: Round | None,
    entries: list[HandEntry],
    clock: RoundClock,
    state: MatchState,
    now: datetime,
    *,
    seating: bool = True,
) -> dict[str, Any]:
    """The match's part of the table's state; ``seating=False`` leaves out who sits
    where (the seats' ``player``, ``division`` and ``house``)."""
    # An overriding winner takes the bonuses, and with them the seats' points, exactly
    # as the match's stored result has them (docs/rules.md §2.2).
    state = as_decided(match, state)
    rnd = match.round
    final = rnd.kind == Round.Kind.FINAL
    seats = table_seats(match, next_round) if seating else []
    here = {s.position: s for s in seats if s.round_id == rnd.pk and s.table == match.table}
    standing = standing_of(entries)
    rules = tablet_rules(scope.tournament.rules, final)
    history = [entry_json(e) for e in entries]
    base |= {
        "round": {
            "id": rnd.pk,
            "number": rnd.number,
            "kind": rnd.kind,
            "label": str(rnd),
            "status": rnd.status,
            "game": match.game if final else None,
        },
        "match": _match_part(match, state, len(standing), rules["target"], final),
        "rules": rules,
        "seats": _seats_json(state, here if seating else None, final),
        "hands": _hands_json(standing, state, dict(zip(map(id, entries), history, strict=True))),
        "history": history,
        "clock": _clock_json(scope.tournament, match, clock, state, now, final),
    }
    if seating:
        # The annotation of table_rounds; a match read elsewhere is asked.
        substituted = getattr(match, "substituted", True)
        base["earlier_holders"] = earlier_holders(match) if substituted else []
    if final:
        base["final"] = _final_games(match)
    if next_round is not None:
        base["next_round"] = _next_round(next_round, here, seats)
    return base


def _hands_json(
    standing: list[HandEntry], state: MatchState, written: dict[int, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The standing hands, each with the running score after it; ``written``: each
    entry's JSON by the entry's ``id()``, as the history wrote it (a copy of that row
    costs a tenth of writing it again, and an answer holds every standing hand twice)."""
    running = {h.number: h.running for h in state.hands}
    hands = []
    for e in standing:
        row = dict(written[id(e)])
        total = running.get(e.number, {Team.NS: 0, Team.EW: 0})
        row["running"] = {"NS": total[Team.NS], "EW": total[Team.EW]}
        hands.append(row)
    return hands


def _seats_json(
    state: MatchState, here: dict[str, Seating] | None, final: bool
) -> list[dict[str, Any]]:
    """Each seat's awards and points; who sits there unless ``here`` is None."""
    seat_rows = []
    for seat in SEATS:
        seat_row: dict[str, Any] = {
            "seat": seat.value,
            "team": seat.team.value,
            "individual": state.individual.get(seat, 0),
            "points": state.player_points(seat) if state.over and not final else None,
        }
        if here is not None:
            row = here.get(seat.value)
            seat_row["player"] = row.player.name if row else None
            seat_row["division"] = row.player.division if row else None
            # §6: the tablet marks a house player with the catalogue's "house" word.
            seat_row["house"] = row.player.house if row else False
        seat_rows.append(seat_row)
    return seat_rows


def _match_part(
    match: Match, state: MatchState, standing: int, target: int, final: bool
) -> dict[str, Any]:
    running = match.round.status == Round.Status.RUNNING
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "first_dealer": match.first_dealer or None,
        "dealer": (state.next_dealer.value if state.next_dealer and match.first_dealer else None),
        "next_number": standing + 1,
        "next_phase": state.next_phase.value if state.next_phase else None,
        "score": {"NS": state.score[Team.NS], "EW": state.score[Team.EW]},
        "bonuses": {
            "NS": state.bonuses.get(Team.NS, 0),
            "EW": state.bonuses.get(Team.EW, 0),
        },
        "bonus_reasons": {
            team.value: _bonus_reason(state, team, target)
            for team in (Team.NS, Team.EW)
            if state.bonuses.get(team, 0)
        },
        "over": state.over,
        "winner": match.winner or (state.winner.value if state.winner else None),
        "tied": state.tied,
        "time_called": state.time_called,
        "awaiting_answer": state.awaiting_answer and running,
        "in_tiebreak": state.in_tiebreak,
        "hand_in_progress_at_call": match.hand_in_progress_at_call,
        "confirmed_by": match.confirmed_by,
        "dispute_note": match.dispute_note,
        "scorekeeper": match.scorekeeper or None,
        "version": match.version,
        "hands_standing": standing,
        "time_called_at": _iso(match.time_called_at),
        "can_change_answer": (
            state.time_called
            and match.hand_in_progress_at_call is not None
            and running
            and match.status not in (Match.Status.CONFIRMED, Match.Status.DISPUTED)
        ),
        "open": running,
        "final": final,
    }


def _clock_json(
    t: Tournament,
    match: Match,
    clock: RoundClock,
    state: MatchState,
    now: datetime,
    final: bool,
) -> dict[str, Any]:
    started = match.round.started_at is not None
    limited = not final and started
    return {
        "server_now": _iso(now),
        "limited": limited,
        "started": started,
        "limit_seconds": t.round_minutes * 60 + match.extension_seconds,
        "remaining_seconds": (
            table_remaining(match, now, clock).total_seconds() if limited else None
        ),
        # The absolute instant the table's time will be called if nothing changes: the
        # tablet counts down to it, and it does not move between reads (the ETag holds it).
        "call_at": _iso(coming_call(match, now, clock)) if limited else None,
        "time_called": state.time_called,
        "paused": clock.paused(now) if limited else False,
    }


def _final_games(match: Match) -> dict[str, Any]:
    games = list(Match.objects.filter(round_id=match.round_id).order_by("game"))
    to_win = match.round.tournament.final_games_to_win
    # services.play keeps the games a valid best-of-N on every change.
    wins = final_state(game_winners(games), to_win).wins
    return {
        "games": [
            {
                "game": g.game,
                "status": g.status,
                "winner": g.winner,
                "score_ns": g.score_ns,
                "score_ew": g.score_ew,
            }
            for g in games
        ],
        "wins": {team.value: n for team, n in wins.items()},
        "games_to_win": to_win,
    }


def _next_round(rnd: Round, here: dict[str, Seating], seats: list[Seating]) -> dict[str, Any]:
    """Where each of this table's players sits next, with partner and opponents."""
    upcoming = [s for s in seats if s.round_id == rnd.pk]
    by_player = {s.player_id: s for s in upcoming}
    by_place = {(s.table, s.position): s for s in upcoming}
    moves: list[dict[str, Any]] = []
    for position in (s.value for s in SEATS):
        now_seat = here.get(position)
        if now_seat is None:
            continue
        going = by_player.get(now_seat.player_id)
        if going is None:
            moves.append(
                {
                    "player": now_seat.player.name,
                    "from_seat": position,
                    "table": None,
                    "seat": None,
                    "partner": None,
                    "opponents": [],
                }
            )
            continue
        seat = Seat(going.position)

        def name_at(s: Seat, table: int = going.table) -> str | None:
            row = by_place.get((table, s.value))
            return row.player.name if row else None

        moves.append(
            {
                "player": now_seat.player.name,
                "from_seat": position,
                "table": going.table,
                "seat": seat.value,
                "team": seat.team.value,
                "partner": name_at(seat.partner),
                "opponents": [n for n in (name_at(s) for s in seat.team.other.seats) if n],
            }
        )
    return {
        "id": rnd.pk,
        "number": rnd.number,
        "label": str(rnd),
        "kind": rnd.kind,
        "status": rnd.status,
        "moves": moves,
    }
