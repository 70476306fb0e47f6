"""Substitution during a match (docs/rules.md §6): a seat changes hands from hand ``h`` on.

Each hand's team points count for whoever sat in the seat for that hand; the match's
bonuses, its win or loss and its margin go to whoever held the seat when the match
ended; individual awards and penalties to the player who earned them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import IntegrityError, transaction

from ..domain.hands import Seat
from ..domain.match import MatchState
from ..domain.seating import SEAT_DIVISION
from ..models import Match, Player, Round, SitOut, Substitution
from ..models import Seat as SeatRow
from . import ServiceError, log, now_or
from .names import sort_key


def substitute(
    match: Match,
    position: str,
    from_hand: int,
    player_in: Player,
    *,
    by: str,
    reason: str = "",
    now: datetime | None = None,
) -> Substitution:
    """Put ``player_in`` in ``position`` from hand ``from_hand`` on; refused with a clear
    message for a finished match, a seated substitute or the wrong division."""
    now = now_or(now)
    if position not in ("N", "E", "S", "W"):
        raise ServiceError("Choose the seat N, E, S or W.")
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .get(pk=match.pk)
        )
        rnd = match.round
        if rnd.kind != Round.Kind.PRELIMINARY:
            raise ServiceError("Substitutes come in during preliminary matches only.")
        if rnd.status != Round.Status.RUNNING or match.is_over:
            raise ServiceError(f"{match} is over: a substitute can no longer come in.")
        if not 1 <= from_hand <= match.hands_played + 1:
            raise ServiceError(
                f"The substitute comes in from a hand 1 to {match.hands_played + 1} "
                f"({match.hands_played} recorded)."
            )
        seat = SeatRow.objects.select_for_update().get(
            round=rnd, table=match.table, position=position
        )
        player_in = Player.objects.get(pk=player_in.pk)
        if player_in.tournament_id != rnd.tournament_id:
            raise ServiceError("That player is not in this tournament.")
        if player_in.withdrawn:
            raise ServiceError(f"{player_in.name} has withdrawn.")
        division = SEAT_DIVISION[Seat(position)]
        if not player_in.house and player_in.division != division:
            raise ServiceError(
                f"Seat {position} is a division {division} seat; {player_in.name} plays in "
                f"division {player_in.division} (a house player can take any seat)."
            )
        elsewhere = SeatRow.objects.filter(round=rnd, player=player_in).first()
        if elsewhere is not None:
            raise ServiceError(
                f"{player_in.name} is already seated at table {elsewhere.table} in {rnd}."
            )
        last = (
            Substitution.objects.filter(match=match, position=position)
            .order_by("-from_hand")
            .first()
        )
        if last is not None and from_hand <= last.from_hand:
            raise ServiceError(
                f"Seat {position} already changed hands from hand {last.from_hand}; "
                "a later substitution starts after it."
            )
        out = seat.player
        try:
            sub = Substitution.objects.create(
                match=match,
                position=position,
                from_hand=from_hand,
                player_out=out,
                player_in=player_in,
                reason=reason,
                created_by=by,
                created_at=now,
            )
        except IntegrityError as exc:
            raise ServiceError("That substitution is already recorded.") from exc
        seat.player = player_in
        seat.save(update_fields=["player"])
        # A player sitting this round out who comes in plays it: no sit-out score too.
        SitOut.objects.filter(round=rnd, player=player_in).delete()
        log(
            rnd.tournament,
            by,
            "substitute",
            f"{match} seat {position}: {player_in.name}"
            + (" (house)" if player_in.house else "")
            + f" replaces {out.name} from hand {from_hand}.",
            reason=reason,
            match=match,
            at=now,
        )
    return sub


def substitutes_for(match: Match) -> list[Player]:
    """Who may come in at this match: waiting players and free house players."""
    rnd = match.round
    seated = SeatRow.objects.filter(round=rnd).values("player_id")
    free = (
        Player.objects.filter(tournament_id=rnd.tournament_id, withdrawn=False)
        .exclude(pk__in=seated)
        .filter(checked_in=True)
    )
    return sorted(free, key=lambda p: (not p.house, p.division, sort_key(p.name)))


def attribute(match: Match, state: MatchState, seats: Sequence[SeatRow]) -> None:
    """Split a substituted seat's points (§6); called whenever the seats are rewritten.

    The seat rows (the holders at the end) keep the bonuses, the win and the margin;
    the players who left keep the team points of their hands and their own awards."""
    subs = list(Substitution.objects.filter(match=match).order_by("position", "from_hand"))
    if not subs:
        return
    by_position: dict[str, list[Substitution]] = {}
    for sub in subs:
        by_position.setdefault(sub.position, []).append(sub)
    for seat in seats:
        chain = by_position.get(seat.position, [])
        if not chain:
            continue
        position = Seat(seat.position)
        start = 1
        given_team = given_individual = 0
        for sub in chain:
            hands = [h for h in state.hands if start <= h.number < sub.from_hand]
            if state.over:
                sub.out_team_score = sum(h.score.points[position.team] for h in hands)
                sub.out_individual = sum(h.score.individual.get(position, 0) for h in hands)
                given_team += sub.out_team_score
                given_individual += sub.out_individual
            else:
                sub.out_team_score = sub.out_individual = None
            start = sub.from_hand
        team, individual, bonus = seat.team_score, seat.individual, seat.bonus
        # The three are written together when the match ends.
        if state.over and team is not None and individual is not None and bonus is not None:
            seat.team_score = team - given_team
            seat.individual = individual - given_individual
            seat.points = seat.team_score + bonus + seat.individual
    Substitution.objects.bulk_update(subs, ["out_team_score", "out_individual"])
