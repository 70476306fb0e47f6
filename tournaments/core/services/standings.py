"""Standings' commands: break a tie, reveal hidden standings, seed the final, finish the
tournament (what they
read is ``reads.standings``)."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.common import domain_text
from tournaments.core.backup import backup_after_finalize
from tournaments.core.logtext import Arg, Joined, of_seats, said
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, TieBreak
from tournaments.core.reads.standings import champions as champions
from tournaments.core.reads.standings import (
    final_entries,
    final_readiness,
    final_round,
    skipped_record,
)
from tournaments.core.reads.visibility import of_event
from tournaments.core.services import Conflict, ServiceError, log, now_or
from tournaments.core.services.people import recompute_ratings
from tournaments.core.services.rounds import lock_tournament, write_seating
from tournaments.domain import final
from tournaments.domain.seating import PlayerId, SeatingError


def break_tie(
    tournament: Tournament,
    division: str,
    order: list[int],
    *,
    reason: str,
    by: str,
    now: datetime | None = None,
) -> TieBreak:
    """The director orders players who share a rank that decides the final (§4)."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Say why the tie is broken this way."))
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        entry = final_entries(tournament)[division]
        tied = {row.player.pk for row in entry.tied}
        if not tied:
            raise ServiceError(
                _("No shared rank decides division %(division)s's finalists.")
                % {"division": division}
            )
        if set(order) != tied or len(order) != len(tied):
            raise ServiceError(_("Put every tied player in order, each once."))
        tb = TieBreak.objects.create(
            tournament=tournament,
            division=division,
            order=",".join(map(str, order)),
            reason=reason,
            created_by=by,
            created_at=now_or(now),
        )
        names = dict(Player.objects.filter(pk__in=order).values_list("pk", "name"))
        log(
            tournament,
            by,
            "tie break",
            said(
                "standings.division_tie_broken",
                division=division,
                names=Joined([names[p] for p in order]),
            ),
            reason=reason,
            at=now,
        )
    return tb


def seed_final(tournament: Tournament, *, by: str, now: datetime | None = None) -> Round:
    now = now_or(now)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if final_round(tournament) is not None:
            raise ServiceError(_("The final is already seated."))
        done, ready = final_readiness(tournament)
        if not ready:
            raise ServiceError(
                _("Finish all %(preliminary_rounds)s preliminary rounds first (%(done)s finished).")
                % {"preliminary_rounds": tournament.preliminary_rounds, "done": done}
            )
        entries = final_entries(tournament)
        for entry in entries.values():
            if entry.tied:
                raise ServiceError(
                    _(
                        "Division %(division)s: %(names)s share rank %(rank)s, which decides "
                        "who enters the final. Break the tie first."
                    )
                    % {
                        "division": entry.division,
                        "names": ", ".join(row.player.name for row in entry.tied),
                        "rank": entry.tied[0].rank,
                    }
                )
        try:
            seating = final.seed_final(
                [p.pk for p in entries["A"].finalists], [p.pk for p in entries["B"].finalists]
            )
        except SeatingError as exc:
            raise ServiceError(domain_text.read(exc)) from exc
        rnd = Round.objects.create(
            tournament=tournament,
            number=done + 1,
            kind=Round.Kind.FINAL,
            status=Round.Status.RUNNING,
            started_at=now,
            skipped=skipped_record(entries),
        )
        write_seating(rnd, [seating])
        tournament.status = Tournament.Status.FINAL
        tournament.save(update_fields=["status"])
        seated = [cast(int, p) for p in seating.seats.values()]
        names: dict[PlayerId, str] = dict(
            Player.objects.filter(pk__in=seated).values_list("pk", "name")
        )
        skipped: list[Arg] = [
            said("standings.withdrawn_after_round", name=s.player.name, n=s.after)
            if s.after
            else said("standings.withdrawn", name=s.player.name)
            for e in entries.values()
            for s in e.skipped
        ]
        seats = of_seats({s.value: names[p] for s, p in seating.seats.items()})
        log(
            tournament,
            by,
            "final",
            said("standings.final_seeded_skipped", seats=seats, skipped=Joined(skipped, "; "))
            if skipped
            else said("standings.final_seeded", seats=seats),
            at=now,
        )
    return rnd


def finish_tournament(
    tournament: Tournament, *, by: str, now: datetime | None = None
) -> Tournament:
    now = now_or(now)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        winner = champions(tournament)
        if winner is None:
            raise ServiceError(_("The final has no champions yet."))
        rnd = final_round(tournament)
        assert rnd is not None
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED, finished_at=now)
        Match.objects.filter(round=rnd, status=Match.Status.FINISHED).update(
            status=Match.Status.CONFIRMED, confirmed_by=by, confirmed_at=now
        )
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        log(
            tournament,
            by,
            "finish",
            said("standings.tournament_finished_division_pair", division=winner),
            at=now,
        )
    # The finished event's matches now count in every person's rating.
    recompute_ratings()
    return tournament


def finish_event(
    tournament: Tournament, *, by: str, now: datetime | None = None, backup: bool = True
) -> Tournament:
    """The director's "finish": finish the tournament (a refusal raises and changes
    nothing), then back the event up (``backup=False``: not the simulation's or a bench's
    events, made to test and to measure)."""
    tournament = finish_tournament(tournament, by=by, now=now)
    if backup:
        backup_after_finalize("finish")  # never raises: a failed backup is logged
    return tournament


def reveal(tournament: Tournament, *, by: str, now: datetime | None = None) -> Tournament:
    """The director shows the hidden standings to the players before the final (§5).
    Logged, so every public answer's version changes and no phone keeps a hidden page."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if not of_event(locked).hidden:
            raise Conflict(_("The standings are not hidden now: nothing to reveal."))
        locked.standings_revealed_at = now_or(now)
        locked.save(update_fields=["standings_revealed_at"])
        line = said("standings.standings_revealed_players")
        log(locked, by, "reveal", line, at=now)
    return locked
