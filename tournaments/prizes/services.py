"""The director's own prizes (issue 23): added and removed, each logged."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import said
from tournaments.core.models.event import Tournament
from tournaments.core.services import NotFound, log, now_or
from tournaments.prizes.models import DefinedPrize


def define_prize(
    tournament: Tournament,
    *,
    name: str,
    figure: str,
    highest: bool,
    division: str,
    by: str,
    now: datetime | None = None,
) -> DefinedPrize:
    with transaction.atomic():
        prize = DefinedPrize.objects.create(
            tournament=tournament,
            name=name.strip(),
            figure=figure,
            highest=highest,
            division=division,
            created_by=by,
            created_at=now_or(now),
        )
        line = said("prizes.prize_added", name=prize.name)
        log(tournament, by, "prize-add", line, at=now)
    return prize


def remove_prize(tournament: Tournament, pk: int, *, by: str, now: datetime | None = None) -> None:
    with transaction.atomic():
        prize = (
            DefinedPrize.objects.select_for_update().filter(tournament=tournament, pk=pk).first()
        )
        if prize is None:
            raise NotFound(_("No such prize."))
        prize.delete()
        log(
            tournament,
            by,
            "prize-remove",
            said("prizes.prize_removed", name=prize.name),
            at=now,
        )
