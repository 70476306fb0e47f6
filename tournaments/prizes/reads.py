"""The prizes of an event: its rows read in a fixed number of queries, handed to the
rules in ``domain/prizes.py``.

Prizes are results, so they read the live standings: the director's page and PDF may
show them while standings are hidden (RULES.md §5), marked not for announcing yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext_noop

from tournaments.common.bilingual import tr as _
from tournaments.core.models.event import Tournament
from tournaments.core.models.people import PersonLink
from tournaments.core.models.play import HandEntry
from tournaments.core.models.rounds import Round, Seating, Substitution
from tournaments.core.reads.people import rating_history
from tournaments.core.reads.sheets import event_label
from tournaments.core.reads.standings import standings
from tournaments.core.reads.visibility import of_event
from tournaments.domain.expectation import versus_expectation
from tournaments.domain.prizes import (
    HandLine,
    PlayerId,
    PlayerLine,
    Prize,
    PrizeRule,
    SeatLine,
    SubstitutionLine,
    Winner,
    prizes,
)
from tournaments.prizes.models import DefinedPrize

# The built-in prizes' names (domain.prizes.builtin_rules, which knows no Django), here
# for makemessages to find: the prizes page and sheet read them in the reader's language.
BUILTIN_NAMES = (
    gettext_noop("Most lone marches"),
    gettext_noop("High total, division %(d)s"),
    gettext_noop("Low total, division %(d)s"),
    gettext_noop("Best pair in a single match"),
)


@dataclass(frozen=True)
class PrizeSheet:
    event: str
    prizes: list[Prize]
    hidden: bool  # the standings are hidden from the players now
    defined: list[DefinedPrize]
    printed_at: datetime


def event_prizes(tournament: Tournament, now: datetime) -> PrizeSheet:
    players = [
        PlayerLine(
            row.player.pk,
            row.player.name,
            division,
            row.record.total,
            row.record.wins,
            row.record.margin,
            row.player.withdrawn,
        )
        for division, rows in standings(tournament).items()
        for row in rows
    ]
    facts = hand_facts(tournament)
    defined = list(DefinedPrize.objects.filter(tournament=tournament))
    chosen = [PrizeRule(d.name, d.figure, d.highest, d.division) for d in defined]
    # Read only when a prize names it: it replays every rated match of the club's history.
    expected = (
        _versus_expectation(tournament)
        if any(d.figure == DefinedPrize.Figure.EXPECTATION for d in defined)
        else None
    )
    return PrizeSheet(
        event=event_label(tournament),
        prizes=prizes(
            players,
            facts.seats,
            facts.hands,
            facts.subs,
            chosen,
            facts.where,
            label=_,
            expectation=expected,
        ),
        hidden=of_event(tournament).hidden,
        defined=defined,
        printed_at=now,
    )


@dataclass(frozen=True)
class HandFacts:
    """The preliminary matches as the prize and side-pot rules read them: who held each
    seat at the end, the standing hands, the substitutions, each match's place."""

    seats: list[SeatLine]
    hands: list[HandLine]
    subs: list[SubstitutionLine]
    where: dict[object, str]


def hand_facts(tournament: Tournament) -> HandFacts:
    """Read in three queries (the money's side pots read the same facts)."""
    preliminary = {"round__kind": Round.Kind.PRELIMINARY}
    where: dict[object, str] = {}
    seats = []
    for number, table, position, pid, team_score, bonus, points in (
        Seating.objects.filter(round__tournament=tournament, points__isnull=False, **preliminary)
        .order_by("pk")
        .values_list(
            "round__number", "table", "position", "player_id", "team_score", "bonus", "points"
        )
    ):
        match = (number, table)
        where[match] = _("round %(round)s, table %(table)s", round=number, table=table)
        seats.append(SeatLine(match, position, pid, (team_score or 0) + (bonus or 0), points or 0))
    on_match = {f"match__{k}": v for k, v in preliminary.items()}
    hand_rows = (
        HandEntry.objects.standing()
        .filter(match__round__tournament=tournament, **on_match)
        .order_by("pk")
        .values_list(
            "match__round__number",
            "match__table",
            "number",
            "outcome",
            "maker",
            "alone",
            "maker_tricks",
            "renege_by",
        )
    )
    hands = [
        HandLine((rnd, table), number, outcome, maker, alone, tricks, renege_by)
        for rnd, table, number, outcome, maker, alone, tricks, renege_by in hand_rows
    ]
    subs = [
        SubstitutionLine((number, table), position, from_hand, out, given or 0)
        for number, table, position, from_hand, out, given in Substitution.objects.filter(
            match__round__tournament=tournament, **on_match
        )
        .order_by("pk")
        .values_list(
            "match__round__number",
            "match__table",
            "position",
            "from_hand",
            "player_out_id",
            "out_team_score",
        )
    ]
    return HandFacts(seats, hands, subs, where)


def _versus_expectation(tournament: Tournament) -> dict[PlayerId, float]:
    """Each rated player's wins above expectation in the event, by player id."""
    by_person = versus_expectation(rating_history(), tournament.pk)
    player_of = dict(
        PersonLink.objects.filter(player__tournament=tournament).values_list(
            "person_id", "player_id"
        )
    )
    return {player_of[p]: f.surplus for p, f in by_person.items() if p in player_of}


def winner_text(winner: Winner) -> str:
    """ "Ann & Bob (round 2, table 3)", or one player's name."""
    text = " & ".join(winner.names)
    return f"{text} ({winner.where})" if winner.where else text
