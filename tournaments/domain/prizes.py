"""Club-night prizes: who wins what, from the recorded numbers.

A *prize* names one figure of each player (or of each pair in one match) and whether the
highest or the lowest wins, overall or within one division. Ties are shared: every player
on the winning value is a winner, listed in name order. A "most" prize nobody scored
(no lone march at all) has no winner rather than every player at 0.

The figures of a player: ``total``, ``wins`` and ``margin`` as the standings count them
(docs/rules.md §4); ``lone_marches`` (hands they made alone and took all five tricks);
``euchres`` (hands their team defended and held the makers under three tricks);
``reneges`` (hands they reneged); ``best_match`` (their most points in one match);
``expectation`` (their wins above what the rating expected of their partners and opponents,
``domain/expectation.py``: only rated players have it, to two decimals).
The hands of a seat count for whoever sat there at that hand (§6 substitutions).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

PlayerId = Hashable

# The figures a prize may name, in the order the director's form offers them.
FIGURES = (
    "total",
    "wins",
    "margin",
    "lone_marches",
    "euchres",
    "reneges",
    "best_match",
    "expectation",
)
PAIR = "pair_match"  # the best pair's figure: a team's points in one match
POSITIONS = ("N", "E", "S", "W")
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


@dataclass(frozen=True)
class HandLine:
    """One standing hand of a preliminary match, as far as prizes ask."""

    match: Hashable
    number: int
    outcome: str  # "played", "renege", "misdeal"
    maker: str = ""  # a seat, for a played hand
    alone: bool = False
    maker_tricks: int | None = None
    renege_by: str = ""


@dataclass(frozen=True)
class SeatLine:
    """Who held a seat of a match at its end, and their result there."""

    match: Hashable
    position: str
    player: PlayerId
    team_points: int  # team score + team bonuses
    points: int  # team points + own awards and penalties


@dataclass(frozen=True)
class SubstitutionLine:
    """``player_out`` held ``position`` of ``match`` for the hands before ``from_hand``,
    taking the team points of those hands out of the seat's (§6)."""

    match: Hashable
    position: str
    from_hand: int
    player_out: PlayerId
    out_team_points: int = 0


@dataclass(frozen=True)
class PlayerLine:
    """A ranked player's standing figures."""

    player: PlayerId
    name: str
    division: str
    total: int
    wins: int
    margin: int
    withdrawn: bool = False


@dataclass(frozen=True)
class PrizeRule:
    name: str
    figure: str  # one of FIGURES, or PAIR
    highest: bool = True
    division: str = ""  # "" overall

    def __post_init__(self) -> None:
        if self.figure not in (*FIGURES, PAIR):
            raise ValueError(f"Unknown figure {self.figure!r}.")


@dataclass(frozen=True)
class Winner:
    names: tuple[str, ...]  # one player, or the two partners of a pair
    division: str
    where: str = ""  # the match of a pair: "round 2, table 3"


@dataclass(frozen=True)
class Prize:
    rule: PrizeRule
    value: float | None  # None: nobody qualifies
    winners: tuple[Winner, ...] = field(default_factory=tuple)

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


def _same(text: str) -> str:
    return text


def builtin_rules(
    divisions: Iterable[str] = ("A", "B"), label: Callable[[str], str] = _same
) -> tuple[PrizeRule, ...]:
    """The prizes every event has without setup; ``label`` translates their names."""
    rules = [PrizeRule(label("Most lone marches"), "lone_marches")]
    for d in divisions:
        rules.append(PrizeRule(label("High total, division %(d)s") % {"d": d}, "total", True, d))
        rules.append(PrizeRule(label("Low total, division %(d)s") % {"d": d}, "total", False, d))
    rules.append(PrizeRule(label("Best pair in a single match"), PAIR))
    return tuple(rules)


def _holder(
    seats: dict[tuple[Hashable, str], SeatLine],
    subs: dict[tuple[Hashable, str], list[SubstitutionLine]],
    match: Hashable,
    position: str,
    number: int,
) -> PlayerId | None:
    """Who sat at ``position`` for hand ``number``: the player out of the first
    substitution from a later hand, else the seat's holder at the end."""
    for sub in subs.get((match, position), ()):
        if number < sub.from_hand:
            return sub.player_out
    seat = seats.get((match, position))
    return seat.player if seat else None


def seat_holder(
    seats: Sequence[SeatLine], substitutions: Sequence[SubstitutionLine] = ()
) -> Callable[[Hashable, str, int], PlayerId | None]:
    """Who sat at a seat for a hand: ``holder(match, position, number)`` (the side pots
    of domain/money.py count the hands the same way as the figures below)."""
    by_seat = {(s.match, s.position): s for s in seats}
    subs: dict[tuple[Hashable, str], list[SubstitutionLine]] = defaultdict(list)
    for sub in sorted(substitutions, key=lambda s: s.from_hand):
        subs[(sub.match, sub.position)].append(sub)
    return lambda match, position, number: _holder(by_seat, subs, match, position, number)


def figures(
    players: Sequence[PlayerLine],
    seats: Sequence[SeatLine],
    hands: Sequence[HandLine],
    substitutions: Sequence[SubstitutionLine] = (),
    expectation: Mapping[PlayerId, float] | None = None,
) -> dict[PlayerId, dict[str, float]]:
    """Every figure of every ranked player (``expectation``: wins above expectation of
    the rated ones)."""
    by_seat = {(s.match, s.position): s for s in seats}
    subs: dict[tuple[Hashable, str], list[SubstitutionLine]] = defaultdict(list)
    for sub in sorted(substitutions, key=lambda s: s.from_hand):
        subs[(sub.match, sub.position)].append(sub)
    out: dict[PlayerId, dict[str, float]] = {
        p.player: {
            "total": p.total,
            "wins": p.wins,
            "margin": p.margin,
            "lone_marches": 0,
            "euchres": 0,
            "reneges": 0,
            "best_match": 0,
        }
        for p in players
    }
    best: dict[PlayerId, int] = {}
    for s in seats:
        best[s.player] = max(best.get(s.player, s.points), s.points)
    for pid, value in best.items():
        if pid in out:
            out[pid]["best_match"] = value
    for pid, surplus in (expectation or {}).items():
        if pid in out:
            out[pid]["expectation"] = round(surplus, 2)

    def count(match: Hashable, position: str, number: int, figure: str) -> None:
        pid = _holder(by_seat, subs, match, position, number)
        if pid in out:
            out[pid][figure] += 1

    for h in hands:
        if h.outcome == "renege" and h.renege_by:
            count(h.match, h.renege_by, h.number, "reneges")
        if h.outcome != "played" or not h.maker or h.maker_tricks is None:
            continue
        if h.alone and h.maker_tricks == 5:
            count(h.match, h.maker, h.number, "lone_marches")
        if h.maker_tricks < 3:
            for position in POSITIONS:
                if position not in (h.maker, PARTNER[h.maker]):
                    count(h.match, position, h.number, "euchres")
    return out


def _pick(rule: PrizeRule, candidates: Sequence[tuple[float, Winner]], *, zero_wins: bool) -> Prize:
    if not candidates:
        return Prize(rule, None)
    values = [v for v, _ in candidates]
    value = max(values) if rule.highest else min(values)
    if rule.highest and value == 0 and not zero_wins:
        return Prize(rule, None)
    winners = sorted((w for v, w in candidates if v == value), key=lambda w: (w.names, w.where))
    return Prize(rule, value, tuple(winners))


# "Most" of a count nobody scored has no winner; a total or margin of 0 may still be best.
_COUNTS = ("lone_marches", "euchres", "reneges", "wins")


def award(
    rule: PrizeRule,
    players: Sequence[PlayerLine],
    figs: dict[PlayerId, dict[str, float]],
    pairs: Sequence[tuple[int, Winner]] = (),
) -> Prize:
    """One prize. Withdrawn players take no prize: a low total for leaving early is not
    a club-night booby prize."""
    if rule.figure == PAIR:
        chosen = [(v, w) for v, w in pairs if not rule.division or w.division == rule.division]
        return _pick(rule, chosen, zero_wins=True)
    candidates = [
        (figs[p.player][rule.figure], Winner((p.name,), p.division))
        for p in players
        if not p.withdrawn
        and (not rule.division or p.division == rule.division)
        and p.player in figs
        and rule.figure in figs[p.player]
    ]
    return _pick(rule, candidates, zero_wins=rule.figure not in _COUNTS)


def pairs_of(
    players: Sequence[PlayerLine],
    seats: Sequence[SeatLine],
    where: dict[Hashable, str],
    substitutions: Sequence[SubstitutionLine] = (),
) -> list[tuple[int, Winner]]:
    """Each team of each match with its points: the two partners who held the seats at
    its end, named in the division of the first (partners share one).

    A team's points are the whole match's, whichever of its seats changed hands: the
    seat keeps only its holder's hands (§6), and a pair must not score more for the
    substitute having taken the S seat than the N one (docs/rules.md §4.1)."""
    known = {p.player: p for p in players}
    by_seat = {(s.match, s.position): s for s in seats}
    given: dict[tuple[Hashable, str], int] = defaultdict(int)
    for sub in substitutions:
        given[(sub.match, sub.position)] += sub.out_team_points
    out = []
    for (match, position), seat in by_seat.items():
        if position not in ("N", "E"):
            continue
        partner = by_seat.get((match, PARTNER[position]))
        if partner is None or seat.player not in known or partner.player not in known:
            continue
        a, b = known[seat.player], known[partner.player]
        if a.withdrawn or b.withdrawn:
            continue
        names = tuple(sorted((a.name, b.name)))
        points = seat.team_points + given[(match, position)]
        # The pair's division is its A player's, wherever the letters put them (a table
        # turned for a stationary player seats A players elsewhere than N and E).
        out.append((points, Winner(names, min(a.division, b.division), where.get(match, ""))))
    return out


def prizes(
    players: Sequence[PlayerLine],
    seats: Sequence[SeatLine],
    hands: Sequence[HandLine],
    substitutions: Sequence[SubstitutionLine] = (),
    rules: Sequence[PrizeRule] = (),
    where: dict[Hashable, str] | None = None,
    label: Callable[[str], str] = _same,
    expectation: Mapping[PlayerId, float] | None = None,
) -> list[Prize]:
    """Every prize of the event: the built-in ones, then the director's ``rules``."""
    figs = figures(players, seats, hands, substitutions, expectation)
    pairs = pairs_of(players, seats, where or {}, substitutions)
    divisions = sorted({p.division for p in players}) or ["A", "B"]
    return [award(r, players, figs, pairs) for r in (*builtin_rules(divisions, label), *rules)]
