"""Substitutions as they read: the table page's lines with the corrections each allows,
who may come in (all of them, or whether this one may: ``incoming_player``, which the
commands ask under their lock), and who held a seat before its present holder (the
tablet's hand list). Substituting, replacing and undoing are ``services.substitutions``."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.common.errors import ServiceError
from tournaments.common.names import sort_key
from tournaments.core.models.event import Player
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating, Substitution
from tournaments.domain.hands import Seat
from tournaments.domain.seating import SEAT_DIVISION


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
    """Who may come in at this match: waiting players and free house players; not a player
    who left a match of this round (``incoming_player`` says why)."""
    rnd = match.round
    seated = Seating.objects.filter(round=rnd).values("player_id")
    left = Substitution.objects.filter(match__round=rnd).values("player_out_id")
    free = (
        Player.objects.filter(tournament_id=rnd.tournament_id, withdrawn=False)
        .exclude(pk__in=seated)
        .exclude(pk__in=left)
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
    seat's division (a house player takes any seat), not seated in the round and not a
    player who left a match of the round (``_left_in_round``)."""
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
    _left_in_round(rnd, player_in)
    return player_in


def _left_in_round(rnd: Round, player: Player) -> None:
    """Refuse a player who left a match of ``rnd`` to a substitute. Coming back, at that
    table or another, would give them two matches in one round: the standings would
    count two matches played (and a later "average" sit-out score with them), and the
    results file, where a player sits once a round, could never be published or
    imported. A substitution no hand was played under is undone instead (the player who
    left holds the seat again, as if it had never been made)."""
    left = (
        Substitution.objects.filter(match__round=rnd, player_out=player)
        .select_related("match")
        .order_by("from_hand")
        .first()
    )
    if left is None:
        return
    where = {
        "player": player.name,
        "position": left.position,
        "table": left.match.table,
        "hand": left.from_hand,
        "round": rnd.label(),
    }
    later = Substitution.objects.filter(
        match=left.match, position=left.position, from_hand__gt=left.from_hand
    )
    if left.match.hands_played < left.from_hand and not later.exists():
        raise ServiceError(
            _(
                "%(player)s is the player who left seat %(position)s at table %(table)s: undo "
                "that substitution to give them the seat back."
            )
            % where
        )
    raise ServiceError(
        _(
            "%(player)s left seat %(position)s at table %(table)s from hand %(hand)s of "
            "%(round)s: a player who left a match cannot come back in the same round."
        )
        % where
    )
