"""The money's rows: an event's money settings, its payout schedule, and the ledger.

Every amount is an integer of cents with a CHECK. The ledger is never edited: a mistake
is undone (with a reason) and entered again. Each entry carries the client's key under a
unique constraint, so a repeated POST finds its first answer; one standing fee (or
waiver) and one standing refund per player are unique too, so two desks marking the same
player at once cannot charge them twice: the database refuses the second.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.domain.money import CASH_UNITS, PERCENT


class CashUnit(models.IntegerChoices):
    CENT = 1, _("cents")
    QUARTER = 25, _("quarters")
    DOLLAR = 100, _("dollars")


class TieRule(models.TextChoices):
    SHARE = "share", _("Tied players share the places they cover equally")
    CHAIN = "chain", _("The tiebreak chain (with its lot) decides")


class PotTo(models.TextChoices):
    LONE_MARCHES = "lone_marches", _("The most lone marches (ties share)")
    DRAW = "draw", _("A draw among the players")


class MoneySettings(models.Model):
    """An event's fees, purse rules and side pots; ``version`` moves with every change,
    so a form sent from a page read before another change is refused (409)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, primary_key=True, related_name="money"
    )
    fee_cents = models.PositiveIntegerField(default=0)
    reduced_fee_cents = models.PositiveIntegerField(default=0)
    cash_unit = models.PositiveIntegerField(choices=CashUnit, default=CashUnit.DOLLAR)
    house_share = models.PositiveIntegerField(default=0, help_text="Basis points of the fees.")
    draw_waits_for_fees = models.BooleanField(default=False)
    ties = models.CharField(max_length=8, choices=TieRule, default=TieRule.SHARE)
    loner_cents = models.PositiveIntegerField(default=0)
    loner_made_only = models.BooleanField(default=False)
    euchre_cents = models.PositiveIntegerField(default=0)
    renege_cents = models.PositiveIntegerField(default=0)
    loner_to = models.CharField(max_length=16, choices=PotTo, default=PotTo.LONE_MARCHES)
    fines_to = models.CharField(max_length=16, choices=PotTo, default=PotTo.LONE_MARCHES)
    # The side pots' draw, drawn once and kept: the preview and the payout draw the same.
    pot_seed = models.BigIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        app_label = "tournaments"
        constraints = [
            models.CheckConstraint(
                condition=Q(reduced_fee_cents__lte=models.F("fee_cents")),
                name="money_reduced_fee_at_most_the_fee",
            ),
            models.CheckConstraint(
                condition=Q(cash_unit__in=CASH_UNITS), name="money_cash_unit_known"
            ),
            models.CheckConstraint(
                condition=Q(house_share__lte=PERCENT), name="money_house_share_at_most_all"
            ),
            models.CheckConstraint(
                condition=Q(ties__in=TieRule.values), name="money_tie_rule_known"
            ),
            models.CheckConstraint(
                condition=Q(loner_to__in=PotTo.values, fines_to__in=PotTo.values),
                name="money_pot_to_known",
            ),
        ]

    def __str__(self) -> str:
        return f"money of {self.tournament_id}"


class LineKind(models.TextChoices):
    PLACE = "place", _("A place in a division")
    PRIZE = "prize", _("A prize of the prizes page")
    FINAL = "final", _("The final's champions")


class PayoutLine(models.Model):
    """One line of the payout schedule: a percentage of the purse or a fixed amount."""

    Kind = LineKind

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="payout_lines"
    )
    kind = models.CharField(max_length=8, choices=LineKind)
    division = models.CharField(max_length=1, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.CharField(max_length=80, blank=True)
    percent = models.PositiveIntegerField(null=True, blank=True)
    fixed_cents = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()

    class Meta:
        app_label = "tournaments"
        ordering = ["tournament_id", "kind", "division", "place", "prize"]
        constraints = [
            models.CheckConstraint(
                condition=Q(percent__isnull=True, fixed_cents__isnull=False)
                | Q(percent__isnull=False, fixed_cents__isnull=True),
                name="payout_line_percent_or_fixed",
            ),
            models.CheckConstraint(
                condition=Q(percent__isnull=True) | Q(percent__lte=PERCENT),
                name="payout_line_percent_at_most_all",
            ),
            models.CheckConstraint(
                condition=Q(kind=LineKind.PLACE, division__in=["A", "B"], place__gte=1, prize="")
                | Q(kind=LineKind.PRIZE, place__isnull=True, division="") & ~Q(prize="")
                | Q(kind=LineKind.FINAL, place__isnull=True, division="", prize=""),
                name="payout_line_kind_consistent",
            ),
            # A place, a prize, the final: each paid by one line of the schedule.
            models.UniqueConstraint(
                fields=["tournament", "division", "place"],
                condition=Q(kind=LineKind.PLACE),
                name="payout_line_place_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "prize"],
                condition=Q(kind=LineKind.PRIZE),
                name="payout_line_prize_once",
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(kind=LineKind.FINAL),
                name="payout_line_final_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.kind} {self.division}{self.place or ''}{self.prize}"


class EntryKind(models.TextChoices):
    FEE = "fee", _("Entry fee")
    WAIVER = "waiver", _("Fee waived")
    REFUND = "refund", _("Refund")
    SPONSOR = "sponsor", _("Sponsor")
    FINES = "fines", _("Side-pot fines paid")
    FIFTY = "fifty", _("50/50 tickets sold")
    PAYOUT = "payout", _("Paid out")
    FIFTY_PRIZE = "fifty_prize", _("50/50 prize")
    COUNT = "count", _("Drawer counted")


class Method(models.TextChoices):
    CASH = "cash", _("Cash")
    OTHER = "other", _("Other")


class MoneyEntry(models.Model):
    """One money action, as taken: who, when, how much, by what means."""

    Kind = EntryKind
    Method = Method

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="money_entries"
    )
    kind = models.CharField(max_length=12, choices=EntryKind)
    player = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="money_entries",
    )
    cents = models.PositiveIntegerField()
    method = models.CharField(max_length=6, choices=Method, default=Method.CASH)
    # What the money was for: a sponsor's name, a payout's line ("place A 1", a prize's
    # name, a pot's name), a ticket count for the 50/50.
    label = models.CharField(max_length=120, blank=True)
    # The seed of a draw (a pot, the 50/50), so the winner can be drawn again and shown.
    seed = models.BigIntegerField(null=True, blank=True)
    tickets = models.PositiveIntegerField(null=True, blank=True)
    client_key = models.CharField(max_length=64, unique=True)
    by = models.CharField(max_length=150)
    at = models.DateTimeField()
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=150, blank=True)
    undo_reason = models.TextField(blank=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["tournament_id", "at", "pk"]
        verbose_name_plural = "money entries"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=EntryKind.values), name="money_entry_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(method__in=Method.values), name="money_entry_method_known"
            ),
            models.CheckConstraint(
                condition=Q(undone_at__isnull=True) | ~Q(undo_reason=""),
                name="money_entry_undone_with_a_reason",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=["fee", "waiver", "refund", "fines"])
                | Q(player__isnull=False),
                name="money_entry_player_for_a_players_money",
            ),
            models.CheckConstraint(
                condition=~Q(kind="waiver") | Q(cents=0), name="money_entry_waiver_is_free"
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(kind__in=["fee", "waiver"], undone_at__isnull=True),
                name="money_one_standing_fee_per_player",
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(kind="refund", undone_at__isnull=True),
                name="money_one_standing_refund_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player", "label"],
                condition=Q(kind="payout", undone_at__isnull=True),
                name="money_one_standing_payout_per_line",
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(kind="fifty_prize", undone_at__isnull=True),
                name="money_one_standing_fifty_draw",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "kind"], name="money_entry_kind")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.kind} {self.cents}"
