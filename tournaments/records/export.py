"""Everything held about a person, to take away (docs/record.md): one JSON document, and
the same rows as one CSV table (``csvcells``). Other people appear only by their public
name, never with a contact; the person's own contact is theirs and is in it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

from tournaments.core.models.event import Player
from tournaments.core.models.people import Person, PersonEvent
from tournaments.records.reads import EventRecord, record
from tournaments.registration.models import Registration

FORMAT = "snowman-person/1"


def _when(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _event_entry(e: EventRecord, players: dict[int, Player]) -> dict[str, Any]:
    """One event: the name played under, the result, the hands and each round."""
    line, player = e.line, players.get(e.line.player.pk, e.line.player)
    return {
        "event": line.tournament.name,
        "date": _when(line.tournament.created_at.date()),
        "name": player.name,
        "division": player.division,
        "rank": line.rank,
        "total": line.total,
        "hands": {k: e.hands.get(k, 0) for k in sorted(e.hands)},
        "expected_wins": round(e.expected.expected, 4) if e.expected else None,
        "wins_rated": e.expected.won if e.expected else None,
        "rounds": [
            {
                "round": m.round_label,
                "table": m.table,
                "partner": m.partner,
                "opponents": m.opponents,
                "score": m.score,
                "won": m.won,
                "points": m.points,
                "individual": m.individual,
                "left_from_hand": m.left_from,
            }
            for m in line.matches
        ],
    }


def _person_entry(person: Person) -> dict[str, Any]:
    """The person's own row: name, club, public choices and rating."""
    return {
        "number": person.pk,
        "name": person.name,
        "club": person.club.name,
        "created_at": _when(person.created_at),
        "public_full_name": person.public_full_name,
        "public_listed": person.public_listed,
        "rating": (
            {
                "mu": person.rating_mu,
                "sigma": person.rating_sigma,
                "matches": person.rating_matches,
            }
            if person.rating_mu is not None
            else None
        ),
    }


def person_file(person: Person) -> dict[str, Any]:
    """The JSON document: the person, their choices, history, applications, and each event
    with its rounds, hands, rating steps and result against expectation."""
    mine = record(person)
    players = {
        p.pk: p
        for p in Player.objects.filter(person_link__person=person).select_related("tournament")
    }
    applications = Registration.objects.filter(player__in=list(players)).select_related(
        "tournament"
    )
    events = [_event_entry(e, players) for e in mine.events]
    return {
        "format": FORMAT,
        "person": _person_entry(person),
        "history": [
            {"at": _when(h.at), "action": h.action, "by": h.actor, "summary": h.summary}
            for h in PersonEvent.objects.filter(person=person).order_by("at", "pk")
        ],
        "applications": [
            {
                "event": r.tournament.name,
                "name": r.name,
                "contact": r.contact,
                "division": r.division,
                "status": r.status,
                "message": r.message,
                "created_at": _when(r.created_at),
                "decided_at": _when(r.decided_at),
            }
            for r in applications
        ],
        "events": events,
        "rating_steps": [
            {
                "event": s.event,
                "round": s.round,
                "partner": s.partner,
                "opponents": s.opponents,
                "won": s.won,
                "chance": round(s.chance, 4),
                "before": round(s.before, 4),
                "after": round(s.after, 4),
            }
            for s in mine.steps
        ],
    }


CSV_HEADER = ("section", "event", "date", "round", "field", "value")


def person_csv_rows(document: dict[str, Any]) -> Iterator[list[object]]:
    """The JSON document flattened, one value a row: what, where, and the value."""
    yield list(CSV_HEADER)
    for key, value in document["person"].items():
        if isinstance(value, dict):
            for k, v in value.items():
                yield ["person", "", "", "", f"{key}.{k}", v]
        else:
            yield ["person", "", "", "", key, value]
    for h in document["history"]:
        yield ["history", "", h["at"], "", h["action"], h["summary"]]
    for a in document["applications"]:
        for k, v in a.items():
            if k != "event":
                yield ["application", a["event"], a["created_at"], "", k, v]
    for e in document["events"]:
        for k in ("name", "division", "rank", "total", "expected_wins", "wins_rated"):
            yield ["event", e["event"], e["date"], "", k, e[k]]
        for k, v in e["hands"].items():
            yield ["hands", e["event"], e["date"], "", k, v]
        for r in e["rounds"]:
            for k, v in r.items():
                if k != "round":
                    yield ["round", e["event"], e["date"], r["round"], k, v]
    for s in document["rating_steps"]:
        for k, v in s.items():
            if k not in ("event", "round"):
                yield ["rating", s["event"], "", s["round"], k, v]
