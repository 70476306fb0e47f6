"""Matches and their hands: recording, undo, correction, overrides and confirmation.

Every write locks the match row, replays the standing hands through the rules, and
rewrites the match's and the seats' result columns from that replay, all in one
transaction. Retries are recognised by the client key, which is unique in the database.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import BooleanField, Expression, QuerySet
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext as _

from tournaments.common import domain_text
from tournaments.core.db import compiled
from tournaments.core.logtext import of_match, said
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match, WinnerOverride
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.reads.tablet.stale import hand_ahead, hand_taken, undo_refusal
from tournaments.core.replay import (
    _READ_WITH_LOCK,
    as_decided,
    entry_of,
    game_winners,
    hand_of,
    history,
    match_state,
    match_time,
    replay_entries,
    round_clock,
    standing_of,
)
from tournaments.core.services import (
    HELD,
    Conflict,
    ServiceError,
    given_reason,
    locking_matches,
    log,
    now_or,
    refuse_held,
    substitutions,
)
from tournaments.core.services.people import recompute_ratings
from tournaments.domain.clock import RoundClock, contact_due, late_sync_holds
from tournaments.domain.final import final_state
from tournaments.domain.hands import Hand, InvalidHand, Outcome, Seat, Team
from tournaments.domain.match import (
    Answers,
    InvalidMatch,
    MatchState,
    Phase,
    PhasedHand,
    TimeCall,
    check_next,
    extend,
    phases_after,
)


class NotAtTable(ServiceError):
    """The match a request names is not at the table the request speaks for."""


class NotAllowed(ServiceError):
    """The speaker's permission (``AtTable.allowed``) no longer holds."""


@dataclass(frozen=True)
class AtTable:
    """Who speaks for a table: a tablet, for (tournament, table).

    ``allowed`` is a boolean SQL expression (the tablet's link is live) evaluated in the
    query that locks the match: at the end of a round every table writes at once, and a
    separate check would cost each hand another round trip.
    """

    tournament_id: int
    table: int
    allowed: Expression | None = None


def _build_lock(pk: int, *params: int, allowed: str | None = None) -> QuerySet[Match]:
    query = locking_matches().filter(pk=pk)
    if allowed is not None:
        query = query.annotate(allowed=RawSQL(allowed, params, output_field=BooleanField()))
    return query


# Every write's first statement, compiled once (tournaments.compiled); a variant for each
# permission's SQL (one: the tablet's live link).
_LOCK = compiled.CompiledSelect(_build_lock)
# The same, joined with the match's entries: a write that reads the history reads it in
# the statement that locks the match, one round trip instead of two.
_LOCK_WITH_HISTORY = compiled.CompiledWithChildren(_build_lock, "hands")


def _lock(match: Match | int, at: AtTable | None = None, *, history: bool = False) -> Match:
    """Lock the match's row and read it afresh, with its round and tournament; with
    ``history``, its entries too, in the same statement, for the next ``history(match)``.

    ``at`` is the tablet that speaks: the match must be at its table and its
    permission must hold.
    """
    pk = match if isinstance(match, int) else match.pk
    refuse_held(pk)
    allowed = at.allowed if at is not None else None
    compiled_sql = allowed is None or (
        isinstance(allowed, RawSQL) and all(isinstance(p, int) for p in allowed.params)
    )
    found: list[Match]
    if history and compiled_sql:
        if allowed is None:
            read = _LOCK_WITH_HISTORY(pk)
        else:
            assert isinstance(allowed, RawSQL)
            read = _LOCK_WITH_HISTORY(pk, *allowed.params, variant=allowed.sql, allowed=allowed.sql)
        found = []
        if read is not None:
            found = [read[0]]
            read[0].__dict__[_READ_WITH_LOCK] = read[1]
    elif allowed is None:
        found = _LOCK(pk)
    elif compiled_sql:
        assert isinstance(allowed, RawSQL)
        found = _LOCK(pk, *allowed.params, variant=allowed.sql, allowed=allowed.sql)
    else:
        found = list(locking_matches().filter(pk=pk).annotate(allowed=allowed))
    if not found:
        if at is None:
            raise Match.DoesNotExist("Match matching query does not exist.")
        raise NotAtTable(_("That match is not this table's.")) from None
    locked = found[0]
    if at is not None:
        # ``allowed`` is the annotation added above.
        if at.allowed is not None and not cast(Any, locked).allowed:
            raise NotAllowed(_("Not allowed to write at this table any more."))
        if (locked.round.tournament_id, locked.table) != (at.tournament_id, at.table):
            raise NotAtTable(_("That match is not this table's."))
    return locked


@contextmanager
def locked_match(
    match: Match | int, at: AtTable | None = None, *, history: bool = False
) -> Iterator[Match]:
    """One transaction that holds the match's row lock throughout (``_lock``)."""
    with transaction.atomic():
        yield _lock(match, at, history=history)


# The match's columns a replay rewrites (``_refresh``), and with them those a new hand
# sets (``_record``): a hand's UPDATE writes these, not the row's other dozen columns.
# fmt: off
REFRESHED = (
    "score_ns", "score_ew", "bonus_ns", "bonus_ew", "hands_played", "has_renege",
    "recorded_winner", "winner", "has_override", "version", "status", "confirmed_by",
    "confirmed_at",
)
HAND_WRITES = (
    *REFRESHED, "first_dealer", "hand_in_progress_at_call", "last_entry_at",
    "last_contact_at", "has_late_sync",
)
# fmt: on


def refresh_results(
    match: Match,
    state: MatchState,
    now: datetime,
    *,
    written: Sequence[str] | None = None,
    held: Held | None = None,
) -> None:
    """Rewrite the match's and its seats' result columns from a replay; ``written``: the
    match's columns to write (``REFRESHED`` and those the caller set), every one when
    None. A ``held`` match still going is written when its hold ends: no one else reads
    it meanwhile."""
    hands = state.hands
    # The seats carry results only while the match is over; a hand in a match that was
    # not over and still is not changes nothing there (the common case, so skip it).
    had_results, was_won_by = match.is_over, match.winner
    match.score_ns = state.score[Team.NS]
    match.score_ew = state.score[Team.EW]
    match.hands_played = len(hands)
    match.has_renege = any(h.hand.outcome is Outcome.RENEGE for h in hands)
    match.recorded_winner = state.winner.value if state.winner else ""
    override = None
    if state.over:
        # Overrides are only ever added to a finished match, so one that is not over
        # keeps its flag as it was.
        found = _LATEST_OVERRIDE(match.pk)
        override = found[0] if found else None
        match.has_override = override is not None
    match.winner = override.winner if override else match.recorded_winner
    # The bonuses follow an overriding winner, by the rule every reader applies too.
    state = as_decided(match, state)
    match.bonus_ns = state.bonuses.get(Team.NS, 0)
    match.bonus_ew = state.bonuses.get(Team.EW, 0)
    # Under the row lock the caller holds: no two writers read the same version.
    match.version += 1
    if state.over:
        if match.status not in (Match.Status.CONFIRMED, Match.Status.DISPUTED):
            match.status = Match.Status.FINISHED
    else:
        match.status = Match.Status.PLAYING if hands else Match.Status.WAITING
        match.confirmed_by, match.confirmed_at = "", None
    is_final = match.round.kind == Round.Kind.FINAL
    if held is not None:
        held.unwritten = not (is_final or state.over or had_results)
        if held.unwritten:
            return
        _insert_pending(held)
    compiled.update(match, written)  # match.save(update_fields=written), compiled once
    # The ratings were stored when the event finished; a winner changed since replays them
    # (a final's games rate no one: ``reads.people.rating_history``).
    finished = match.round.tournament.status == Tournament.Status.FINISHED
    if match.winner != was_won_by and finished and not is_final:
        recompute_ratings()
    if is_final:
        _sync_final_games(match)
        return
    if not (state.over or had_results):
        return
    seats = _SEATS(match.round_id, match.table)
    for seat in seats:
        position = Seat(seat.position)
        if state.over:
            team = position.team
            seat.team_score = state.score[team]
            seat.bonus = state.bonuses.get(team, 0)
            seat.individual = state.individual.get(position, 0)
            seat.points = state.player_points(position)
            seat.won = match.winner == team.value
            seat.margin = state.margin(team)
        else:
            seat.team_score = seat.bonus = seat.individual = seat.points = None
            seat.won = seat.margin = None
    # §6: a substituted seat's points are split between the players who held it.
    substitutions.attribute(match, state, seats)
    compiled.update_many(seats, SEAT_RESULTS)


# The override in force (the latest), read at every match's end: compiled once.
_LATEST_OVERRIDE = compiled.CompiledSelect(
    lambda match_id: WinnerOverride.objects.filter(match_id=match_id).order_by(
        "-created_at", "-id"
    )[:1]
)
_SEATS = compiled.CompiledSelect(
    lambda round_id, table: Seating.objects.filter(round_id=round_id, table=table)
)
SEAT_RESULTS = ("team_score", "bonus", "individual", "points", "won", "margin")


def _sync_final_games(match: Match) -> None:
    """Keep the final's games a valid best-of-N after any change to one of them.

    An undo or correction can leave a game unfinished, or decide the final, while a
    later game exists. A later game nobody has entered a hand in is removed (nothing is
    lost); one with hands makes the change refused, since its hands would be orphaned.
    """
    games = list(Match.objects.filter(round_id=match.round_id).order_by("game"))
    winners = game_winners(games)
    to_win = match.round.tournament.final_games_to_win
    keep = len(games)
    while True:
        try:
            # The longest run of games that is still a valid final ([] always is).
            fs = final_state(winners[:keep], to_win)
            break
        except ValueError:
            keep -= 1
    extra = games[keep:]
    if extra:
        started = [g.game for g in extra if g.hands.exists()]
        if started:
            raise ServiceError(
                (
                    _(
                        "Refused: game %(started)s of the final already has hands recorded, "
                        "so game %(game)s can no longer be left unfinished."
                    )
                    if not match.is_over
                    else _(
                        "Refused: game %(started)s of the final already has hands recorded, "
                        "so game %(game)s can no longer decide the final."
                    )
                )
                % {"started": started[0], "game": match.game}
            )
        Match.objects.filter(pk__in=[g.pk for g in extra]).delete()
    if fs.next_game is not None:
        Match.objects.get_or_create(round_id=match.round_id, table=1, game=fs.next_game)


@dataclass
class Recorded:
    entry: HandEntry
    state: MatchState
    duplicate: bool = False
    warnings: list[str] = field(default_factory=list)
    # What recording read, kept so that the tablet's answer needs no second look at the
    # database: the locked match as written, every entry of the match in order (undone
    # and superseded ones too) and the round's clock.
    match: Match | None = None
    history: list[HandEntry] | None = None
    clock: RoundClock | None = None


def require_open(match: Match) -> None:
    rnd = match.round
    if rnd.status == Round.Status.SEATED:
        raise ServiceError(_("%(round)s has not started yet.") % {"round": rnd.label()})
    if rnd.status == Round.Status.FINISHED:
        raise ServiceError(
            _("%(round)s is closed; ask the director to correct it.") % {"round": rnd.label()}
        )


def set_first_dealer(
    match: Match,
    seat: Seat,
    *,
    by: str,
    keeper: Seat | None = None,
    director: bool = False,
    reason: str = "",
    now: datetime | None = None,
) -> Match:
    """The table names its first dealer (and who keeps score) before the first hand. The
    director may set or change it later, with a reason: the dealers of the recorded hands
    follow (docs/rules.md §7)."""
    now = now_or(now)
    with locked_match(match) as match:
        # A reason is asked for a change of what is recorded, not for the first naming.
        changing = director and bool(match.first_dealer) and match.first_dealer != seat.value
        reason = given_reason(
            reason, _("Give a reason for changing the first dealer."), needed=changing
        )
        if keeper is not None and not match.scorekeeper:
            match.scorekeeper = keeper.value
        if match.first_dealer == seat.value:
            if keeper is not None:
                compiled.update(match, ["scorekeeper"])
            return match
        entered = history(match)
        entries = standing_of(entered)
        if entries and not director:
            raise ServiceError(_("Hands are already recorded; the first dealer cannot change."))
        was = match.first_dealer
        match.first_dealer = seat.value
        if not director:
            match.version += 1  # under the row lock
            compiled.update(match, ["first_dealer", "scorekeeper", "version"])
            return match
        try:
            state = replay_entries(match, entries, match_time(match, now, None, entered))
        except InvalidMatch as exc:
            raise ServiceError(
                _("That first dealer does not fit the hands recorded: %(exc)s") % {"exc": exc}
            ) from exc
        for e, scored in zip(entries, state.hands, strict=True):
            e.dealer = scored.dealer.value
        compiled.update_many(entries, ["dealer"])
        if entries:
            match.has_correction = True
        refresh_results(match, state, now)
        log(
            match.round.tournament,
            by,
            "first dealer",
            said(
                "play.first_dealer_set_dealers",
                match=of_match(match),
                seat=seat.value,
                was=was,
                n=len(entries),
            )
            if was
            else said("play.first_dealer_set", match=of_match(match), seat=seat.value),
            reason=reason,
            match=match,
            at=now,
        )
    return match


def set_scorekeeper(
    match: Match | int,
    seat: Seat,
    *,
    by: str,
    at: AtTable | None = None,
    now: datetime | None = None,
) -> Match:
    """The table says who keeps score (any of its four seats, one tap): only the other
    team then confirms the result (docs/rules.md §7). A change is logged, so the director
    sees who moved it; once the result is confirmed or disputed the keeper stays."""
    now = now_or(now)
    with locked_match(match, at) as match:
        was = match.scorekeeper
        if was == seat.value:
            return match
        if match.status in (Match.Status.CONFIRMED, Match.Status.DISPUTED):
            raise ServiceError(
                _("The result is already %(status)s; ask the director.")
                % {"status": match.get_status_display().lower()}
            )
        match.scorekeeper = seat.value
        match.version += 1  # under the row lock
        compiled.update(match, ["scorekeeper", "version"])
        if was:
            log(
                match.round.tournament,
                by,
                "scorekeeper",
                said("play.scorekeeper_changed", match=of_match(match), seat=seat.value, was=was),
                match=match,
                at=now,
            )
    return match


class Held:
    """A match locked for a run of its hands (``holding``): each hand goes on from the
    instance and entries the last one left, what a lock would read again while nothing
    else writes the match (so its holder calls no other service on it meanwhile)."""

    def __init__(self, match: Match) -> None:
        self.match, self.open, self.refused, self.unwritten = match, True, False, False
        # Entries not yet inserted: they go in together before the match is next written
        # (on PostgreSQL an INSERT a hand was a quarter of a simulation's time).
        self.pending: list[HandEntry] = []
        # The last hand's state and clock: the next hand under that clock starts from it.
        self.running: tuple[TimeCall, MatchState] | None = None


@contextmanager
def holding(match: Match | int) -> Iterator[Held]:
    """One transaction, lock and read of the entries for a run of hands nobody waits on
    (the simulation's: tournaments/simulate.py). No savepoint a hand: a refused hand (or
    a key another match's hand has: IntegrityError) ends the hold and undoes the whole
    run, even if the holder catches it. No other service may lock the match meanwhile,
    and its round is read once: a director's pause or call during a hold goes unseen."""
    with transaction.atomic():
        held = Held(_lock(match, history=True))
        holds = HELD.setdefault(transaction.get_connection(), set())
        holds.add(held.match.pk)
        try:
            yield held
            if not held.refused:
                _insert_pending(held)
            if held.unwritten and not held.refused:
                compiled.update(held.match, HAND_WRITES)
        finally:
            holds.discard(held.match.pk)
            if held.refused:
                transaction.set_rollback(True)
            held.open = False


def _insert_pending(held: Held) -> None:
    compiled.insert_many(held.pending)
    held.pending = []


def record_hand(
    match: Match | int | Held,
    hand: Hand,
    *,
    client_key: str,
    by: str,
    source: str = HandEntry.Source.TABLET,
    number: int | None = None,
    first_dealer: Seat | None = None,
    entered_at: datetime | None = None,
    at: AtTable | None = None,
    now: datetime | None = None,
) -> Recorded:
    """Record the next hand; a retry with the same client key returns the first entry.

    The match may be given by its id alone (a tablet names it), with ``at`` the tablet
    that speaks for the table: it is checked under the lock. Or ``holding``'s match.
    """
    now = now_or(now)
    client_key = (client_key or "").strip()
    if not client_key or len(client_key) > 64 or not client_key.isprintable():
        raise ServiceError(_("Every entry needs a client key of 1 to 64 printable characters."))
    asked = (hand, client_key, by, source, number, first_dealer, entered_at, now)
    if isinstance(match, Held):
        if at is not None or not match.open:
            raise ValueError("A held match is recorded by its holder, within its hold.")
        try:
            recorded = _record(match.match, asked, held=match)
        except BaseException:
            match.open, match.refused = False, True
            raise
        if recorded.history is not None:  # what the next hand's lock would read
            match.match.__dict__[_READ_WITH_LOCK] = recorded.history
        return recorded
    match_id = match if isinstance(match, int) else match.pk
    try:
        with transaction.atomic():
            return _record(_lock(match_id, at, history=True), asked)
    except IntegrityError:
        # The key is taken: by a concurrent retry of the same entry that won the race (a
        # retry), or by another match's hand (the key lookup in _record reads only this
        # match's entries, so the unique constraint is what catches that).
        existing = HandEntry.objects.filter(client_key=client_key).first()
        if existing is None:
            raise
        if existing.match_id != match_id:
            raise Conflict(_("This entry's key belongs to another table's hand.")) from None
        return Recorded(existing, match_state(existing.match, now), duplicate=True)


# The hand, its key, by, source, the number and first dealer named, entered_at, now.
_Asked = tuple[Hand, str, str, str, int | None, Seat | None, datetime | None, datetime]


def _record(match: Match, asked: _Asked, *, held: Held | None = None) -> Recorded:
    """Record a hand in the match, which the caller has locked (``held``: and holds, with
    the state its last hand left)."""
    hand, client_key, by, source, number, first_dealer, entered_at, now = asked
    entered = history(match)
    entries = standing_of(entered)
    clock = round_clock(match.round)
    existing = next((e for e in entered if e.client_key == client_key), None)
    if existing is not None:
        return Recorded(
            existing,
            replay_entries(match, entries, match_time(match, now, clock, entered)),
            duplicate=True,
            match=match,
            history=entered,
            clock=clock,
        )
    require_open(match)
    if source == HandEntry.Source.TABLET and match.status in (
        Match.Status.CONFIRMED,
        Match.Status.DISPUTED,
    ):
        raise ServiceError(
            _("The result is %(status)s; ask the director to correct it.")
            % {"status": match.get_status_display().lower()}
        )
    if first_dealer is not None and not match.first_dealer:
        match.first_dealer = first_dealer.value
    if not match.first_dealer:
        raise ServiceError(_("Choose the first dealer before entering the first hand."))
    next_number = len(entries) + 1
    if number is not None and number != next_number:
        raise Conflict((hand_taken if number < next_number else hand_ahead)(entries, number))
    time = match_time(match, now, clock, entered)
    # The last hand's state, where it was worked out under this very clock.
    running = held.running if held and held.running and held.running[0] == time else None
    try:
        state = running[1] if running else replay_entries(match, entries, time)
        phase = check_next(state, hand)
    except (InvalidHand, InvalidMatch) as exc:
        raise ServiceError(domain_text.read(exc)) from exc
    late_sync = False
    if phase is not Phase.REGULAR and entered_at is not None:
        last = entries[-1] if entries else None
        late_sync = late_sync_holds(
            started_at=match.round.started_at,
            called_at=match.time_called_at,
            previous_at=(last.claimed_at or last.entered_at) if last else None,
            claimed=entered_at,
            now=now,
            grace=timedelta(minutes=match.round.tournament.late_sync_grace_minutes),
        )
        if late_sync:
            # Entered before the call and sent late: it keeps its place as a regular
            # hand, flagged for the director (docs/rules.md §7).
            phase = Phase.REGULAR
            time = replace(time, regular_through=next_number)
    if phase is Phase.AT_CALL:
        match.hand_in_progress_at_call = True
        time = replace(time, hand_in_progress=True)
    dealer = state.next_dealer
    assert dealer is not None
    entry = entry_of(
        hand,
        match,
        next_number,
        dealer=dealer.value,
        client_key=client_key,
        phase=phase.value,
        source=source,
        entered_at=now,
        entered_by=by,
        claimed_at=entered_at if late_sync else None,
        late_sync=late_sync,
    )
    try:
        # The running state plus the new hand: the standing hands are not replayed again.
        new_state = extend(
            state,
            PhasedHand(hand_of(entry), phase),
            first_dealer=Seat(match.first_dealer),
            rules=match.round.tournament.rules,
            time=time,
            final=match.round.kind == Round.Kind.FINAL,
        )
    except InvalidMatch as exc:
        raise ServiceError(str(exc)) from exc
    scored = new_state.hands[-1].score
    entry.points_ns, entry.points_ew = scored.points[Team.NS], scored.points[Team.EW]
    if held is not None:
        held.pending.append(entry)  # inserted with the hold's next write (Held says why)
    else:
        compiled.insert(entry)  # entry.save(), compiled once
    match.last_entry_at = match.last_contact_at = now
    if late_sync:
        match.has_late_sync = True
        log(
            match.round.tournament,
            by,
            "late sync",
            said(
                "play.hand_arrived_after_call",
                match=of_match(match),
                n=next_number,
                at=f"{entered_at:%H:%M:%S}",
            ),
            match=match,
            at=now,
        )
    refresh_results(match, new_state, now, written=HAND_WRITES, held=held)
    if held is not None:
        held.running = (time, new_state)
    return Recorded(entry, new_state, match=match, history=[*entered, entry], clock=clock)


def check_answers(match: Match, standing: int, answers: Answers | None) -> None:
    if answers is not None and (answers.hands, answers.version) != (standing, match.version):
        raise Conflict(
            _(
                "The table's result changed since this screen was shown (another tablet or "
                "the director?); here is the current state."
            )
        )


def _check_answer_change(
    match: Match, before: bool | None, answers: Answers | None, director: bool
) -> None:
    """Refuses the table a change of its answer once the result is confirmed or
    disputed, or when it did not say what it saw (a second tablet's stale answer)."""
    if not director and match.status in (Match.Status.CONFIRMED, Match.Status.DISPUTED):
        raise ServiceError(
            _("The result is %(status)s; ask the director to change the answer.")
            % {"status": match.get_status_display().lower()}
        )
    if before is not None and answers is None and not director:
        raise Conflict(
            _(
                "This table already answered “a hand was being played”; to change it, "
                "confirm on the current screen."
            )
            if before
            else _(
                "This table already answered “no hand was being played”; to change it, "
                "confirm on the current screen."
            )
        )


def _log_answer(
    match: Match,
    before: bool | None,
    in_progress: bool,
    *,
    by: str,
    reason: str,
    now: datetime,
) -> None:
    answer = "play.call_hand_being_played" if in_progress else "play.call_no_hand_being"
    if before is not None:
        answer = "play.call_hand_being_played_2" if in_progress else "play.call_no_hand_being_2"
    log(
        match.round.tournament,
        by,
        "answer" if before is None else "change answer",
        said(answer, match=of_match(match)),
        reason=reason,
        match=match,
        at=now,
    )


def answer_time_call(
    match: Match,
    in_progress: bool,
    *,
    by: str,
    answers: Answers | None = None,
    director: bool = False,
    reason: str = "",
    now: datetime | None = None,
) -> MatchState:
    """The table (or the director) says whether a hand was being played when time was
    called. The table may change its answer until the result is confirmed, the director
    until the round is finalized; either way the hands after K take the phases the
    answer gives them, and the change is logged. A change needs ``answers`` (what the
    sender saw): without it only a first answer, or the same one again, is taken."""
    now = now_or(now)
    reason = given_reason(
        reason, _("Give a reason for changing the table's answer."), needed=director
    )
    with locked_match(match, history=True) as match:
        require_open(match)
        entered = history(match)
        entries = standing_of(entered)
        time = match_time(match, now, None, entered)
        if not time.called:
            raise ServiceError(_("Time has not been called for this table."))
        check_answers(match, len(entries), answers)
        before = match.hand_in_progress_at_call
        if before == in_progress:
            return replay_entries(match, entries, time)
        _check_answer_change(match, before, answers, director)
        phases = phases_after(
            [(e.pk, e.number) for e in entries], time.regular_through, in_progress
        )
        for e in entries:
            if e.pk in phases:
                e.phase = phases[e.pk].value
        match.hand_in_progress_at_call = in_progress
        match.last_contact_at = now
        try:
            state = replay_entries(match, entries, replace(time, hand_in_progress=in_progress))
        except InvalidMatch as exc:
            raise ServiceError(
                _(
                    "That answer does not fit the hands recorded: %(exc)s Undo the later "
                    "hands first."
                )
                % {"exc": exc}
            ) from exc
        changed = [e for e in entries if e.pk in phases]
        if changed:
            compiled.update_many(changed, ["phase"])
        if before is not None:
            match.has_correction = True
            if match.status == Match.Status.CONFIRMED:
                match.status = Match.Status.FINISHED
                match.confirmed_by, match.confirmed_at = "", None
        refresh_results(match, state, now)
        _log_answer(match, before, in_progress, by=by, reason=reason, now=now)
    return state


def undo_last_hand(
    match: Match | int,
    *,
    by: str,
    reason: str = "",
    now: datetime | None = None,
    director: bool = False,
    expected: tuple[int, str] | None = None,
    at: AtTable | None = None,
) -> HandEntry:
    """Undo the last standing hand; ``expected`` is the hand the sender saw as last (its
    number and client key), checked under the same lock: a hand added, corrected or
    entered again meanwhile is never the one undone. ``at``: a tablet speaks, checked in
    the query that locks the match (``_lock``)."""
    now = now_or(now)
    with locked_match(match, at, history=True) as match:
        if not director:
            require_open(match)
            if match.status in (Match.Status.CONFIRMED, Match.Status.DISPUTED):
                raise ServiceError(
                    _("The result is %(status)s; ask the director to correct it.")
                    % {"status": match.get_status_display().lower()}
                )
        entered = history(match)
        entries = standing_of(entered)
        if expected is not None and (stale := undo_refusal(entered, *expected)):
            raise Conflict(stale)
        if not entries:
            raise ServiceError(_("There is no hand to undo."))
        last = entries[-1]
        time = match_time(match, now, None, entered)
        last.state = HandEntry.State.UNDONE
        last.ended_at, last.ended_by, last.end_reason = now, by, reason
        compiled.update(last, ["state", "ended_at", "ended_by", "end_reason"])
        state = replay_entries(match, entries[:-1], time)
        match.has_correction = True
        match.has_late_sync = match.has_late_sync and any(e.late_sync for e in entries[:-1])
        match.last_contact_at = now
        refresh_results(match, state, now)
        log(
            match.round.tournament,
            by,
            "undo",
            said("play.undid_hand", match=of_match(match), n=last.number),
            reason=reason,
            match=match,
            at=now,
        )
    return last


def touch(match: Match, now: datetime | None = None) -> None:
    """Note a tablet's contact, at most every ``CONTACT_EVERY``."""
    now = now_or(now)
    if contact_due(match.last_contact_at, now):
        Match.objects.filter(pk=match.pk).update(last_contact_at=now)
        match.last_contact_at = now


# --- public seams (the tests and the benches stand where a write stands) -------------------


def lock(match: Match | int, at: AtTable | None = None, *, history: bool = False) -> Match:
    """The match's row lock as every write here takes it, in the caller's transaction."""
    return _lock(match, at, history=history)


def rewrite_results(match: Match, now: datetime | None = None) -> None:
    """Rewrite a locked match's and its seats' result columns from its standing hands, as
    every write here ends (in the caller's transaction): what a restore of fewer hands needs."""
    refresh_results(match, match_state(match, now), now_or(now))
