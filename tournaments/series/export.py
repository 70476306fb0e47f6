"""The ``snowman.results/1`` export: the event as data, from the hands that stand.

The director's export (``export_results``) holds everything; what the hall publishes to the
club site is the players' view of it (``for_players=True``, RULES.md §5): while the
standings are hidden, the rounds after the last visible one carry their seating and no
figure (no hand, score, winner, bonus, player's points or sit-out points), and the standings
are those players see. The file says where the event stands (``tournament.status``,
``standings_revealed``), so the club site's copy of a running event is a running event,
hidden as the hall hides it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.reads.standings import StandingRow, champions, standings
from tournaments.core.reads.visibility import EVERYTHING, of_event
from tournaments.core.replay import hand_json
from tournaments.domain.rules import sit_out_points_setting
from tournaments.domain.standings import sit_out_lines
from tournaments.registration.models import Registration

SCHEMA = "snowman.results/1"


@dataclass
class _Event:
    """Every row the export reads, loaded once and grouped by what the parts look up."""

    seats: dict[tuple[int, int], list[Seating]] = field(default_factory=lambda: defaultdict(list))
    hands: dict[int, list[HandEntry]] = field(default_factory=lambda: defaultdict(list))
    matches: dict[int, list[Match]] = field(default_factory=lambda: defaultdict(list))
    subs: dict[int, list[Substitution]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def load(cls, tournament: Tournament) -> _Event:
        event = cls()
        for seat in Seating.objects.filter(round__tournament=tournament).order_by("position"):
            event.seats[(seat.round_id, seat.table)].append(seat)
        standing = HandEntry.objects.standing().filter(match__round__tournament=tournament)
        for entry in standing.order_by("match_id", "number"):
            event.hands[entry.match_id].append(entry)
        matches = Match.objects.filter(round__tournament=tournament).prefetch_related("overrides")
        for match in matches.order_by("table", "game"):
            event.matches[match.round_id].append(match)
        subs = Substitution.objects.filter(match__round__tournament=tournament)
        for sub in subs.order_by("match_id", "position", "from_hand"):
            event.subs[sub.match_id].append(sub)
        return event

    def seat_map(self, rnd: Round, table: int) -> dict[str, int]:
        return {s.position: s.player_id for s in self.seats[(rnd.pk, table)]}


def _sit_outs(
    tournament: Tournament, table: dict[str, list[StandingRow]], setting: str | int | None
) -> dict[int, list[dict[str, int]]]:
    """Per round number, who sat out and the points the sit-out scored (§6)."""
    points: dict[tuple[int, int], int] = {}
    for rows in table.values():
        for row in rows:
            for line in row.record.sit_outs:
                points[(row.player.pk, line.round_number)] = line.points
    sat_out: dict[int, list[int]] = defaultdict(list)
    for pid, number in SitOut.objects.filter(round__tournament=tournament).values_list(
        "player_id", "round__number"
    ):
        sat_out[number].append(pid)
        if (pid, number) not in points:
            # Not ranked (never played): scored from no match played.
            points[(pid, number)] = sit_out_lines(setting or "average", (), [number])[0].points
    return {
        number: [{"player": pid, "points": points[(pid, number)]} for pid in sorted(pids)]
        for number, pids in sat_out.items()
    }


def _match(event: _Event, rnd: Round, m: Match) -> dict[str, Any]:
    override = list(m.overrides.all())
    subs = event.subs[m.pk]
    return {
        "table": m.table,
        "seats": event.seat_map(rnd, m.table),
        "hands": [hand_json(h) for h in event.hands[m.pk]],
        "score": {"NS": m.score_ns, "EW": m.score_ew},
        "winner": m.winner or None,
        "override": (
            {"winner": override[-1].winner, "reason": override[-1].reason} if override else None
        ),
        "bonuses": {"NS": m.bonus_ns, "EW": m.bonus_ew},
        "players": {
            **{
                str(sub.player_out_id): sub.out_team_score + (sub.out_individual or 0)
                for sub in subs
                if sub.out_team_score is not None
            },
            **{
                str(s.player_id): s.points
                for s in event.seats[(rnd.pk, m.table)]
                if s.points is not None
            },
        },
        # §6: who held a seat from which hand; "seats" names the holders at the end.
        "substitutions": [
            {
                "seat": sub.position,
                "from_hand": sub.from_hand,
                "out": sub.player_out_id,
                "in": sub.player_in_id,
            }
            for sub in subs
        ],
    }


def _seating_only(event: _Event, rnd: Round, m: Match) -> dict[str, Any]:
    """A match of a round whose figures players may not see yet: who sits there (what
    their cards show), and no figure of it: no hand, its score and bonuses 0, no winner,
    no points (what a file gives a match not started)."""
    return {
        "table": m.table,
        "seats": event.seat_map(rnd, m.table),
        "hands": [],
        "score": {"NS": 0, "EW": 0},
        "winner": None,
        "override": None,
        "bonuses": {"NS": 0, "EW": 0},
        "players": {},
        "substitutions": [],
    }


def _final(event: _Event, tournament: Tournament, rnd: Round) -> dict[str, Any]:
    return {
        "seats": event.seat_map(rnd, 1),
        "games": [
            {
                "number": g.game,
                "hands": [hand_json(h) for h in event.hands[g.pk]],
                "score": {"NS": g.score_ns, "EW": g.score_ew},
                "winner": g.winner or None,
            }
            for g in event.matches[rnd.pk]
        ],
        "champions": champions(tournament),
    }


def _player(p: Player, registrations: dict[int, str]) -> dict[str, Any]:
    return {
        "id": p.pk,
        "name": p.name,
        "division": p.division,
        "withdrawn": p.withdrawn,
        "status": "house" if p.house else "withdrawn" if p.withdrawn else "active",
        "withdrawn_after_round": p.withdrawn_after_round if p.withdrawn else None,
        # Players see it on their cards ("go to the desk"): the club site's copy says the same.
        "checked_in": p.checked_in,
        # The club site's application this player came from (the signed list's uid): there
        # it leads the player's private link to these results (docs/series.md).
        "registration": registrations.get(p.pk)
        or (str(p.registration_uid) if p.registration_uid else None),
    }


def _standing(row: StandingRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": row.player.pk,
        "total": row.record.total,
        "wins": row.record.wins,
        "margin": row.record.margin,
        "by_lot": row.standing.decided_by_lot,
        "played": row.played,
        "sit_outs": row.sit_outs,
        "withdrawn": row.player.withdrawn,
    }


def export_results(tournament: Tournament, *, for_players: bool = False) -> dict[str, Any]:
    """The event as a ``snowman.results/1`` document: everything (the director's export),
    or with ``for_players`` only what players may see now (what is published)."""
    # Where the event stands as the database says now, not as a caller's copy of the row
    # said when it was read (a round drawn since moves it out of registration).
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    vis = of_event(tournament) if for_players else EVERYTHING
    event = _Event.load(tournament)
    table = standings(tournament, through=vis.through)
    setting = sit_out_points_setting(tournament.sit_out_score)
    sit_outs = _sit_outs(tournament, table, setting)
    out_rounds = []
    final = None
    for rnd in tournament.rounds.order_by("number"):
        if rnd.kind == Round.Kind.FINAL:
            final = _final(event, tournament, rnd)
            continue
        shown = vis.shows_round(rnd.number)
        out_rounds.append(
            {
                "number": rnd.number,
                "kind": rnd.kind,
                "status": rnd.status,
                "matches": [
                    _match(event, rnd, m) if shown else _seating_only(event, rnd, m)
                    for m in event.matches[rnd.pk]
                ],
                # A sit-out's points are a figure of its round.
                "sit_outs": sit_outs.get(rnd.number, []) if shown else [],
            }
        )
    # The stationary marks (RULES.md §3.1), so that a recomputation routes the rotation as
    # the event did; the director's export only (players never see them), and never the
    # reason.
    stationary = [
        {
            "player": m.player_id,
            "table": m.table,
            "from_round": m.from_round,
            "until_round": m.until_round,
        }
        for m in StationaryMark.objects.filter(tournament=tournament).order_by("marked_at", "pk")
    ]
    registrations = {
        pk: str(uid)
        for pk, uid in Registration.objects.filter(
            tournament=tournament, player__isnull=False
        ).values_list("player_id", "uid")
    }
    return {
        "schema": SCHEMA,
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "lot_seed": tournament.lot_seed,
            "rules": {**tournament.rules.as_dict(), "sit_out_score": setting},
            # Where the event was run; an import puts it in the importing club.
            "club": {"name": tournament.club.name, "slug": tournament.club.slug},
            # Where it stands: a file of a running event makes a running event, not a
            # finished one, and hides what the hall hides (RULES.md §5).
            "status": tournament.status,
            "standings_revealed": tournament.standings_revealed_at is not None,
        },
        "players": [
            _player(p, registrations)
            for p in Player.objects.filter(tournament=tournament).order_by("pk")
        ],
        "rounds": out_rounds,
        "standings": {
            division: [_standing(row) for row in rows] for division, rows in table.items()
        },
        "final": final,
        **({} if for_players else {"stationary": stationary}),
    }
