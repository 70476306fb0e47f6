"""The money of a whole event: a simulated 16-table night with fees at the
door, two refunds, a sponsor, a payout schedule with a tie on the money line, a loner
basket and euchre fines; every amount worked by hand below, the reconciliation to the
cent, and a corrected hand moving its pot. Then the commands' refusals: a repeated
action answered as the first, a stale one 409, two desks at once charging once."""

from __future__ import annotations

import random
import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection, connections

from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import HandEntry
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.services import Conflict, ServiceError
from tournaments.core.services.corrections import correct_hand
from tournaments.core.services.players import register_player, set_withdrawn
from tournaments.core.simulate import EPOCH, Simulation
from tournaments.domain.hands import Hand, Outcome, Seat
from tournaments.money import reads, services
from tournaments.money.models import EntryKind, MoneyEntry

FEE, REDUCED = 1_000, 500


def door(t: Tournament) -> None:
    """The desk at the door: 60 full fees in cash from two desks, two reduced by card,
    two helpers waived; two early leavers pay, withdraw and are refunded before the draw.
    The tiebreak chain is total then lot, so a tie on total shares the money line."""
    Tournament.objects.filter(pk=t.pk).update(tiebreaks="total,lot")
    services.configure(
        t,
        version=0,
        by="dir",
        fee_cents=FEE,
        reduced_fee_cents=REDUCED,
        cash_unit=100,
        house_share=1_000,  # 10%
        ties="share",
        loner_cents=100,
        euchre_cents=25,
        renege_cents=50,
    )
    players = list(Player.objects.filter(tournament=t).order_by("pk"))
    assert len(players) == 64
    for i, p in enumerate(players):
        how, method = "full", "cash"
        if i in (10, 11):
            how, method = "reduced", "other"
        elif i in (20, 21):
            how = "waived"
        services.take_fee(
            t, p.pk, how=how, method=method, client_key=f"fee-{p.pk}", by=f"desk{i % 2 + 1}"
        )
    for n in (1, 2):
        leaver = register_player(t, f"Early Leaver {n}", "AB"[n - 1], by="desk1")
        services.take_fee(t, leaver.pk, how="full", client_key=f"fee-leaver-{n}", by="desk1")
        set_withdrawn(leaver, True, by="desk1", reason="felt unwell")
        services.refund(t, leaver.pk, client_key=f"refund-{n}", by="desk1")
    services.add_sponsor(t, "Corner Bakery", 10_000, method="other", client_key="sp", by="dir")


@pytest.fixture
def night(db) -> Tournament:
    sim = Simulation(16, seed=34)
    sim.before_draw = door
    return sim.run()


def tie_in(placed: list, division: str) -> int:
    """The first place k (from 2) whose player ties the next on total: pay k places."""
    eligible = [p for p in placed if p.division == division and not p.withdrawn]
    for k in range(2, 9):
        if eligible[k - 1].tie == eligible[k].tie:
            return k
    raise AssertionError("no tie in this division")


def test_a_simulated_night_pays_every_cent_as_worked_by_hand(night: Tournament) -> None:
    t = night
    assert t.status == Tournament.Status.FINISHED
    settings = reads.settings_of(t)

    # ---- fees: 60 x $10 + 2 x $5 + 2 x $10 (the leavers), $20 of it refunded.
    the_purse = reads.purse_of(t, settings)
    assert the_purse.fees == 60 * 1_000 + 2 * 500 + 2 * 1_000 == 63_000
    assert the_purse.refunds == 2_000
    assert the_purse.house == 6_100  # 10% of $610
    assert the_purse.sponsors == 10_000
    assert the_purse.total == 61_000 - 6_100 + 10_000 == 64_900
    statuses = Counter(r.status for r in reads.fee_rows(t, settings))
    assert statuses == {"paid": 60, "reduced": 2, "waived": 2, "refunded": 2}

    # ---- the schedule: division A pays down to a tie on the money line, B two places.
    placed = reads.placed_of(t)
    k = tie_in(placed, "A")
    percent = {1: 2_000, 2: 1_200, 3: 800, 4: 600, 5: 400, 6: 300, 7: 200, 8: 100}
    for place in range(1, k + 1):
        services.add_line(
            t, kind="place", division="A", place=place, percent=percent[place], by="dir"
        )
    services.add_line(t, kind="place", division="B", place=1, fixed_cents=5_050, by="dir")
    services.add_line(t, kind="place", division="B", place=2, percent=500, by="dir")
    services.add_line(t, kind="final", fixed_cents=4_000, by="dir")

    # Fines from the hands, counted here straight from the rows (no substitutions in a
    # plain simulation: the seat's holder at the end held it all match).
    hands = list(
        HandEntry.objects.standing()
        .filter(match__round__tournament=t, match__round__kind=Round.Kind.PRELIMINARY)
        .select_related("match__round")
    )
    lone = [h for h in hands if h.outcome == "played" and h.alone]
    euchred_pairs = [
        h for h in hands if h.outcome == "played" and h.maker_tricks < 3 and not h.alone
    ]
    euchred_alone = [h for h in lone if h.maker_tricks < 3]
    reneges = [h for h in hands if h.outcome == "renege"]
    basket = 100 * len(lone)
    fines = 25 * (2 * len(euchred_pairs) + len(euchred_alone)) + 50 * len(reneges)
    assert basket > 0 and len(euchred_pairs) > 0
    seen = reads.preview(t, EPOCH)
    assert (seen.pots.basket, seen.pots.fines) == (basket, fines)

    # ---- the payout by hand: a place's amount is its percentage of $649.00 rounded
    # down to the dollar; players equal on total pool the places they cover.
    def amount(place: int) -> int:
        return 64_900 * percent[place] // 10_000 // 100 * 100 if place <= k else 0

    assert [amount(n) for n in range(1, 3)] == [12_900, 7_700]  # $129.80, $77.88
    a = [p for p in placed if p.division == "A" and not p.withdrawn]
    b = [p for p in placed if p.division == "B" and not p.withdrawn]
    expected: dict[object, int] = {}
    i = 0
    while i < k:
        group = [p for p in a[i:] if p.tie == a[i].tie]
        pooled = sum(amount(n) for n in range(i + 1, i + len(group) + 1))
        for p in group:
            expected[p.player] = pooled // len(group) // 100 * 100
        i += len(group)
    tied_at_k = [p for p in a if p.tie == a[k - 1].tie]
    assert len(tied_at_k) >= 2 and a[k] in tied_at_k  # the tie straddles the money line
    assert all(expected[p.player] == expected[a[k - 1].player] for p in tied_at_k)
    if b[0].tie == b[1].tie:
        both = (5_000 + 3_200) // 2 // 100 * 100
        expected[b[0].player], expected[b[1].player] = both, both
    else:
        expected[b[0].player] = 5_000  # $50.50 fixed rounds down to $50
        expected[b[1].player] = 3_200  # 5% of $649 = $32.45 -> $32
    got = {aw.player: aw.cents for aw in seen.awards if aw.what == "place"}
    assert got == expected
    final = [aw for aw in seen.awards if aw.what == "final"]
    assert [aw.cents for aw in final] == [2_000, 2_000]

    # The side pots to the most lone marches (recounted from the rows: lone, 5 tricks).
    marches = Counter(
        seat.player_id
        for h in lone
        if h.maker_tricks == 5
        for seat in Seating.objects.filter(
            round__number=h.match.round.number,
            round__tournament=t,
            table=h.match.table,
            position=h.maker,
        )
        if not seat.player.withdrawn
    )
    best = max(marches.values())
    top = sorted(p for p, n in marches.items() if n == best)
    pot_awards = {(aw.title, aw.player): aw.cents for aw in seen.awards if aw.what == "pot"}
    assert pot_awards == {
        **{("basket", p): basket // len(top) // 100 * 100 for p in top},
        **{("fines", p): fines // len(top) // 100 * 100 for p in top},
    }

    # ---- a corrected hand moves its pot: a hand made with 3 or 4 tricks, corrected to
    # the same tricks alone (the same point), pays a loner fee into the basket.
    made = next(
        h
        for h in hands
        if h.outcome == "played"
        and not h.alone
        and h.maker_tricks in (3, 4)
        and not h.dealer_partner_ordered_up
        and not h.defender_alone
    )
    correct_hand(
        made,
        Hand(Outcome.PLAYED, Seat(made.maker), True, made.maker_tricks),
        by="dir",
        reason="it was a loner",
        confirm=True,
    )
    moved = reads.preview(t, EPOCH)
    assert moved.pots.basket == basket + 100
    assert moved.pots.fines == fines
    assert moved.digest != seen.digest

    # ---- the players pay their fines at the desk (one player only half).
    owed = reads.fines_owed(t, settings)
    owing = sorted(p for p, c in owed.items() if c > 0)
    assert sum(owed.values()) == basket + 100 + fines
    half = owing[0]
    for p in owing:
        cents = owed[p] // 2 if p == half else owed[p]
        services.pay_fines(t, p, cents, client_key=f"fines-{p}", by="desk2")
    still = owed[half] - owed[half] // 2

    # ---- confirm the payout the director previewed; a stale preview is refused.
    with pytest.raises(Conflict):
        services.confirm_payout(t, digest=seen.digest, client_key="pay-old", by="dir")
    paid = services.confirm_payout(t, digest=moved.digest, client_key="pay", by="dir")
    again = services.confirm_payout(t, digest=moved.digest, client_key="pay", by="dir")
    assert [e.pk for e in again] == [e.pk for e in paid]
    paid_total = sum(e.cents for e in paid)
    assert paid_total == moved.total

    # ---- the reconciliation, to the cent.
    sheet = reads.reconciliation(t)
    rec = sheet.reconciliation
    cash_fees = 60 * 1_000 + 2 * 1_000
    cash_fines = basket + 100 + fines - still
    assert rec.cash_in == cash_fees + cash_fines
    assert rec.cash_out == 2_000 + paid_total  # refunds (cash) and the payout
    assert rec.other_in == 2 * 500 + 10_000  # the reduced fees by card, the sponsor
    assert rec.owed == still
    assert rec.expected == cash_fees + cash_fines - 2_000 - paid_total
    takers = rec.by_taker
    # desk1 took the even-numbered players' fees (30 in cash: of its 32, player 10 paid
    # by card and 20 was waived) and the leavers' two, which it refunded.
    assert takers["desk1"] == 30 * 1_000 + 2 * 1_000 - 2_000
    assert takers["desk2"] == 30 * 1_000 + cash_fines
    assert takers["dir"] == -paid_total
    assert sum(takers.values()) == rec.expected
    services.count_drawer(t, rec.expected - 5, client_key="count-1", by="dir")
    assert reads.reconciliation(t).reconciliation.discrepancy == -5
    services.count_drawer(t, rec.expected, client_key="count-2", by="dir")
    assert reads.reconciliation(t).reconciliation.discrepancy == 0


def fresh(make_tournament) -> tuple[Tournament, Player]:
    t = make_tournament(tables=2)
    services.configure(t, version=0, by="dir", fee_cents=FEE)
    return t, Player.objects.filter(tournament=t).order_by("pk").first()


def test_a_repeated_fee_is_answered_as_the_first(make_tournament) -> None:
    t, p = fresh(make_tournament)
    first = services.take_fee(t, p.pk, how="full", client_key="k1", by="desk1")
    again = services.take_fee(t, p.pk, how="full", client_key="k1", by="desk1")
    assert again.pk == first.pk
    assert MoneyEntry.objects.filter(kind=EntryKind.FEE).count() == 1


def test_a_second_desk_taking_the_same_fee_is_told_who_took_it(make_tournament) -> None:
    t, p = fresh(make_tournament)
    services.take_fee(t, p.pk, how="full", client_key="k1", by="desk1")
    with pytest.raises(Conflict) as refused:
        services.take_fee(t, p.pk, how="full", client_key="k2", by="desk2")
    assert "desk1" in refused.value.message
    assert refused.value.status == 409


def test_stale_settings_are_refused_and_an_undo_needs_its_reason(make_tournament) -> None:
    t, p = fresh(make_tournament)
    with pytest.raises(Conflict):
        services.configure(t, version=0, by="dir", fee_cents=2_000)
    entry = services.take_fee(t, p.pk, how="full", client_key="k1", by="desk1")
    with pytest.raises(ServiceError):
        services.undo(t, entry.pk, reason=" ", by="dir")
    services.undo(t, entry.pk, reason="wrong player", by="dir")
    with pytest.raises(Conflict):
        services.undo(t, entry.pk, reason="again", by="dir")
    # Undone, the fee may be taken again: the ledger keeps both.
    services.take_fee(t, p.pk, how="full", client_key="k2", by="desk1")
    assert MoneyEntry.objects.filter(player=p).count() == 2


def test_a_refund_only_on_withdrawal_and_before_the_draw(make_tournament) -> None:
    t, p = fresh(make_tournament)
    services.take_fee(t, p.pk, how="full", client_key="k1", by="desk1")
    with pytest.raises(ServiceError):
        services.refund(t, p.pk, client_key="r1", by="desk1")
    set_withdrawn(p, True, by="desk1")
    Round.objects.create(tournament=t, number=1)
    with pytest.raises(ServiceError):
        services.refund(t, p.pk, client_key="r1", by="desk1")
    assert not MoneyEntry.objects.filter(kind=EntryKind.REFUND).exists()


def test_the_draw_waits_for_the_unpaid_when_the_event_says_so(make_tournament) -> None:
    t, p = fresh(make_tournament)
    assert reads.draw_refusal(t) is None
    services.configure(t, version=1, by="dir", draw_waits_for_fees=True)
    refusal = reads.draw_refusal(t)
    assert refusal is not None and p.name in refusal
    for other in Player.objects.filter(tournament=t):
        services.take_fee(t, other.pk, how="waived", client_key=f"w{other.pk}", by="desk1")
    assert reads.draw_refusal(t) is None


def test_a_payout_before_the_event_is_finished_is_refused(make_tournament) -> None:
    t, _p = fresh(make_tournament)
    seen = reads.preview(t, EPOCH)
    with pytest.raises(ServiceError):
        services.confirm_payout(t, digest=seen.digest, client_key="p", by="dir")


def test_the_fifty_fifty_keeps_its_seed_and_pays_half(make_tournament) -> None:
    t, _p = fresh(make_tournament)
    services.sell_fifty(t, 30, 3_000, client_key="s1", by="desk1")
    services.sell_fifty(t, 11, 1_100, client_key="s2", by="desk2")
    drawn = services.draw_fifty(t, random.Random(5), client_key="d1", by="dir")
    assert drawn.cents == 2_000  # half of $41 is $20.50, paid in dollars
    assert drawn.tickets == 41
    assert drawn.label == str(random.Random(drawn.seed).randint(1, 41))
    with pytest.raises(Conflict):
        services.draw_fifty(t, random.Random(6), client_key="d2", by="dir")


@pytest.mark.django_db(transaction=True)
def test_two_desks_at_once_charge_a_player_once(make_tournament) -> None:
    t, p = fresh(make_tournament)
    start = threading.Barrier(2)
    answers: list[str] = []

    def desk(n: int) -> None:
        try:
            start.wait()
            services.take_fee(t, p.pk, how="full", client_key=f"desk{n}", by=f"desk{n}")
            answers.append("taken")
        except Conflict:
            answers.append("409")
        except Exception as exc:  # SQLite's writer lock: the second desk waits, then 409
            answers.append(type(exc).__name__)
        finally:
            connections.close_all()

    if connection.vendor == "sqlite" and "memory" in str(connection.settings_dict["NAME"]):
        pytest.skip("threads do not share an in-memory SQLite database")
    threads = [threading.Thread(target=desk, args=(n,)) for n in (1, 2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(answers) == ["409", "taken"]
    assert MoneyEntry.objects.filter(player=p, kind=EntryKind.FEE).count() == 1


def test_the_ledger_refuses_a_second_standing_fee_whatever_the_code_says(make_tournament) -> None:
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    t, p = fresh(make_tournament)
    services.take_fee(t, p.pk, how="full", client_key="k1", by="desk1")
    with pytest.raises(IntegrityError), transaction.atomic():
        MoneyEntry.objects.create(
            tournament=t,
            kind="fee",
            player=p,
            cents=1_000,
            client_key="k2",
            by="x",
            at=timezone.now(),
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        MoneyEntry.objects.create(
            tournament=t,
            kind="fee",
            player=p,
            cents=1_000,
            client_key="k3",
            by="x",
            at=timezone.now(),
            undone_at=timezone.now() + timedelta(seconds=1),
        )


def test_the_draw_itself_waits_for_the_unpaid_and_names_them(make_tournament) -> None:
    from tournaments.core.services.rounds import draw_first_round

    t, p = fresh(make_tournament)
    services.configure(t, version=1, by="dir", draw_waits_for_fees=True)
    with pytest.raises(ServiceError) as refused:
        draw_first_round(t, by="dir", seed=1)
    assert p.name in refused.value.message
    assert not Round.objects.filter(tournament=t).exists()
    for other in Player.objects.filter(tournament=t):
        services.take_fee(t, other.pk, how="full", client_key=f"f{other.pk}", by="desk1")
    assert draw_first_round(t, by="dir", seed=1).number == 1
