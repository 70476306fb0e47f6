"""Importing past events from ``snowman.results/1`` files (the export is the interchange).

The file is checked whole first (``tournaments.results_file``, no database); nothing is
imported from a file it refuses. Importing is idempotent: the canonical JSON's SHA-256 is
kept with the event, and the same file (whitespace aside) imported again changes nothing.
Everything of one file is written in one transaction, which holds only the writes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import DatabaseError, IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.common.names import name_key
from tournaments.core.logtext import said
from tournaments.core.models.event import Club, Player, Tournament
from tournaments.core.models.people import EventResult, ImportedEvent, PersonLink
from tournaments.core.models.play import HandEntry, Match, WinnerOverride
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution
from tournaments.core.models.series import Series
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.reads.linking import LinkPlan, plan_links
from tournaments.series.results_fields import InvalidResults
from tournaments.series.results_file import digest_of, parse
from tournaments.series.results_rows import Rows, event_rows

__all__ = ["digest_of"]  # publish.py reads it here
from tournaments.core.services import ServiceError, log, now_or
from tournaments.core.services.linking import write_links
from tournaments.core.services.people import recompute_ratings
from tournaments.core.services.tournaments import site_club
from tournaments.registration.reads import copies_of
from tournaments.registration.services import lock_registrations
from tournaments.series.services import add_event


@dataclass(frozen=True)
class ImportOutcome:
    tournament: Tournament
    created: bool  # False: this file was imported before and nothing changed
    players: int
    matches: int
    proposals: int
    # A newer file of an event imported before replaced it in place (``update=True``).
    updated: bool = False


# --- Writing ----------------------------------------------------------------------------


def import_event(
    data: bytes | str,
    *,
    by: str,
    filename: str = "",
    series: Series | None = None,
    ratings: bool = True,
    update: bool = False,
    only_slug: str | None = None,
    club: Club | None = None,
) -> ImportOutcome:
    """A past event in: import it, add it to ``series`` (imported before or not), and when
    it is new or changed recompute the ratings (``ratings=False`` for a caller importing
    several files, who recomputes once after the last). ``update``: a newer file of an
    event imported before replaces it in place (the hall publishing again)."""
    outcome = import_results(
        data,
        by=by,
        filename=filename,
        club=series.club if series is not None else club,
        update=update,
        only_slug=only_slug,
    )
    if series is not None:
        add_event(series, outcome.tournament)
    if (outcome.created or outcome.updated) and ratings:
        recompute_ratings()
    return outcome


def import_results(
    data: bytes | str,
    *,
    by: str,
    filename: str = "",
    now: datetime | None = None,
    link: Callable[..., int] | None = None,
    club: Club | None = None,
    update: bool = False,
    only_slug: str | None = None,
) -> ImportOutcome:
    """Check, recompute, match names, then write: the write transaction holds only the
    writes (the name matching against every person is done before it, ``plan_links``).
    The event joins ``club`` (the site's one club when None); its players are matched
    against that club's people only.

    ``update``: when the slug is an event of the club imported before from another file,
    that event is replaced in place (same row, so its series keep it) rather than refused;
    see ``_replace`` for what is kept. ``only_slug``: refuse any other event (a token
    grants one)."""
    at = now_or(now)
    club = club or site_club()
    checked, digest = parse(data)
    if only_slug is not None and checked.doc["tournament"]["slug"] != only_slug:
        raise InvalidResults(
            "tournament.slug",
            _("this token publishes the event %(token)s, not %(file)s; nothing was imported")
            % {"token": repr(only_slug), "file": repr(checked.doc["tournament"]["slug"])},
        )
    done = ImportedEvent.objects.filter(digest=digest).select_related("tournament").first()
    if done is not None:
        if done.tournament.club_id != club.pk:
            # Never another club's event, nor a word about it.
            raise ServiceError(_("This file cannot be imported here."))
        return ImportOutcome(done.tournament, False, 0, 0, 0)
    info = checked.doc["tournament"]
    previous = (
        Tournament.objects.filter(slug=info["slug"], imported_from__isnull=False, club=club).first()
        if update
        else None
    )
    if previous is not None:
        house = {p["id"] for p in checked.doc["players"] if p.get("status") == "house"}
        plan = plan_links([n for pid, n in checked.names.items() if pid not in house], club.pk)
        filename = "".join(c for c in filename if c.isprintable())[:200]
        rows = event_rows(checked, digest, by=by, filename=filename, at=at, club=club)
        try:
            with transaction.atomic():
                return _replace(previous, rows, by=by, filename=filename, at=at, plan=plan)
        except IntegrityError:
            again = ImportedEvent.objects.filter(digest=digest).select_related("tournament")
            if again.exists():
                return ImportOutcome(again[0].tournament, False, 0, 0, 0)
            raise ServiceError(_(_REFUSED)) from None
        except DatabaseError:
            raise ServiceError(_(_REFUSED)) from None
    if Tournament.objects.filter(slug=info["slug"]).exists():
        raise InvalidResults(
            "tournament.slug",
            _(
                "an event %(slug)s is already here, from another file or played here; "
                "nothing was imported"
            )
            % {"slug": repr(info["slug"])},
        )
    house = {p["id"] for p in checked.doc["players"] if p.get("status") == "house"}
    plan = plan_links([n for pid, n in checked.names.items() if pid not in house], club.pk)
    filename = "".join(c for c in filename if c.isprintable())[:200]
    rows = event_rows(checked, digest, by=by, filename=filename, at=at, club=club)
    try:
        with transaction.atomic():
            return _write(rows, by=by, filename=filename, at=at, plan=plan, link=link)
    except IntegrityError:
        # A concurrent import of the same file or slug won the race: nothing was written.
        done = ImportedEvent.objects.filter(digest=digest).select_related("tournament").first()
        if done is not None:
            return ImportOutcome(done.tournament, False, 0, 0, 0)
        if Tournament.objects.filter(slug=info["slug"]).exists():
            raise InvalidResults(
                "tournament.slug",
                _("an event %(slug)s was added meanwhile; nothing was imported")
                % {"slug": repr(info["slug"])},
            ) from None
        raise ServiceError(_(_REFUSED)) from None
    except DatabaseError:
        raise ServiceError(_(_REFUSED)) from None


# A refusal raised in two places (translated where it is raised).
_REFUSED = gettext_noop(
    "The database refused to store this file (nothing was imported); its fields passed "
    "every check, so please report it with the file."
)


def _write(
    rows: Rows,
    *,
    by: str,
    filename: str,
    at: datetime,
    plan: LinkPlan,
    link: Callable[..., int] | None,
) -> ImportOutcome:
    """Insert the rows, parents first (each child takes its parent's new id on insert),
    and link the players to people from the plan: nothing else."""
    rows.tournament.save()
    rows.imported.save()
    Player.objects.bulk_create(rows.players, batch_size=2000)
    Round.objects.bulk_create(rows.rounds, batch_size=2000)
    assert rows.seat_rows is not None and rows.hand_rows is not None
    rows.seat_rows.run()
    SitOut.objects.bulk_create(rows.sit_outs, batch_size=2000)
    Match.objects.bulk_create(rows.matches, batch_size=2000)
    WinnerOverride.objects.bulk_create(rows.overrides, batch_size=2000)
    rows.hand_rows.run()
    Substitution.objects.bulk_create(rows.subs, batch_size=2000)
    EventResult.objects.bulk_create(rows.results, batch_size=2000)
    StationaryMark.objects.bulk_create(rows.stationary)
    follow_results(rows.tournament, by=by, at=at)  # the club's registration copy, if any
    players = rows.players
    if link is not None:
        proposals = link(players, by=by, now=at)
    else:
        proposals = write_links([p for p in players if not p.house], plan, by=by, now=at)
    log(
        rows.tournament,
        by,
        "import",
        said(
            "results_import.imported_players_matches_from",
            players=len(players),
            matches=len(rows.matches),
            file=filename or said("results_import.results_file"),
            digest=rows.imported.digest[:12],
        ),
        at=at,
    )
    return ImportOutcome(rows.tournament, True, len(players), len(rows.matches), proposals)


def _replace(
    previous: Tournament, rows: Rows, *, by: str, filename: str, at: datetime, plan: LinkPlan
) -> ImportOutcome:
    """A newer file of an event imported before: everything of the event is the file's
    (docs/series.md, "Publishing from the hall"), written over the same tournament row so
    its series membership stays; each player whose name folds as a player's of the
    previous version keeps that player's person (the club's merges, splits and accepted
    matches stand); other names are linked as any import links them."""
    old = Tournament.objects.select_for_update().get(pk=previous.pk)
    kept = {
        name_key(name): (person, how)
        for name, person, how in PersonLink.objects.filter(player__tournament=old).values_list(
            "player__name", "person_id", "how"
        )
    }
    hands = HandEntry.objects.filter(match__round__tournament=old)
    # Corrections point at the entries they replace (protected): unlink, then delete.
    hands.update(replaces=None)
    hands.delete()
    Substitution.objects.filter(match__round__tournament=old).delete()
    SitOut.objects.filter(round__tournament=old).delete()
    Seating.objects.filter(round__tournament=old).delete()
    Round.objects.filter(tournament=old).delete()  # matches and overrides with them
    Player.objects.filter(tournament=old).delete()  # results and people links with them
    ImportedEvent.objects.filter(tournament=old).delete()
    tournament = rows.tournament
    tournament.pk, tournament.created_at = old.pk, old.created_at
    tournament._state.adding = False  # an UPDATE of the same row

    def relink(players: Sequence[Player], *, by: str, now: datetime) -> int:
        again = []
        for p in players:
            if p.house:
                continue
            found = kept.get(name_key(p.name))
            if found is not None:
                again.append(PersonLink(player=p, person_id=found[0], how=found[1], at=now))
        PersonLink.objects.bulk_create(again)
        linked = {link.player_id for link in again}
        fresh = [p for p in players if not p.house and p.pk not in linked]
        return write_links(fresh, plan, by=by, now=now)

    outcome = _write(rows, by=by, filename=filename, at=at, plan=plan, link=relink)
    return ImportOutcome(
        outcome.tournament, False, outcome.players, outcome.matches, outcome.proposals, True
    )


# --- the hall's results arrive (docs/series.md, "Registration before the day") -----------


def follow_results(results: Tournament, *, by: str, at: datetime) -> None:
    """In the import's transaction: each registration copy of the event whose results
    arrived as ``results`` (``reads.registration.copies_of``) points at them and takes
    their status, so its links lead there, withdrawing ends once the event is under way,
    and the club page lists the event once; the first time, its series take the results."""
    for copy in copies_of(results):
        lock_registrations(copy)  # a withdrawal racing this reads the status after it
        again = copies_of(results).filter(pk=copy.pk)  # still a copy, under the lock
        if again.update(played_as=results, status=results.status) and copy.played_as_id is None:
            for series in Series.objects.filter(events__tournament=copy):
                add_event(series, results, now=at)
            log(copy, by, "publish", said("registration.played_as", event=results.name), at=at)
