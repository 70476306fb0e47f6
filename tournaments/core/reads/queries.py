"""The read side for the views: every query a page needs, so views import no models.

Each function reads; none writes. Page builders (``table_view``, ``final_view``) issue
exactly the queries their pages issued when the views ran them (the counts are pinned in
tests/test_director_queries.py). The vocabulary the views compare against (round kinds
and statuses, hand states) is re-exported here under the names the views use.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Value

from tournaments.common.names import fold, sort_key
from tournaments.core.db import compiled
from tournaments.core.models.event import Division, Player, Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.people import ImportedEvent, Person, PersonEvent, PersonProposal
from tournaments.core.models.play import HandEntry, Match, PaperTable, TableLink
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution
from tournaments.core.models.series import Series
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.reads import standings
from tournaments.core.reads.console import (
    Finalist,
    TableRow,
    finalists,
    seating_tables,
    shortfall_text,
)
from tournaments.core.reads.handtext import individual_points
from tournaments.core.reads.standings import FinalEntry
from tournaments.core.replay import HISTORY_ORDER, as_decided, match_state, table_call
from tournaments.domain.final import FinalState
from tournaments.domain.hands import Team
from tournaments.domain.match import InvalidMatch, MatchState
from tournaments.domain.rating import RatingSettings

RoundKind = Round.Kind
# The two sides of a table (the rules' Team), for the views, which import no rules.
Side = Team
RoundStatus = Round.Status
HandState = HandEntry.State
HandSource = HandEntry.Source
TournamentStatus = Tournament.Status
DIVISIONS: tuple[str, ...] = tuple(Division.values)


# --- tournaments and rounds ---------------------------------------------------------------


def find_tournament(slug: str) -> Tournament | None:
    try:
        # Whether it is a copy published from a hall comes with it (reads.public.running_at_hall).
        return Tournament.objects.select_related("imported_from").get(slug=slug)
    except Tournament.DoesNotExist:
        return None


def tournament_exists(slug: str) -> bool:
    return Tournament.objects.filter(slug=slug).exists()


# Compiled once per connection (tournaments/compiled.py): a phone's full card, the
# answer every phone asks for at a round's turnover, spent a fifth of its CPU building
# this statement.
_TOURNAMENT_BY_ID = compiled.CompiledSelect(
    lambda pk: Tournament.objects.select_related("imported_from").filter(pk=pk)
)


def tournament_by_id(pk: int) -> Tournament:
    found = _TOURNAMENT_BY_ID(pk)
    if not found:
        raise Tournament.DoesNotExist("Tournament matching query does not exist.")
    return found[0]


def all_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.all()


def play_started(tournament: Tournament) -> bool:
    """A round has started (or the event was imported with its results): the line after
    which a rehearsal stays one and a real event stays real (services/rehearsal.py)."""
    return (
        tournament.rounds.exclude(status=Round.Status.SEATED).exists()
        or ImportedEvent.objects.filter(tournament=tournament).exists()
    )


def counted_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.counted()


def open_tournaments(limit: int) -> QuerySet[Tournament]:
    """The home page's events not over: a registration copy whose results arrived
    (``played_as``) is listed as those results, not twice."""
    events = Tournament.objects.counted().filter(played_as__isnull=True)
    return events.exclude(status=Tournament.Status.FINISHED)[:limit]


def find_round(tournament: Tournament, number: int) -> Round | None:
    try:
        return Round.objects.select_related("tournament").get(tournament=tournament, number=number)
    except Round.DoesNotExist:
        return None


def reload(rnd: Round) -> None:
    """Read the round again after a refused action, so the console shows what the
    database holds rather than what the refused call left in memory."""
    rnd.refresh_from_db()


def rounds_of(tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.order_by("number"))


def has_rounds(tournament: Tournament) -> bool:
    return tournament.rounds.exists()


def first_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(number=1).first()


def draw_problem(counts: dict[str, dict[str, int]]) -> str | None:
    """What keeps round 1 from drawing as it stands (§6), from ``division_counts``."""
    return shortfall_text(counts["A"]["checked_in"], counts["B"]["checked_in"])


# --- seating ------------------------------------------------------------------------------


def seating_rows(rnd: Round, tables: Iterable[int]) -> list[TableRow]:
    """``seating_tables`` for some tables only."""
    rows: dict[int, TableRow] = {}
    for seat in Seating.objects.filter(round=rnd, table__in=sorted(tables)).select_related(
        "player"
    ):
        rows.setdefault(seat.table, TableRow(seat.table)).seats[seat.position] = seat.player
    return [rows[n] for n in sorted(rows)]


def table_count(rnd: Round) -> int:
    return Match.objects.filter(round=rnd).values("table").distinct().count()


def seated_names(rnd: Round, q: str) -> list[tuple[int, str]]:
    """(table, name) of the round's seated players whose names hold every word of ``q``,
    by name (two short columns a seat: the caller's paginator cuts its page)."""
    names = Seating.objects.filter(round=rnd)
    for word in q.split():
        names = names.filter(player__name__icontains=word)
    # By the one name rule, not the database's collation (which puts "Mireille" before
    # "Mélanie" and so pages a name away from where the printed list has it).
    found = names.order_by("player_id").values_list("table", "player__name", "player_id")
    return [
        (table, name) for table, name, _pk in sorted(found, key=lambda r: (sort_key(r[1]), r[2]))
    ]


def sit_out_names(rnd: Round) -> list[str]:
    return sorted(SitOut.objects.filter(round=rnd).values_list("player__name", flat=True))


def sit_outs(rnd: Round) -> list[tuple[str, str]]:
    """(name, division) of the players sitting the round out."""
    return list(SitOut.objects.filter(round=rnd).values_list("player__name", "player__division"))


def house_names(tournament: Tournament) -> set[str]:
    return set(
        Player.objects.filter(tournament=tournament, house=True).values_list("name", flat=True)
    )


def players_by_id(pks: Iterable[int]) -> dict[int, Player]:
    return Player.objects.in_bulk(list(pks))


# --- the round console --------------------------------------------------------------------


@dataclass(frozen=True)
class ConsoleFacts:
    later: Round | None
    reopenable: bool
    extended: int


def console_facts(rnd: Round) -> ConsoleFacts:
    t = rnd.tournament
    later = t.rounds.filter(number__gt=rnd.number).first()
    reopenable = (
        rnd.status == Round.Status.FINISHED
        and rnd.kind == Round.Kind.PRELIMINARY
        and not t.rounds.filter(number__gt=rnd.number, status=Round.Status.FINISHED)
        .filter(kind=Round.Kind.PRELIMINARY)
        .exists()
        and not HandEntry.objects.filter(
            match__round__number__gt=rnd.number, match__round__tournament=t
        ).exists()
    )
    extended = rnd.matches.filter(extension_seconds__gt=0).count()
    return ConsoleFacts(later=later, reopenable=reopenable, extended=extended)


# --- one table ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandLogRow:
    """A line of the table page's hand log: the entry and its individual awards as printed."""

    entry: HandEntry
    individual_text: str


@dataclass
class TableView:
    """What the director's table page shows of one table of a round."""

    matches: list[Match]
    match: Match
    hands: list[HandEntry]
    hand_log: list[HandLogRow]
    link: TableLink | None
    state: MatchState | None
    state_error: str | None
    seats: TableRow | None
    overrides: list[object] = field(default_factory=list)
    timeline: list[Activity] = field(default_factory=list)
    time_called_at: datetime | None = None


def table_view(rnd: Round, table: int, game: str | None, now: datetime) -> TableView | None:
    """The table's games, the one asked for (else the latest), its hands, link and state;
    None when the round seats no such table."""
    matches = list(Match.objects.filter(round=rnd, table=table).order_by("game"))
    if not matches:
        return None
    for m in matches:
        m.round = rnd
    match = next((m for m in matches if str(m.game) == str(game)), matches[-1])
    hands = list(
        HandEntry.objects.filter(match=match).select_related("replaces").order_by(*HISTORY_ORDER)
    )
    t = rnd.tournament
    rules = t.rules
    final = rnd.kind == Round.Kind.FINAL
    hand_log = [HandLogRow(h, individual_points(h, rules, final=final)) for h in hands]
    link = TableLink.objects.live().filter(tournament=t, table=table).first()
    state, state_error = match_state_or_error(match)
    # Only this table's seats (every seat of 500 tables was 2,000 rows for four).
    seats = next(iter(seating_rows(rnd, [table])), None)
    return TableView(
        matches=matches,
        match=match,
        hands=hands,
        hand_log=hand_log,
        link=link,
        state=state,
        state_error=state_error,
        seats=seats,
        overrides=list(match.overrides.all()),
        timeline=list(Activity.objects.filter(match=match).order_by("at", "id")),
        time_called_at=table_call(match, now),
    )


def match_state_or_error(match: Match) -> tuple[MatchState | None, str | None]:
    """The match's state, or why its history cannot be replayed (a broken history must
    still be shown, to be corrected)."""
    try:
        return as_decided(match, match_state(match)), None
    except InvalidMatch as exc:
        return None, str(exc)


def game_at(rnd: Round, table: int, game: int | str) -> Match | None:
    return (
        Match.objects.select_related("round__tournament")
        .filter(round=rnd, table=table, game=game)
        .first()
    )


def table_exists(rnd: Round, table: int) -> bool:
    return Match.objects.filter(round=rnd, table=table).exists()


def hand_at(rnd: Round, table: int, pk: int) -> HandEntry | None:
    return (
        HandEntry.objects.select_related("match")
        .filter(pk=pk, match__round=rnd, match__table=table)
        .first()
    )


# --- players ------------------------------------------------------------------------------

PLAYER_SHOWS = {
    "absent": {"checked_in": False, "withdrawn": False},
    "here": {"checked_in": True, "withdrawn": False},
    "house": {"house": True},
    "withdrawn": {"withdrawn": True},
}


def players_matching(tournament: Tournament, q: str) -> QuerySet[Player]:
    """The players whose name holds every word typed, accents, case, hyphens and
    apostrophes aside ("helene" finds Hélène, "jean francois" Jean-François), as the
    phones' search folds them; the database's own matching folds neither."""
    players = Player.objects.filter(tournament=tournament)
    words = fold(q).split()
    if not words:
        return players
    found = [
        pk
        for pk, name in players.values_list("pk", "name")
        if all(word in " ".join(fold(name).split()) for word in words)
    ]
    return players.filter(pk__in=found)


def desk_search(tournament: Tournament, q: str, limit: int) -> list[Player]:
    return list(players_matching(tournament, q).filter(withdrawn=False)[:limit])


def is_paper_table(tournament: Tournament, table: int) -> bool:
    return PaperTable.objects.filter(tournament=tournament, table=table).exists()


def recent_check_ins(tournament: Tournament, limit: int) -> list[Player]:
    """The desk's last check-ins, newest first, each with its undo."""
    return list(
        Player.objects.filter(tournament=tournament, checked_in=True, withdrawn=False).order_by(
            "-checked_in_at", "-pk"
        )[:limit]
    )


def last_preliminary(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("-number").first()


def player_list(
    tournament: Tournament, q: str, division: str, show: str, last: Round | None
) -> QuerySet[Player]:
    """The registration table's players (lazy), each annotated with its §6 attendance in
    the same query (no per-row lookups): ``is_seated``, ``is_out``, ``drawn``."""
    players = players_matching(tournament, q)
    if division in DIVISIONS:
        players = players.filter(division=division)
    if show in PLAYER_SHOWS:
        players = players.filter(**PLAYER_SHOWS[show])
    if last is None:
        return players.annotate(is_seated=Value(False), is_out=Value(False), drawn=Value(False))
    return players.annotate(
        is_seated=Exists(Seating.objects.filter(round=last, player=OuterRef("pk"))),
        is_out=Exists(SitOut.objects.filter(round=last, player=OuterRef("pk"))),
        drawn=Value(True),
    )


def sorted_players(players: QuerySet[Player]) -> list[Player]:
    """``players`` read, by the one name rule (accents and case do not move a name), each
    carrying its key as ``name_order`` for a table that re-sorts by name."""
    rows = list(players)
    for p in rows:
        p.name_order = sort_key(p.name)  # type: ignore[attr-defined]
    return sorted(rows, key=lambda p: p.name_order)  # type: ignore[attr-defined]


def find_player(tournament: Tournament, pk: int | None) -> Player | None:
    """``pk`` as tournaments.ids.parse_id read it (None: no such player)."""
    if pk is None:
        return None
    return Player.objects.filter(tournament=tournament, pk=pk).first()


def open_stationary_mark(player: Player) -> StationaryMark | None:
    """The player's stationary mark still in force (RULES.md §3.1), if any."""
    return StationaryMark.objects.filter(player=player, ended_at__isnull=True).first()


def stationary_players(tournament: Tournament) -> list[StationaryMark]:
    """The stationary marks in force, first marked first, with their players."""
    return list(
        StationaryMark.objects.filter(tournament=tournament).active().select_related("player")
    )


def substitution_at(match: Match, pk: int) -> Substitution | None:
    return (
        Substitution.objects.filter(match=match, pk=pk)
        .select_related("player_in", "player_out")
        .first()
    )


def playing_seat(player: Player) -> Seating | None:
    """The player's seat at a match still being played in a running round (§6: a
    withdrawal there is a substitution or an override), else None."""
    seat = (
        Seating.objects.filter(
            player=player, round__status=Round.Status.RUNNING, round__kind=Round.Kind.PRELIMINARY
        )
        .select_related("round")
        .first()
    )
    if seat is None:
        return None
    match = Match.objects.filter(round=seat.round, table=seat.table).first()
    return seat if match is not None and not match.is_over else None


# --- the final ----------------------------------------------------------------------------


@dataclass
class FinalView:
    """What the director's final page shows."""

    final: Round | None
    games: list[Match]
    current: Match | None
    seats: TableRow | None
    finalists: list[Finalist]
    entries: dict[str, FinalEntry]
    progress: FinalState | None
    champions: str | None
    champion_names: list[str] | None
    hands: list[HandEntry]
    games_line: str
    ready: bool
    done: int


def final_view(t: Tournament) -> FinalView:
    rnd = standings.final_round(t)
    done, ready = standings.final_readiness(t)
    table = standings.standings(t)
    seated = None
    games: list[Match] = []
    current = None
    seats = None
    if rnd is not None:
        seats = seating_tables(rnd)[0]
        seated = {p.pk: pos for pos, p in seats.seats.items()}
        games = list(rnd.matches.order_by("game"))
        current = next((g for g in games if not g.is_over), None)
    progress = standings.final_progress(t)
    champs = standings.champions(t)
    champion_names, games_line = None, ""
    if champs and seats is not None and progress is not None:
        team = Team.NS if champs == "A" else Team.EW
        champion_names = [seats.seats[p.value].name for p in team.seats]
        games_line = f"{progress.wins[team]}–{progress.wins[team.other]}"
    hands: list[HandEntry] = []
    if current is not None:
        hands = list(current.hands.standing().order_by("number"))
    return FinalView(
        final=rnd,
        games=games,
        current=current,
        seats=seats,
        finalists=finalists(t, table, seated, rnd),
        entries=standings.final_entries(t) if rnd is None else {},
        progress=progress,
        champions=champs,
        champion_names=champion_names,
        hands=hands,
        games_line=games_line,
        ready=ready,
        done=done,
    )


def current_final_game(t: Tournament) -> Match | None:
    """The final's latest game, or None before the final is seated."""
    rnd = standings.final_round(t)
    if rnd is None:
        return None
    return (
        Match.objects.select_related("round__tournament")
        .filter(round=rnd)
        .order_by("-game")
        .first()
    )


# --- the activity log ---------------------------------------------------------------------


def activity_entries(t: Tournament, action: str) -> QuerySet[Activity]:
    entries = Activity.objects.filter(tournament=t).select_related("tournament", "match__round")
    return entries.filter(action=action) if action else entries


def activity_actions(t: Tournament) -> list[str]:
    return list(
        Activity.objects.filter(tournament=t)
        .order_by("action")
        .values_list("action", flat=True)
        .distinct()
    )


# --- series and people --------------------------------------------------------------------


# The league pages take ``clubs``: the ids of the clubs the signed-in staff member works
# (reads.staff.clubs_of); a row of any other club is not found.


def find_series(slug: str, clubs: Iterable[int] | QuerySet[Any]) -> Series | None:
    return Series.objects.filter(slug=slug, club__in=clubs).first()


def public_series(slug: str) -> Series | None:
    """A series by its site-wide slug, for its public page."""
    return Series.objects.select_related("club").filter(slug=slug).first()


def series_with_counts(clubs: Iterable[int] | QuerySet[Any]) -> QuerySet[Series]:
    return Series.objects.filter(club__in=clubs).annotate(event_count=Count("events"))


def tournaments_outside(pks: Iterable[int], club: int) -> QuerySet[Tournament]:
    # The events a series may take: its own club's, never a rehearsal.
    return (
        Tournament.objects.counted()
        .filter(club=club)
        .exclude(pk__in=list(pks))
        .order_by("-created_at")
    )


def club_tournaments(club: int) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club=club)


def counted_club_tournaments(club: int) -> QuerySet[Tournament]:
    """The club's events a series may count: never a rehearsal."""
    return Tournament.objects.counted().filter(club=club)


def find_club_tournament(slug: str, club: int) -> Tournament | None:
    return Tournament.objects.filter(slug=slug, club=club).first()


def find_club_tournament_by_slugs(club: str, slug: str) -> Tournament | None:
    return Tournament.objects.filter(slug=slug, club__slug=club).first()


def find_person(pk: int | str, clubs: Iterable[int] | QuerySet[Any]) -> Person | None:
    return Person.objects.filter(pk=pk, club__in=clubs).first()


def people_list(q: str, clubs: Iterable[int] | QuerySet[Any]) -> QuerySet[Person]:
    counted = Q(links__player__tournament__in=Tournament.objects.listed())
    rows = Person.objects.filter(merged_into__isnull=True, club__in=clubs).annotate(
        events=Count("links", filter=counted)
    )
    for word in q.split():
        rows = rows.filter(name__icontains=word)
    return rows.order_by("name", "id")


def open_proposals(limit: int, clubs: Iterable[int] | QuerySet[Any]) -> QuerySet[PersonProposal]:
    return (
        PersonProposal.objects.filter(status=PersonProposal.Status.OPEN, person__club__in=clubs)
        .select_related("person", "candidate")
        .annotate(person_events=Count("person__links", distinct=True))
        .order_by("-score", "id")[:limit]
    )


def open_proposal_count(clubs: Iterable[int] | QuerySet[Any]) -> int:
    return PersonProposal.objects.filter(
        status=PersonProposal.Status.OPEN, person__club__in=clubs
    ).count()


def proposals_of(person: Person) -> QuerySet[PersonProposal]:
    return PersonProposal.objects.filter(
        Q(person=person) | Q(candidate=person), status=PersonProposal.Status.OPEN
    ).select_related("person", "candidate")


def history_of(person: Person, limit: int) -> QuerySet[PersonEvent]:
    return person.history.select_related("other")[:limit]


def find_proposal(pk: int, clubs: Iterable[int] | QuerySet[Any]) -> PersonProposal | None:
    return (
        PersonProposal.objects.select_related("person", "candidate")
        .filter(pk=pk, person__club__in=clubs)
        .first()
    )


def rating_start() -> RatingSettings:
    """The rating every newcomer starts from."""
    return RatingSettings()


def registration_open(tournament: Tournament) -> bool:
    """Whether the event's page offers the registration form now."""
    return (
        tournament.status == Tournament.Status.REGISTRATION
        # Asked through the relation: the registration package adds its settings row.
        and Tournament.objects.filter(pk=tournament.pk, registration_settings__open=True).exists()
    )


def registers_at(tournament: Tournament) -> Tournament | None:
    """The event whose registration form the event's page offers now: its own while open;
    for results the hall published before its round 1, the club's registration copy while
    that one still takes registrations (the club page lists the results, docs/series.md)."""
    if registration_open(tournament):
        return tournament
    if tournament.status != Tournament.Status.REGISTRATION:
        return None
    return Tournament.objects.filter(
        played_as=tournament,
        status=Tournament.Status.REGISTRATION,
        registration_settings__open=True,
    ).first()
