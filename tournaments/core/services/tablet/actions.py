"""What a table does: record a hand, set the first dealer, undo, answer the time call,
confirm or dispute the result; and the note that it was in contact (a poll answered 304
writes it here, not in the read that answered).

The requests arrive checked for shape by their forms (``tournaments.forms_tablet``);
every change goes through ``services.play``. Recording and undoing name their match and
check, in the one query that locks it, that it is this table's and that the session's
link is live: the busiest requests of the day read nothing twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.reads.tablet import state
from tournaments.core.reads.tablet.link import Forbidden, TableScope, live_link, refusal
from tournaments.core.reads.tablet.lookup import match_for, named_match
from tournaments.core.reads.tablet.version import TableVersion
from tournaments.core.services import ServiceError, closing, now_or, play
from tournaments.domain.clock import contact_due
from tournaments.domain.hands import Hand, Seat
from tournaments.domain.match import Answers, EntryDetails


@contextmanager
def _at_table(scope: TableScope) -> Iterator[None]:
    """Turn the lock's refusals (a dead link, another table's match) into Forbidden."""
    try:
        yield
    except play.NotAllowed:
        raise refusal(scope) from None
    except play.NotAtTable as exc:
        raise Forbidden(exc.message) from None


def _locking(scope: TableScope, match_id: int | None) -> tuple[Match | int, play.AtTable]:
    """The match to lock (its id when the request names one) and who speaks for it."""
    match: Match | int = match_for(scope) if match_id is None else named_match(match_id)
    return match, play.AtTable(scope.tournament_id, scope.table, allowed=live_link(scope))


def record(
    scope: TableScope,
    hand: Hand,
    details: EntryDetails,
    *,
    match_id: int | None = None,
    now: datetime | None = None,
) -> play.Recorded:
    """Record a hand for a table session whose link has not been checked yet: it is, with
    the named match, under the lock that recording takes anyway, which spares the
    busiest request of the day two queries."""
    match, at = _locking(scope, match_id)
    with _at_table(scope):
        return play.record_hand(match, hand, by=scope.actor, at=at, now=now, **details)


def undo(
    scope: TableScope,
    number: int,
    client_key: str,
    *,
    match_id: int | None = None,
    now: datetime | None = None,
) -> int:
    """Undo the last hand, which must be hand ``number``, the entry ``client_key`` (the
    one the tablet showed as last), under one lock of the match that also checks the
    table and its link; returns the match's id."""
    match, at = _locking(scope, match_id)
    with _at_table(scope):
        entry = play.undo_last_hand(
            match,
            by=scope.actor,
            reason="Undone at the table.",
            now=now,
            expected=(number, client_key),
            at=at,
        )
    return entry.match_id


def first_dealer(
    scope: TableScope, seat: Seat, *, keeper: Seat | None = None, match_id: int | None = None
) -> Match:
    match = match_for(scope, match_id)
    return play.set_first_dealer(match, seat, by=scope.actor, keeper=keeper)


def keeper(scope: TableScope, seat: Seat, *, match_id: int | None = None) -> Match:
    """The table names (or changes) who keeps score: one tap, any seat."""
    match = match_for(scope, match_id)
    return play.set_scorekeeper(match, seat, by=scope.actor)


def answer_call(
    scope: TableScope,
    in_progress: bool,
    *,
    answers: Answers | None = None,
    match_id: int | None = None,
    now: datetime | None = None,
) -> Match:
    match = match_for(scope, match_id)
    play.answer_time_call(match, in_progress, by=scope.actor, answers=answers, now=now)
    return match


def confirm(
    scope: TableScope,
    *,
    agree: bool,
    by: str,
    note: str = "",
    answers: Answers | None = None,
    match_id: int | None = None,
    now: datetime | None = None,
) -> Match:
    """A player of the team that did not keep score agrees with the result or disputes it.
    Who keeps score must be known first: without it any of the four could confirm their
    own result (docs/rules.md §7)."""
    match = match_for(scope, match_id)
    if not match.scorekeeper:
        raise ServiceError(
            _(
                "Say first who kept score (one tap on the tablet): the other team "
                "confirms the result."
            )
        )
    seated = dict(
        Seating.objects.filter(round_id=match.round_id, table=match.table).values_list(
            "player__name", "position"
        )
    )
    if by not in seated:
        raise ServiceError(_("A player seated at this table confirms the result."))
    if match.scorekeeper and Seat(seated[by]).team is Seat(match.scorekeeper).team:
        raise ServiceError(
            _("A player of the team that did not keep score confirms the result, not %(by)s.")
            % {"by": by}
        )
    if not agree and not note:
        raise ServiceError(_("Say what is wrong, so the director can look at it."))
    return closing.confirm_match(match, agree=agree, by=by, note=note, answers=answers, now=now)


def note_contact(version: TableVersion, now: datetime) -> None:
    """A tablet answered 304 is in contact too (at most once a ``CONTACT_EVERY``)."""
    if version.match_id is not None and contact_due(version.last_contact_at, now):
        Match.objects.filter(pk=version.match_id).update(last_contact_at=now)


def table_state(
    scope: TableScope,
    now: datetime | None = None,
    match_id: int | None = None,
    *,
    touch: bool = True,
) -> dict[str, Any]:
    """Everything the table screen shows, as JSON (``reads.tablet.state``); notes the
    tablet's contact unless ``touch`` is false (a refusal carries the state but changes
    nothing)."""
    now = now_or(now)
    at = state.table_match(scope, match_id)
    if touch and at[0] is not None:
        play.touch(at[0], now)
    return state.table_state(scope, now, at=at)


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
    return state.state_after_hand(
        scope, recorded.match, recorded.history, recorded.clock, recorded.state, now
    )
