"""Substitution during a match (docs/rules.md §6): a seat changes hands from hand ``h`` on.

Each hand's team points count for whoever sat in the seat for that hand; the match's
bonuses, its win or loss and its margin go to whoever held the seat when the match
ended; individual awards and penalties to the player who earned them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.db import compiled
from tournaments.core.logtext import Said, of_match, of_player, said
from tournaments.core.models.event import Player
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution
from tournaments.core.reads.substitutions import incoming_player
from tournaments.core.services import Conflict, ServiceError, given_reason, lock_match, log, now_or
from tournaments.core.services.players import set_withdrawn
from tournaments.domain.hands import Seat
from tournaments.domain.match import MatchState


@dataclass(frozen=True)
class Signed:
    """Who makes a change at a table, why, and the match version their page showed
    (None: not checked); every substitution and its corrections are logged with it."""

    by: str
    reason: str = ""
    version: int | None = None
    now: datetime | None = None


def _locked_running(match: Match, signed: Signed) -> Match:
    """The match locked and read afresh; refused outside a running preliminary round, or
    when it changed since the director's page showed it (§7: repairs name the state
    they were made against)."""
    match = lock_match(match)
    rnd = match.round
    if rnd.kind != Round.Kind.PRELIMINARY:
        raise ServiceError(_("Substitutes come in during preliminary matches only."))
    if rnd.status != Round.Status.RUNNING:
        raise ServiceError(
            _("%(round)s is not being played: reopen it to repair its seats.")
            % {"round": rnd.label()}
        )
    if signed.version is not None and signed.version != match.version:
        raise Conflict(
            _(
                "%(match)s changed since this page was shown (a hand, or another "
                "correction): here is what is recorded now."
            )
            % {"match": match.label()}
        )
    return match


def _log(
    match: Match, signed: Signed, action: str, what: Said, sub: Substitution, now: datetime
) -> None:
    """The activity log's line for a seat changing hands: who, when, why, which match."""
    summary = said(
        "substitutions.seat_from_hand",
        match=of_match(match),
        position=sub.position,
        what=what,
        hand=sub.from_hand,
    )
    log(
        match.round.tournament,
        signed.by,
        action,
        summary,
        reason=signed.reason,
        match=match,
        at=now,
    )


def _locked_seat(match: Match, position: str) -> Seating:
    """The seat row of ``position`` at the match's table, locked for the change."""
    return Seating.objects.select_for_update().get(
        round=match.round, table=match.table, position=position
    )


def _take_seat(match: Match, seat: Seating, player_in: Player) -> bool:
    """Seat ``player_in``; True when that cancelled their sit-out of the round (a player
    sitting the round out who comes in plays it: no sit-out score too)."""
    seat.player = player_in
    seat.save(update_fields=["player"])
    match.version += 1  # under the row lock: the tablets' answers name the old holder
    match.save(update_fields=["version"])
    cancelled, _ = SitOut.objects.filter(round=match.round, player=player_in).delete()
    return cancelled > 0


def _leave_seat(match: Match, sub: Substitution) -> None:
    """The substitute of ``sub`` leaves the round's seats: a sit-out their coming in
    cancelled is theirs again."""
    if sub.in_sat_out:
        SitOut.objects.get_or_create(round=match.round, player=sub.player_in)


def substitute(
    match: Match,
    position: str,
    from_hand: int,
    player_in: Player,
    signed: Signed,
    withdraw_out: bool = False,
) -> Substitution:
    """Put ``player_in`` in ``position`` from hand ``from_hand`` on; refused with a clear
    message for a finished match, the wrong division, or a substitute seated in the round
    or who left a match of it (``reads.substitutions.incoming_player``). ``withdraw_out``:
    the player who leaves has left the event, withdrawn in the same transaction (§6)."""
    now = now_or(signed.now)
    if position not in ("N", "E", "S", "W"):
        raise ServiceError(_("Choose the seat N, E, S or W."))
    with transaction.atomic():
        match = _locked_running(match, signed)
        if match.is_over:
            raise ServiceError(
                _("%(match)s is over: a substitute can no longer come in.")
                % {"match": match.label()}
            )
        if not 1 <= from_hand <= match.hands_played + 1:
            raise ServiceError(
                _("The substitute comes in from a hand 1 to %(last_hand)s (%(recorded)s recorded).")
                % {"last_hand": match.hands_played + 1, "recorded": match.hands_played}
            )
        seat = _locked_seat(match, position)
        player_in = incoming_player(match, position, player_in)
        last = _latest(match, position)
        if last is not None and from_hand <= last.from_hand:
            raise ServiceError(
                _(
                    "Seat %(position)s already changed hands from hand %(from_hand)s; a "
                    "later substitution starts after it, or correct that one."
                )
                % {"position": position, "from_hand": last.from_hand}
            )
        out = seat.player
        try:
            sub = Substitution.objects.create(
                match=match,
                position=position,
                from_hand=from_hand,
                player_out=out,
                player_in=player_in,
                reason=signed.reason,
                created_by=signed.by,
                created_at=now,
            )
        except IntegrityError as exc:
            raise ServiceError(_("That substitution is already recorded.")) from exc
        sub.in_sat_out = _take_seat(match, seat, player_in)
        sub.save(update_fields=["in_sat_out"])
        what = said("substitutions.replaces", player=of_player(player_in), out=out.name)
        _log(match, signed, "substitute", what, sub, now)
        if withdraw_out and not out.withdrawn:
            set_withdrawn(out, True, by=signed.by, reason=signed.reason, now=now)
    return sub


def _latest(match: Match, position: str) -> Substitution | None:
    return (
        Substitution.objects.filter(match=match, position=position)
        .select_related("player_in", "player_out")
        .order_by("-from_hand")
        .first()
    )


def _correctable(match: Match, sub: Substitution, signed: Signed) -> tuple[Match, Substitution]:
    """The match locked and ``sub`` read afresh; only the seat's latest change can be
    corrected (an earlier one is followed by another holder), always with a reason."""
    given_reason(signed.reason, _("Give a reason for the correction (what went wrong)."))
    match = _locked_running(match, signed)
    latest = _latest(match, sub.position)
    if latest is None or latest.pk != sub.pk:
        raise ServiceError(
            _("Only the latest change of seat %(position)s can be corrected (from hand %(hand)s).")
            % {"position": sub.position, "hand": latest.from_hand}
            if latest is not None
            else _("Only the latest change of seat %(position)s can be corrected.")
            % {"position": sub.position}
        )
    return match, latest


def replace_substitute(sub: Substitution, player_in: Player, signed: Signed) -> Substitution:
    """A substitution made in error names the wrong person: ``player_in`` held the seat
    from the same hand instead. The hands already played count for them (§6: for whoever
    sat there), so this is allowed until the round is finalized, match over or not."""
    now = now_or(signed.now)
    with transaction.atomic():
        match, sub = _correctable(sub.match, sub, signed)
        wrong = sub.player_in
        if player_in.pk == wrong.pk:
            raise ServiceError(
                _("%(wrong)s already holds seat %(position)s.")
                % {"wrong": wrong.name, "position": sub.position}
            )
        seat = _locked_seat(match, sub.position)
        player_in = incoming_player(match, sub.position, player_in)
        _leave_seat(match, sub)
        sub.player_in = player_in
        sub.in_sat_out = _take_seat(match, seat, player_in)
        sub.save(update_fields=["player_in", "in_sat_out"])
        summary = said(
            "substitutions.instead_corrected", player=of_player(player_in), wrong=wrong.name
        )
        _log(match, signed, "substitute-replace", summary, sub, now)
    return sub


def undo_substitution(sub: Substitution, signed: Signed) -> None:
    """Take back a substitution made in error while no hand has been played under it:
    the player who left holds the seat again, as if it had never been made."""
    now = now_or(signed.now)
    with transaction.atomic():
        match, sub = _correctable(sub.match, sub, signed)
        if match.hands_played >= sub.from_hand:
            raise ServiceError(
                _(
                    "Hand %(from_hand)s was played with %(player)s in seat %(position)s: "
                    "replace the substitute instead (the hands count for whoever really sat "
                    "there)."
                )
                % {
                    "from_hand": sub.from_hand,
                    "player": sub.player_in.name,
                    "position": sub.position,
                }
            )
        back = sub.player_out
        elsewhere = Seating.objects.filter(round=match.round, player=back).first()
        if elsewhere is not None:
            raise ServiceError(
                _("%(back)s is seated at table %(table)s now: replace the substitute instead.")
                % {"back": back.name, "table": elsewhere.table}
            )
        seat = _locked_seat(match, sub.position)
        _leave_seat(match, sub)
        sub.delete()
        _take_seat(match, seat, back)
        summary = said(
            "substitutions.substitution_for_undone", player=sub.player_in.name, back=back.name
        )
        _log(match, signed, "substitute-undo", summary, sub, now)


# Read at every match's end, on the hand path: compiled once (tournaments.compiled).
_SUBSTITUTIONS = compiled.CompiledSelect(
    lambda match_id: Substitution.objects.filter(match_id=match_id).order_by(
        "position", "from_hand"
    )
)


def attribute(match: Match, state: MatchState, seats: Sequence[Seating]) -> None:
    """Split a substituted seat's points (§6); called whenever the seats are rewritten.

    The seat rows (the holders at the end) keep the bonuses, the win and the margin;
    the players who left keep the team points of their hands and their own awards."""
    subs = _SUBSTITUTIONS(match.pk)
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
