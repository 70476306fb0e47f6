"""Drawing a lot once, and redrawing it on the director's word.

``drawn`` is called when a page first shows a proposal that uses the lot: it stores the
seed under the unique (tournament, purpose) constraint, so a reload, or a second load at
the same instant, reads the seed already stored instead of drawing another (a director
could otherwise reload until a friend is spared). ``redraw`` is the only way to a new
seed: a POST naming the seed it replaces (a stale page is refused, 409) and a reason,
logged with both seeds."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.common.errors import Conflict
from tournaments.core.logtext import of_choice, said
from tournaments.core.models.event import Tournament
from tournaments.core.models.lots import DrawnLot
from tournaments.core.services import given_reason, log, now_or

SEED_BITS = 48
ROUND1_SIT_OUT = DrawnLot.Purpose.ROUND1_SIT_OUT


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def drawn(
    tournament: Tournament,
    purpose: DrawnLot.Purpose,
    *,
    by: str,
    now: datetime | None = None,
    draw: Callable[[], int] = new_seed,
) -> DrawnLot:
    """The lot for ``purpose``: the stored one, or one drawn now and stored."""
    found = DrawnLot.objects.filter(tournament=tournament, purpose=purpose).first()
    if found is not None:
        return found
    seed = draw()
    try:
        with transaction.atomic():
            return DrawnLot.objects.create(
                tournament=tournament,
                purpose=purpose,
                seed=seed,
                drawn_at=now_or(now),
                drawn_by=by,
            )
    except IntegrityError:
        # Another load stored it first: its seed is the lot.
        return DrawnLot.objects.get(tournament=tournament, purpose=purpose)


def redraw(
    tournament: Tournament,
    purpose: DrawnLot.Purpose,
    *,
    seen: int | None,
    by: str,
    reason: str,
    now: datetime | None = None,
    draw: Callable[[], int] = new_seed,
) -> DrawnLot:
    """A new seed for ``purpose``, replacing the one the director saw (``seen``)."""
    reason = given_reason(reason, _("Give a reason for drawing the lot again."))
    now = now_or(now)
    with transaction.atomic():
        lot = (
            DrawnLot.objects.select_for_update()
            .filter(tournament=tournament, purpose=purpose)
            .first()
        )
        if lot is None or lot.seed != seen:
            raise Conflict(
                _("The lot was drawn again meanwhile; here is the proposal as it stands now.")
            )
        was = lot.seed
        lot.seed, lot.drawn_at, lot.drawn_by = draw(), now, by
        lot.redraws += 1
        lot.save(update_fields=["seed", "drawn_at", "drawn_by", "redraws"])
        log(
            tournament,
            by,
            "lot redrawn",
            said(
                "lots.redrawn",
                purpose=of_choice(DrawnLot.Purpose(lot.purpose).label),
                seed=lot.seed,
                was=was,
            ),
            reason=reason,
            at=now,
        )
    return lot
