"""Rehearsals (issue 25): an event run to try the hall out, counted nowhere.

A rehearsal is a tournament with ``rehearsal`` set. The readers keep it out through one
QuerySet method, ``Tournament.objects.counted()``; its players are linked to no person
(so no person is created, matched or rated by it) until it becomes a real event.

Turning it into a real event is allowed only before round 1 starts, and a real event
becomes a rehearsal only while nothing has been played or imported. Both changes lock the
tournament row and then every round row of the event: ``start_round`` locks the round it
starts, so a start and a change are serialised and the check below cannot be stale.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import said
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import ImportedEvent
from tournaments.core.models.rounds import Round
from tournaments.core.models.series import SeriesEvent
from tournaments.core.services import ServiceError, log, now_or
from tournaments.core.services.linking import link_players


def _locked(tournament: Tournament) -> tuple[Tournament, list[Round]]:
    # FOR NO KEY UPDATE: a round being started holds its row and then logs, and the log's
    # foreign key takes a key-share lock on the tournament; a plain FOR UPDATE here would
    # wait on the round while blocking that log (a deadlock, found on PostgreSQL).
    locked = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
    rounds = list(Round.objects.select_for_update().filter(tournament=locked))
    return locked, rounds


def make_real(tournament: Tournament, *, by: str, now: datetime | None = None) -> Tournament:
    """The rehearsal becomes a real event: from now on it is listed, counted and rated."""
    with transaction.atomic():
        locked, rounds = _locked(tournament)
        if not locked.rehearsal:
            raise ServiceError(_("This event is already a real event."))
        if any(r.status != Round.Status.SEATED for r in rounds):
            raise ServiceError(
                _(
                    "Round 1 has started: a rehearsal stays a rehearsal once play has begun. "
                    "Create a new event for the real one."
                )
            )
        locked.rehearsal = False
        locked.save(update_fields=["rehearsal"])
        # The people links a rehearsal never made (services/players.py), made now.
        link_players(list(Player.objects.filter(tournament=locked)), by=by, now=now)
        line = said("rehearsal.turned_rehearsal_into_real")
        log(locked, by, "rehearsal", line, at=now_or(now))
    return locked


def make_rehearsal(tournament: Tournament, *, by: str, now: datetime | None = None) -> Tournament:
    """A real event with no results yet becomes a rehearsal (its people links stay; every
    reader leaves it out through ``counted()``)."""
    with transaction.atomic():
        locked, rounds = _locked(tournament)
        if locked.rehearsal:
            raise ServiceError(_("This event is already a rehearsal."))
        if any(r.status != Round.Status.SEATED for r in rounds):
            raise ServiceError(
                _("Play has started: an event with results cannot become a rehearsal.")
            )
        if ImportedEvent.objects.filter(tournament=locked).exists():
            raise ServiceError(_("An imported event has results: it cannot become a rehearsal."))
        if SeriesEvent.objects.filter(tournament=locked).exists():
            raise ServiceError(
                _(
                    "This event counts in a series: remove it from the series before "
                    "making it a rehearsal."
                )
            )
        locked.rehearsal = True
        locked.save(update_fields=["rehearsal"])
        line = said("rehearsal.turned_event_into_rehearsal")
        log(locked, by, "rehearsal", line, at=now_or(now))
    return locked
