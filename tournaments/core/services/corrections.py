"""The director's changes to a match's recorded hands and result: a correction, a missing
hand inserted, a late-synced hand reviewed, the winner overridden. Each keeps the original
with who, when and why."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime

from django.utils.translation import gettext as _

from tournaments.common import domain_text
from tournaments.core.db import compiled
from tournaments.core.logtext import of_choice, of_match, of_score, said
from tournaments.core.models.play import HandEntry, Match, WinnerOverride
from tournaments.core.models.rounds import Round
from tournaments.core.reads.rounds import later_round_warning
from tournaments.core.replay import (
    entry_of,
    hand_of,
    history,
    match_state,
    match_time,
    replay_entries,
    standing_of,
)
from tournaments.core.services import ServiceError, given_reason, log, now_or
from tournaments.core.services.play import Recorded, locked_match, refresh_results
from tournaments.domain.hands import Hand, InvalidHand, Seat, Team
from tournaments.domain.match import InvalidMatch, MatchState, Phase, TimeCall, phases_after


def _correction_of(
    match: Match,
    entry: HandEntry,
    hand: Hand,
    key: str,
    *,
    by: str,
    reason: str,
    now: datetime,
) -> HandEntry:
    """The director's hand replacing ``entry`` of ``match``: same number, dealer, phase."""
    try:
        hand.validate(Seat(entry.dealer))
    except InvalidHand as exc:
        raise ServiceError(domain_text.read(exc)) from exc
    return entry_of(
        hand,
        match,
        entry.number,
        dealer=entry.dealer,
        client_key=key,
        phase=entry.phase,
        source=HandEntry.Source.DIRECTOR,
        entered_at=now,
        entered_by=by,
        reason=reason,
        replaces=entry,
    )


def correct_hand(
    entry: HandEntry,
    hand: Hand,
    *,
    by: str,
    reason: str,
    client_key: str | None = None,
    confirm: bool = False,
    now: datetime | None = None,
) -> Recorded:
    """The director replaces a standing hand; the original stays in the history.

    A confirmed result goes back to "needs confirmation" unless ``confirm``: the director
    confirms it, with the correction's reason (docs/rules.md §7)."""
    now = now_or(now)
    reason = given_reason(reason, _("Give a reason for the correction."))
    with locked_match(entry.match_id, history=True) as match:
        # The entry as it stands under the lock, from the one read of the match's entries.
        entered = history(match)
        entry = next((e for e in entered if e.pk == entry.pk), None)  # type: ignore[assignment]
        if entry is None or entry.state != HandEntry.State.STANDING:
            raise ServiceError(_("Only a standing hand can be corrected."))
        # A key the director's form sent may be a retry's; a fresh one cannot be.
        existing = HandEntry.objects.filter(client_key=client_key).first() if client_key else None
        if existing is not None:
            return Recorded(existing, match_state(match, now), duplicate=True)
        key = client_key or f"director-{uuid.uuid4().hex}"
        entries = standing_of(entered)
        before = match.winner
        new = _correction_of(match, entry, hand, key, by=by, reason=reason, now=now)
        replaced = [new if e.pk == entry.pk else e for e in entries]
        try:
            state = replay_entries(match, replaced, match_time(match, now, None, entered))
        except InvalidMatch as exc:
            raise ServiceError(_("That correction is impossible: %(exc)s") % {"exc": exc}) from exc
        if match.is_over and not state.over and match.round.status == Round.Status.FINISHED:
            raise ServiceError(
                _("That correction leaves %(match)s unfinished, but its round is closed.")
                % {"match": match.label()}
            )
        entry.state = HandEntry.State.SUPERSEDED
        entry.ended_at, entry.ended_by, entry.end_reason = now, by, reason
        compiled.update(entry, ["state", "ended_at", "ended_by", "end_reason"])
        scored = state.hands[entry.number - 1].score
        new.points_ns, new.points_ew = scored.points[Team.NS], scored.points[Team.EW]
        compiled.insert(new)
        match.has_correction = True
        _settle_after_correction(match, state, by=by, confirm=confirm, now=now)
        refresh_results(match, state, now)
        log(
            match.round.tournament,
            by,
            "correct",
            said(
                "play.hand_corrected",
                match=of_match(match),
                n=entry.number,
                score=of_score(scored),
            ),
            reason=reason,
            match=match,
            at=now,
        )
        return Recorded(new, state, warnings=later_round_warning(match, before))


def _settle_after_correction(
    match: Match, state: MatchState, *, by: str, confirm: bool, now: datetime
) -> None:
    """A corrected match that was confirmed needs confirming again, unless the director
    confirms it now; a dispute stands until the director resolves it."""
    if not state.over:
        return
    if confirm:
        match.status = Match.Status.CONFIRMED
        match.confirmed_by, match.confirmed_at = by, now
    elif match.status == Match.Status.CONFIRMED:
        match.status = Match.Status.FINISHED
        match.confirmed_by, match.confirmed_at = "", None


def _insert_phase(match: Match, entries: list[HandEntry], position: int, time: TimeCall) -> Phase:
    """The phase a hand inserted at ``position`` takes: that of the hand it goes before,
    or the match's next phase at its end (refused when the match is over)."""
    if position == len(entries) + 1:
        try:
            before_state = replay_entries(match, entries, time)
        except InvalidMatch as exc:
            raise ServiceError(str(exc)) from exc
        if before_state.over:
            raise ServiceError(_("The match is over: a hand after its end cannot be added."))
        assert before_state.next_phase is not None
        return before_state.next_phase
    phase = Phase(entries[position - 1].phase)
    if phase is Phase.AT_CALL:
        # A hand missing before the one in progress was played before the call.
        phase = Phase.REGULAR
    return phase


def _director_entry(
    match: Match, hand: Hand, number: int, phase: str, *, now: datetime, by: str, **extra: object
) -> HandEntry:
    """A hand the director enters at ``number``, dealt by the seat that number gives."""
    first = Seat(match.first_dealer)
    return entry_of(
        hand,
        match,
        number,
        dealer=first.clockwise(number - 1).value,
        phase=phase,
        source=HandEntry.Source.DIRECTOR,
        entered_at=now,
        entered_by=by,
        **extra,
    )


def _moved_up(
    match: Match, moved: list[HandEntry], position: int, *, now: datetime, by: str
) -> list[HandEntry]:
    """A copy of each hand from ``position`` on, one number up, replacing it."""
    return [
        _director_entry(
            match,
            hand_of(e),
            e.number + 1,
            e.phase,
            now=now,
            by=by,
            client_key=f"director-{uuid.uuid4().hex}",
            reason=f"Moved to hand {e.number + 1}: a hand was inserted at {position}.",
            replaces=e,
            late_sync=e.late_sync,
            claimed_at=e.claimed_at,
        )
        for e in moved
    ]


def insert_hand(
    match: Match,
    position: int,
    hand: Hand,
    *,
    by: str,
    reason: str,
    client_key: str | None = None,
    now: datetime | None = None,
) -> Recorded:
    """The director inserts a missing hand at ``position`` (docs/rules.md §7). The standing
    hands from there on move one number up: each is superseded by a copy at its new
    number (so the history keeps where it was), with the dealer its new number gives it;
    the inserted hand takes the phase of the hand it goes before (or the next phase)."""
    now = now_or(now)
    reason = given_reason(reason, _("Give a reason for inserting a hand."))
    key = client_key or f"director-{uuid.uuid4().hex}"
    with locked_match(match) as match:
        existing = HandEntry.objects.filter(client_key=key).first()
        if existing is not None:
            return Recorded(existing, match_state(match, now), duplicate=True)
        if not match.first_dealer:
            raise ServiceError(_("Set the first dealer before inserting a hand."))
        entered = history(match)
        entries = standing_of(entered)
        if not 1 <= position <= len(entries) + 1:
            raise ServiceError(
                _("Insert at a position from 1 to %(last_position)s.")
                % {"last_position": len(entries) + 1}
            )
        time = match_time(match, now, None, entered)
        phase = _insert_phase(match, entries, position, time)
        new = _director_entry(
            match, hand, position, phase.value, now=now, by=by, client_key=key, reason=reason
        )
        moved = entries[position - 1 :]
        copies = _moved_up(match, moved, position, now=now, by=by)
        standing = [*entries[: position - 1], new, *copies]
        # K grows with a hand inserted among the regular ones.
        if phase is Phase.REGULAR and time.called:
            time = replace(time, regular_through=time.regular_through + 1)
        try:
            state = replay_entries(match, standing, time)
        except InvalidMatch as exc:
            raise ServiceError(_("That insertion is impossible: %(exc)s") % {"exc": exc}) from exc
        for e in moved:
            e.state = HandEntry.State.SUPERSEDED
            e.ended_at, e.ended_by = now, by
            e.end_reason = f"Moved to hand {e.number + 1}: a hand was inserted at {position}."
        compiled.update_many(moved, ["state", "ended_at", "ended_by", "end_reason"])
        for e, scored in zip(standing, state.hands, strict=True):
            e.points_ns, e.points_ew = scored.score.points[Team.NS], scored.score.points[Team.EW]
        new.save()
        for c in copies:
            c.save()
        before = match.winner
        match.has_correction = True
        _settle_after_correction(match, state, by=by, confirm=False, now=now)
        refresh_results(match, state, now)
        log(
            match.round.tournament,
            by,
            "insert hand",
            said(
                "play.hand_inserted_hands_moved",
                match=of_match(match),
                n=position,
                last=len(entries),
            )
            if moved
            else said("play.hand_inserted", match=of_match(match), n=position),
            reason=reason,
            match=match,
            at=now,
        )
        return Recorded(new, state, warnings=later_round_warning(match, before))


def review_late_sync(
    entry: HandEntry, *, accept: bool, by: str, reason: str, now: datetime | None = None
) -> MatchState:
    """The director accepts a late-synced hand as regular, or reclassifies it as entered
    at its arrival (then it, and the hands after it, take the phases the table's answer
    gives hands after the call)."""
    now = now_or(now)
    reason = given_reason(reason, _("Give a reason."))
    with locked_match(entry.match, history=True) as match:
        entered = history(match)
        entries = standing_of(entered)
        entry = next((e for e in entries if e.pk == entry.pk), None)  # type: ignore[assignment]
        if entry is None or not entry.late_sync:
            raise ServiceError(_("Only a standing late-synced hand can be reviewed."))
        time = match_time(match, now, None, entered)
        if accept:
            state = replay_entries(match, entries, time)
        else:
            later_regular = [e for e in entries if e.number > entry.number and e.phase == "regular"]
            if later_regular:
                raise ServiceError(
                    _(
                        "Hand %(number)s is regular too: reclassify from the last "
                        "late-synced hand backwards."
                    )
                    % {"number": later_regular[0].number}
                )
            k = entry.number - 1
            phases = phases_after(
                [(e.pk, e.number) for e in entries], k, match.hand_in_progress_at_call
            )
            for e in entries:
                if e.pk in phases:
                    e.phase = phases[e.pk].value
            if phases.get(entry.pk) is Phase.AT_CALL:
                match.hand_in_progress_at_call = True
            try:
                state = replay_entries(
                    match,
                    entries,
                    replace(
                        time,
                        regular_through=k,
                        hand_in_progress=match.hand_in_progress_at_call,
                    ),
                )
            except InvalidMatch as exc:
                raise ServiceError(
                    _("That reclassification is impossible: %(exc)s") % {"exc": exc}
                ) from exc
            # The entry no longer counts towards K: it is not regular any more.
            compiled.update_many([e for e in entries if e.pk in phases], ["phase"])
            match.has_correction = True
            _settle_after_correction(match, state, by=by, confirm=False, now=now)
        match.has_late_sync = False
        refresh_results(match, state, now)
        log(
            match.round.tournament,
            by,
            "late sync",
            said("play.late_synced_hand_accepted", match=of_match(match), n=entry.number)
            if accept
            else said(
                "play.late_synced_hand_reclassified",
                match=of_match(match),
                n=entry.number,
                phase=of_choice(HandEntry.Phase(entry.phase).label),
            ),
            reason=reason,
            match=match,
            at=now,
        )
    return state


def override_winner(
    match: Match, winner: Team, *, by: str, reason: str, now: datetime | None = None
) -> list[str]:
    now = now_or(now)
    reason = given_reason(reason, _("An override needs a written reason."))
    with locked_match(match) as match:
        if not match.is_over:
            raise ServiceError(_("Only a finished match can have its winner overridden."))
        before = match.winner
        WinnerOverride.objects.create(
            match=match, winner=winner.value, reason=reason, created_by=by, created_at=now
        )
        state = match_state(match, now)
        match.status = Match.Status.CONFIRMED
        refresh_results(match, state, now)
        log(
            match.round.tournament,
            by,
            "override",
            said(
                "play.winner_set_recorded",
                match=of_match(match),
                winner=winner.value,
                recorded=match.recorded_winner,
            ),
            reason=reason,
            match=match,
            at=now,
        )
    return later_round_warning(match, before)
