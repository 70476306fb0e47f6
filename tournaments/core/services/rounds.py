"""Seating and the round clock: draw, swap, start, pause, resume, call time, extend,
finalize, and seating the next round by rotation."""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.common import domain_text
from tournaments.core.backup import backup_after_finalize
from tournaments.core.logtext import (
    Arg,
    Joined,
    Said,
    of_change_kind,
    of_match,
    of_remedy,
    of_round,
    said,
)
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Round, RoundPause, Seating, SitOut
from tournaments.core.reads.rounds import (
    draw_refusal,
    fingerprint,
    house_name,
    plan_next_round,
    seating_of,
    stationary_marks,
    unfinished_tables,
)
from tournaments.core.replay import observe_call, round_clock, seat_rows
from tournaments.core.services import ServiceError, lock_match, log, now_or, table_codes
from tournaments.domain.seating import (
    FirstRoundRemedy,
    PlayerId,
    SeatingError,
    TableSeating,
    draw,
    draw_with_remedy,
    first_round_remedies,
    house_fill,
    swap,
)


def lock_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _lock_round(rnd: Round) -> Round:
    # of=("self",): on PostgreSQL a plain FOR UPDATE would also lock the joined tournament
    # row, serialising every write of the event behind it.
    return Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=rnd.pk)


def write_seating(rnd: Round, seating: Sequence[TableSeating]) -> None:
    Seating.objects.bulk_create(seat_rows(rnd, seating))
    Match.objects.bulk_create(Match(round=rnd, table=t.table) for t in seating)
    live = set(
        TableLink.objects.live()
        .filter(tournament_id=rnd.tournament_id)
        .values_list("table", flat=True)
    )
    missing = [t.table for t in seating if t.table not in live]
    codes = table_codes.new_codes(len(missing)) if missing else []
    TableLink.objects.bulk_create(
        TableLink(
            tournament_id=rnd.tournament_id,
            table=table,
            token=secrets.token_urlsafe(32),
            code=code,
        )
        for table, code in zip(missing, codes, strict=True)
    )


def draw_first_round(
    tournament: Tournament,
    *,
    by: str,
    seed: int | None = None,
    redraw: bool = False,
    remedy: str = "",
    sit_out: Collection[int] | None = None,
    reason: str = "",
    now: datetime | None = None,
) -> Round:
    """Round 1: a seeded random draw of the checked-in players.

    With uneven counts the draw is refused unless the director picked a ``remedy`` of
    §6 (``sit-out`` or ``house``); the house remedy uses the available house players
    and adds the missing ones as "House A1", "House B1", ... With the sit-out remedy,
    ``sit_out`` names who sits out (the director's choice); None lets the lot draw them
    (what ``sit_out_proposal`` shows for the same seed)."""
    seed = seed if seed is not None else secrets.randbits(48)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if refusal := draw_refusal(tournament):
            raise ServiceError(refusal)
        _clear_for_redraw(tournament, redraw)
        players = Player.objects.filter(
            tournament=tournament, checked_in=True, withdrawn=False, house=False
        )
        a_ids = [p.pk for p in players if p.division == "A"]
        b_ids = [p.pk for p in players if p.division == "B"]
        if not remedy and _house_fills(tournament, len(a_ids), len(b_ids)):
            remedy = "house"
        sit_outs: list[PlayerId] = []
        notes: list[Said] = []
        placed = [(m.player_id, m.table) for m in stationary_marks(tournament, 1)]
        try:
            if not remedy:
                seating = draw(a_ids, b_ids, random.Random(seed), placed)
            else:
                seating, sit_outs, notes = _draw_with_remedy(
                    tournament,
                    players,
                    (a_ids, b_ids),
                    random.Random(seed),
                    remedy,
                    sit_out,
                    placed,
                    by=by,
                )
        except SeatingError as exc:
            raise ServiceError(domain_text.read(exc)) from exc
        rnd = Round.objects.create(tournament=tournament, number=1, seed=seed)
        write_seating(rnd, seating)
        SitOut.objects.bulk_create(SitOut(round=rnd, player_id=cast(int, p)) for p in sit_outs)
        tournament.status = Tournament.Status.PRELIMINARY
        tournament.save(update_fields=["status"])
        summary = said(
            "rounds.drew_round_1_tables",
            tables=len(seating),
            seed=seed,
            notes=Joined(["", *notes], " ") if notes else "",
        )
        log(tournament, by, "draw", summary, reason=reason, at=now)
    return rnd


def _clear_for_redraw(tournament: Tournament, redraw: bool) -> None:
    """Deletes a round 1 drawn but not started when the director draws it again; refuses
    a draw over a round under way."""
    existing = tournament.rounds.first()
    if existing is None:
        return
    if (
        not redraw
        or existing.number != 1
        or existing.status != Round.Status.SEATED
        or tournament.rounds.count() > 1
    ):
        raise ServiceError(_("Round 1 is already drawn and under way."))
    existing.seats.all().delete()
    existing.sit_outs.all().delete()
    existing.matches.all().delete()
    existing.delete()


def _house_fills(tournament: Tournament, a_count: int, b_count: int) -> bool:
    """Whether the house players the director added fill every empty seat: then "Draw
    round 1" draws with them (what the readiness box promised)."""
    free = Counter(
        Player.objects.filter(tournament=tournament, house=True, withdrawn=False).values_list(
            "division", flat=True
        )
    )
    return house_fill(a_count, b_count, free["A"], free["B"]) is not None


def _draw_with_remedy(
    tournament: Tournament,
    players: QuerySet[Player],
    ids: tuple[list[int], list[int]],
    rng: random.Random,
    remedy: str,
    sit_out: Collection[int] | None,
    placed: list[tuple[int, int]],
    *,
    by: str,
) -> tuple[list[TableSeating], list[PlayerId], list[Said]]:
    """The draw under the director's remedy of §6 (``sit-out`` or ``house``): the seating,
    who sits out, and the log's notes saying which remedy and who sits out."""
    a_ids, b_ids = ids
    chosen = _remedy(len(a_ids), len(b_ids), remedy)
    house = _house_for(tournament, chosen, by=by)
    seating, sit_outs = draw_with_remedy(
        a_ids,
        b_ids,
        rng,
        chosen,
        house["A"],
        house["B"],
        sit_out,
        stationary=placed,
    )
    notes = [said("rounds.remedy", remedy=of_remedy(chosen))]
    if sit_outs:
        names = dict(players.values_list("pk", "name"))
        how = (
            "rounds.sitting_out_drawn_lot"
            if sit_out is None
            else "rounds.sitting_out_chosen_director"
        )
        notes.append(said(how, names=Joined([names[cast(int, p)] for p in sit_outs])))
    return seating, sit_outs, notes


def _remedy(a_count: int, b_count: int, kind: str) -> FirstRoundRemedy:
    for remedy in first_round_remedies(a_count, b_count):
        if remedy.kind == kind:
            return remedy
    raise SeatingError("That remedy does not apply to the checked-in players; reload the page.")


def _house_for(
    tournament: Tournament, remedy: FirstRoundRemedy, *, by: str
) -> dict[str, list[PlayerId]]:
    house: dict[str, list[PlayerId]] = {"A": [], "B": []}
    if remedy.kind != "house":
        return house
    free = Player.objects.filter(tournament=tournament, house=True, withdrawn=False).order_by("pk")
    for p in free:
        house[p.division].append(p.pk)
    names = set(Player.objects.filter(tournament=tournament).values_list("name", flat=True))
    for division, need in (("A", remedy.house_a), ("B", remedy.house_b)):
        n = 0
        while len(house[division]) < need:
            n += 1
            name = house_name(tournament, division, n)
            if name in names:
                continue
            p = Player.objects.create(
                tournament=tournament,
                name=name,
                division=division,
                checked_in=True,
                checked_in_at=now_or(None),
                house=True,
            )
            line = said("rounds.added_house_player_for", name=name, division=division)
            log(tournament, by, "house", line)
            house[division].append(p.pk)
    return {d: house[d][: (remedy.house_a if d == "A" else remedy.house_b)] for d in "AB"}


def discard_unstarted_round(rnd: Round, *, by: str, why: Said) -> None:
    """Drop a seated round that has not started, so it can be seated again."""
    rnd = _lock_round(rnd)
    if rnd.status != Round.Status.SEATED:
        raise ServiceError(_("%(round)s has started; its seating stands.") % {"round": rnd.label()})
    rnd.seats.all().delete()
    rnd.sit_outs.all().delete()
    rnd.matches.all().delete()
    if rnd.number == 1:
        Tournament.objects.filter(pk=rnd.tournament_id).update(
            status=Tournament.Status.REGISTRATION
        )
    line = said("rounds.seating_discarded", round=of_round(rnd), why=why)
    log(rnd.tournament, by, "discard", line)
    rnd.delete()


def swap_players(rnd: Round, first: Player, second: Player, *, by: str, reason: str = "") -> None:
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.status != Round.Status.SEATED:
            raise ServiceError(_("Players can only be swapped before the round starts."))
        # A stationary player keeps their chair (RULES.md §3.1): a swap would walk them
        # across the room, the very thing the mark is there to spare them.
        kept = {m.player_id for m in stationary_marks(rnd.tournament, rnd.number)}
        for player in (first, second):
            if player.pk in kept:
                raise ServiceError(
                    _(
                        "%(player)s is stationary and keeps their seat; end the stationary "
                        "seat first to move them."
                    )
                    % {"player": player.name}
                )
        divisions: dict[PlayerId, str] = {first.pk: first.division, second.pk: second.division}
        try:
            swapped = swap(seating_of(rnd), first.pk, second.pk, divisions)
        except SeatingError as exc:
            raise ServiceError(domain_text.read(exc)) from exc
        # Delete and recreate: swapping in place would briefly seat one player twice,
        # which the unique constraint refuses.
        changed = [t for t in swapped if {first.pk, second.pk} & set(t.seats.values())]
        Seating.objects.filter(round=rnd, player_id__in=[first.pk, second.pk]).delete()
        Seating.objects.bulk_create(
            seat_rows(rnd, changed, only=(first.pk, second.pk), changed_at=now_or(None))
        )
        log(
            rnd.tournament,
            by,
            "swap",
            said("rounds.swapped", round=of_round(rnd), first=first.name, second=second.name),
            reason=reason,
        )


def start_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.status != Round.Status.SEATED:
            raise ServiceError(_("%(round)s has already started.") % {"round": rnd.label()})
        if (
            Round.objects.filter(tournament_id=rnd.tournament_id, number__lt=rnd.number)
            .exclude(status=Round.Status.FINISHED)
            .exists()
        ):
            raise ServiceError(_("Finalize the previous round first."))
        rnd.status, rnd.started_at = Round.Status.RUNNING, now
        rnd.save(update_fields=["status", "started_at"])
        line = said("rounds.started", round=of_round(rnd))
        log(rnd.tournament, by, "start", line, at=now)
    return rnd


def _running(rnd: Round, now: datetime) -> Round:
    rnd = _lock_round(rnd)
    if rnd.status != Round.Status.RUNNING or rnd.kind != Round.Kind.PRELIMINARY:
        raise ServiceError(_("%(round)s is not running.") % {"round": rnd.label()})
    if rnd.called_at is not None or round_clock(rnd).is_called(now):
        raise ServiceError(_("Time has already been called in %(round)s.") % {"round": rnd.label()})
    return rnd


def pause_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _running(rnd, now)
        if rnd.pauses.filter(ended_at__isnull=True).exists():
            raise ServiceError(_("%(round)s is already paused.") % {"round": rnd.label()})
        RoundPause.objects.create(round=rnd, started_at=now, started_by=by)
        if not rnd.has_pauses:
            rnd.has_pauses = True
            rnd.save(update_fields=["has_pauses"])
        line = said("rounds.paused", round=of_round(rnd))
        log(rnd.tournament, by, "pause", line, at=now)
    return rnd


def resume_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        updated = rnd.pauses.filter(ended_at__isnull=True).update(ended_at=now)
        if not updated:
            raise ServiceError(_("%(round)s is not paused.") % {"round": rnd.label()})
        line = said("rounds.resumed", round=of_round(rnd))
        log(rnd.tournament, by, "resume", line, at=now)
    return rnd


def call_time(
    rnd: Round, *, by: str, including_extended: bool = False, now: datetime | None = None
) -> Round:
    """Call time now for the room. A table with a running extension keeps it (its time is
    called when its own limit is reached) unless ``including_extended``. Every other
    table's call is written as its fact at once (docs/rules.md §7)."""
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.status != Round.Status.RUNNING or rnd.kind != Round.Kind.PRELIMINARY:
            raise ServiceError(_("%(round)s is not running.") % {"round": rnd.label()})
        if rnd.called_at is not None:
            raise ServiceError(_("Time was already called in %(round)s.") % {"round": rnd.label()})
        rnd.pauses.filter(ended_at__isnull=True).update(ended_at=now)
        clock = round_clock(rnd)
        kept, called = [], []
        for match in Match.objects.filter(round=rnd, time_called_at__isnull=True).only(
            "pk", "table", "extension_seconds", "time_called_at"
        ):
            extension = timedelta(seconds=match.extension_seconds)
            at = clock.limit_reached_at(extension)
            if at is not None and at <= now:
                # Called by its own limit before the room's call: that instant stays.
                match.time_called_at = at
            elif match.extension_seconds and not including_extended:
                kept.append(match.table)
                continue
            else:
                match.time_called_at = now
            called.append(match)
        # One statement for the room (500 tables call at once).
        Match.objects.bulk_update(called, ["time_called_at"], batch_size=500)
        rnd.called_at = now
        rnd.save(update_fields=["called_at"])
        if kept:
            line = said(
                "rounds.time_called_extended_tables", round=of_round(rnd), tables=Joined(kept)
            )
        elif including_extended:
            line = said("rounds.time_called_extended_tables_2", round=of_round(rnd))
        else:
            line = said("rounds.time_called", round=of_round(rnd))
        log(rnd.tournament, by, "call time", line, at=now)
    return rnd


def extend_table(
    match: Match, minutes: int, *, by: str, reason: str = "", now: datetime | None = None
) -> Match:
    """Give one table (that started late) extra minutes on top of the round limit; refused
    once the table's time has been called (docs/rules.md §7: an extension never un-calls)."""
    now = now_or(now)
    if not 0 <= minutes <= 60:
        raise ServiceError(_("An extension is between 0 and 60 minutes."))
    with transaction.atomic():
        match = lock_match(match)
        if match.round.status == Round.Status.FINISHED:
            raise ServiceError(_("%(round)s is closed.") % {"round": match.round.label()})
        if match.round.kind != Round.Kind.PRELIMINARY:
            raise ServiceError(_("The final has no time limit."))
        called = observe_call(match, now)
        if called is not None:
            raise ServiceError(
                _(
                    "Time was called for table %(table)s at %(called)s; an extension cannot "
                    "un-call it."
                )
                % {"table": match.table, "called": format(called, "%H:%M:%S")}
            )
        match.extension_seconds = minutes * 60
        match.save(update_fields=["extension_seconds"])
        log(
            match.round.tournament,
            by,
            "extend",
            said("rounds.extension_set_min", match=of_match(match), minutes=minutes),
            reason=reason,
            match=match,
            at=now,
        )
    return match


def finalize_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.kind != Round.Kind.PRELIMINARY:
            raise ServiceError(_("The final is finished with the tournament."))
        if rnd.status != Round.Status.RUNNING:
            raise ServiceError(_("%(round)s is not running.") % {"round": rnd.label()})
        problems = unfinished_tables(rnd)
        if problems:
            raise ServiceError(
                _("%(round)s cannot be finalized yet: %(names)s.")
                % {"round": rnd.label(), "names": "; ".join(problems)}
            )
        rnd.status, rnd.finished_at = Round.Status.FINISHED, now
        rnd.save(update_fields=["status", "finished_at"])
        line = said("rounds.finalized", round=of_round(rnd))
        log(rnd.tournament, by, "finalize", line, at=now)
    return rnd


@dataclass(frozen=True)
class RoundFinished:
    """What follows a finalized round: the standings (it was the last preliminary round),
    the next round seated by rotation, the preview (``seated`` None: something in the room
    changed), or a refusal to seat it (the round stays finalized)."""

    round: Round
    last: bool = False
    seated: Round | None = None
    refusal: str | None = None


def finish_round(
    tournament: Tournament,
    rnd: Round,
    *,
    by: str,
    now: datetime | None = None,
    backup: bool = True,
    seat: bool = True,
) -> RoundFinished:
    """The director's "finalize": finalize ``rnd`` (a refusal raises and changes nothing),
    back the event up, then seat the next round by rotation where nothing else changes.

    ``backup=False`` takes no backup: the simulation and the benches make events to test
    and to measure, not to keep. ``seat=False`` leaves the next round to the caller (the
    simulation seats it when its clock says so, after the players it withdraws between
    rounds; a bench times the seating apart); ``seated`` is then None."""
    finalize_round(rnd, by=by, now=now)
    if backup:
        backup_after_finalize(f"round-{rnd.number}")  # never raises: a failed backup is logged
    if rnd.number >= tournament.preliminary_rounds:
        return RoundFinished(rnd, last=True)
    if not seat:
        return RoundFinished(rnd)
    try:
        seated = seat_by_rotation(tournament, by=by, now=now)
    except ServiceError as exc:
        return RoundFinished(rnd, refusal=exc.message)
    return RoundFinished(rnd, seated=seated)


def seat_by_rotation(
    tournament: Tournament, *, by: str, now: datetime | None = None
) -> Round | None:
    """Seat the next round by the rotation at once when nothing else changes; None when a
    hole, a waiting player or a closed table calls for the preview first (§6: nothing is
    seated silently)."""
    plan = plan_next_round(tournament)
    if not plan.plain:
        return None
    return seat_next_round(tournament, by=by, expect=fingerprint(plan), now=now)


def reopen_round(rnd: Round, *, by: str, reason: str, now: datetime | None = None) -> Round:
    """Reopen the last finalized preliminary round while the round after it has no hand
    recorded: that round's seating (or the final's) is discarded, to be recomputed when
    this one is finalized again (docs/rules.md §7)."""
    now = now_or(now)
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Give a reason for reopening the round."))
    with transaction.atomic():
        tournament = lock_tournament(rnd.tournament)
        rnd = _lock_round(rnd)
        if rnd.kind != Round.Kind.PRELIMINARY or rnd.status != Round.Status.FINISHED:
            raise ServiceError(
                _("%(round)s is not a finalized preliminary round.") % {"round": rnd.label()}
            )
        later = list(Round.objects.filter(tournament=tournament, number__gt=rnd.number))
        if any(
            r.kind == Round.Kind.PRELIMINARY and r.status == Round.Status.FINISHED for r in later
        ):
            raise ServiceError(
                _("Only the last finalized round can be reopened, not %(round)s.")
                % {"round": rnd.label()}
            )
        if HandEntry.objects.filter(match__round__in=later).exists():
            raise ServiceError(
                _(
                    "%(later_round)s already has hands recorded; %(round)s can no longer "
                    "be reopened."
                )
                % {"later_round": later[0].label(), "round": rnd.label()}
            )
        for other in later:
            Seating.objects.filter(round=other).delete()
            Match.objects.filter(round=other).delete()
            other.delete()
        rnd.status, rnd.finished_at = Round.Status.RUNNING, None
        rnd.save(update_fields=["status", "finished_at"])
        if tournament.status != Tournament.Status.PRELIMINARY:
            tournament.status = Tournament.Status.PRELIMINARY
            tournament.save(update_fields=["status"])
        line = (
            said(
                "rounds.reopened_seating_discarded",
                round=of_round(rnd),
                dropped=Joined([of_round(r) for r in later]),
            )
            if later
            else said("rounds.reopened", round=of_round(rnd))
        )
        log(
            tournament,
            by,
            "reopen",
            line,
            reason=reason,
            at=now,
        )
    return rnd


def seat_next_round(
    tournament: Tournament,
    *,
    by: str,
    close: Sequence[int] | None = None,
    expect: str | None = None,
    now: datetime | None = None,
) -> Round:
    """Seat the next preliminary round: the rotation, with holes filled as §6 says.

    ``expect`` is the fingerprint of the preview the director confirmed; when the room
    changed meanwhile the seating is refused so that nothing is seated unseen."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        plan = plan_next_round(tournament, close)
        if expect is not None and expect != fingerprint(plan):
            raise ServiceError(
                _(
                    "The room changed since the preview (a withdrawal, check-in or result): "
                    "look at the new preview and confirm again."
                )
            )
        rnd = Round.objects.create(tournament=tournament, number=plan.number)
        write_seating(rnd, plan.seating.tables)
        SitOut.objects.bulk_create(
            SitOut(round=rnd, player_id=cast(int, p)) for p in plan.seating.sit_outs
        )

        def name(pid: PlayerId) -> str:
            return plan.names[cast(int, pid)]

        lines: list[Arg] = [""]
        if plan.seating.closed:
            lines.append(said("rounds.closed_table_2", tables=Joined(plan.seating.closed)))
        for c in plan.seating.changes:
            into: Arg = name(c.into)
            if c.into in plan.house:
                into = said("rounds.house_player", name=name(c.into))
            lines.append(
                said(
                    "rounds.table_for" if c.out is not None else "rounds.table",
                    table=c.table,
                    seat=c.seat.value,
                    player=into,
                    out=name(c.out) if c.out is not None else "",
                    kind=of_change_kind(c.kind),
                )
            )
        if plan.seating.sit_outs:
            lines.append(
                said("rounds.sitting_out", names=Joined([name(p) for p in plan.seating.sit_outs]))
            )
        line = said(
            "rounds.seated_rotation",
            round=of_round(rnd),
            changes=Joined(lines, "; ") if len(lines) > 1 else "",
        )
        log(tournament, by, "seat", line, at=now)
    return rnd


def revoke_link(
    tournament: Tournament, table: int, *, by: str, now: datetime | None = None
) -> TableLink:
    """Revoke a table's tablet link and issue a new one, for a table the event seats."""
    if (
        not 1 <= table <= 2**31 - 1
        or not Match.objects.filter(round__tournament=tournament, table=table).exists()
    ):
        raise ServiceError(
            _("There is no table %(table)s in %(tournament)s.")
            % {"table": table, "tournament": tournament.name}
        )
    now = now_or(now)
    with transaction.atomic():
        # Serialises two reissues of one table (a double click) on the one-live-link rule.
        lock_tournament(tournament)
        TableLink.objects.live().filter(tournament=tournament, table=table).update(revoked_at=now)
        link = TableLink.objects.create(
            tournament=tournament,
            table=table,
            token=secrets.token_urlsafe(32),
            code=table_codes.new_codes(1)[0],
        )
        line = said("rounds.table_tablet_link_reissued", table=table)
        log(tournament, by, "relink", line, at=now)
    return link
