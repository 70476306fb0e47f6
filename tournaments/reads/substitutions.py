"""Substitutions as they read: the table page's lines with the corrections each allows,
who may come in (all of them, or whether this one may: ``incoming_player``, which the
commands ask under their lock), and who held a seat before its present holder (the
tablet's hand list). Substituting, replacing and undoing are ``services.substitutions``."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..domain.hands import Seat
from ..domain.seating import SEAT_DIVISION
from ..errors import ServiceError
from ..models import Match, Player, Seating, Substitution
from ..names import sort_key


@dataclass(frozen=True)
class SubstitutionLine:
    """A substitution as the table page lists it, with the corrections it still allows:
    each seat's latest change while the round runs (replace), and undo while no hand
    was played under it (the checks of ``replace_substitute`` and ``undo_substitution``)."""

    sub: Substitution
    correctable: bool
    undoable: bool


def substitution_lines(match: Match, running: bool) -> list[SubstitutionLine]:
    subs = list(
        Substitution.objects.filter(match=match)
        .select_related("player_in", "player_out")
        .order_by("from_hand")
    )
    latest = {s.position: s for s in subs}
    lines = []
    for s in subs:
        correctable = running and latest[s.position] is s
        undoable = correctable and match.hands_played < s.from_hand
        lines.append(SubstitutionLine(s, correctable, undoable))
    return lines


def substitutes_for(match: Match) -> list[Player]:
    """Who may come in at this match: waiting players and free house players."""
    rnd = match.round
    seated = Seating.objects.filter(round=rnd).values("player_id")
    free = (
        Player.objects.filter(tournament_id=rnd.tournament_id, withdrawn=False)
        .exclude(pk__in=seated)
        .filter(checked_in=True)
    )
    return sorted(free, key=lambda p: (not p.house, p.division, sort_key(p.name)))


def earlier_holders(match: Match) -> list[dict[str, object]]:
    """Who held a substituted seat before its present holder, as hand ranges (``from``
    and ``to`` inclusive): the tablet's hand list names the player who held the seat
    for that hand (§6), not the substitute who holds it now."""
    earlier: list[dict[str, object]] = []
    chain = Substitution.objects.filter(match=match).select_related("player_out", "player_in")
    start, holder, seat = 1, None, None
    for sub in chain.order_by("position", "from_hand"):
        if sub.position != seat:
            start, holder, seat = 1, sub.player_out, sub.position
        if holder is not None and sub.from_hand > start:
            earlier.append(
                {"seat": seat, "from": start, "to": sub.from_hand - 1, "player": holder.name}
            )
        start, holder = sub.from_hand, sub.player_in
    return earlier


def incoming_player(match: Match, position: str, player_in: Player) -> Player:
    """The player who is to take ``position``: in the tournament, not withdrawn, of the
    seat's division (a house player takes any seat) and not seated in the round."""
    rnd = match.round
    player_in = Player.objects.get(pk=player_in.pk)
    if player_in.tournament_id != rnd.tournament_id:
        raise ServiceError(_("That player is not in this tournament."))
    if player_in.withdrawn:
        raise ServiceError(_("%(player)s has withdrawn.") % {"player": player_in.name})
    division = SEAT_DIVISION[Seat(position)]
    if not player_in.house and player_in.division != division:
        raise ServiceError(
            _(
                "Seat %(position)s is a division %(division)s seat; %(player)s plays in "
                "division %(own_division)s (a house player can take any seat)."
            )
            % {
                "position": position,
                "division": division,
                "player": player_in.name,
                "own_division": player_in.division,
            }
        )
    elsewhere = Seating.objects.filter(round=rnd, player=player_in).first()
    if elsewhere is not None:
        raise ServiceError(
            _("%(player)s is already seated at table %(table)s in %(round)s.")
            % {"player": player_in.name, "table": elsewhere.table, "round": rnd.label()}
        )
    return player_in
