"""Matches and their hands: recording, undo, correction, overrides and confirmation.

Every write locks the match row, replays the standing hands through the rules, and
rewrites the match's and the seats' result columns from that replay, all in one
transaction. Retries are recognised by the client key, which is unique in the database.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from operator import attrgetter

from django.db import IntegrityError, transaction
from django.db.models import Expression

from ..domain.clock import Pause, RoundClock
from ..domain.final import final_state
from ..domain.hands import Hand, InvalidHand, Outcome, Seat, Team, score_hand
from ..domain.match import (
    NO_CLOCK,
    InvalidMatch,
    MatchState,
    Phase,
    PhasedHand,
    TimeCall,
    check_next,
    replay,
)
from ..domain.rules import RuleSettings
from ..models import HandEntry, Match, Round, WinnerOverride
from ..models import Seat as SeatRow
from . import Conflict, ServiceError, log, now_or
from .substitutions import attribute as attribute_substitutions


def round_clock(rnd: Round, pauses: Sequence[Pause] | None = None) -> RoundClock:
    if pauses is None:
        pauses = (
            [Pause(p.started_at, p.ended_at) for p in rnd.pauses.all()] if rnd.has_pauses else []
        )
    return RoundClock(
        limit=timedelta(minutes=rnd.tournament.round_minutes),
        started_at=rnd.started_at,
        pauses=tuple(pauses),
        called_at=rnd.called_at,
    )


def match_time(match: Match, now: datetime, clock: RoundClock | None = None) -> TimeCall:
    if match.round.kind == Round.Kind.FINAL:
        return NO_CLOCK
    clock = clock or round_clock(match.round)
    called = clock.is_called(now, timedelta(seconds=match.extension_seconds))
    return TimeCall(called=called, hand_in_progress=match.hand_in_progress_at_call)


def hand_of(entry: HandEntry) -> Hand:
    return Hand(
        outcome=Outcome(entry.outcome),
        maker=Seat(entry.maker) if entry.maker else None,
        alone=entry.alone,
        maker_tricks=entry.maker_tricks,
        renege_by=Seat(entry.renege_by) if entry.renege_by else None,
        dealer_partner_ordered_up=entry.dealer_partner_ordered_up,
    )


def individual_points(entry: HandEntry, rules: RuleSettings, *, final: bool = False) -> str:
    """A hand's awards and penalties as text, e.g. "E −2", for hand logs."""
    try:
        hand = hand_of(entry)
    except ValueError:
        return ""
    people = score_hand(hand, rules, individual=not final).individual
    return ", ".join(
        f"{seat.value} {points:+d}".replace("-", "−") for seat, points in people.items()
    )


def standing_hands(match: Match) -> list[HandEntry]:
    return list(match.hands.filter(state=HandEntry.State.STANDING).order_by("number"))


# A match's entries in the order they happened: by hand number, then, for a number
# entered again after an undo or a correction, by when.
HISTORY_ORDER = ("number", "entered_at", "pk")


def history(match: Match) -> list[HandEntry]:
    """Every entry of the match in order, undone and superseded ones too."""
    # Sorted here rather than by the query: Django spends longer compiling an ORDER BY
    # than Python takes to sort a match's few dozen entries, on every hand.
    return sorted(match.hands.order_by(), key=attrgetter(*HISTORY_ORDER))


def standing_of(entries: Sequence[HandEntry]) -> list[HandEntry]:
    return [e for e in entries if e.state == HandEntry.State.STANDING]


def replay_entries(match: Match, entries: Sequence[HandEntry], time: TimeCall) -> MatchState:
    if not match.first_dealer:
        if entries:
            raise InvalidMatch("The first dealer is not recorded.")
        return replay(
            [],
            first_dealer=Seat.N,
            rules=match.round.tournament.rules,
            time=time,
            final=match.round.kind == Round.Kind.FINAL,
        )
    return replay(
        [PhasedHand(hand_of(e), Phase(e.phase)) for e in entries],
        first_dealer=Seat(match.first_dealer),
        rules=match.round.tournament.rules,
        time=time,
        final=match.round.kind == Round.Kind.FINAL,
    )


def match_state(match: Match, now: datetime | None = None) -> MatchState:
    return replay_entries(match, standing_hands(match), match_time(match, now_or(now)))


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


def _lock(match: Match | int, at: AtTable | None = None) -> Match:
    """Lock the match's row and read it afresh, with its round and tournament.

    ``at`` is the tablet that speaks: the match must be at its table and its
    permission must hold.
    """
    query = (
        # Lock the match row only: a plain FOR UPDATE would also lock the joined round
        # and tournament rows on PostgreSQL and make every table's hands wait for each
        # other.
        Match.objects.select_for_update(of=("self",)).select_related("round__tournament")
    )
    if at is not None and at.allowed is not None:
        query = query.annotate(allowed=at.allowed)
    try:
        locked = query.get(pk=match if isinstance(match, int) else match.pk)
    except Match.DoesNotExist:
        if at is None:
            raise
        raise NotAtTable("That match is not this table's.") from None
    if at is not None:
        if at.allowed is not None and not locked.allowed:
            raise NotAllowed("Not allowed to write at this table any more.")
        if (locked.round.tournament_id, locked.table) != (at.tournament_id, at.table):
            raise NotAtTable("That match is not this table's.")
    return locked


def _refresh(match: Match, state: MatchState, now: datetime) -> None:
    """Rewrite the match's and its seats' result columns from a replay."""
    hands = state.hands
    # The seats carry results only while the match is over; a hand in a match that was
    # not over and still is not changes nothing there (the common case, so skip it).
    had_results = match.is_over
    match.score_ns = state.score[Team.NS]
    match.score_ew = state.score[Team.EW]
    match.bonus_ns = state.bonuses.get(Team.NS, 0)
    match.bonus_ew = state.bonuses.get(Team.EW, 0)
    match.hands_played = len(hands)
    match.has_renege = any(h.hand.outcome is Outcome.RENEGE for h in hands)
    match.recorded_winner = state.winner.value if state.winner else ""
    override = None
    if state.over:
        # Overrides are only ever added to a finished match, so one that is not over
        # keeps its flag as it was.
        override = match.overrides.order_by("-created_at", "-id").first()
        match.has_override = override is not None
    match.winner = override.winner if override else match.recorded_winner
    if state.over:
        if match.status not in (Match.Status.CONFIRMED, Match.Status.DISPUTED):
            match.status = Match.Status.FINISHED
    else:
        match.status = Match.Status.PLAYING if hands else Match.Status.WAITING
        match.confirmed_by, match.confirmed_at = "", None
    match.save()

    is_final = match.round.kind == Round.Kind.FINAL
    if is_final:
        _sync_final_games(match)
        return
    if not (state.over or had_results):
        return
    seats = list(SeatRow.objects.filter(round_id=match.round_id, table=match.table))
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
    attribute_substitutions(match, state, seats)
    SeatRow.objects.bulk_update(
        seats, ["team_score", "bonus", "individual", "points", "won", "margin"]
    )


def game_winners(games: Sequence[Match]) -> list[Team | None]:
    """Each final game's winner in order, None for a game still in play."""
    return [Team(g.winner) if g.is_over and g.winner else None for g in games]


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
                f"Refused: game {started[0]} of the final already has hands recorded, so "
                f"game {match.game} can no longer "
                f"{'be left unfinished' if not match.is_over else 'decide the final'}."
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


def _require_open(match: Match) -> None:
    rnd = match.round
    if rnd.status == Round.Status.SEATED:
        raise ServiceError(f"{rnd} has not started yet.")
    if rnd.status == Round.Status.FINISHED:
        raise ServiceError(f"{rnd} is closed; ask the director to correct it.")


def set_first_dealer(match: Match, seat: Seat, *, by: str) -> Match:
    with transaction.atomic():
        match = _lock(match)
        if match.first_dealer == seat.value:
            return match
        if match.hands.exists():
            raise ServiceError("Hands are already recorded; the first dealer cannot change.")
        match.first_dealer = seat.value
        match.save(update_fields=["first_dealer"])
    return match


def record_hand(
    match: Match | int,
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
    that speaks for the table: it is checked under the lock.
    """
    now = now_or(now)
    match_id = match if isinstance(match, int) else match.pk
    client_key = (client_key or "").strip()
    if not client_key or len(client_key) > 64 or not client_key.isprintable():
        raise ServiceError("Every entry needs a client key of 1 to 64 printable characters.")
    try:
        with transaction.atomic():
            return _record(
                _lock(match_id, at),
                hand,
                client_key,
                by,
                source,
                number,
                first_dealer,
                entered_at,
                now,
            )
    except IntegrityError:
        # The key is taken: by a concurrent retry of the same entry that won the race (a
        # retry), or by another match's hand (the key lookup in _record reads only this
        # match's entries, so the unique constraint is what catches that).
        existing = HandEntry.objects.filter(client_key=client_key).first()
        if existing is None:
            raise
        if existing.match_id != match_id:
            raise Conflict("This entry's key belongs to another table's hand.") from None
        return Recorded(existing, match_state(existing.match, now), duplicate=True)


def _record(
    match: Match,
    hand: Hand,
    client_key: str,
    by: str,
    source: str,
    number: int | None,
    first_dealer: Seat | None,
    entered_at: datetime | None,
    now: datetime,
) -> Recorded:
    """Record a hand in the match, which the caller has locked."""
    entered = history(match)
    entries = standing_of(entered)
    clock = round_clock(match.round)
    existing = next((e for e in entered if e.client_key == client_key), None)
    if existing is not None:
        return Recorded(
            existing,
            replay_entries(match, entries, match_time(match, now, clock)),
            duplicate=True,
            match=match,
            history=entered,
            clock=clock,
        )
    _require_open(match)
    if first_dealer is not None and not match.first_dealer:
        match.first_dealer = first_dealer.value
    if not match.first_dealer:
        raise ServiceError("Choose the first dealer before entering the first hand.")
    next_number = len(entries) + 1
    if number is not None and number != next_number:
        if number < next_number:
            raise Conflict(
                f"Hand {number} is already recorded (by another tablet?); "
                f"the next hand is {next_number}."
            )
        raise ServiceError(f"The next hand is hand {next_number}, not {number}.")
    time = match_time(match, now, clock)
    try:
        state = replay_entries(match, entries, time)
        phase = check_next(state, hand)
    except (InvalidHand, InvalidMatch) as exc:
        raise ServiceError(str(exc)) from exc
    if (
        phase is Phase.AT_CALL
        and entered_at is not None
        and entered_at <= now
        and (match.round.started_at is None or entered_at >= match.round.started_at)
    ):
        # An entry queued offline before the call keeps its place as a regular hand.
        call = clock.call_instant(entered_at, timedelta(seconds=match.extension_seconds))
        if call is not None and entered_at < call:
            phase = Phase.REGULAR
    if phase is Phase.AT_CALL:
        match.hand_in_progress_at_call = True
        time = TimeCall(True, True)
    dealer = state.next_dealer
    assert dealer is not None
    entry = HandEntry(
        match=match,
        number=next_number,
        client_key=client_key,
        outcome=hand.outcome.value,
        maker=hand.maker.value if hand.maker else "",
        alone=hand.alone,
        maker_tricks=hand.maker_tricks,
        renege_by=hand.renege_by.value if hand.renege_by else "",
        dealer_partner_ordered_up=hand.dealer_partner_ordered_up,
        dealer=dealer.value,
        phase=phase.value,
        source=source,
        entered_at=now,
        entered_by=by,
    )
    try:
        new_state = replay_entries(match, [*entries, entry], time)
    except InvalidMatch as exc:
        raise ServiceError(str(exc)) from exc
    scored = new_state.hands[-1].score
    entry.points_ns, entry.points_ew = scored.points[Team.NS], scored.points[Team.EW]
    entry.save()
    match.last_entry_at = match.last_contact_at = now
    _refresh(match, new_state, now)
    return Recorded(entry, new_state, match=match, history=[*entered, entry], clock=clock)


def answer_time_call(
    match: Match, in_progress: bool, *, by: str, now: datetime | None = None
) -> MatchState:
    """The table says whether a hand was being played when time was called."""
    now = now_or(now)
    with transaction.atomic():
        match = _lock(match)
        _require_open(match)
        if not match_time(match, now).called:
            raise ServiceError("Time has not been called for this table.")
        if match.status == Match.Status.CONFIRMED:
            # Changing the answer could reopen the match, as an undo would.
            raise ServiceError("The result is confirmed; ask the director to correct it.")
        entries = standing_hands(match)
        if any(e.phase != Phase.REGULAR for e in entries):
            raise ServiceError("The hand in progress at the call is already recorded.")
        match.hand_in_progress_at_call = in_progress
        match.last_contact_at = now
        try:
            state = replay_entries(match, entries, match_time(match, now))
        except InvalidMatch as exc:
            raise ServiceError(str(exc)) from exc
        _refresh(match, state, now)
    return state


def undo_last_hand(
    match: Match, *, by: str, reason: str = "", now: datetime | None = None, director: bool = False
) -> HandEntry:
    now = now_or(now)
    with transaction.atomic():
        match = _lock(match)
        if not director:
            _require_open(match)
            if match.status == Match.Status.CONFIRMED:
                raise ServiceError("The result is confirmed; ask the director to correct it.")
        entries = standing_hands(match)
        if not entries:
            raise ServiceError("There is no hand to undo.")
        last = entries[-1]
        last.state = HandEntry.State.UNDONE
        last.ended_at, last.ended_by, last.end_reason = now, by, reason
        last.save(update_fields=["state", "ended_at", "ended_by", "end_reason"])
        state = replay_entries(match, entries[:-1], match_time(match, now))
        match.has_correction = True
        match.last_contact_at = now
        _refresh(match, state, now)
        log(
            match.round.tournament,
            by,
            "undo",
            f"{match}: undid hand {last.number}.",
            reason=reason,
            match=match,
            at=now,
        )
    return last


def _later_round_warning(match: Match, before: str) -> list[str]:
    if match.winner == before or match.round.kind == Round.Kind.FINAL:
        return []
    if Round.objects.filter(
        tournament_id=match.round.tournament_id, number__gt=match.round.number
    ).exists():
        return [
            f"The winner of {match} changed after the next round was seated. "
            "The seating already made stands; reseat by hand if you must."
        ]
    return []


def correct_hand(
    entry: HandEntry,
    hand: Hand,
    *,
    by: str,
    reason: str,
    client_key: str | None = None,
    now: datetime | None = None,
) -> Recorded:
    """The director replaces a standing hand; the original stays in the history."""
    now = now_or(now)
    reason = reason.strip()
    if not reason:
        raise ServiceError("Give a reason for the correction.")
    with transaction.atomic():
        match = _lock(entry.match)
        entry = HandEntry.objects.get(pk=entry.pk)
        if entry.state != HandEntry.State.STANDING:
            raise ServiceError("Only a standing hand can be corrected.")
        key = client_key or f"director-{uuid.uuid4().hex}"
        if HandEntry.objects.filter(client_key=key).exists():
            existing = HandEntry.objects.get(client_key=key)
            return Recorded(existing, match_state(match, now), duplicate=True)
        entries = standing_hands(match)
        before = match.winner
        dealer = Seat(entry.dealer)
        try:
            hand.validate(dealer)
        except InvalidHand as exc:
            raise ServiceError(str(exc)) from exc
        new = HandEntry(
            match=match,
            number=entry.number,
            client_key=key,
            outcome=hand.outcome.value,
            maker=hand.maker.value if hand.maker else "",
            alone=hand.alone,
            maker_tricks=hand.maker_tricks,
            renege_by=hand.renege_by.value if hand.renege_by else "",
            dealer_partner_ordered_up=hand.dealer_partner_ordered_up,
            dealer=entry.dealer,
            phase=entry.phase,
            source=HandEntry.Source.DIRECTOR,
            entered_at=now,
            entered_by=by,
            reason=reason,
            replaces=entry,
        )
        replaced = [new if e.pk == entry.pk else e for e in entries]
        try:
            state = replay_entries(match, replaced, match_time(match, now))
        except InvalidMatch as exc:
            raise ServiceError(f"That correction is impossible: {exc}") from exc
        if match.is_over and not state.over and match.round.status == Round.Status.FINISHED:
            raise ServiceError(
                f"That correction leaves {match} unfinished, but its round is closed."
            )
        entry.state = HandEntry.State.SUPERSEDED
        entry.ended_at, entry.ended_by, entry.end_reason = now, by, reason
        entry.save(update_fields=["state", "ended_at", "ended_by", "end_reason"])
        scored = state.hands[entry.number - 1].score
        new.points_ns, new.points_ew = scored.points[Team.NS], scored.points[Team.EW]
        new.save()
        match.has_correction = True
        _refresh(match, state, now)
        log(
            match.round.tournament,
            by,
            "correct",
            f"{match}: hand {entry.number} corrected ({scored.describe}).",
            reason=reason,
            match=match,
            at=now,
        )
        return Recorded(new, state, warnings=_later_round_warning(match, before))


def override_winner(
    match: Match, winner: Team, *, by: str, reason: str, now: datetime | None = None
) -> list[str]:
    now = now_or(now)
    reason = reason.strip()
    if not reason:
        raise ServiceError("An override needs a written reason.")
    with transaction.atomic():
        match = _lock(match)
        if not match.is_over:
            raise ServiceError("Only a finished match can have its winner overridden.")
        before = match.winner
        WinnerOverride.objects.create(
            match=match, winner=winner.value, reason=reason, created_by=by, created_at=now
        )
        state = match_state(match, now)
        match.status = Match.Status.CONFIRMED
        _refresh(match, state, now)
        log(
            match.round.tournament,
            by,
            "override",
            f"{match}: winner set to {winner.value} (recorded {match.recorded_winner}).",
            reason=reason,
            match=match,
            at=now,
        )
    return _later_round_warning(match, before)


def confirm_match(
    match: Match, *, agree: bool, by: str, note: str = "", now: datetime | None = None
) -> Match:
    """A player of the other team agrees with the result or disputes it."""
    now = now_or(now)
    with transaction.atomic():
        match = _lock(match)
        if not match.is_over:
            raise ServiceError("The match is not over yet.")
        if match.status == Match.Status.CONFIRMED and agree:
            return match
        if "\x00" in by + note:
            # PostgreSQL refuses NUL in text; a form would have refused it already.
            raise ServiceError("The name or note contains a NUL character.")
        # Once the round is finalized its results stand: a late dispute goes to the director.
        _require_open(match)
        match.status = Match.Status.CONFIRMED if agree else Match.Status.DISPUTED
        match.confirmed_by, match.confirmed_at = by, now
        match.dispute_note = "" if agree else note.strip()
        match.last_contact_at = now
        match.save()
        if not agree:
            log(
                match.round.tournament,
                by,
                "dispute",
                f"{match}: result disputed.",
                reason=note,
                match=match,
                at=now,
            )
    return match


def close_match(match: Match, *, by: str, note: str = "", now: datetime | None = None) -> Match:
    """The director accepts a finished (or disputed) result as final."""
    now = now_or(now)
    with transaction.atomic():
        match = _lock(match)
        state = match_state(match, now)
        if not state.over:
            raise ServiceError(f"{match} is not over: {match.score_ns}–{match.score_ew}.")
        was = match.get_status_display()
        match.status = Match.Status.CONFIRMED
        match.confirmed_by, match.confirmed_at = by, now
        match.save()
        log(
            match.round.tournament,
            by,
            "close",
            f"{match}: closed ({was}).",
            reason=note,
            match=match,
            at=now,
        )
    return match


def touch(match: Match, now: datetime | None = None) -> None:
    """Note a tablet's contact, at most every 15 seconds to spare the writer."""
    now = now_or(now)
    if match.last_contact_at is None or now - match.last_contact_at > timedelta(seconds=15):
        Match.objects.filter(pk=match.pk).update(last_contact_at=now)
        match.last_contact_at = now
