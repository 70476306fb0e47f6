"""The scorekeeper's tablet: table links, the table session, and the table's state.

A table's link carries a secret token (``TableLink``); opening it trades the token for a
*table session*: a signed cookie naming the tournament, the table and the link
(``session_value``). Every later request is authorised by that cookie alone, and only
while its link is live, so the director's "revoke and reissue" cuts off every tablet that
holds the old link. The cookie keeps the table session out of the session table: at the
end of a round every tablet writes at once, and the link's row is read anyway.

The same link serves the table in every round: the *current match* of a table is its
match in the latest round, except while that round is only seated, when the table still
shows the match just played and tells its players where to go next.

The tablet works offline and retries; requests are parsed here (never trusted) and every
change goes through ``services.play``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache, cached_property
from typing import Any

from django.db import connection
from django.db.models import BooleanField
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from ..domain.clock import RoundClock
from ..domain.final import final_state
from ..domain.hands import SEATS, Hand, Outcome, Seat, Team
from ..domain.match import InvalidMatch, MatchState
from ..models import HandEntry, Match, Round, TableLink, Tournament
from ..models import Seat as SeatRow
from . import ServiceError, now_or, play

# The signed cookie that holds a table session, and its signing salt.
COOKIE = "snowman_table"
COOKIE_SALT = "snowman.tablet.session"
# A tournament day is long; a tablet should not have to rescan its card at lunch.
SESSION_SECONDS = 18 * 60 * 60


class Forbidden(Exception):
    """No live table session, or a request for another table's data (HTTP 403)."""

    def __init__(self, message: str, *, revoked: bool = False) -> None:
        self.message = message
        self.revoked = revoked
        super().__init__(message)


class BadRequest(ServiceError):
    """A payload the tablet could never have sent: wrong types, unknown values."""


@dataclass
class TableScope:
    tournament_id: int
    table: int
    link_id: int

    @property
    def actor(self) -> str:
        return f"Table {self.table} tablet"

    @cached_property
    def tournament(self) -> Tournament:
        return Tournament.objects.get(pk=self.tournament_id)

    def knows(self, tournament: Tournament) -> None:
        """Take the tournament read with a match, which spares reading it again."""
        if tournament.pk == self.tournament_id:
            self.__dict__["tournament"] = tournament


# --- links and the session -------------------------------------------------------------


def open_link(token: str) -> TableScope:
    """The table a link's token opens; Forbidden for a revoked link."""
    link = TableLink.objects.filter(token=token).first() if token and len(token) <= 64 else None
    if link is None:
        raise TableLink.DoesNotExist("Unknown table link.")
    if link.revoked_at is not None:
        raise Forbidden(
            "This table link was revoked. Ask the director for the table's new QR code.",
            revoked=True,
        )
    return TableScope(link.tournament_id, link.table, link.pk)


def session_value(scope: TableScope) -> str:
    """What the table session's cookie holds (signed by the view that sets it)."""
    return f"{scope.tournament_id}:{scope.table}:{scope.link_id}"


REVOKED = "This tablet's table link was revoked. Scan the table's new QR code."


def scope_of(value: str | None, *, check_link: bool = True) -> TableScope:
    """The table a session cookie's (verified) value may see; Forbidden when there is
    none or, unless the caller checks it later (``live_link``), its link is dead."""
    try:
        tournament_id, table, link_id = (int(part) for part in (value or "").split(":"))
    except ValueError:
        raise Forbidden("This tablet is not linked to a table. Scan the table's QR code.") from None
    scope = TableScope(tournament_id, table, link_id)
    if check_link:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {_live_link_sql()}", _live_link_params(scope))
            if not cursor.fetchone()[0]:
                raise Forbidden(REVOKED, revoked=True)
    return scope


# The link-is-live condition, written out once for the session check and for the lock's
# query: Django takes about 0.4 ms to resolve an ``Exists()`` subquery on every call, as
# long as the rest of the lock's query, on the busiest request of the day.
@cache
def _live_link_sql() -> str:
    qn = connection.ops.quote_name
    column = {
        f: qn(TableLink._meta.get_field(f).column)
        for f in ("id", "tournament", "table", "revoked_at")
    }
    return (
        f"EXISTS (SELECT 1 FROM {qn(TableLink._meta.db_table)} WHERE {column['id']} = %s"
        f" AND {column['tournament']} = %s AND {column['table']} = %s"
        f" AND {column['revoked_at']} IS NULL)"
    )


def _live_link_params(scope: TableScope) -> tuple[int, int, int]:
    return (scope.link_id, scope.tournament_id, scope.table)


def live_link(scope: TableScope) -> RawSQL:
    """The session's link is live, as a condition to check inside another query."""
    return RawSQL(_live_link_sql(), _live_link_params(scope), output_field=BooleanField())


# --- which match ------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRounds:
    match: Match | None
    next_round: Round | None


def table_rounds(scope: TableScope) -> TableRounds:
    """The table's current match, and the seated round its players go to next, if any."""
    rounds = list(Round.objects.filter(tournament_id=scope.tournament_id).order_by("-number")[:2])
    if not rounds:
        return TableRounds(None, None)
    matches = {
        (m.round_id, m.game): m
        for m in Match.objects.filter(round__in=rounds, table=scope.table).select_related(
            "round__tournament"
        )
    }

    def latest(rnd: Round) -> Match | None:
        games = [m for (rid, _), m in sorted(matches.items()) if rid == rnd.pk]
        return games[-1] if games else None

    last = rounds[0]
    current = latest(last)
    previous = latest(rounds[1]) if len(rounds) > 1 else None
    if current is not None and (last.status != Round.Status.SEATED or previous is None):
        return TableRounds(current, None)
    if previous is not None:
        return TableRounds(previous, last)
    return TableRounds(current, None)


def _named_match(match_id: object) -> int:
    """The id of the match a request names, checked for type and range only."""
    if isinstance(match_id, bool) or not isinstance(match_id, int | str):
        raise BadRequest("The match must be a number.")
    try:
        pk = int(match_id)
    except ValueError:
        raise BadRequest("The match must be a number.") from None
    if not 1 <= pk < 2**63:
        # Beyond a bigint PostgreSQL would fail the query; no such match exists anyway.
        raise Forbidden("That match is not this table's.")
    return pk


def match_for(scope: TableScope, match_id: object = None) -> Match:
    """The match a request acts on: the table's current one, or one it names.

    A tablet that queued hands offline names their match, so a hand entered in one round
    is never recorded into the next; naming another table's match is forbidden.
    """
    if match_id is None:
        match = table_rounds(scope).match
        if match is None:
            raise ServiceError("There is no match at this table yet.")
        return match
    pk = _named_match(match_id)
    match = Match.objects.select_related("round__tournament").filter(pk=pk).first()
    if (
        match is None
        or match.round.tournament_id != scope.tournament_id
        or match.table != scope.table
    ):
        raise Forbidden("That match is not this table's.")
    return match


# --- payloads ---------------------------------------------------------------------------


def _seat(value: object, what: str, *, required: bool = False) -> Seat | None:
    if value is None or value == "":
        if required:
            raise BadRequest(f"Choose {what}.")
        return None
    if not isinstance(value, str) or value not in Seat.__members__:
        raise BadRequest(f"{what.capitalize()} must be one of N, E, S, W.")
    return Seat(value)


def _bool(value: object, what: str, default: bool = False) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise BadRequest(f"{what} must be true or false.")
    return value


def _int(value: object, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{what} must be a whole number.")
    return value


def _text(value: object, what: str, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRequest(f"{what} must be text.")
    if len(value) > limit:
        raise BadRequest(f"{what} is longer than {limit} characters.")
    return value.strip()


@dataclass(frozen=True)
class HandRequest:
    hand: Hand
    client_key: str
    number: int | None
    first_dealer: Seat | None
    entered_at: datetime | None
    match_id: object


def parse_hand(data: Mapping[str, Any]) -> HandRequest:
    outcome_value = data.get("outcome")
    if not isinstance(outcome_value, str) or outcome_value not in {o.value for o in Outcome}:
        raise BadRequest("The outcome must be played, renege or misdeal.")
    outcome = Outcome(outcome_value)
    tricks = _int(data.get("maker_tricks"), "The makers' tricks")
    hand = Hand(
        outcome=outcome,
        maker=_seat(data.get("maker"), "the player who made trump"),
        alone=_bool(data.get("alone"), "Alone"),
        maker_tricks=tricks,
        renege_by=_seat(data.get("renege_by"), "the player who reneged"),
        dealer_partner_ordered_up=_bool(
            data.get("dealer_partner_ordered_up"), "Dealer's partner ordered up"
        ),
        defender_alone=_seat(data.get("defender_alone"), "the lone defender"),
    )
    entered_at_raw = data.get("entered_at")
    entered_at = None
    if entered_at_raw is not None:
        if not isinstance(entered_at_raw, str):
            raise BadRequest("entered_at must be an ISO 8601 time.")
        try:
            entered_at = parse_datetime(entered_at_raw)
        except ValueError:
            entered_at = None
        if entered_at is None or timezone.is_naive(entered_at):
            raise BadRequest("entered_at must be an ISO 8601 time with a time zone.")
    number = _int(data.get("number"), "The hand number")
    if number is not None and not 1 <= number <= 1000:
        raise BadRequest("The hand number must be between 1 and 1000.")
    return HandRequest(
        hand=hand,
        client_key=_text(data.get("client_key"), "The client key", 64),
        number=number,
        first_dealer=_seat(data.get("first_dealer"), "the first dealer"),
        entered_at=entered_at,
        match_id=data.get("match"),
    )


# --- actions ----------------------------------------------------------------------------


def record(
    scope: TableScope, data: Mapping[str, Any], now: datetime | None = None
) -> play.Recorded:
    """Record a hand for a table session whose link has not been checked yet: it is, with
    the named match, under the lock that recording takes anyway, which spares the
    busiest request of the day two queries."""
    request = parse_hand(data)
    match: Match | int = (
        match_for(scope) if request.match_id is None else _named_match(request.match_id)
    )
    try:
        return play.record_hand(
            match,
            request.hand,
            client_key=request.client_key,
            by=scope.actor,
            number=request.number,
            first_dealer=request.first_dealer,
            entered_at=request.entered_at,
            now=now,
            at=play.AtTable(scope.tournament_id, scope.table, allowed=live_link(scope)),
        )
    except play.NotAllowed:
        raise Forbidden(REVOKED, revoked=True) from None
    except play.NotAtTable as exc:
        raise Forbidden(exc.message) from None


def first_dealer(scope: TableScope, data: Mapping[str, Any]) -> Match:
    seat = _seat(data.get("seat"), "the first dealer", required=True)
    assert seat is not None
    keeper = _seat(data.get("keeper"), "the scorekeeper")
    match = match_for(scope, data.get("match"))
    return play.set_first_dealer(match, seat, by=scope.actor, keeper=keeper)


def undo(scope: TableScope, data: Mapping[str, Any], now: datetime | None = None) -> Match:
    """Undo the last hand, which must be the hand the tablet showed as last (checked under
    the lock that undoing takes)."""
    number = _int(data.get("number"), "The hand number")
    if number is None:
        raise BadRequest("Say which hand to undo.")
    match = match_for(scope, data.get("match"))
    play.undo_last_hand(
        match, by=scope.actor, reason="Undone at the table.", now=now, expected_number=number
    )
    return match


def _answers(data: Mapping[str, Any]) -> play.Answers | None:
    """The state an answer names (``hands`` and ``version``); both or neither."""
    hands = _int(data.get("hands"), "The number of hands")
    version = _int(data.get("version"), "The version")
    if hands is None and version is None:
        return None
    if hands is None or version is None:
        raise BadRequest("Send both the number of hands and the version the answer is for.")
    return play.Answers(hands, version)


def answer_call(scope: TableScope, data: Mapping[str, Any], now: datetime | None = None) -> Match:
    in_progress = data.get("in_progress")
    if not isinstance(in_progress, bool):
        raise BadRequest("Say whether a hand was in progress (true or false).")
    answers = _answers(data)
    match = match_for(scope, data.get("match"))
    play.answer_time_call(match, in_progress, by=scope.actor, answers=answers, now=now)
    return match


def confirm(scope: TableScope, data: Mapping[str, Any], now: datetime | None = None) -> Match:
    """A player of the team that did not keep score agrees with the result or disputes it
    (any player seated at the table while the tablet has not said who keeps score)."""
    agree = data.get("agree")
    if not isinstance(agree, bool):
        raise BadRequest("Say whether you agree (true or false).")
    by = _text(data.get("by"), "Your name", 150)
    note = _text(data.get("note"), "The note", 2000)
    answers = _answers(data)
    match = match_for(scope, data.get("match"))
    seated = dict(
        SeatRow.objects.filter(round_id=match.round_id, table=match.table).values_list(
            "player__name", "position"
        )
    )
    if by not in seated:
        raise ServiceError("A player seated at this table confirms the result.")
    if match.scorekeeper and Seat(seated[by]).team is Seat(match.scorekeeper).team:
        raise ServiceError(
            f"A player of the team that did not keep score confirms the result, not {by}."
        )
    if not agree and not note:
        raise ServiceError("Say what is wrong, so the director can look at it.")
    return play.confirm_match(match, agree=agree, by=by, note=note, answers=answers, now=now)


# --- the state the tablet shows ------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _seat_rows(match: Match, next_round: Round | None) -> list[SeatRow]:
    """This table's seats and, once the next round is seated, the seats of the tables its
    players go to: only those, since a 500-table round has 2,000 seats and every tablet
    asks for its state every few seconds."""
    here = list(
        SeatRow.objects.filter(round_id=match.round_id, table=match.table).select_related("player")
    )
    if next_round is None:
        return here
    going_to = SeatRow.objects.filter(
        round=next_round, player_id__in=[s.player_id for s in here]
    ).values("table")
    return here + list(
        SeatRow.objects.filter(round=next_round, table__in=going_to).select_related("player")
    )


def _entry_json(entry: HandEntry) -> dict[str, Any]:
    return {
        "number": entry.number,
        "client_key": entry.client_key,
        "outcome": entry.outcome,
        "maker": entry.maker or None,
        "alone": entry.alone,
        "maker_tricks": entry.maker_tricks,
        "renege_by": entry.renege_by or None,
        "dealer_partner_ordered_up": entry.dealer_partner_ordered_up,
        "defender_alone": entry.defender_alone or None,
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


def hand_json(entry: HandEntry) -> dict[str, Any]:
    return _entry_json(entry)


def _rules_json(t: Tournament, final: bool) -> dict[str, Any]:
    return {
        "target": t.final_target if final else t.target,
        "points_make": t.points_make,
        "points_march": t.points_march,
        "points_alone_march": t.points_alone_march,
        "points_euchre": t.points_euchre,
        "points_renege": t.points_renege,
        "alone_march_award": 0 if final else t.alone_march_award,
        "renege_penalty": 0 if final else t.renege_penalty,
        "cap_at_target": t.cap_at_target,
        "defend_alone_allowed": t.defend_alone_allowed,
        "points_alone_euchre": t.points_alone_euchre,
    }


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
            "time_called": False,
            "paused": False,
        },
        "next_round": None,
    }


def table_state(
    scope: TableScope, now: datetime | None = None, match_id: object = None, *, touch: bool = True
) -> dict[str, Any]:
    """Everything the table screen shows, as JSON; notes the tablet's contact unless
    ``touch`` is false (a refusal carries the state but changes nothing)."""
    now = now_or(now)
    where = table_rounds(scope)
    match, next_round = where.match, where.next_round
    if match_id is not None and not (match is not None and str(match_id) == str(match.pk)):
        named = match_for(scope, match_id)
        if match is None or named.pk != match.pk:
            # An earlier match of this table, asked for by a tablet that was offline.
            match, next_round = named, None
    if match is not None:
        scope.knows(match.round.tournament)
    base = _base_json(scope, now)
    if match is None:
        return base
    if touch:
        play.touch(match, now)
    entries = play.history(match)
    clock = play.round_clock(match.round)
    try:
        state = play.replay_entries(
            match, play.standing_of(entries), play.match_time(match, now, clock, entries)
        )
    except InvalidMatch as exc:
        # A history the rules cannot replay is the director's to repair; the tablet is
        # told so instead of failing.
        raise ServiceError(f"This table's hands need the director: {exc}") from exc
    return _match_json(base, scope, match, next_round, entries, clock, state, now)


def state_after_hand(
    scope: TableScope, recorded: play.Recorded, now: datetime | None = None
) -> dict[str, Any]:
    """The table's state in answer to a hand, from what recording already read.

    At the end of a round every table sends its hands at once, so the answer reads
    nothing more: its seats carry the hand's awards and points but not who sits there (a
    hand never changes that; the tablet keeps the names from the table's state, which it
    asks for again once its queue is sent). While the round runs no next round can be
    seated (the tablet would show where to go next); otherwise, as for a retry that lost
    a race, read it all afresh.
    """
    if (
        recorded.match is None
        or recorded.history is None
        or recorded.clock is None
        or recorded.match.round.status != Round.Status.RUNNING
    ):
        return table_state(scope, now, match_id=recorded.entry.match_id)
    now = now_or(now)
    if recorded.duplicate:
        play.touch(recorded.match, now)  # a new hand already noted the contact
    scope.knows(recorded.match.round.tournament)
    base = _base_json(scope, now)
    return _match_json(
        base,
        scope,
        recorded.match,
        None,
        recorded.history,
        recorded.clock,
        recorded.state,
        now,
        seating=False,
    )


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
    where (the seats' ``player`` and ``division``)."""
    t = scope.tournament
    rnd = match.round
    final = rnd.kind == Round.Kind.FINAL
    seats = _seat_rows(match, next_round) if seating else []
    here = {s.position: s for s in seats if s.round_id == rnd.pk and s.table == match.table}
    standing = play.standing_of(entries)
    rules = _rules_json(t, final)

    running = {h.number: h.running for h in state.hands}
    hands = []
    for e in standing:
        row = _entry_json(e)
        total = running.get(e.number, {Team.NS: 0, Team.EW: 0})
        row["running"] = {"NS": total[Team.NS], "EW": total[Team.EW]}
        hands.append(row)

    seat_rows = []
    for seat in SEATS:
        seat_row: dict[str, Any] = {
            "seat": seat.value,
            "team": seat.team.value,
            "individual": state.individual.get(seat, 0),
            "points": state.player_points(seat) if state.over and not final else None,
        }
        if seating:
            row = here.get(seat.value)
            seat_row["player"] = row.player.name if row else None
            seat_row["division"] = row.player.division if row else None
        seat_rows.append(seat_row)

    limited = not final and rnd.started_at is not None
    base.update(
        {
            "round": {
                "id": rnd.pk,
                "number": rnd.number,
                "kind": rnd.kind,
                "label": str(rnd),
                "status": rnd.status,
                "game": match.game if final else None,
            },
            "match": {
                "id": match.pk,
                "game": match.game,
                "status": match.status,
                "first_dealer": match.first_dealer or None,
                "dealer": (
                    state.next_dealer.value if state.next_dealer and match.first_dealer else None
                ),
                "next_number": len(standing) + 1,
                "next_phase": state.next_phase.value if state.next_phase else None,
                "score": {"NS": state.score[Team.NS], "EW": state.score[Team.EW]},
                "bonuses": {
                    "NS": state.bonuses.get(Team.NS, 0),
                    "EW": state.bonuses.get(Team.EW, 0),
                },
                "bonus_reasons": {
                    team.value: _bonus_reason(state, team, rules["target"])
                    for team in (Team.NS, Team.EW)
                    if state.bonuses.get(team, 0)
                },
                "over": state.over,
                "winner": match.winner or (state.winner.value if state.winner else None),
                "tied": state.tied,
                "time_called": state.time_called,
                "awaiting_answer": state.awaiting_answer and rnd.status == Round.Status.RUNNING,
                "in_tiebreak": state.in_tiebreak,
                "hand_in_progress_at_call": match.hand_in_progress_at_call,
                "confirmed_by": match.confirmed_by,
                "dispute_note": match.dispute_note,
                "scorekeeper": match.scorekeeper or None,
                "version": match.version,
                "hands_standing": len(standing),
                "time_called_at": _iso(match.time_called_at),
                "can_change_answer": (
                    state.time_called
                    and match.hand_in_progress_at_call is not None
                    and rnd.status == Round.Status.RUNNING
                    and match.status not in (Match.Status.CONFIRMED, Match.Status.DISPUTED)
                ),
                "open": rnd.status == Round.Status.RUNNING,
                "final": final,
            },
            "rules": rules,
            "seats": seat_rows,
            "hands": hands,
            "history": [_entry_json(e) for e in entries],
            "clock": {
                "server_now": _iso(now),
                "limited": limited,
                "started": rnd.started_at is not None,
                "limit_seconds": t.round_minutes * 60 + match.extension_seconds,
                "remaining_seconds": (
                    play.table_remaining(match, now, clock).total_seconds() if limited else None
                ),
                "time_called": state.time_called,
                "paused": clock.paused(now) if limited else False,
            },
        }
    )
    if final:
        base["final"] = _final_games(match)
    if next_round is not None:
        base["next_round"] = _next_round(next_round, here, seats)
    return base


def _final_games(match: Match) -> dict[str, Any]:
    games = list(Match.objects.filter(round_id=match.round_id).order_by("game"))
    to_win = match.round.tournament.final_games_to_win
    # services.play keeps the games a valid best-of-N on every change.
    wins = final_state(play.game_winners(games), to_win).wins
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


def _next_round(rnd: Round, here: dict[str, SeatRow], seats: list[SeatRow]) -> dict[str, Any]:
    """Where each of this table's players sits next, with partner and opponents."""
    upcoming = [s for s in seats if s.round_id == rnd.pk]
    by_player = {s.player_id: s for s in upcoming}
    by_place = {(s.table, s.position): s for s in upcoming}
    moves = []
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
