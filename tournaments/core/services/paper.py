"""A table scored on paper: the director keys its whole scoresheet in one batch, under the
same rules, lock and version as the tablet, or marks the table as one that has no tablet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import of_match, said
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match, PaperTable
from tournaments.core.services import Conflict, ServiceError, given_reason, log, now_or
from tournaments.core.services.closing import confirm_match
from tournaments.core.services.play import holding, record_hand
from tournaments.domain.hands import Hand, Seat

MAX_SHEET_HANDS = 40


@dataclass(frozen=True)
class Keyed:
    """A scoresheet keyed: how many hands, the match after them, and whether this was a
    repeat of a batch already entered (answered as the first, nothing written again)."""

    hands: int
    match: Match
    duplicate: bool = False


def enter_scoresheet(
    match: Match,
    hands: Sequence[Hand],
    *,
    first_dealer: Seat | None,
    version: int,
    client_key: str,
    by: str,
    reason: str,
    confirm: bool = False,
    now: datetime | None = None,
) -> Keyed:
    """Every hand of the sheet after those already recorded, all or nothing: one lock,
    each hand scored by the rules as the tablet's are; a refused hand refuses the batch
    and names its row. ``version`` is the match's as the grid was shown: a table that
    moved since (a tablet, another director) is a 409 with the current state. A batch
    sent twice (its ``client_key``) is answered as the first. ``confirm``: the sheet was
    signed by both teams, so the result is confirmed as it stands."""
    now = now_or(now)
    reason = given_reason(reason, _("Give a reason for keying the scoresheet."))
    key = (client_key or "").strip()
    if not key or len(key) > 60 or not key.isprintable():
        raise ServiceError(_("Every entry needs a client key of 1 to 64 printable characters."))
    first = HandEntry.objects.filter(client_key=f"{key}-1").first()
    if first is not None:
        if first.match_id != match.pk:
            raise Conflict(_("This entry's key belongs to another table's hand."))
        match.refresh_from_db()
        return Keyed(
            HandEntry.objects.filter(client_key__startswith=f"{key}-").count(), match, True
        )
    if not hands:
        raise ServiceError(_("Enter at least one hand from the scoresheet."))
    if len(hands) > MAX_SHEET_HANDS:
        raise ServiceError(_("A scoresheet holds at most %(n)s hands.") % {"n": MAX_SHEET_HANDS})
    try:
        with holding(match) as held:
            if held.match.version != version:
                raise Conflict(
                    _(
                        "The table's result changed since this grid was shown (a tablet or "
                        "another director?); here is the current state."
                    )
                )
            if not held.match.first_dealer and first_dealer is None:
                raise ServiceError(_("Choose the first dealer before entering the first hand."))
            done = held.match.hands_played
            for index, hand in enumerate(hands, 1):
                try:
                    record_hand(
                        held,
                        hand,
                        client_key=f"{key}-{index}",
                        by=by,
                        source=HandEntry.Source.DIRECTOR,
                        first_dealer=first_dealer if index == 1 else None,
                        now=now,
                    )
                except ServiceError as exc:
                    raise type(exc)(
                        _("Hand %(n)s: %(why)s") % {"n": done + index, "why": exc.message}
                    ) from exc
            m = held.match
            log(
                m.round.tournament,
                by,
                "scoresheet",
                said(
                    "play.scoresheet_entered",
                    match=of_match(m),
                    n=len(hands),
                    score=f"{m.score_ns}–{m.score_ew}",
                ),
                reason=reason,
                match=m,
                at=now,
            )
    except IntegrityError:
        raise Conflict(_("This entry's key belongs to another table's hand.")) from None
    match.refresh_from_db()
    if confirm and match.is_over and match.status == Match.Status.FINISHED:
        match = confirm_match(match, agree=True, by=by, now=now)
    return Keyed(len(hands), match)


def mark_paper(tournament: Tournament, table: int, on: bool, *, by: str) -> bool:
    """Mark a table as scored on paper (or on a tablet again); True when it changed."""
    with transaction.atomic():
        if on:
            _, created = PaperTable.objects.get_or_create(
                tournament=tournament,
                table=table,
                defaults={"marked_at": now_or(None), "marked_by": by},
            )
            changed = created
        else:
            changed = PaperTable.objects.filter(tournament=tournament, table=table).delete()[0] > 0
        if changed:
            line = "play.paper_marked" if on else "play.paper_unmarked"
            log(tournament, by, "paper", said(line, table=table))
    return changed
