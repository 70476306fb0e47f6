"""The money as it stands, read in a fixed number of queries and handed to the rules in
``domain/money.py``. Reads never write: an event whose money was never set up reads as
the defaults (an unsaved settings row)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.common.bilingual import tr
from tournaments.common.names import sort_key
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.rounds import Seating
from tournaments.core.reads.standings import final_progress, final_round, standings
from tournaments.core.reads.visibility import of_event
from tournaments.domain import money
from tournaments.domain.final import DIVISION_OF_TEAM
from tournaments.domain.hands import Team
from tournaments.money.models import EntryKind, MoneyEntry, MoneySettings, PayoutLine, PotTo
from tournaments.prizes.reads import event_prizes, hand_facts


def settings_of(tournament: Tournament) -> MoneySettings:
    found = MoneySettings.objects.filter(tournament=tournament).first()
    return found if found is not None else MoneySettings(tournament=tournament)


def standing(tournament: Tournament) -> QuerySet[MoneyEntry]:
    """The ledger's entries that count: not undone."""
    return MoneyEntry.objects.filter(tournament=tournament, undone_at__isnull=True)


def entry_exists(tournament: Tournament, pk: int) -> bool:
    return MoneyEntry.objects.filter(tournament=tournament, pk=pk).exists()


# ---------------------------------------------------------------- fees at the door

UNPAID, PAID, REDUCED, WAIVED, REFUNDED = "unpaid", "paid", "reduced", "waived", "refunded"
STATUSES = (UNPAID, PAID, REDUCED, WAIVED, REFUNDED)


@dataclass(frozen=True)
class FeeRow:
    player: Player
    status: str
    fee: MoneyEntry | None
    refund: MoneyEntry | None

    @property
    def settled(self) -> bool:
        return self.status != UNPAID


def fee_rows(tournament: Tournament, settings: MoneySettings) -> list[FeeRow]:
    """Every player but the house's, by name, with their fee's state (two queries)."""
    entries: dict[int, dict[str, MoneyEntry]] = defaultdict(dict)
    for e in standing(tournament).filter(kind__in=["fee", "waiver", "refund"]):
        assert e.player_id is not None
        entries[e.player_id]["refund" if e.kind == "refund" else "fee"] = e
    rows = []
    for p in Player.objects.filter(tournament=tournament, house=False):
        fee, refund = entries[p.pk].get("fee"), entries[p.pk].get("refund")
        if refund is not None:
            status = REFUNDED
        elif fee is None:
            status = UNPAID
        elif fee.kind == EntryKind.WAIVER:
            status = WAIVED
        elif fee.cents < settings.fee_cents:
            status = REDUCED
        else:
            status = PAID
        rows.append(FeeRow(p, status, fee, refund))
    rows.sort(key=lambda r: sort_key(r.player.name))
    return rows


def unpaid_present(rows: Sequence[FeeRow]) -> list[Player]:
    """The players checked in (so seated by the draw) who have neither paid nor been
    waived: those the draw waits for when the event says so."""
    return [
        r.player
        for r in rows
        if r.status == UNPAID and r.player.checked_in and not r.player.withdrawn
    ]


def draw_refusal(tournament: Tournament) -> str | None:
    """Why the draw must wait for fees (the unpaid, named), or None."""
    settings = settings_of(tournament)
    if not settings.draw_waits_for_fees:
        return None
    unpaid = unpaid_present(fee_rows(tournament, settings))
    if not unpaid:
        return None
    return _("The draw waits until everyone checked in has paid. Unpaid: %(names)s.") % {
        "names": ", ".join(p.name for p in unpaid)
    }


# ---------------------------------------------------------------- the purse and payout


def purse_of(tournament: Tournament, settings: MoneySettings) -> money.Purse:
    sums: dict[str, int] = defaultdict(int)
    for kind, cents in (
        standing(tournament)
        .filter(kind__in=["fee", "refund", "sponsor"])
        .values_list("kind", "cents")
    ):
        sums[kind] += cents
    return money.purse(sums["fee"], sums["refund"], sums["sponsor"], settings.house_share)


def schedule(tournament: Tournament) -> list[PayoutLine]:
    return list(PayoutLine.objects.filter(tournament=tournament))


def rule_lines(lines: Sequence[PayoutLine]) -> list[money.PayoutLine]:
    return [
        money.PayoutLine(
            line.kind, line.division, line.place or 0, line.prize, line.percent, line.fixed_cents
        )
        for line in lines
    ]


def placed_of(tournament: Tournament) -> list[money.Placed]:
    chain = [link for link in tournament.tiebreaks.split(",") if link != "lot"]
    out = []
    for division, rows in sorted(standings(tournament).items()):
        for row in rows:
            figures = {"total": row.record.total, "wins": row.record.wins}
            figures["margin"] = row.record.margin
            tie = tuple(figures[link] for link in chain if link in figures)
            out.append(
                money.Placed(row.player.pk, row.player.name, division, tie, row.player.withdrawn)
            )
    return out


def _prize_winners(tournament: Tournament, now: datetime) -> list[money.Winners]:
    """The prizes page's winners, by their names (unique in an event, §1)."""
    by_name = {
        name.casefold(): pk
        for pk, name in Player.objects.filter(tournament=tournament).values_list("pk", "name")
    }
    out = []
    for prize in event_prizes(tournament, now).prizes:
        groups = tuple(
            tuple((by_name[n.casefold()], n) for n in w.names if n.casefold() in by_name)
            for w in prize.winners
        )
        out.append(money.Winners(prize.rule.name, prize.rule.division, groups))
    return out


def _champions(tournament: Tournament) -> money.Winners | None:
    progress = final_progress(tournament)
    if progress is None or progress.champions is None:
        return None
    rnd = final_round(tournament)
    positions = ("N", "S") if progress.champions == Team.NS else ("E", "W")
    seats = (
        Seating.objects.filter(round=rnd, position__in=positions)
        .select_related("player")
        .order_by("position")
    )
    pair = tuple((s.player_id, s.player.name) for s in seats)
    return money.Winners("", DIVISION_OF_TEAM[progress.champions], (pair,) if pair else ())


@dataclass(frozen=True)
class PotLine:
    title: str
    pool: int
    to: str
    awards: list[money.Award]


@dataclass(frozen=True)
class Preview:
    settings: MoneySettings
    purse: money.Purse
    lines: list[PayoutLine]
    payout: money.Payout | None
    refusal: str  # why the schedule cannot be paid, or ""
    pots: money.Pots
    pot_lines: list[PotLine]
    names: dict[int, str]
    confirmed: list[MoneyEntry]
    hidden: bool  # standings are hidden from the players: not for announcing yet
    finished: bool
    digest: str = ""
    awards: list[money.Award] = field(default_factory=list)
    fifty: MoneyEntry | None = None  # the 50/50's draw, once drawn
    prize_names: list[str] = field(default_factory=list)  # the prizes page's, in order

    @property
    def total(self) -> int:
        return sum(a.cents for a in self.awards)


def pot_rules(settings: MoneySettings) -> money.PotRules:
    return money.PotRules(
        settings.loner_cents,
        settings.loner_made_only,
        settings.euchre_cents,
        settings.renege_cents,
        settings.loner_to,
        settings.fines_to,
    )


POT_TITLES = {"basket": "Loner basket", "fines": "Fines pot"}


def preview(tournament: Tournament, now: datetime) -> Preview:
    """The payout as the standings, prizes and hands stand now; ``digest`` names it, so
    a confirmation of a preview the standings have since changed is refused."""
    settings = settings_of(tournament)
    the_purse = purse_of(tournament, settings)
    lines = schedule(tournament)
    placed = placed_of(tournament)
    names = {int(p.player): p.name for p in placed}  # type: ignore[call-overload]
    facts = hand_facts(tournament)
    pots = money.side_pots(pot_rules(settings), facts.seats, facts.hands, facts.subs)
    eligible = [(p.player, p.name) for p in placed if not p.withdrawn]
    pot_lines = []
    for key, pool, to in (
        ("basket", pots.basket, settings.loner_to),
        ("fines", pots.fines, settings.fines_to),
    ):
        if not pool:
            continue
        if to == PotTo.DRAW and settings.pot_seed is None:
            pot_lines.append(PotLine(key, pool, to, []))
            continue
        seed = None if settings.pot_seed is None else settings.pot_seed + (key == "fines")
        winners = money.pot_winners(to, pots, eligible, seed)
        unit = settings.cash_unit
        pot_lines.append(PotLine(key, pool, to, money.pot_awards(key, pool, winners, unit)))
    refusal = ""
    result = None
    prizes = _prize_winners(tournament, now)
    try:
        result = money.payout(
            the_purse.total,
            rule_lines(lines),
            placed,
            ties=settings.ties,
            unit=settings.cash_unit,
            prizes=prizes,
            final=_champions(tournament),
        )
    except money.MoneyError as exc:
        refusal = str(exc)
    awards = [*(result.awards if result else ()), *(a for p in pot_lines for a in p.awards)]
    # Everything the director confirms: the purse, the pools and every payment.
    seen = (
        the_purse,
        [(p.title, p.pool) for p in pot_lines],
        [(a.what, a.title, a.division, a.places, a.player, a.cents) for a in awards],
    )
    digest = hashlib.sha256(repr(seen).encode()).hexdigest()[:16]
    return Preview(
        settings=settings,
        purse=the_purse,
        lines=lines,
        payout=result,
        refusal=refusal,
        pots=pots,
        pot_lines=pot_lines,
        names=names,
        confirmed=list(standing(tournament).filter(kind=EntryKind.PAYOUT).select_related("player")),
        hidden=of_event(tournament).hidden,
        finished=tournament.status == Tournament.Status.FINISHED,
        digest=digest,
        awards=awards,
        fifty=standing(tournament).filter(kind=EntryKind.FIFTY_PRIZE).first(),
        prize_names=[p.title for p in prizes],
    )


@dataclass(frozen=True)
class PayoutRow:
    what: str  # final, place, prize, pot
    title: str  # a prize's name; a pot's key (basket, fines)
    division: str
    places: str  # "3=4" for a shared place, else ""
    place: int
    name: str
    cents: int
    shared_by: int


ORDER = {"final": 0, "place": 1, "prize": 2, "pot": 3}


def payout_rows(seen: Preview, *, handing_out: bool = False) -> list[PayoutRow]:
    """The preview's payments as the page and the sheets list them: the final, each
    division's places, the prizes, the pots. ``handing_out``: a division's places from
    the last paid up to the first, the order a presenter calls them."""
    rows = [
        PayoutRow(
            a.what,
            a.title,
            a.division,
            "=".join(str(n) for n in a.places) if len(a.places) > 1 else "",
            a.places[0] if a.places else 0,
            a.name,
            a.cents,
            a.shared_by,
        )
        for a in seen.awards
    ]
    sign = -1 if handing_out else 1
    rows.sort(key=lambda r: (ORDER[r.what], r.division, sign * r.place, sort_key(r.name)))
    return rows


def award_label(award: money.Award) -> str:
    """The ledger's label of a payment: stable, so one line pays a player once."""
    if award.what == "place":
        return f"place {award.division} {'/'.join(map(str, award.places))}"
    if award.what == "final":
        return "final"
    if award.what == "pot":
        return f"pot {award.title}"
    return f"prize {award.title}"[:120]


# ---------------------------------------------------------------- the reconciliation


@dataclass(frozen=True)
class Sheet:
    settings: MoneySettings
    reconciliation: money.Reconciliation
    entries: list[MoneyEntry]  # every entry, undone ones too, oldest first
    purse: money.Purse
    owed: dict[int, int]  # per player, side-pot fines still owed


def fines_owed(tournament: Tournament, settings: MoneySettings) -> dict[int, int]:
    """What each player still owes the side pots: the hands' fines less what they paid."""
    facts = hand_facts(tournament)
    pots = money.side_pots(pot_rules(settings), facts.seats, facts.hands, facts.subs)
    paid: dict[int, int] = defaultdict(int)
    for pid, cents in (
        standing(tournament).filter(kind=EntryKind.FINES).values_list("player_id", "cents")
    ):
        paid[pid] += cents
    owed = {int(p): o.cents for p, o in pots.owed.items()}  # type: ignore[call-overload]
    return {p: owed.get(p, 0) - paid.get(p, 0) for p in {*owed, *paid}}


def reconciliation(tournament: Tournament) -> Sheet:
    settings = settings_of(tournament)
    entries = list(
        MoneyEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("at", "pk")
    )
    live = [e for e in entries if e.undone_at is None]
    counts = [e for e in live if e.kind == EntryKind.COUNT]
    moves = [
        money.Movement(e.kind, e.cents, e.method == MoneyEntry.Method.CASH, e.by)
        for e in live
        if e.kind != EntryKind.COUNT
    ]
    owed = fines_owed(tournament, settings)
    rec = money.reconcile(
        moves, sum(v for v in owed.values() if v > 0), counts[-1].cents if counts else None
    )
    sums: dict[str, int] = defaultdict(int)
    for e in live:
        sums[e.kind] += e.cents
    the_purse = money.purse(sums["fee"], sums["refund"], sums["sponsor"], settings.house_share)
    return Sheet(settings, rec, entries, the_purse, owed)


def summary_lines(sheet: Sheet) -> list[tuple[str, int | None]]:
    """The reconciliation's figures, as both the page, the CSV and the PDF list them."""
    rec = sheet.reconciliation
    return [
        (tr("Entry fees taken"), rec.sums["fee"]),
        (tr("Refunded"), rec.sums["refund"]),
        (tr("Sponsors"), rec.sums["sponsor"]),
        (tr("Side-pot fines paid"), rec.sums["fines"]),
        (tr("50/50 tickets sold"), rec.sums["fifty"]),
        (tr("Paid out"), rec.sums["payout"]),
        (tr("50/50 prize"), rec.sums["fifty_prize"]),
        (tr("The house's share"), sheet.purse.house),
        (tr("Fines still owed"), rec.owed),
        (tr("Cash in"), rec.cash_in),
        (tr("Cash out"), rec.cash_out),
        (tr("Taken by other means (not in the drawer)"), rec.other_in),
        (tr("Paid by other means"), rec.other_out),
        (tr("The drawer should hold"), rec.expected),
        (tr("Counted"), rec.counted),
        (tr("Discrepancy (counted less expected)"), rec.discrepancy),
    ]


# ---------------------------------------------------------------- a player's own money


@dataclass(frozen=True)
class Own:
    fee: str  # a FeeRow status
    fee_cents: int
    owed: int | None  # fines still owed; None while the standings are hidden
    won: list[tuple[str, int]]  # for what, how much
    hidden: bool


def own_money(player: Player) -> Own:
    """What one player owes or won, and nobody else's: their fee, their side-pot fines
    still owed and their payments. While the standings are hidden (RULES.md §5) the fines
    (counted from every hand, the hidden rounds' too) and the payout wait."""
    tournament = player.tournament
    hidden = of_event(tournament).hidden
    mine = list(reads_own(tournament, player))
    fee = next((e for e in mine if e.kind in (EntryKind.FEE, EntryKind.WAIVER)), None)
    refunded = any(e.kind == EntryKind.REFUND for e in mine)
    settings = settings_of(tournament)
    status = (
        REFUNDED
        if refunded
        else UNPAID
        if fee is None
        else WAIVED
        if fee.kind == EntryKind.WAIVER
        else REDUCED
        if fee.cents < settings.fee_cents
        else PAID
    )
    owed = None
    if not hidden:
        facts = hand_facts(tournament)
        pots = money.side_pots(pot_rules(settings), facts.seats, facts.hands, facts.subs)
        due = pots.owed[player.pk].cents if player.pk in pots.owed else 0
        owed = max(due - sum(e.cents for e in mine if e.kind == EntryKind.FINES), 0)
    won = (
        []
        if hidden
        else [(label_text(e.label), e.cents) for e in mine if e.kind == EntryKind.PAYOUT]
    )
    return Own(status, fee.cents if fee else 0, owed, won, hidden)


def label_text(label: str) -> str:
    """A payment's ledger label ("place A 3/4", "final", "pot basket", "prize …") in the
    reader's words."""
    kind, _space, rest = label.partition(" ")
    if kind == "final":
        return _("Champions (the final)")
    if kind == "place":
        division, _space, places = rest.partition(" ")
        if "/" in places:
            return _("Places %(places)s shared, division %(division)s") % {
                "places": places.replace("/", "="),
                "division": division,
            }
        return _("Place %(place)s, division %(division)s") % {
            "place": places,
            "division": division,
        }
    if kind == "pot":
        return _("Loner basket") if rest == "basket" else _("Fines pot")
    return rest


def reads_own(tournament: Tournament, player: Player) -> QuerySet[MoneyEntry]:
    return standing(tournament).filter(player=player).order_by("at", "pk")
