"""The lots an event has drawn, one row per purpose (round 1's sit-outs, …)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy


class DrawnLot(models.Model):
    """The seed of one proposal that uses the lot. The unique constraint makes two loads
    at once store one row: the second reads the first's seed instead of drawing again."""

    class Purpose(models.TextChoices):
        ROUND1_SIT_OUT = "round1-sit-out", gettext_lazy("round 1 sit-outs")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="drawn_lots"
    )
    purpose = models.CharField(max_length=40, choices=Purpose)
    seed = models.BigIntegerField()
    drawn_at = models.DateTimeField()
    drawn_by = models.CharField(max_length=150)
    redraws = models.PositiveSmallIntegerField(default=0)

    class Meta:
        app_label = "tournaments"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "purpose"], name="lot_drawn_once"),
            models.CheckConstraint(condition=models.Q(seed__gte=0), name="lot_seed_natural"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.purpose}: {self.seed}"
