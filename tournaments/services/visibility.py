"""The one question every public reader asks: may players see this? (RULES.md §5)

The phones' pages and JSON, the projector and the public series page read an event's
figures only through this module: ``of_event`` says which rounds' figures players may
see, ``visible_standings`` ranks the event as players may see it (as it stood after the
last visible round while the standings are hidden); ``reveal`` is the director's action
that ends the hiding before the final. The director's pages and exports read the live
standings. tests/test_hidden.py walks every public URL with hidden rounds
and checks that no public reader reads the live standings or the setting itself.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from ..domain.visibility import EVERYTHING, Visibility, visibility
from ..models import Round, Tournament
from . import Conflict, current_round, log, now_or
from .rounds import lock_tournament
from .standings import StandingRow, standings

__all__ = ["EVERYTHING", "Visibility", "of_event", "reveal", "visible_standings"]

_NEWEST = object()


def of_event(tournament: Tournament, latest: Round | None | object = _NEWEST) -> Visibility:
    """The event's visibility now; ``latest`` spares the query when the caller already
    read the newest round."""
    newest = current_round(tournament) if latest is _NEWEST else latest
    assert newest is None or isinstance(newest, Round)
    return visibility(
        preliminary_rounds=tournament.preliminary_rounds,
        hide_last=tournament.hide_standings_last_rounds,
        latest_number=newest.number if newest is not None else None,
        latest_is_final=newest is not None and newest.kind == Round.Kind.FINAL,
        final_seeded=tournament.status in (Tournament.Status.FINAL, Tournament.Status.FINISHED),
        revealed=tournament.standings_revealed_at is not None,
    )


def reveal(tournament: Tournament, *, by: str, now: datetime | None = None) -> Tournament:
    """The director shows the hidden standings to the players before the final (§5).
    Logged, so every public answer's version changes and no phone keeps a hidden page."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if not of_event(locked).hidden:
            raise Conflict("The standings are not hidden now: nothing to reveal.")
        locked.standings_revealed_at = now_or(now)
        locked.save(update_fields=["standings_revealed_at"])
        log(locked, by, "reveal", "Standings revealed to the players.", at=now)
    return locked


def visible_standings(
    tournament: Tournament, vis: Visibility | None = None
) -> dict[str, list[StandingRow]]:
    """The standings as players may see them: live, or as they stood after the last
    visible round while hidden."""
    vis = vis if vis is not None else of_event(tournament)
    return standings(tournament, through=vis.through)
