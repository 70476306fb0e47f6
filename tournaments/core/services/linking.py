"""Linking many players to people at once (an import): the matching read apart from
the writing, so the write transaction never waits for rapidfuzz.

For a file of 3,000 players a close-name search against every person inside the write
transaction held SQLite's only writer lock for seconds while the desks and tablets queued
(issue 20, item 18). So ``plan_links`` (``reads.linking``) reads and compares with no
transaction and no lock, and ``write_links`` only writes: an exact name key matching
exactly one free person links to them, anyone else becomes a new person with the close
names proposed.
``link_players`` chains the two inside the caller's transaction, which is right for one
registration.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from tournaments.common.names import name_key
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import Person, PersonEvent, PersonLink, PersonProposal
from tournaments.core.reads.linking import LinkPlan, plan_links
from tournaments.core.services import now_or
from tournaments.core.services.people import PROPOSALS_PER_PERSON


def link_players(players: Sequence[Player], *, by: str, now: datetime | None = None) -> int:
    """Give every unlinked player a person, in the caller's transaction. Returns proposals made.

    All players must belong to one tournament (a registration or an import).
    """
    players = _unlinked(players)
    if not players:
        return 0
    club = Tournament.objects.values_list("club_id", flat=True).get(pk=players[0].tournament_id)
    return write_links(players, plan_links([p.name for p in players], club), by=by, now=now)


def _unlinked(players: Sequence[Player]) -> list[Player]:
    linked = set(
        PersonLink.objects.filter(player__in=[p.pk for p in players]).values_list(
            "player_id", flat=True
        )
    )
    # A house player is a stand-in for one event (§6): never a person, never rated.
    return [p for p in players if p.pk not in linked and not p.house]


def write_links(
    players: Sequence[Player], plan: LinkPlan, *, by: str, now: datetime | None = None
) -> int:
    """Give each new player (all of one tournament, none linked yet) a person, in the
    caller's transaction, from ``plan``. Returns the proposals made."""
    at = now_or(now)
    if not players:
        return 0
    tournament_ids = {p.tournament_id for p in players}
    taken = set(
        PersonLink.objects.filter(player__tournament_id__in=tournament_ids).values_list(
            "person_id", flat=True
        )
    )
    keys = {p.pk: name_key(p.name) for p in players}
    # A club's people are its own: a player is linked only to a person of the event's club.
    (club,) = set(
        Tournament.objects.filter(pk__in=tournament_ids).values_list("club_id", flat=True)
    )
    by_key: dict[str, list[int]] = defaultdict(list)
    for pk, key in Person.objects.filter(
        merged_into__isnull=True, name_key__in=set(keys.values()), club=club
    ).values_list("pk", "name_key"):
        by_key[key].append(pk)
    links: list[PersonLink] = []
    new_people: list[tuple[Player, Person]] = []
    for player in players:
        found = [pk for pk in by_key.get(keys[player.pk], []) if pk not in taken]
        if len(found) == 1:
            taken.add(found[0])
            links.append(
                PersonLink(player=player, person_id=found[0], how=PersonLink.How.EXACT, at=at)
            )
        else:
            new_people.append(
                (
                    player,
                    Person(club_id=club, name=player.name, name_key=keys[player.pk], created_at=at),
                )
            )
    if not new_people:
        PersonLink.objects.bulk_create(links)
        return 0
    candidates = {pk for _, person in new_people for pk, _ in plan.close.get(person.name_key, [])}
    live = set(
        Person.objects.filter(pk__in=candidates, merged_into__isnull=True).values_list(
            "pk", flat=True
        )
    )
    Person.objects.bulk_create([person for _, person in new_people])
    event_names = dict(Tournament.objects.filter(pk__in=tournament_ids).values_list("pk", "name"))
    history = []
    proposals = []
    for player, person in new_people:
        links.append(PersonLink(player=player, person=person, how=PersonLink.How.NEW, at=at))
        history.append(
            PersonEvent(
                person=person,
                actor=by,
                action="created",
                summary=f"New person from {player.name} in {event_names[player.tournament_id]}.",
                at=at,
            )
        )
        close = [
            (pk, score)
            for pk, score in plan.close.get(person.name_key, [])
            if pk in live and pk not in taken
        ]
        proposals += [
            PersonProposal(person=person, candidate_id=pk, score=score, created_at=at)
            for pk, score in close[:PROPOSALS_PER_PERSON]
        ]
    PersonLink.objects.bulk_create(links)
    PersonEvent.objects.bulk_create(history)
    PersonProposal.objects.bulk_create(proposals)
    return len(proposals)
