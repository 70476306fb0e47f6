"""Seating and the round clock: draw, swap, start, pause, resume, call time, extend,
finalize, and seating the next round by rotation."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction

from ..domain.hands import Seat, Team
from ..domain.seating import SeatingError, TableResult, TableSeating, draw, rotate, swap
from ..models import Match, Player, Round, RoundPause, TableLink, Tournament
from ..models import Seat as SeatRow
from . import ServiceError, log, now_or
from .play import round_clock


def _lock_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _lock_round(rnd: Round) -> Round:
    # of=("self",): on PostgreSQL a plain FOR UPDATE would also lock the joined tournament
    # row, serialising every write of the event behind it.
    return Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=rnd.pk)


def seating_of(rnd: Round) -> list[TableSeating]:
    tables: dict[int, dict[Seat, int]] = {}
    for table, position, player_id in SeatRow.objects.filter(round=rnd).values_list(
        "table", "position", "player_id"
    ):
        tables.setdefault(table, {})[Seat(position)] = player_id
    return [TableSeating(t, seats) for t, seats in sorted(tables.items())]


def _write_seating(rnd: Round, seating: Sequence[TableSeating]) -> None:
    SeatRow.objects.bulk_create(
        SeatRow(round=rnd, table=t.table, position=seat.value, player_id=pid)
        for t in seating
        for seat, pid in t.seats.items()
    )
    Match.objects.bulk_create(Match(round=rnd, table=t.table) for t in seating)
    live = set(
        TableLink.objects.filter(
            tournament_id=rnd.tournament_id, revoked_at__isnull=True
        ).values_list("table", flat=True)
    )
    TableLink.objects.bulk_create(
        TableLink(tournament_id=rnd.tournament_id, table=t.table, token=secrets.token_urlsafe(32))
        for t in seating
        if t.table not in live
    )


def draw_first_round(
    tournament: Tournament,
    *,
    by: str,
    seed: int | None = None,
    redraw: bool = False,
    now: datetime | None = None,
) -> Round:
    """Round 1: a seeded random draw of the checked-in players."""
    seed = seed if seed is not None else secrets.randbits(48)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        existing = tournament.rounds.first()
        if existing is not None:
            if (
                not redraw
                or existing.number != 1
                or existing.status != Round.Status.SEATED
                or tournament.rounds.count() > 1
            ):
                raise ServiceError("Round 1 is already drawn and under way.")
            existing.seats.all().delete()
            existing.matches.all().delete()
            existing.delete()
        players = Player.objects.filter(tournament=tournament, checked_in=True, withdrawn=False)
        a_ids = [p.pk for p in players if p.division == "A"]
        b_ids = [p.pk for p in players if p.division == "B"]
        try:
            seating = draw(a_ids, b_ids, random.Random(seed))
        except SeatingError as exc:
            raise ServiceError(str(exc)) from exc
        rnd = Round.objects.create(tournament=tournament, number=1, seed=seed)
        _write_seating(rnd, seating)
        tournament.status = Tournament.Status.PRELIMINARY
        tournament.save(update_fields=["status"])
        log(tournament, by, "draw", f"Drew round 1: {len(seating)} tables, seed {seed}.", at=now)
    return rnd


def swap_players(rnd: Round, first: Player, second: Player, *, by: str, reason: str = "") -> None:
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.status != Round.Status.SEATED:
            raise ServiceError("Players can only be swapped before the round starts.")
        divisions = {first.pk: first.division, second.pk: second.division}
        try:
            swapped = swap(seating_of(rnd), first.pk, second.pk, divisions)
        except SeatingError as exc:
            raise ServiceError(str(exc)) from exc
        # Delete and recreate: swapping in place would briefly seat one player twice,
        # which the unique constraint refuses.
        changed = [t for t in swapped if {first.pk, second.pk} & set(t.seats.values())]
        SeatRow.objects.filter(round=rnd, player_id__in=[first.pk, second.pk]).delete()
        SeatRow.objects.bulk_create(
            SeatRow(
                round=rnd,
                table=t.table,
                position=seat.value,
                player_id=pid,
                changed_at=now_or(None),
            )
            for t in changed
            for seat, pid in t.seats.items()
            if pid in (first.pk, second.pk)
        )
        log(
            rnd.tournament,
            by,
            "swap",
            f"{rnd}: swapped {first.name} and {second.name}.",
            reason=reason,
        )


def start_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.status != Round.Status.SEATED:
            raise ServiceError(f"{rnd} has already started.")
        if (
            Round.objects.filter(tournament_id=rnd.tournament_id, number__lt=rnd.number)
            .exclude(status=Round.Status.FINISHED)
            .exists()
        ):
            raise ServiceError("Finalize the previous round first.")
        rnd.status, rnd.started_at = Round.Status.RUNNING, now
        rnd.save(update_fields=["status", "started_at"])
        log(rnd.tournament, by, "start", f"{rnd} started.", at=now)
    return rnd


def _running(rnd: Round, now: datetime) -> Round:
    rnd = _lock_round(rnd)
    if rnd.status != Round.Status.RUNNING or rnd.kind != Round.Kind.PRELIMINARY:
        raise ServiceError(f"{rnd} is not running.")
    if rnd.called_at is not None or round_clock(rnd).is_called(now):
        raise ServiceError(f"Time has already been called in {rnd}.")
    return rnd


def pause_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _running(rnd, now)
        if rnd.pauses.filter(ended_at__isnull=True).exists():
            raise ServiceError(f"{rnd} is already paused.")
        RoundPause.objects.create(round=rnd, started_at=now, started_by=by)
        if not rnd.has_pauses:
            rnd.has_pauses = True
            rnd.save(update_fields=["has_pauses"])
        log(rnd.tournament, by, "pause", f"{rnd} paused.", at=now)
    return rnd


def resume_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        updated = rnd.pauses.filter(ended_at__isnull=True).update(ended_at=now)
        if not updated:
            raise ServiceError(f"{rnd} is not paused.")
        log(rnd.tournament, by, "resume", f"{rnd} resumed.", at=now)
    return rnd


def call_time(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    """Call time now, for every table, even before the limit."""
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.status != Round.Status.RUNNING or rnd.kind != Round.Kind.PRELIMINARY:
            raise ServiceError(f"{rnd} is not running.")
        if rnd.called_at is not None:
            raise ServiceError(f"Time was already called in {rnd}.")
        rnd.pauses.filter(ended_at__isnull=True).update(ended_at=now)
        rnd.called_at = now
        rnd.save(update_fields=["called_at"])
        log(rnd.tournament, by, "call time", f"Time called in {rnd}.", at=now)
    return rnd


def extend_table(match: Match, minutes: int, *, by: str, reason: str = "") -> Match:
    """Give one table (that started late) extra minutes on top of the round limit."""
    if not 0 <= minutes <= 60:
        raise ServiceError("An extension is between 0 and 60 minutes.")
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .get(pk=match.pk)
        )
        if match.round.status == Round.Status.FINISHED:
            raise ServiceError(f"{match.round} is closed.")
        match.extension_seconds = minutes * 60
        match.save(update_fields=["extension_seconds"])
        log(
            match.round.tournament,
            by,
            "extend",
            f"{match}: extension set to {minutes} min.",
            reason=reason,
            match=match,
        )
    return match


def unfinished_tables(rnd: Round) -> list[str]:
    problems = []
    for m in rnd.matches.order_by("table", "game"):
        if m.status == Match.Status.DISPUTED:
            problems.append(f"table {m.table} (disputed)")
        elif not m.is_over:
            problems.append(f"table {m.table} ({m.score_ns}–{m.score_ew}, not finished)")
    return problems


def finalize_round(rnd: Round, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        rnd = _lock_round(rnd)
        if rnd.kind != Round.Kind.PRELIMINARY:
            raise ServiceError("The final is finished with the tournament.")
        if rnd.status != Round.Status.RUNNING:
            raise ServiceError(f"{rnd} is not running.")
        problems = unfinished_tables(rnd)
        if problems:
            raise ServiceError(f"{rnd} cannot be finalized yet: " + "; ".join(problems) + ".")
        rnd.status, rnd.finished_at = Round.Status.FINISHED, now
        rnd.save(update_fields=["status", "finished_at"])
        log(rnd.tournament, by, "finalize", f"{rnd} finalized.", at=now)
    return rnd


def seat_next_round(tournament: Tournament, *, by: str, now: datetime | None = None) -> Round:
    """Seat the next preliminary round by the winner-split rotation."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        last = tournament.rounds.order_by("-number").first()
        if last is None:
            raise ServiceError("Draw round 1 first.")
        if last.kind != Round.Kind.PRELIMINARY or last.number >= tournament.preliminary_rounds:
            raise ServiceError("All preliminary rounds are seated.")
        if last.status != Round.Status.FINISHED:
            raise ServiceError(f"Finalize {last} first.")
        seating = {t.table: t for t in seating_of(last)}
        results = [
            TableResult(seating[m.table], Team(m.winner)) for m in last.matches.order_by("table")
        ]
        try:
            new_seating = rotate(results)
        except SeatingError as exc:
            raise ServiceError(str(exc)) from exc
        rnd = Round.objects.create(tournament=tournament, number=last.number + 1)
        _write_seating(rnd, new_seating)
        log(tournament, by, "seat", f"Seated {rnd} by rotation.", at=now)
    return rnd


def revoke_link(
    tournament: Tournament, table: int, *, by: str, now: datetime | None = None
) -> TableLink:
    """Revoke a table's tablet link and issue a new one."""
    now = now_or(now)
    with transaction.atomic():
        # Serialises two reissues of one table (a double click) on the one-live-link rule.
        _lock_tournament(tournament)
        TableLink.objects.filter(
            tournament=tournament, table=table, revoked_at__isnull=True
        ).update(revoked_at=now)
        link = TableLink.objects.create(
            tournament=tournament, table=table, token=secrets.token_urlsafe(32)
        )
        log(tournament, by, "relink", f"Table {table}: tablet link reissued.", at=now)
    return link
