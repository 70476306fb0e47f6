"""The money of an event: the purse and its payout, the side pots from the
hands, the 50/50 draw and the night's reconciliation. Pure rules: integers of cents in,
integers of cents out, a seed given for every draw.

Vocabulary: the *cash unit* is the smallest amount the club hands out (a dollar, a
quarter, a cent); a prize is rounded *down* to it and what rounding leaves is shown as
*left over* (kept by the house), never spread silently. The *purse* is the entry fees
taken, less refunds, less the house's share of them, plus the sponsors' amounts. A
*payout line* pays one place of a division, one prize of the prizes page, or the final's
champions: a percentage of the purse or a fixed amount.

Ties on the money line, the director's choice:

- ``share``: players equal on every link of the tiebreak chain before the lot pool the
  amounts of the places they cover and each takes an equal share of the pool;
- ``chain``: the tiebreak chain with its lot (the standings' order) decides, and each
  place pays its own amount.

Withdrawn players take no money (as they take no prize): the places go to the next.

The side pots: a *loner basket* fee is paid by a player for every hand they went alone
(or only those they made, 3 tricks or more); a *euchre fine* by each player of a making
team held under three tricks (the lone maker alone when their partner sat out); a
*renege fine* by the player who reneged. Fees and fines go into the loner basket and the
fines pot, each paid out to the most lone marches (ties share) or to one player drawn
from a recorded seed. The hands of a seat count for whoever sat there at that hand
(docs/rules.md §6), as the prizes count them.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.domain.prizes import (
    PARTNER,
    HandLine,
    SeatLine,
    SubstitutionLine,
    seat_holder,
)
from tournaments.domain.seating import stable_order

PlayerId = Hashable

CASH_UNITS = (1, 25, 100)
TIES = ("share", "chain")
POT_TO = ("lone_marches", "draw")
PERCENT = 10_000  # a percentage is kept in basis points: 30% is 3000


class MoneyError(ValueError):
    """A money figure that cannot be: the message says which."""


def round_down(cents: int, unit: int) -> int:
    """``cents`` rounded down to the cash unit."""
    if unit not in CASH_UNITS:
        raise MoneyError(f"Unknown cash unit {unit}.")
    return cents // unit * unit


# ---------------------------------------------------------------- the purse


@dataclass(frozen=True)
class Purse:
    fees: int  # entry fees taken
    refunds: int
    house: int  # the house's share of the fees kept
    sponsors: int

    @property
    def net_fees(self) -> int:
        return self.fees - self.refunds

    @property
    def total(self) -> int:
        return self.net_fees - self.house + self.sponsors


def purse(fees: int, refunds: int, sponsors: int, house_share: int) -> Purse:
    """The pot: the house's share (basis points of the fees kept) is rounded down to the
    cent, so the players' side never loses a cent to rounding."""
    if min(fees, refunds, sponsors, house_share) < 0 or house_share > PERCENT:
        raise MoneyError("A purse figure is out of range.")
    if refunds > fees:
        raise MoneyError("More refunded than taken.")
    house = (fees - refunds) * house_share // PERCENT
    return Purse(fees, refunds, house, sponsors)


# ---------------------------------------------------------------- the payout


@dataclass(frozen=True)
class PayoutLine:
    """One line of the schedule: ``kind`` is ``place`` (``division`` and ``place``),
    ``prize`` (a prize of the prizes page, by its name) or ``final`` (the champions);
    exactly one of ``percent`` (basis points of the purse) and ``fixed`` (cents)."""

    kind: str
    division: str = ""
    place: int = 0
    prize: str = ""
    percent: int | None = None
    fixed: int | None = None

    def __post_init__(self) -> None:
        if (self.percent is None) == (self.fixed is None):
            raise MoneyError("A payout line is a percentage or a fixed amount.")
        if self.kind == "place" and (self.place < 1 or not self.division):
            raise MoneyError("A place needs its division and a place from 1.")
        if self.kind == "prize" and not self.prize:
            raise MoneyError("A prize line names its prize.")
        if self.kind not in ("place", "prize", "final"):
            raise MoneyError(f"Unknown payout line {self.kind!r}.")

    def amount(self, purse_cents: int, unit: int) -> int:
        if self.fixed is not None:
            return round_down(self.fixed, unit)
        assert self.percent is not None
        return round_down(purse_cents * self.percent // PERCENT, unit)


@dataclass(frozen=True)
class Placed:
    """A ranked player of a division, in the standings' order (the lot included):
    ``tie`` is their values on the chain's links before the lot."""

    player: PlayerId
    name: str
    division: str
    tie: tuple[int, ...]
    withdrawn: bool = False


@dataclass(frozen=True)
class Award:
    """Money to one player: ``what`` says for what (``place``, ``prize``, ``final``,
    ``pot``), ``title`` its name (a prize's, a pot's; empty for a place), ``places`` the
    places a shared award covers."""

    what: str
    division: str
    places: tuple[int, ...]
    title: str
    player: PlayerId
    name: str
    cents: int
    shared_by: int = 1


@dataclass(frozen=True)
class Payout:
    purse: int
    awards: tuple[Award, ...]
    scheduled: int  # what the schedule asked for, before ties and rounding

    @property
    def paid(self) -> int:
        return sum(a.cents for a in self.awards)

    @property
    def left(self) -> int:
        """What the purse keeps: unscheduled, rounded off, or unclaimed."""
        return self.purse - self.paid


def _split(pool: int, ways: int, unit: int) -> int:
    return round_down(pool // ways, unit)


def place_awards(
    lines: Sequence[PayoutLine], placed: Sequence[Placed], purse_cents: int, ties: str, unit: int
) -> list[Award]:
    if ties not in TIES:
        raise MoneyError(f"Unknown tie rule {ties!r}.")
    out: list[Award] = []
    divisions = sorted({line.division for line in lines if line.kind == "place"})
    for division in divisions:
        amounts = {
            line.place: line.amount(purse_cents, unit)
            for line in lines
            if line.kind == "place" and line.division == division
        }
        if not amounts:
            continue
        eligible = [p for p in placed if p.division == division and not p.withdrawn]
        i = 0
        while i < len(eligible) and i < max(amounts):
            group = [eligible[i]]
            if ties == "share":
                while (
                    i + len(group) < len(eligible) and eligible[i + len(group)].tie == group[0].tie
                ):
                    group.append(eligible[i + len(group)])
            places = tuple(range(i + 1, i + len(group) + 1))
            pool = sum(amounts.get(n, 0) for n in places)
            if pool:
                share = _split(pool, len(group), unit) if len(group) > 1 else pool
                for p in group:
                    out.append(
                        Award("place", division, places, "", p.player, p.name, share, len(group))
                    )
            i += len(group)
    return out


@dataclass(frozen=True)
class Winners:
    """Who won a prize of the prizes page or the final: each winner is one player or a
    pair, and a shared prize splits its money equally between the winners, a pair's
    share again between its two."""

    title: str
    division: str
    groups: tuple[tuple[tuple[PlayerId, str], ...], ...]


def prize_awards(
    lines: Sequence[PayoutLine],
    prizes: Sequence[Winners],
    final: Winners | None,
    purse_cents: int,
    unit: int,
) -> list[Award]:
    by_title = {w.title: w for w in prizes}
    out: list[Award] = []
    for line in lines:
        if line.kind == "place":
            continue
        won = final if line.kind == "final" else by_title.get(line.prize)
        if won is None or not won.groups:
            continue
        pool = line.amount(purse_cents, unit)
        per_group = _split(pool, len(won.groups), unit)
        ways = sum(len(g) for g in won.groups)
        for group in won.groups:
            each = _split(per_group, len(group), unit)
            for player, name in group:
                title = "" if line.kind == "final" else line.prize
                out.append(Award(line.kind, won.division, (), title, player, name, each, ways))
    return out


def payout(
    purse_cents: int,
    lines: Sequence[PayoutLine],
    placed: Sequence[Placed],
    *,
    ties: str,
    unit: int,
    prizes: Sequence[Winners] = (),
    final: Winners | None = None,
) -> Payout:
    """The whole payout; refused when the schedule asks for more than the purse."""
    scheduled = sum(line.amount(purse_cents, unit) for line in lines)
    if scheduled > purse_cents:
        raise MoneyError("The schedule pays out more than the purse holds.")
    awards = [
        *prize_awards(lines, prizes, final, purse_cents, unit),
        *place_awards(lines, placed, purse_cents, ties, unit),
    ]
    return Payout(purse_cents, tuple(awards), scheduled)


# ---------------------------------------------------------------- side pots


@dataclass(frozen=True)
class PotRules:
    loner: int = 0  # cents a lone hand pays into the basket
    loner_made_only: bool = False
    euchre: int = 0  # cents each euchred maker pays
    renege: int = 0  # cents a renege costs
    loner_to: str = "lone_marches"
    fines_to: str = "lone_marches"

    def __post_init__(self) -> None:
        if min(self.loner, self.euchre, self.renege) < 0:
            raise MoneyError("A fine is never negative.")
        if self.loner_to not in POT_TO or self.fines_to not in POT_TO:
            raise MoneyError("A pot goes to the most lone marches or a draw.")

    @property
    def any(self) -> bool:
        return bool(self.loner or self.euchre or self.renege)


@dataclass
class Owed:
    """One player's side-pot counts and what they owe for them."""

    loners: int = 0
    euchred: int = 0
    reneges: int = 0
    lone_marches: int = 0
    loner_cents: int = 0
    fine_cents: int = 0

    @property
    def cents(self) -> int:
        return self.loner_cents + self.fine_cents


@dataclass(frozen=True)
class Pots:
    owed: dict[PlayerId, Owed] = field(default_factory=dict)

    @property
    def basket(self) -> int:
        return sum(o.loner_cents for o in self.owed.values())

    @property
    def fines(self) -> int:
        return sum(o.fine_cents for o in self.owed.values())


def side_pots(
    rules: PotRules,
    seats: Sequence[SeatLine],
    hands: Sequence[HandLine],
    substitutions: Sequence[SubstitutionLine] = (),
) -> Pots:
    """What each player owes the pots, from the standing hands."""
    holder = seat_holder(seats, substitutions)
    owed: dict[PlayerId, Owed] = defaultdict(Owed)
    for h in hands:
        if h.outcome == "renege" and h.renege_by:
            who = holder(h.match, h.renege_by, h.number)
            if who is not None:
                owed[who].reneges += 1
                owed[who].fine_cents += rules.renege
        if h.outcome != "played" or not h.maker or h.maker_tricks is None:
            continue
        maker = holder(h.match, h.maker, h.number)
        if h.alone and maker is not None:
            made = h.maker_tricks >= 3
            if made or not rules.loner_made_only:
                owed[maker].loners += 1
                owed[maker].loner_cents += rules.loner
            if h.maker_tricks == 5:
                owed[maker].lone_marches += 1
        if h.maker_tricks < 3:
            team = [h.maker] if h.alone else [h.maker, PARTNER[h.maker]]
            for position in team:
                who = holder(h.match, position, h.number)
                if who is not None:
                    owed[who].euchred += 1
                    owed[who].fine_cents += rules.euchre
    return Pots(dict(owed))


def pot_winners(
    to: str,
    pots: Pots,
    eligible: Sequence[tuple[PlayerId, str]],
    seed: int | None,
) -> tuple[tuple[PlayerId, str], ...]:
    """Who takes a pot: the eligible players with the most lone marches (none if nobody
    marched alone), or one drawn from ``seed`` among them in a fixed order."""
    if not eligible:
        return ()
    if to == "draw":
        if seed is None:
            raise MoneyError("A draw needs its seed.")
        ordered = sorted(eligible, key=lambda e: stable_order(e[0]))
        return (random.Random(seed).choice(ordered),)
    marches = {p: pots.owed[p].lone_marches if p in pots.owed else 0 for p, _ in eligible}
    best = max(marches.values())
    if best == 0:
        return ()
    return tuple(sorted(((p, n) for p, n in eligible if marches[p] == best), key=lambda e: e[1]))


def pot_awards(
    title: str, pool: int, winners: Sequence[tuple[PlayerId, str]], unit: int
) -> list[Award]:
    if not winners or not pool:
        return []
    each = _split(pool, len(winners), unit)
    return [Award("pot", "", (), title, p, n, each, len(winners)) for p, n in winners]


# ---------------------------------------------------------------- the 50/50 draw


@dataclass(frozen=True)
class FiftyFifty:
    tickets: int
    sales: int  # cents taken for the tickets
    seed: int
    unit: int

    @property
    def ticket(self) -> int:
        """The winning ticket, 1 to ``tickets``: the same seed draws the same ticket."""
        if self.tickets < 1:
            raise MoneyError("No ticket was sold.")
        return random.Random(self.seed).randint(1, self.tickets)

    @property
    def prize(self) -> int:
        return round_down(self.sales // 2, self.unit)


# ---------------------------------------------------------------- the reconciliation

# How each kind of ledger entry moves money: +1 into the drawer, -1 out of it.
INTO = ("fee", "sponsor", "fines", "fifty")
OUT_OF = ("refund", "payout", "fifty_prize")
KINDS = (*INTO, *OUT_OF, "waiver")


@dataclass(frozen=True)
class Movement:
    kind: str
    cents: int
    cash: bool  # cash, or "other" (a cheque, a transfer): not in the drawer
    by: str


@dataclass(frozen=True)
class Reconciliation:
    sums: dict[str, int]  # per kind, every method
    cash_in: int
    cash_out: int
    other_in: int
    other_out: int
    by_taker: dict[str, int]  # cash each person took in, net of what they paid out
    owed: int  # side-pot fines still owed by the players
    counted: int | None  # the drawer as counted; None before a count

    @property
    def expected(self) -> int:
        """What the drawer should hold: cash in less cash out."""
        return self.cash_in - self.cash_out

    @property
    def discrepancy(self) -> int | None:
        """Counted less expected: short is negative. None until the drawer is counted."""
        return None if self.counted is None else self.counted - self.expected


def reconcile(movements: Iterable[Movement], owed: int, counted: int | None) -> Reconciliation:
    sums = dict.fromkeys(KINDS, 0)
    cash_in = cash_out = other_in = other_out = 0
    by_taker: dict[str, int] = defaultdict(int)
    for m in movements:
        if m.cents < 0 or m.kind not in KINDS:
            raise MoneyError(f"Not a movement: {m}.")
        sums[m.kind] += m.cents
        sign = 1 if m.kind in INTO else -1 if m.kind in OUT_OF else 0
        if m.cash:
            cash_in += m.cents if sign > 0 else 0
            cash_out += m.cents if sign < 0 else 0
            by_taker[m.by] += sign * m.cents
        else:
            other_in += m.cents if sign > 0 else 0
            other_out += m.cents if sign < 0 else 0
    return Reconciliation(
        sums, cash_in, cash_out, other_in, other_out, dict(sorted(by_taker.items())), owed, counted
    )


def money_text(cents: int) -> str:
    """12345 as "123.45" (a sign before a negative amount)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def parse_money(text: str) -> int:
    """ "12", "12.5", "12.50" or "12,50" as cents; anything else is refused."""
    value = text.strip().replace(",", ".").lstrip("$").strip()
    whole, dot, part = value.partition(".")
    if (
        not whole.isascii()
        or not (whole.isdigit() or (dot and whole == ""))
        or (dot and (not part.isascii() or not part.isdigit() or len(part) > 2))
        or len(whole) > 7
    ):
        raise MoneyError("An amount is dollars and cents, like 10 or 7.50.")
    return int(whole or "0") * 100 + int((part + "00")[:2] if dot else "0")
