"""prizes/models: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.core.models.event import Division


class PrizeFigure(models.TextChoices):
    # The figures of tournaments/domain/prizes.py FIGURES, in its order.
    TOTAL = "total", _("Total")
    WINS = "wins", _("Wins")
    MARGIN = "margin", _("Margin")
    LONE_MARCHES = "lone_marches", _("Lone marches")
    EUCHRES = "euchres", _("Euchres made")
    RENEGES = "reneges", _("Reneges")
    BEST_MATCH = "best_match", _("Most points in one match")
    EXPECTATION = "expectation", _("Wins against expectation")


class DefinedPrize(models.Model):
    """A prize the director adds from a fixed list of figures: no expressions,
    so a prize can only read numbers already recorded."""

    Figure = PrizeFigure

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="prizes"
    )
    name = models.CharField(max_length=80)
    figure = models.CharField(max_length=16, choices=PrizeFigure)
    highest = models.BooleanField(default=True)
    division = models.CharField(max_length=1, choices=Division, blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(figure__in=PrizeFigure.values), name="prize_figure_valid"
            ),
            models.CheckConstraint(
                condition=Q(division__in=["", *Division.values]), name="prize_division_valid"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="prize_needs_name"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.name}"
