"""Stationary players (RULES.md §3.1): the director marks a player who cannot walk the
room, with a reason, before a round is seated, and undoes the mark with a reason. The
seating reads the marks (reads/rounds.py); this only writes them."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import said
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.services import ServiceError, log, now_or
from tournaments.core.services.rounds import lock_tournament

REASON_MAX = 200


def _reason(reason: str, missing: str) -> str:
    reason = reason.replace("\x00", "").strip()
    if not reason:
        raise ServiceError(missing)
    if len(reason) > REASON_MAX:
        raise ServiceError(_("Keep the reason under %(n)s characters.") % {"n": REASON_MAX + 1})
    return reason


def _next_round(tournament: Tournament) -> int:
    """The first round a mark made now routes: the next one to be seated."""
    newest = tournament.rounds.newest()
    if newest is None:
        return 1
    if newest.kind != Round.Kind.PRELIMINARY or newest.number >= tournament.preliminary_rounds:
        raise ServiceError(
            _("Every preliminary round is seated: a stationary mark would route nothing.")
        )
    return newest.number + 1


def mark_stationary(
    tournament: Tournament,
    player: Player,
    *,
    reason: str,
    by: str,
    table: int | None = None,
    now: datetime | None = None,
) -> StationaryMark:
    """Mark ``player`` stationary from the next round to be seated. Before the draw the
    director names their table (None: the lowest table no one is named for yet); once
    the event is under way they stay at the table they sit at in the newest round."""
    reason = _reason(reason, _("Give a reason for the stationary seat."))
    now = now_or(now)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        player = Player.objects.get(pk=player.pk, tournament=tournament)
        if player.withdrawn:
            raise ServiceError(_("%(player)s has withdrawn.") % {"player": player.name})
        marks = list(
            StationaryMark.objects.filter(tournament=tournament).active().select_related("player")
        )
        if any(m.player_id == player.pk for m in marks):
            raise ServiceError(_("%(player)s is already stationary.") % {"player": player.name})
        number = _next_round(tournament)
        if number == 1:
            table = _named_table(tournament, player, marks, table)
        else:
            seat = (
                Seating.objects.filter(round__tournament=tournament, player=player)
                .filter(round__number=number - 1)
                .first()
            )
            if seat is None:
                raise ServiceError(
                    _(
                        "%(player)s has no seat in round %(n)s: mark them stationary once "
                        "they are seated."
                    )
                    % {"player": player.name, "n": number - 1}
                )
            table = seat.table
        mark = StationaryMark.objects.create(
            tournament=tournament,
            player=player,
            table=table,
            reason=reason,
            from_round=number,
            marked_at=now,
            marked_by=by,
        )
        line = said("players.stationary_marked", name=player.name, table=table, n=number)
        log(tournament, by, "stationary", line, reason=reason, at=now)
    return mark


def _named_table(
    tournament: Tournament, player: Player, marks: list[StationaryMark], table: int | None
) -> int:
    named = {m.table for m in marks}
    if table is None:
        table = next(t for t in range(1, len(named) + 2) if t not in named)
    if not 1 <= table <= 2**31 - 1:
        raise ServiceError(_("A table number is 1 or more."))
    same = [m for m in marks if m.table == table and m.player.division == player.division]
    if len(same) >= 2:
        raise ServiceError(
            _("Table %(table)s already holds two stationary %(division)s players.")
            % {"table": table, "division": player.division}
        )
    return table


def end_stationary(
    tournament: Tournament,
    player: Player,
    *,
    reason: str,
    by: str,
    now: datetime | None = None,
) -> StationaryMark:
    """Undo a player's mark from the next round to be seated on; the rounds already
    seated stand."""
    reason = _reason(reason, _("Give a reason for ending the stationary seat."))
    now = now_or(now)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        mark = (
            StationaryMark.objects.select_for_update()
            .filter(tournament=tournament, player_id=player.pk, ended_at__isnull=True)
            .first()
        )
        if mark is None:
            raise ServiceError(_("%(player)s is not stationary.") % {"player": player.name})
        newest = tournament.rounds.newest()
        mark.until_round = max(mark.from_round, newest.number + 1 if newest else 1)
        mark.ended_at, mark.ended_by, mark.end_reason = now, by, reason
        mark.save(update_fields=["until_round", "ended_at", "ended_by", "end_reason"])
        line = said("players.stationary_ended", name=player.name, n=mark.until_round)
        log(tournament, by, "stationary", line, reason=reason, at=now)
    return mark
