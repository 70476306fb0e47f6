"""The person's record as they read it: every event with place and points, each round with
partner and opponents, the hands they held, points per round over time, their rating over
time with what moved it, their result against expectation, and head-to-head against one
person they met. Other people are named as public pages name them (``names.public_name``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tournaments.common.names import public_name
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import Person, PersonLink
from tournaments.core.models.series import Series, SeriesEvent
from tournaments.core.reads.people import (
    EventLine,
    MatchLine,
    person_page,
    rating_history,
    rating_of,
)
from tournaments.core.reads.players import in_results
from tournaments.domain.expectation import Expected, Step, most_improved, replay
from tournaments.domain.rating import Rating
from tournaments.registration.models import RegistrationPass


def live_person(person: Person) -> Person:
    """The person a merged record now lives in."""
    seen = {person.pk}
    while person.merged_into_id is not None and person.merged_into_id not in seen:
        seen.add(person.merged_into_id)
        person = Person.objects.get(pk=person.merged_into_id)
    return person


def owner_of(found: RegistrationPass) -> Person | None:
    """The person whose private link this pass is: the player the application became (here,
    or in the hall's results of the event), through the player's link to a person."""
    reg = found.registration
    player: Player | None = None
    if reg.player_id is not None:
        player = in_results(reg.tournament, reg.player_id) or reg.player
    if player is None:
        return None
    link = PersonLink.objects.filter(player=player).select_related("person").first()
    return live_person(link.person) if link is not None else None


@dataclass(frozen=True)
class Filter:
    """Which events the record reads: one season (a series of the person's club) and/or
    a span of dates (the event's day)."""

    season: Series | None = None
    since: date | None = None
    until: date | None = None

    def keeps(self, line: EventLine, in_season: set[int] | None) -> bool:
        day = line.tournament.created_at.date()
        if in_season is not None and line.tournament.pk not in in_season:
            return False
        if self.since is not None and day < self.since:
            return False
        return self.until is None or day <= self.until


@dataclass(frozen=True)
class RatingStep:
    event: str
    round: int
    partner: str
    opponents: str
    won: bool
    chance: float
    before: float
    after: float

    @property
    def moved(self) -> float:
        return self.after - self.before

    @property
    def percent(self) -> int:
        return round(self.chance * 100)

    @property
    def moved_text(self) -> str:
        return signed(self.moved)


def signed(value: float) -> str:
    """A figure with its sign and two decimals, in the reader's number format ("+0,50")."""
    text = number_format(abs(value), 2)
    return f"−{text}" if round(value, 2) < 0 else f"+{text}"


def _hand_rows(hands: Counter[str]) -> list[tuple[str, str, int]]:
    return [(key, label, hands.get(key, 0)) for key, label in hand_labels().items()]


@dataclass(frozen=True)
class EventRecord:
    line: EventLine
    hands: Counter[str]
    expected: Expected | None
    # The points of each round played, in order; their mean.
    points: tuple[int, ...]

    @property
    def per_round(self) -> float | None:
        return sum(self.points) / len(self.points) if self.points else None

    @property
    def hand_rows(self) -> list[tuple[str, str, int]]:
        return _hand_rows(self.hands)

    @property
    def surplus_text(self) -> str:
        return signed(self.expected.surplus) if self.expected else ""


@dataclass(frozen=True)
class HeadToHead:
    other: int
    name: str
    together: tuple[tuple[EventLine, MatchLine], ...]
    against: tuple[tuple[EventLine, MatchLine], ...]

    @property
    def together_won(self) -> int:
        return sum(1 for _e, m in self.together if m.won)

    @property
    def against_won(self) -> int:
        return sum(1 for _e, m in self.against if m.won)


@dataclass(frozen=True)
class Record:
    person: Person
    events: tuple[EventRecord, ...]
    hands: Counter[str]
    rating: Rating | None
    steps: tuple[RatingStep, ...]
    met: tuple[tuple[int, str], ...]  # the people met, for the head-to-head choice
    head_to_head: HeadToHead | None
    seasons: tuple[Series, ...]
    filter: Filter = field(default_factory=Filter)
    # Over the events shown: wins above what the rating expected (None: none rated).
    surplus: float | None = None

    @property
    def played(self) -> int:
        return sum(1 for e in self.events for m in e.line.matches if m.won is not None)

    @property
    def won(self) -> int:
        return sum(1 for e in self.events for m in e.line.matches if m.won)

    @property
    def hand_rows(self) -> list[tuple[str, str, int]]:
        return _hand_rows(self.hands)

    @property
    def surplus_text(self) -> str:
        return signed(self.surplus) if self.surplus is not None else ""


def season_of(person: Person, pk: int) -> Series | None:
    """One season (series) of the person's club; another club's is not found."""
    return Series.objects.filter(pk=pk, club_id=person.club_id).first()


def seasons_of(person: Person) -> list[Series]:
    return list(Series.objects.filter(club_id=person.club_id).order_by("-created_at"))


def record(person: Person, flt: Filter | None = None, *, with_person: int | None = None) -> Record:
    flt = flt or Filter()
    page = person_page(person, public=True)
    in_season = (
        set(SeriesEvent.objects.filter(series=flt.season).values_list("tournament_id", flat=True))
        if flt.season is not None
        else None
    )
    # A record is of events over: while one runs, its card and ledger are the player's
    # pages, and they keep what is hidden until the final hidden (RULES.md §5).
    done = Tournament.Status.FINISHED
    lines = [
        line
        for line in page.events
        if line.tournament.status == done and flt.keeps(line, in_season)
    ]
    kept = {line.tournament.pk for line in lines}
    figures, steps = replay(rating_history())
    mine = [s for s in steps.get(person.pk, []) if s.event in kept]
    events = tuple(
        EventRecord(
            line,
            line.hands,
            figures.get(line.tournament.pk, {}).get(person.pk),
            tuple(m.points for m in line.matches if m.points is not None and not m.final),
        )
        for line in lines
    )
    hands: Counter[str] = Counter()
    for e in events:
        hands.update(e.hands)
    met_ids = {
        pid
        for line in lines
        for m in line.matches
        for pid in (m.partner_id, *m.opponent_ids)
        if pid is not None and pid != person.pk
    }
    step_ids = {p for s in mine for p in (s.partner, *s.opponents)}
    names = _public_names(met_ids | {p for p in step_ids if isinstance(p, int)})
    met = tuple(sorted(((pk, names[pk]) for pk in met_ids if pk in names), key=lambda x: x[1]))
    h2h = None
    if with_person is not None and with_person in names and with_person in met_ids:
        together = tuple(
            (e.line, m) for e in events for m in e.line.matches if m.partner_id == with_person
        )
        against = tuple(
            (e.line, m) for e in events for m in e.line.matches if with_person in m.opponent_ids
        )
        h2h = HeadToHead(with_person, names[with_person], together, against)
    event_names = {line.tournament.pk: line.tournament.name for line in lines}
    return Record(
        person=person,
        events=events,
        hands=hands,
        rating=rating_of(person),
        steps=tuple(_step(s, names, event_names) for s in mine),
        met=met,
        head_to_head=h2h,
        seasons=tuple(seasons_of(person)),
        filter=flt,
        surplus=most_improved(figures, kept).get(person.pk),
    )


def _public_names(ids: set[int]) -> dict[int, str]:
    return {
        pk: public_name(name, full)
        for pk, name, full in Person.objects.filter(pk__in=ids).values_list(
            "pk", "name", "public_full_name"
        )
    }


def _step(step: Step, names: dict[int, str], events: dict[int, str]) -> RatingStep:
    def named(pid: object) -> str:
        return names.get(pid, "?") if isinstance(pid, int) else "?"

    return RatingStep(
        event=events.get(step.event, "") if isinstance(step.event, int) else "",
        round=step.round,
        partner=named(step.partner),
        opponents=" & ".join(named(p) for p in step.opponents),
        won=step.won,
        chance=step.chance,
        before=step.before.mu,
        after=step.after.mu,
    )


def hand_labels() -> dict[str, str]:
    return {
        "lone_tried": _("Lone hands tried"),
        "lone_made": _("Lone hands made"),
        "lone_marches": _("Lone marches"),
        "euchres": _("Euchres"),
        "reneges": _("Reneges"),
    }
