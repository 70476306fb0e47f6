"""The person's choices for public pages, and their erasure on request.

An erasure removes the person's name and contact from every row that holds them (the
person, their players, their applications, the logs that wrote the name) and keeps their
results under an anonymous player: no seat, match, hand or result row changes, so every
other person's standings and ratings read exactly as before. It is logged in the person's
history without the erased data.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.common.names import name_key
from tournaments.core.models.event import Player
from tournaments.core.models.log import Activity
from tournaments.core.models.people import Person, PersonEvent
from tournaments.core.services import Conflict, now_or
from tournaments.devices.models import HelpRequest
from tournaments.registration.models import Registration
from tournaments.registration.reads import folded_name

# What the history says of each choice, in English as the person history is kept.
CHOICES = {
    (True, "full_name"): "Chose the full name on public pages.",
    (False, "full_name"): "Chose the short name on public pages.",
    (True, "listed"): "Chose to be listed on public series standings and rating lists.",
    (False, "listed"): "Chose to be left off public series standings and rating lists.",
}
ERASED = "erased"


def anonymous_name(person: Person) -> str:
    """The name an erased person's rows keep: unique (the person's number), saying nothing."""
    return f"Anonymous #{person.pk}"


def is_erased(person: Person) -> bool:
    return person.history.filter(action=ERASED).exists()


def _locked(person: Person) -> Person:
    return Person.objects.select_for_update().get(pk=person.pk)


def choose(
    person: Person, *, full_name: bool, listed: bool, by: str, at: datetime | None = None
) -> list[str]:
    """Store the person's choices; each change is a line of their history. Returns the
    lines written (none when nothing changed: a repeated request changes nothing)."""
    at = now_or(at)
    with transaction.atomic():
        current = _locked(person)
        said = []
        if current.public_full_name != full_name:
            said.append(CHOICES[(full_name, "full_name")])
        if current.public_listed != listed:
            said.append(CHOICES[(listed, "listed")])
        if not said:
            return []
        Person.objects.filter(pk=current.pk).update(
            public_full_name=full_name, public_listed=listed
        )
        PersonEvent.objects.bulk_create(
            PersonEvent(person=current, actor=by, action="privacy", summary=s, at=at) for s in said
        )
    person.public_full_name, person.public_listed = full_name, listed
    return said


def _scrub(value: Any, names: set[str], anonymous: str) -> Any:
    """``value`` (a log's text or arguments) with every one of ``names`` replaced."""
    if isinstance(value, str):
        for name in sorted(names, key=len, reverse=True):
            value = value.replace(name, anonymous)
        return value
    if isinstance(value, list):
        return [_scrub(v, names, anonymous) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, names, anonymous) for k, v in value.items()}
    return value


def erase(person: Person, *, by: str, at: datetime | None = None) -> Person:
    """Remove the person's name and contact; keep their results, anonymous. A second
    request for the same person is refused with the erasure's date (409)."""
    at = now_or(at)
    with transaction.atomic():
        current = _locked(person)
        done = current.history.filter(action=ERASED).first()
        if done is not None:
            raise Conflict(_("This person was erased on %(day)s.") % {"day": f"{done.at:%Y-%m-%d}"})
        anonymous = anonymous_name(current)
        people = [current, *Person.objects.filter(merged_into=current)]
        players = list(Player.objects.filter(person_link__person__in=people))
        names = {p.name for p in people} | {p.name for p in players}
        registrations = Registration.objects.filter(player__in=players)
        names |= set(registrations.values_list("name", flat=True))
        names.discard("")
        registrations.update(name=anonymous, folded=folded_name(anonymous), contact="")
        Player.objects.filter(pk__in=[p.pk for p in players]).update(name=anonymous)
        # The anonymous name is nobody's: public pages show it whole, so two erased people
        # at one table are not both "Anonymous".
        for p in people:
            Person.objects.filter(pk=p.pk).update(
                name=anonymous_name(p), name_key=name_key(anonymous_name(p)), public_full_name=True
            )
        # The logs that wrote the name: the events' activity, and any person's history.
        events = {p.tournament_id for p in players}
        for row in Activity.objects.filter(tournament_id__in=events):
            text = json.dumps([row.actor, row.args, row.summary, row.reason], ensure_ascii=False)
            if any(n in text for n in names):
                row.actor = _scrub(row.actor, names, anonymous)
                row.args = _scrub(row.args, names, anonymous)
                row.summary = _scrub(row.summary, names, anonymous)
                row.reason = _scrub(row.reason, names, anonymous)
                row.save(update_fields=["actor", "args", "summary", "reason"])
        # Who called the director from a phone ("<name> (phone)").
        for call in HelpRequest.objects.filter(tournament_id__in=events):
            if any(n in call.raised_by for n in names):
                call.raised_by = _scrub(call.raised_by, names, anonymous)
                call.save(update_fields=["raised_by"])
        for entry in PersonEvent.objects.filter(person__club_id=current.club_id):
            if any(n in entry.summary or n in entry.reason for n in names):
                entry.summary = _scrub(entry.summary, names, anonymous)
                entry.reason = _scrub(entry.reason, names, anonymous)
                entry.save(update_fields=["summary", "reason"])
        PersonEvent.objects.create(
            person=current,
            actor=by,
            action=ERASED,
            summary="Name and contact erased on request; results kept, anonymous.",
            at=at,
        )
    current.refresh_from_db()
    return current
