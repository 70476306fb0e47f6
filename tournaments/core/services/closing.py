"""The end of a match: the other team confirms the result the table recorded, or the
director closes the match."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from tournaments.core.db import compiled
from tournaments.core.logtext import of_match, said
from tournaments.core.models.play import Match
from tournaments.core.replay import match_state
from tournaments.core.services import Conflict, ServiceError, given_reason, log, now_or
from tournaments.core.services.play import check_answers, locked_match, require_open
from tournaments.domain.match import Answers


def confirm_match(
    match: Match,
    *,
    agree: bool,
    by: str,
    note: str = "",
    answers: Answers | None = None,
    now: datetime | None = None,
) -> Match:
    """A player of the other team agrees with the result or disputes it. A dispute stands
    until the director resolves it: a later agreement does not clear it."""
    now = now_or(now)
    with locked_match(match) as match:
        if not match.is_over:
            raise ServiceError(_("The match is not over yet."))
        if "\x00" in by + note:
            # PostgreSQL refuses NUL in text; a form would have refused it already.
            raise ServiceError(_("The name or note contains a NUL character."))
        # Once the round is finalized its results stand: a late dispute goes to the director.
        require_open(match)
        if match.status == Match.Status.DISPUTED:
            # Said before any staleness: it is what the sender needs to know.
            raise Conflict(
                _(
                    "The result is disputed (%(confirmed_by)s: “%(dispute_note)s”); only the "
                    "director can resolve it."
                )
                % {"confirmed_by": match.confirmed_by, "dispute_note": match.dispute_note}
            )
        if answers is not None:
            check_answers(match, match.hands_played, answers)
        if match.status == Match.Status.CONFIRMED:
            if agree:
                return match
            raise Conflict(
                _("The result was confirmed by %(confirmed_by)s; ask the director.")
                % {"confirmed_by": match.confirmed_by or _("the director")}
            )
        match.status = Match.Status.CONFIRMED if agree else Match.Status.DISPUTED
        match.confirmed_by, match.confirmed_at = by, now
        match.dispute_note = "" if agree else note.strip()
        match.last_contact_at = now
        match.version += 1  # under the row lock
        compiled.update(match)
        log(
            match.round.tournament,
            by,
            "confirm" if agree else "dispute",
            said(
                "play.result_confirmed" if agree else "play.result_disputed",
                match=of_match(match),
                by=by,
            ),
            reason=note,
            match=match,
            at=now,
        )
    return match


def close_match(match: Match, *, by: str, note: str = "", now: datetime | None = None) -> Match:
    """The director accepts a finished (or disputed) result as final, with a reason."""
    now = now_or(now)
    note = given_reason(note, _("Give a reason for accepting the result (what was checked)."))
    with locked_match(match) as match:
        state = match_state(match, now)
        if not state.over:
            raise ServiceError(
                _("%(match)s is not over: %(score_ns)s–%(score_ew)s.")
                % {"match": match.label(), "score_ns": match.score_ns, "score_ew": match.score_ew}
            )
        disputed = match.status == Match.Status.DISPUTED
        match.status = Match.Status.CONFIRMED
        match.confirmed_by, match.confirmed_at = by, now
        match.version += 1  # under the row lock
        compiled.update(match)
        log(
            match.round.tournament,
            by,
            "resolve" if disputed else "close",
            said(
                "play.dispute_resolved_disputed_result"
                if disputed
                else "play.closed_finished_result_accepted",
                match=of_match(match),
            ),
            reason=note,
            match=match,
            at=now,
        )
    return match
