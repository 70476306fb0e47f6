"""A person's page: every event they played, each match with partner and opponents, their
record with and against each name; a person's rating and the divisions it suggests (read
only; ``services.people`` links and rates)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import cast

from django.db.models import Q

from tournaments.common.names import public_name, sort_key
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import EventResult, Person, PersonLink
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating, Substitution
from tournaments.core.reads.standings import standings
from tournaments.domain.hands import Seat
from tournaments.domain.rating import MatchResult, PlayerId, Rating, split_divisions


@dataclass
class MatchLine:
    round_label: str
    table: int
    partner: str
    opponents: str
    score: str
    won: bool | None
    points: int | None
    individual: int | None
    # The hand from which a substitute took this player's seat (§6): the match's result
    # went to the substitute, the points of the hands before it to this player.
    left_from: int | None = None
    # The people at the table (None: a seat of no linked person), for head-to-head.
    partner_id: int | None = None
    opponent_ids: tuple[int | None, ...] = ()
    number: int = 0
    final: bool = False


@dataclass
class EventLine:
    tournament: Tournament
    player: Player
    rank: int | None
    total: int | None
    matches: list[MatchLine] = field(default_factory=list)
    # The hands this person held in the event: "lone_tried", "lone_made", "lone_marches",
    # "euchres" (as defenders, the makers held under three tricks), "reneges".
    hands: Counter[str] = field(default_factory=Counter)


@dataclass
class PersonPage:
    person: Person
    events: list[EventLine]
    partners: list[tuple[str, int, int]]  # name, matches together, wins together
    opponents: list[tuple[str, int, int]]  # name, matches against, wins against
    lone_marches: int
    reneges: int
    awards: int
    penalties: int


def _rank_of(tournament: Tournament, imported: bool) -> dict[int, tuple[int, int]]:
    if imported:
        return {
            pid: (rank, total)
            for pid, rank, total in EventResult.objects.filter(tournament=tournament).values_list(
                "player_id", "rank", "total"
            )
        }
    return {
        row.player.pk: (row.rank, row.record.total)
        for rows in standings(tournament).values()
        for row in rows
    }


def _score_for(match: Match, team: str) -> str:
    """A match's score from ``team``'s side ("NS" or "EW"): theirs first."""
    if team == "NS":
        return f"{match.score_ns}–{match.score_ew}"
    return f"{match.score_ew}–{match.score_ns}"


# Who held which seat for which hands (§6), by match: (position, first hand, past the
# last, player).
_Held = dict[int, list[tuple[str, int, int, int]]]
# Each player's match lines with their round's number, to put them in order.
_ByPlayer = dict[int, list[tuple[int, MatchLine]]]


@dataclass
class _Tables:
    """The tables this person sat at: who sat where, and the games played there."""

    seats: dict[tuple[int, int], dict[str, Seating]]
    games: dict[tuple[int, int], list[Match]]

    @property
    def match_ids(self) -> list[int]:
        return [m.pk for found in self.games.values() for m in found]


@dataclass
class _Names:
    """How the page names the people at those tables: by their person when linked."""

    people_of: dict[int, tuple[int, str]]
    public: bool

    def label(self, s: Seating | None) -> str:
        if s is None:
            return "?"
        if s.player_id in self.people_of:
            return self.people_of[s.player_id][1]
        return public_name(s.player.name, False) if self.public else s.player.name

    def who(self, s: Seating | None) -> int | None:
        found = self.people_of.get(s.player_id) if s is not None else None
        return found[0] if found else None


@dataclass
class _Company:
    """Matches (and wins) with each partner and against each opponent."""

    partners: Counter[str] = field(default_factory=Counter)
    partner_wins: Counter[str] = field(default_factory=Counter)
    opponents: Counter[str] = field(default_factory=Counter)
    opponent_wins: Counter[str] = field(default_factory=Counter)


def _tables_sat_at(own: list[Seating], left: list[Substitution]) -> _Tables:
    # Only the tables this person sat at (a superset: their rounds x their table numbers),
    # so an event of 500 tables is not read whole, and no OR per table reaches the SQL.
    keys = {(s.round_id, s.table) for s in own} | {(x.match.round_id, x.match.table) for x in left}
    at_my_tables = Q(round_id__in={r for r, _ in keys}, table__in={t for _, t in keys})
    at_tables: dict[tuple[int, int], dict[str, Seating]] = defaultdict(dict)
    for seat in Seating.objects.filter(at_my_tables).select_related("player"):
        if (seat.round_id, seat.table) in keys:
            at_tables[(seat.round_id, seat.table)][seat.position] = seat
    games: dict[tuple[int, int], list[Match]] = defaultdict(list)
    for m in Match.objects.filter(at_my_tables).order_by("game"):
        if (m.round_id, m.table) in keys:
            games[(m.round_id, m.table)].append(m)
    return _Tables(at_tables, games)


def _names_at(tables: _Tables, public: bool) -> _Names:
    people_of: dict[int, tuple[int, str]] = {}
    for player_id, person_id, name, full in PersonLink.objects.filter(
        player_id__in={s.player_id for t in tables.seats.values() for s in t.values()}
    ).values_list("player_id", "person_id", "person__name", "person__public_full_name"):
        people_of[player_id] = (person_id, public_name(name, full) if public else name)
    return _Names(people_of, public)


def _seat_changes(match_ids: list[int]) -> dict[tuple[int, str], list[Substitution]]:
    """Each seat's substitutions in those matches, in the order they came in."""
    changes: dict[tuple[int, str], list[Substitution]] = defaultdict(list)
    for sub in Substitution.objects.filter(match_id__in=match_ids).order_by("from_hand"):
        changes[(sub.match_id, sub.position)].append(sub)
    return changes


def _add_matches_left(
    left: list[Substitution],
    changes: dict[tuple[int, str], list[Substitution]],
    tables: _Tables,
    names: _Names,
    held: _Held,
    by_player: _ByPlayer,
) -> None:
    """The matches this person left to a substitute: the hands they held, and a line
    with the points of those hands (the result went to the substitute)."""
    for sub in left:
        chain = [x.pk for x in changes[(sub.match_id, sub.position)]]
        before = changes[(sub.match_id, sub.position)][: chain.index(sub.pk)]
        held[sub.match_id].append(
            (sub.position, before[-1].from_hand if before else 1, sub.from_hand, sub.player_out_id)
        )
        table = tables.seats[(sub.match.round_id, sub.match.table)]
        me = Seat(sub.position)
        by_player[sub.player_out_id].append(
            (
                sub.match.round.number,
                MatchLine(
                    round_label=str(sub.match.round),
                    table=sub.match.table,
                    partner=names.label(table.get(me.partner.value)),
                    opponents=" & ".join(
                        names.label(table.get(o.value)) for o in me.team.other.seats
                    ),
                    score=_score_for(sub.match, me.team.value),
                    won=None,
                    points=(sub.out_team_score or 0) + (sub.out_individual or 0),
                    individual=sub.out_individual,
                    left_from=sub.from_hand,
                    partner_id=names.who(table.get(me.partner.value)),
                    opponent_ids=tuple(names.who(table.get(o.value)) for o in me.team.other.seats),
                    number=sub.match.round.number,
                ),
            )
        )


def _add_own_seats(
    own: list[Seating],
    changes: dict[tuple[int, str], list[Substitution]],
    tables: _Tables,
    names: _Names,
    held: _Held,
    by_player: _ByPlayer,
    company: _Company,
) -> None:
    """The seats this person held: the hands from when they came in, a line per round,
    and the partners and opponents of each match decided."""
    matches = {key: found[0] for key, found in tables.games.items()}
    for seat in own:
        table = tables.seats[(seat.round_id, seat.table)]
        me = Seat(seat.position)
        partner = table.get(me.partner.value)
        others = [table.get(s.value) for s in me.team.other.seats]
        for game in tables.games.get((seat.round_id, seat.table), []):
            came_in = changes.get((game.pk, seat.position))
            first = came_in[-1].from_hand if came_in else 1
            held[game.pk].append((seat.position, first, 10**6, seat.player_id))
        match = matches.get((seat.round_id, seat.table))
        mine = me.team.value
        # A final has several games at one table: each game's score, in order.
        score = ", ".join(
            _score_for(g, mine)
            for g in tables.games.get((seat.round_id, seat.table), [])
            if g.is_over
        )
        won = seat.won
        if match is not None and seat.round.kind == Round.Kind.FINAL:
            won = None
        if won is not None:
            company.partners[names.label(partner)] += 1
            company.partner_wins[names.label(partner)] += int(won)
            for o in others:
                company.opponents[names.label(o)] += 1
                company.opponent_wins[names.label(o)] += int(won)
        line = MatchLine(
            round_label=str(seat.round),
            table=seat.table,
            partner=names.label(partner),
            opponents=" & ".join(names.label(o) for o in others),
            score=score,
            won=won,
            points=seat.points,
            individual=seat.individual,
            partner_id=names.who(partner),
            opponent_ids=tuple(names.who(o) for o in others),
            number=seat.round.number,
            final=seat.round.kind == Round.Kind.FINAL,
        )
        by_player[seat.player_id].append((seat.round.number, line))


def _hand_counts(held: _Held) -> tuple[int, int, dict[int, Counter[str]]]:
    """Lone marches and reneges over every hand held, and each player's hand counts."""
    lone = reneges = 0
    hands_of: dict[int, Counter[str]] = defaultdict(Counter)
    hand_fields = ("outcome", "maker", "alone", "maker_tricks", "renege_by")
    counted = HandEntry.objects.standing().filter(match_id__in=list(held))
    for match_id, number, outcome, maker, alone, tricks, renege_by in counted.values_list(
        "match_id", "number", *hand_fields
    ):
        for pos, first, stop, player_id in held[match_id]:
            if not first <= number < stop:
                continue
            counts = hands_of[player_id]
            if outcome == "played" and alone and maker == pos and tricks is not None:
                counts["lone_tried"] += 1
                counts["lone_made"] += int(tricks >= 3)
            if outcome == "played" and alone and maker == pos and tricks == 5:
                lone += 1
                counts["lone_marches"] += 1
            if outcome == "played" and maker and tricks is not None and tricks < 3:
                counts["euchres"] += int(Seat(maker).team is not Seat(pos).team)
            if outcome == "renege" and renege_by == pos:
                reneges += 1
                counts["reneges"] += 1
    return lone, reneges, hands_of


def _event_lines(
    links: list[PersonLink], by_player: _ByPlayer, hands_of: dict[int, Counter[str]]
) -> tuple[list[EventLine], int, int]:
    """A line per event with its rank and matches in order; the awards and penalties."""
    events = []
    awards = penalties = 0
    ranks_by_tournament: dict[int, dict[int, tuple[int, int]]] = {}
    for lk in links:
        t = lk.player.tournament
        if t.pk not in ranks_by_tournament:
            ranks_by_tournament[t.pk] = _rank_of(t, hasattr(t, "imported_from"))
        rank, total = ranks_by_tournament[t.pk].get(lk.player_id, (None, None))
        lines = [line for _, line in sorted(by_player.get(lk.player_id, []), key=lambda x: x[0])]
        for line in lines:
            if line.individual:
                awards += max(line.individual, 0)
                penalties += min(line.individual, 0)
        events.append(EventLine(t, lk.player, rank, total, lines, hands_of[lk.player_id]))
    return events, awards, penalties


def _table_of(count: Counter[str], wins: Counter[str]) -> list[tuple[str, int, int]]:
    return sorted(((n, c, wins[n]) for n, c in count.items()), key=lambda x: (-x[1], x[0]))


def person_page(person: Person, *, public: bool = False) -> PersonPage:
    """Every event of ``person``; ``public``: the other people named as public pages name
    them (``names.public_name``), for the person's own record."""
    links = list(
        # A registration copy played at the hall is this person's event once: its results.
        person.links.filter(player__tournament__in=Tournament.objects.listed())
        .select_related("player__tournament__imported_from")
        .order_by("player__tournament__created_at", "player__tournament_id")
    )
    player_ids = [lk.player_id for lk in links]
    own = list(
        Seating.objects.filter(player_id__in=player_ids)
        .select_related("round")
        .order_by("round__tournament_id", "round__number")
    )
    # The matches this person left to a substitute: the seat row names the substitute.
    left = list(
        Substitution.objects.filter(player_out_id__in=player_ids).select_related("match__round")
    )
    tables = _tables_sat_at(own, left)
    names = _names_at(tables, public)
    changes = _seat_changes(tables.match_ids)
    held: _Held = defaultdict(list)
    by_player: _ByPlayer = defaultdict(list)
    company = _Company()
    _add_matches_left(left, changes, tables, names, held, by_player)
    _add_own_seats(own, changes, tables, names, held, by_player, company)
    lone, reneges, hands_of = _hand_counts(held)
    events, awards, penalties = _event_lines(links, by_player, hands_of)
    return PersonPage(
        person,
        events,
        _table_of(company.partners, company.partner_wins),
        _table_of(company.opponents, company.opponent_wins),
        lone,
        reneges,
        awards,
        penalties,
    )


def rating_of(person: Person) -> Rating | None:
    if person.rating_mu is None or person.rating_sigma is None:
        return None
    return Rating(person.rating_mu, person.rating_sigma, person.rating_matches)


def suggested_divisions(tournament: Tournament, share_a: float = 0.5) -> dict[int, str]:
    """Player id -> suggested division for the players whose person has a rating."""
    rated: dict[PlayerId, Rating] = {}
    for player_id, mu, sigma, matches in (
        PersonLink.objects.filter(player__tournament=tournament, person__rating_mu__isnull=False)
        .order_by("player__name")
        .values_list(
            "player_id", "person__rating_mu", "person__rating_sigma", "person__rating_matches"
        )
    ):
        # Filtered on a rating above, so both numbers are there.
        rated[player_id] = Rating(cast(float, mu), cast(float, sigma), matches)
    return {cast(int, pid): division for pid, division in split_divisions(rated, share_a).items()}


@dataclass(frozen=True)
class Suggestion:
    player: Player
    rating: Rating | None
    suggested: str | None


def division_suggestions(tournament: Tournament, share_a: float = 0.5) -> list[Suggestion]:
    """Every player with their rating and suggested division (None when not rated)."""
    suggested = suggested_divisions(tournament, share_a)
    ratings = {
        player_id: Rating(cast(float, mu), cast(float, sigma), matches)
        for player_id, mu, sigma, matches in PersonLink.objects.filter(
            player__tournament=tournament, person__rating_mu__isnull=False
        ).values_list(
            "player_id", "person__rating_mu", "person__rating_sigma", "person__rating_matches"
        )
    }
    players = sorted(Player.objects.filter(tournament=tournament), key=lambda p: sort_key(p.name))
    out = [Suggestion(p, ratings.get(p.pk), suggested.get(p.pk)) for p in players]
    return sorted(out, key=lambda s: (s.rating is None, -(s.rating.mu if s.rating else 0)))


def rating_history() -> list[MatchResult]:
    """Every decided preliminary match between four linked players, oldest event first."""
    # A rehearsal's matches rate no one.
    counted = Tournament.objects.counted()
    person_of = dict(PersonLink.objects.values_list("player_id", "person_id"))
    seats: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    for round_id, table, pos, player_id in Seating.objects.filter(
        round__kind=Round.Kind.PRELIMINARY, round__tournament__in=counted
    ).values_list("round_id", "table", "position", "player_id"):
        seats[(round_id, table)][pos] = player_id
    results = []
    for round_id, table, winner, event, number in (
        Match.objects.filter(round__kind=Round.Kind.PRELIMINARY, round__tournament__in=counted)
        .exclude(winner="")
        .order_by("round__tournament__created_at", "round__tournament_id", "round__number", "table")
        .values_list("round_id", "table", "winner", "round__tournament_id", "round__number")
    ):
        at = seats.get((round_id, table), {})
        ids = [person_of.get(at[p]) if p in at else None for p in "NSEW"]
        if None in ids or len(set(ids)) != 4:
            continue  # a house player or an unlinked seat: not rated
        results.append(
            MatchResult((ids[0], ids[1]), (ids[2], ids[3]), winner == "NS", event, number)
        )
    return results
