"""A simulated series of four club nights of the same four people at one table, with
results chosen so that every figure of the record can be worked by hand (tests/test_record*).

Each night has three rounds, every partnership once:
  round 1: Ann (N) & Cat (S) against Bob (E) & Dan (W)
  round 2: Ann (N) & Bob (S) against Cat (E) & Dan (W)
  round 3: Ann (N) & Dan (S) against Bob (E) & Cat (W)
A winning team scores 10 and its bonus 1 (11 points each), a losing team 4.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from tournaments.core.models.event import Tournament
from tournaments.core.models.people import Person, PersonLink
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.models.series import Series
from tournaments.core.services import rounds
from tournaments.core.services.players import register_player
from tournaments.core.services.tournaments import create_tournament
from tournaments.domain.rules import RuleSettings
from tournaments.registration.models import Registration, RegistrationPass
from tournaments.registration.services import new_token
from tournaments.series.services import add_event, create_series

PEOPLE = {"Ann Archer": "A", "Cat Carter": "A", "Bob Baker": "B", "Dan Dupont": "B"}
LAYOUT = (
    {"N": "Ann Archer", "S": "Cat Carter", "E": "Bob Baker", "W": "Dan Dupont"},
    {"N": "Ann Archer", "S": "Bob Baker", "E": "Cat Carter", "W": "Dan Dupont"},
    {"N": "Ann Archer", "S": "Dan Dupont", "E": "Bob Baker", "W": "Cat Carter"},
)
# The winning team of rounds 1-3 of each night.
WINNERS = (("NS", "NS", "EW"), ("EW", "NS", "NS"), ("NS", "EW", "EW"), ("EW", "EW", "NS"))
DAYS = tuple(datetime(2026, month, 10, 19, 0, tzinfo=UTC) for month in (1, 2, 3, 4))


def _hand(match: Match, number: int, **kw: object) -> None:
    HandEntry.objects.create(
        match=match,
        number=number,
        client_key=uuid.uuid4().hex,
        dealer="W",
        entered_at=DAYS[0],
        entered_by="test",
        **kw,
    )


def _play(rnd: Round, layout: dict[str, str], winner: str) -> None:
    rounds.start_round(rnd, by="test", now=rnd.tournament.created_at + timedelta(minutes=1))
    players = {p.name: p for p in rnd.tournament.players.all()}
    Seating.objects.filter(round=rnd).delete()
    seats = []
    for position, name in layout.items():
        won = (position in "NS") == (winner == "NS")
        us, them = (10, 4) if won else (4, 10)
        seats.append(
            Seating(
                round=rnd,
                table=1,
                position=position,
                player=players[name],
                team_score=us,
                bonus=int(won),
                individual=0,
                points=us + int(won),
                won=won,
                margin=us - them,
            )
        )
    Seating.objects.bulk_create(seats)
    ns_won = winner == "NS"
    Match.objects.filter(round=rnd).update(
        score_ns=10 if ns_won else 4,
        score_ew=4 if ns_won else 10,
        bonus_ns=int(ns_won),
        bonus_ew=int(not ns_won),
        hands_played=12,
        status=Match.Status.CONFIRMED,
        winner=winner,
        recorded_winner=winner,
    )
    rounds.finalize_round(rnd, by="test")


def night(number: int) -> Tournament:
    """Night ``number`` (1-4), every round played."""
    t = create_tournament(
        f"Night {number}", by="test", lot_seed=1, rules=RuleSettings(preliminary_rounds=3)
    )
    Tournament.objects.filter(pk=t.pk).update(created_at=DAYS[number - 1])
    t.refresh_from_db()
    for name, division in PEOPLE.items():
        register_player(t, name, division, by="test", checked_in=True)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    for n, (layout, winner) in enumerate(zip(LAYOUT, WINNERS[number - 1], strict=True), 1):
        if n > 1:
            rnd = rounds.seat_next_round(t, by="test")
        _play(rnd, layout, winner)
        match = Match.objects.get(round=rnd)
        if number == 1 and n == 1:
            _hand(match, 1, outcome="played", maker="N", alone=True, maker_tricks=5)
            _hand(match, 2, outcome="played", maker="E", maker_tricks=2)  # Ann euchres Bob
            _hand(match, 3, outcome="played", maker="N", alone=True, maker_tricks=2)
            _hand(match, 4, outcome="renege", renege_by="N")
        if number == 3 and n == 2:
            _hand(match, 1, outcome="played", maker="N", alone=True, maker_tricks=4)
    # Over without a final (a record lists the nights that are over).
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    t.refresh_from_db()
    return t


def series_of_four() -> tuple[list[Tournament], Series, Series]:
    """The four nights; the Winter season holds nights 1-2, the Spring season 3-4."""
    nights = [night(n) for n in (1, 2, 3, 4)]
    winter = create_series("Winter", points_table="total")
    spring = create_series("Spring", points_table="total")
    for t in nights[:2]:
        add_event(winter, t)
    for t in nights[2:]:
        add_event(spring, t)
    return nights, winter, spring


def person(name: str) -> Person:
    return Person.objects.get(name=name)


def private_link(t: Tournament, name: str) -> str:
    """The person's private link of night ``t``: an accepted application and its pass."""
    player = t.players.get(name=name)
    reg = Registration.objects.create(
        tournament=t,
        uid=uuid.uuid4(),
        name=name,
        folded=name.casefold(),
        division=player.division,
        consent=True,
        status="accepted",
        queue=Registration.objects.filter(tournament=t).count() + 1,
        player=player,
        contact=f"{name.split()[0].lower()}@example.com",
        created_at=t.created_at,
    )
    token = new_token()
    RegistrationPass.objects.create(registration=reg, token=token, created_at=t.created_at)
    return token


def linked(name: str) -> list[int]:
    return list(PersonLink.objects.filter(person__name=name).values_list("player_id", flat=True))
