"""People across tournaments: matching players to people, merge and split, person pages,
and the ratings (``tournaments.domain.rating``) kept on each person.

Matching: a player whose folded name (case, accents and spacing ignored) is exactly one
person's, who did not already play in that tournament, is that person. Anyone else
becomes a new person, and close names (rapidfuzz token-sort ratio >= ``reads.linking.CLOSE``) are
*proposed* to the director, who accepts (merges) or rejects them. Nothing is merged on a
guess. A merge moves every player of one person to the other and keeps the merged
person as history; a split moves chosen players to a new person. Both are logged with
who, when and why.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import cast

from django.db import connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.common.names import name_key
from tournaments.core.models.event import Tournament
from tournaments.core.models.people import Person, PersonEvent, PersonLink, PersonProposal
from tournaments.core.reads.people import rating_history
from tournaments.core.services import ServiceError, now_or
from tournaments.domain.rating import Ratings, RatingSettings

# pg_advisory_xact_lock's key for merges, splits and rating replays ("snow" in ASCII).
PEOPLE_LOCK = 0x736E6F77
PROPOSALS_PER_PERSON = 3


def _history(
    person: Person, actor: str, action: str, summary: str, at: datetime, **kw: object
) -> PersonEvent:
    return PersonEvent(person=person, actor=actor, action=action, summary=summary, at=at, **kw)


def _people_writes_one_at_a_time() -> None:
    """Merges, splits and rating replays wait for each other (PostgreSQL; SQLite has one
    writer anyway): a replay rewrites every person's row, so two of them holding some
    people each would deadlock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PEOPLE_LOCK])


def _lock_people(*pks: int) -> dict[int, Person]:
    """The people's rows locked in primary-key order, so two crossed merges (A into B, B
    into A) queue instead of deadlocking; the loser then reads the winner's merge."""
    _people_writes_one_at_a_time()
    found = {}
    for pk in sorted(set(pks)):
        person = Person.objects.select_for_update().filter(pk=pk).first()
        if person is None:
            raise ServiceError(
                _("There is no person #%(pk)s any more; reload the page.") % {"pk": pk}
            )
        found[pk] = person
    return found


def _events_of(person: Person) -> set[int]:
    return set(person.links.values_list("player__tournament_id", flat=True))


def merge_people(
    keep: Person, gone: Person, *, by: str, reason: str = "", now: datetime | None = None
) -> Person:
    """Make ``gone`` part of ``keep``: every result moves, nothing is lost."""
    at = now_or(now)
    if keep.pk == gone.pk:
        raise ServiceError(_("Choose two different people to merge."))
    if keep.club_id != gone.club_id:
        raise ServiceError(_("There is no person with this number in this club."))
    with transaction.atomic():
        locked = _lock_people(keep.pk, gone.pk)
        keep, gone = locked[keep.pk], locked[gone.pk]
        for person in (keep, gone):
            if person.merged_into_id:
                raise ServiceError(
                    _(
                        "%(person)s (#%(pk)s) was just merged into #%(merged_into_id)s: "
                        "nothing was changed. Reload the page and merge again if still "
                        "needed."
                    )
                    % {
                        "person": person.name,
                        "pk": person.pk,
                        "merged_into_id": person.merged_into_id,
                    }
                )
        both = _events_of(keep) & _events_of(gone)
        if both:
            names = ", ".join(
                sorted(Tournament.objects.filter(pk__in=both).values_list("name", flat=True))
            )
            raise ServiceError(
                _("%(keep)s and %(gone)s both played in %(names)s: they are two people.")
                % {"keep": keep.name, "gone": gone.name, "names": names}
            )
        moved = list(gone.links.select_related("player__tournament"))
        PersonLink.objects.filter(person=gone).update(person=keep, how=PersonLink.How.MERGED)
        gone.merged_into = keep
        gone.save(update_fields=["merged_into"])
        events = ", ".join(f"{lk.player.name} in {lk.player.tournament.name}" for lk in moved)
        PersonEvent.objects.bulk_create(
            [
                _history(
                    keep,
                    by,
                    "merged",
                    f"Merged {gone.name} (#{gone.pk}): {events}.",
                    at,
                    other=gone,
                    reason=reason,
                ),
                _history(
                    gone,
                    by,
                    "merged",
                    f"Merged into {keep.name} (#{keep.pk}).",
                    at,
                    other=keep,
                    reason=reason,
                ),
            ]
        )
        PersonProposal.objects.filter(
            Q(person=gone, candidate=keep) | Q(person=keep, candidate=gone)
        ).update(status=PersonProposal.Status.ACCEPTED, decided_by=by, decided_at=at)
        # Other open proposals about the merged record now speak of the one kept.
        PersonProposal.objects.filter(
            Q(person=gone) | Q(candidate=gone), status=PersonProposal.Status.OPEN
        ).update(status=PersonProposal.Status.REJECTED, decided_by=f"merge by {by}", decided_at=at)
        # The ratings are a replay over people: a merge changes who played, so the stored
        # figures are replayed in the same transaction, never left stale until an import.
        recompute_ratings()
    return keep


def split_person(
    person: Person,
    player_ids: Iterable[int],
    *,
    name: str,
    by: str,
    reason: str = "",
    now: datetime | None = None,
) -> Person:
    """Move the chosen players of ``person`` to a new person (a wrong match undone)."""
    at = now_or(now)
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("Give the new person a name."))
    with transaction.atomic():
        person = _lock_people(person.pk)[person.pk]
        if person.merged_into_id:
            raise ServiceError(
                _(
                    "%(person)s (#%(pk)s) was just merged into #%(merged_into_id)s: split "
                    "that person instead."
                )
                % {"person": person.name, "pk": person.pk, "merged_into_id": person.merged_into_id}
            )
        chosen = list(
            person.links.filter(player_id__in=list(player_ids)).select_related("player__tournament")
        )
        if not chosen:
            raise ServiceError(_("Choose at least one event to split off."))
        if len(chosen) == person.links.count():
            raise ServiceError(_("Leave at least one event with this person; rename instead."))
        new = Person.objects.create(
            club_id=person.club_id, name=name, name_key=name_key(name), created_at=at
        )
        PersonLink.objects.filter(pk__in=[lk.pk for lk in chosen]).update(
            person=new, how=PersonLink.How.SPLIT, at=at
        )
        events = ", ".join(f"{lk.player.name} in {lk.player.tournament.name}" for lk in chosen)
        PersonEvent.objects.bulk_create(
            [
                _history(
                    person,
                    by,
                    "split",
                    f"Split off {events} as {name} (#{new.pk}).",
                    at,
                    other=new,
                    reason=reason,
                ),
                _history(
                    new,
                    by,
                    "split",
                    f"Split from {person.name} (#{person.pk}): {events}.",
                    at,
                    other=person,
                    reason=reason,
                ),
            ]
        )
        recompute_ratings()  # as after a merge: the replay follows the people
    return new


def decide_proposal(
    proposal: PersonProposal, accept: bool, *, by: str, now: datetime | None = None
) -> None:
    at = now_or(now)
    if proposal.status != PersonProposal.Status.OPEN:
        raise ServiceError(_("This proposal was already decided."))
    if accept:
        # The older record is kept: it is the one other events already point at.
        keep, gone = sorted([proposal.candidate, proposal.person], key=lambda p: p.pk)
        merge_people(keep, gone, by=by, reason=f"Accepted close match ({proposal.score:.0f})")
    else:
        with transaction.atomic():
            updated = PersonProposal.objects.filter(
                pk=proposal.pk, status=PersonProposal.Status.OPEN
            ).update(status=PersonProposal.Status.REJECTED, decided_by=by, decided_at=at)
            if not updated:
                raise ServiceError(_("This proposal was already decided."))


# --- Ratings -------------------------------------------------------------------------


def recompute_ratings(settings: RatingSettings | None = None) -> int:
    """Replay every match from the start and store each person's rating. Returns matches."""
    table = Person._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        # The history is read under the lock, so a replay never stores what a merge that
        # committed meanwhile has made stale.
        _people_writes_one_at_a_time()
        history = rating_history()
        ratings = Ratings(settings)
        ratings.update_all(history)
        rows = [(r.mu, r.sigma, r.matches, cast(int, pk)) for pk, r in ratings.table.items()]
        Person.objects.update(rating_mu=None, rating_sigma=None, rating_matches=0)
        # One prepared UPDATE per person: bulk_update's CASE expressions cost seconds at
        # 2,000 people, this costs milliseconds.
        cursor.executemany(
            f"UPDATE {connection.ops.quote_name(table)} SET rating_mu = %s, "
            "rating_sigma = %s, rating_matches = %s WHERE id = %s",
            rows,
        )
    return len(history)
