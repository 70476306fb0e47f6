"""Registration, CSV import, check-in and withdrawal."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common.names import sort_key
from tournaments.core.logtext import Joined, of_round, said
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.reads.people import division_suggestions
from tournaments.core.reads.players import (
    ImportReport,
    check_player,
    last_round_played,
    parse_players_csv,
)
from tournaments.core.reads.standings import final_seat_refusal
from tournaments.core.services import ServiceError, log, now_or
from tournaments.core.services.linking import link_players
from tournaments.core.services.rounds import discard_unstarted_round


def register_player(
    tournament: Tournament,
    name: str,
    division: str,
    *,
    by: str,
    checked_in: bool = False,
    now: datetime | None = None,
) -> Player:
    name, division = check_player(tournament, name, division)
    with transaction.atomic():
        player = _create(tournament, name, division, now_or(now) if checked_in else None)
        line = said("players.registered_division", name=name, division=division)
        log(tournament, by, "register", line, at=now)
        if not tournament.rehearsal:  # linked when it becomes real (services/rehearsal.py)
            link_players([player], by=by)
    return player


def _create(
    tournament: Tournament,
    name: str,
    division: str,
    checked_in_at: datetime | None,
    *,
    house: bool = False,
) -> Player:
    """A new player of the tournament (checked in when ``checked_in_at`` is given); a
    name already registered, in any case, is refused (the database's unique index)."""
    try:
        with transaction.atomic():
            return Player.objects.create(
                tournament=tournament,
                name=name,
                division=division,
                checked_in=checked_in_at is not None,
                checked_in_at=checked_in_at,
                house=house,
            )
    except IntegrityError as exc:
        raise ServiceError(_("%(name)s is already registered.") % {"name": name}) from exc


def edit_player(player: Player, *, name: str, division: str, by: str) -> Player:
    name, division = check_player(player.tournament, name, division, exclude=player)
    if division != player.division and player.seats.exists():
        raise ServiceError(
            _("%(player)s has been seated; the division can no longer change.")
            % {"player": player.name}
        )
    with transaction.atomic():
        line = said(
            "players.now",
            old=player.name,
            old_division=player.division,
            name=name,
            division=division,
        )
        player.name, player.division = name, division
        player.save(update_fields=["name", "division"])
        log(player.tournament, by, "edit player", line)
    return player


def set_checked_in(
    tournament: Tournament, player_ids: Iterable[int], value: bool, *, by: str
) -> int:
    with transaction.atomic():
        players = Player.objects.filter(tournament=tournament, pk__in=list(player_ids))
        names = sorted(players.values_list("name", flat=True), key=sort_key)
        # The time of check-in orders the waiting line (§6: longest waiting first).
        count = players.update(checked_in=value, checked_in_at=timezone.now() if value else None)
        if count:
            line = "players.checked" if value else "players.undid_check"
            log(tournament, by, "check-in", said(line, names=Joined(names)))
    return count


@dataclass(frozen=True)
class Withdrawal:
    """A withdrawal or reinstatement done, with what else it did that the director must
    hear (a discarded seating)."""

    player: Player
    notes: list[str]


def set_withdrawn(
    player: Player, value: bool, *, by: str, reason: str = "", now: datetime | None = None
) -> Withdrawal:
    """Withdraw a player (§6): they keep every hand played and are never seated again.

    A withdrawal while the next round is seated but not started discards that seating
    (nothing was played in it) so that it is seated again with the hole filled; the
    message says so. Reinstating puts the player in the waiting line."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        tournament = locked.tournament
        if value and locked.withdrawn:
            after = locked.withdrawn_after_round
            raise ServiceError(
                _("%(name)s has already withdrawn (after round %(after)s).")
                % {"name": locked.name, "after": after}
                if after
                else _("%(name)s has already withdrawn.") % {"name": locked.name}
            )
        if not value and not locked.withdrawn:
            raise ServiceError(_("%(locked)s is not withdrawn.") % {"locked": locked.name})
        notes = []
        discarded = None
        if value:
            if refusal := final_seat_refusal(locked):
                raise ServiceError(refusal)
            after = last_round_played(locked)
            pending = Round.objects.filter(
                tournament=tournament, kind=Round.Kind.PRELIMINARY, status=Round.Status.SEATED
            ).newest()
            if (
                pending is not None
                and Seating.objects.filter(round=pending, player=locked).exists()
            ):
                withdrew = said("players.withdrew", name=locked.name)
                discard_unstarted_round(pending, by=by, why=withdrew)
                notes.append(
                    _("The seating of %(round)s was discarded: seat it again.")
                    % {"round": pending.label()}
                )
                discarded = of_round(pending)
            locked.withdrawn, locked.withdrawn_after_round = True, after
            summary = (
                said("players.withdrew_after_round", name=locked.name, n=after)
                if after
                else said("players.withdrew_before_round_1", name=locked.name)
            )
        else:
            locked.withdrawn, locked.withdrawn_after_round = False, None
            locked.checked_in, locked.checked_in_at = True, now_or(now)
            summary = said("players.reinstated_waiting_for_next", name=locked.name)
        locked.save(
            update_fields=["withdrawn", "withdrawn_after_round", "checked_in", "checked_in_at"]
        )
        line = summary
        if discarded is not None:
            line = said("players.seating_discarded_seat_it", withdrew=summary, round=discarded)
        log(tournament, by, "withdraw", line, reason=reason, at=now)
    player.withdrawn, player.withdrawn_after_round = locked.withdrawn, locked.withdrawn_after_round
    player.checked_in = locked.checked_in
    return Withdrawal(player, notes)


def add_house_player(
    tournament: Tournament, name: str, division: str, *, by: str, reason: str = ""
) -> Player:
    """A stand-in (§6): plays where a seat needs filling, is never ranked, never in the
    final, and is shown as "house" everywhere."""
    name, division = check_player(tournament, name, division)
    with transaction.atomic():
        player = _create(tournament, name, division, timezone.now(), house=True)
        line = said("players.added_house_player", name=name, division=division)
        log(tournament, by, "house", line, reason=reason)
    return player


def retire_house_player(player: Player, *, by: str, reason: str = "") -> Withdrawal:
    """A house player leaves: never seated again; a seat they hold becomes a hole."""
    if not player.house:
        raise ServiceError(_("%(player)s is not a house player.") % {"player": player.name})
    return set_withdrawn(player, True, by=by, reason=reason or "house player retired")


def import_players(
    tournament: Tournament,
    data: bytes | str,
    *,
    by: str,
    checked_in: bool = False,
    now: datetime | None = None,
) -> ImportReport:
    """Import every row or none: any bad row refuses the whole file."""
    report = parse_players_csv(tournament, data)
    if not report.ok:
        return report
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create(
                Player(
                    tournament=tournament,
                    name=r.name,
                    division=r.division,
                    checked_in=checked_in,
                    checked_in_at=now_or(now) if checked_in else None,
                )
                for r in report.rows
            )
            if not tournament.rehearsal:
                link_players(created, by=by, now=now)
            line = said("players.imported_players_from_csv", n=len(report.rows))
            log(tournament, by, "import", line, at=now)
    except IntegrityError:
        report.errors.append((0, "Another import added some of these names meanwhile; retry."))
    return report


def apply_suggestions(
    tournament: Tournament, share_a: float, *, by: str, now: datetime | None = None
) -> int:
    """Move the rated players to their suggested division, before the draw only."""
    if tournament.rounds.exists():
        raise ServiceError(_("Round 1 has been drawn; divisions can no longer change."))
    moved = 0
    with transaction.atomic():
        for s in division_suggestions(tournament, share_a):
            if s.suggested and s.suggested != s.player.division:
                edit_player(s.player, name=s.player.name, division=s.suggested, by=by)
                moved += 1
    return moved
