"""The ``snowman.results/1`` export: the event as data, from the hands that stand."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..domain.hands import Seat
from ..domain.rules import sit_out_points_setting
from ..domain.standings import sit_out_lines
from ..models import HandEntry, Match, Player, Round, SitOut, Substitution, Tournament
from ..models import Seat as SeatRow
from .standings import champions, standings

SCHEMA = "snowman.results/1"


def _hand(entry: HandEntry) -> dict[str, Any]:
    played = entry.outcome == HandEntry.Outcome.PLAYED
    return {
        "number": entry.number,
        "dealer": entry.dealer,
        "outcome": entry.outcome,
        "makers": Seat(entry.maker).team.value if played else None,
        "maker": entry.maker if played else None,
        "alone": entry.alone,
        "maker_tricks": entry.maker_tricks if played else None,
        "renege_by": entry.renege_by or None,
        # The lone defender's seat, or null (additive to snowman.results/1).
        "defender_alone": entry.defender_alone or None,
        "phase": entry.phase,
        "points": {"NS": entry.points_ns, "EW": entry.points_ew},
    }


def export_results(tournament: Tournament) -> dict[str, Any]:
    rounds = list(tournament.rounds.order_by("number"))
    seats: dict[tuple[int, int], list[SeatRow]] = defaultdict(list)
    for seat in SeatRow.objects.filter(round__tournament=tournament).order_by("position"):
        seats[(seat.round_id, seat.table)].append(seat)
    hands: dict[int, list[HandEntry]] = defaultdict(list)
    standing = HandEntry.objects.standing().filter(match__round__tournament=tournament)
    for entry in standing.order_by("match_id", "number"):
        hands[entry.match_id].append(entry)
    matches: dict[int, list[Match]] = defaultdict(list)
    for match in (
        Match.objects.filter(round__tournament=tournament)
        .prefetch_related("overrides")
        .order_by("table", "game")
    ):
        matches[match.round_id].append(match)

    subs: dict[int, list[Substitution]] = defaultdict(list)
    for sub in Substitution.objects.filter(match__round__tournament=tournament).order_by(
        "match_id", "position", "from_hand"
    ):
        subs[sub.match_id].append(sub)
    table = standings(tournament)
    setting = sit_out_points_setting(tournament.sit_out_score)
    sit_out_points: dict[tuple[int, int], int] = {}
    for rows in table.values():
        for row in rows:
            for line in row.record.sit_outs:
                sit_out_points[(row.player.pk, line.round_number)] = line.points
    sat_out: dict[int, list[int]] = defaultdict(list)
    for pid, number in SitOut.objects.filter(round__tournament=tournament).values_list(
        "player_id", "round__number"
    ):
        sat_out[number].append(pid)
        if (pid, number) not in sit_out_points:
            # Not ranked (never played): scored from no match played.
            line = sit_out_lines(setting or "average", (), [number])[0]
            sit_out_points[(pid, number)] = line.points

    def seat_map(rnd: Round, table: int) -> dict[str, int]:
        return {s.position: s.player_id for s in seats[(rnd.pk, table)]}

    out_rounds = []
    final = None
    for rnd in rounds:
        if rnd.kind == Round.Kind.FINAL:
            games = matches[rnd.pk]
            final = {
                "seats": seat_map(rnd, 1),
                "games": [
                    {
                        "number": g.game,
                        "hands": [_hand(h) for h in hands[g.pk]],
                        "score": {"NS": g.score_ns, "EW": g.score_ew},
                        "winner": g.winner or None,
                    }
                    for g in games
                ],
                "champions": champions(tournament),
            }
            continue
        out_matches = []
        for m in matches[rnd.pk]:
            override = list(m.overrides.all())
            table_seats = seats[(rnd.pk, m.table)]
            out_matches.append(
                {
                    "table": m.table,
                    "seats": seat_map(rnd, m.table),
                    "hands": [_hand(h) for h in hands[m.pk]],
                    "score": {"NS": m.score_ns, "EW": m.score_ew},
                    "winner": m.winner or None,
                    "override": (
                        {"winner": override[-1].winner, "reason": override[-1].reason}
                        if override
                        else None
                    ),
                    "bonuses": {"NS": m.bonus_ns, "EW": m.bonus_ew},
                    "players": {
                        **{
                            str(sub.player_out_id): sub.out_team_score + (sub.out_individual or 0)
                            for sub in subs[m.pk]
                            if sub.out_team_score is not None
                        },
                        **{str(s.player_id): s.points for s in table_seats if s.points is not None},
                    },
                    # §6: who held a seat from which hand; "seats" names the holders at
                    # the end of the match.
                    "substitutions": [
                        {
                            "seat": sub.position,
                            "from_hand": sub.from_hand,
                            "out": sub.player_out_id,
                            "in": sub.player_in_id,
                        }
                        for sub in subs[m.pk]
                    ],
                }
            )
        out_rounds.append(
            {
                "number": rnd.number,
                "kind": rnd.kind,
                "status": rnd.status,
                "matches": out_matches,
                "sit_outs": [
                    {"player": pid, "points": sit_out_points[(pid, rnd.number)]}
                    for pid in sorted(sat_out[rnd.number])
                ],
            }
        )

    return {
        "schema": SCHEMA,
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "lot_seed": tournament.lot_seed,
            "rules": {**tournament.rules.as_dict(), "sit_out_score": setting},
        },
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "division": p.division,
                "withdrawn": p.withdrawn,
                "status": "house" if p.house else "withdrawn" if p.withdrawn else "active",
                "withdrawn_after_round": p.withdrawn_after_round if p.withdrawn else None,
            }
            for p in Player.objects.filter(tournament=tournament).order_by("pk")
        ],
        "rounds": out_rounds,
        "standings": {
            division: [
                {
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
                for row in rows
            ]
            for division, rows in table.items()
        },
        "final": final,
    }
