"""tournaments.core.models.series"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy


class Series(models.Model):
    class Table(models.TextChoices):
        PLACE = "place", gettext_lazy("By finishing place in the division")
        TOTAL = "total", gettext_lazy("By total points")
        PARTICIPATION = "participation", gettext_lazy("Participation points")

    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="series")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    points_table = models.CharField(max_length=14, choices=Table, default=Table.PLACE)
    # Points for 1st, 2nd, ... in the division; places beyond the list score the last entry.
    place_points = models.CharField(max_length=200, default="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1")
    participation_points = models.PositiveSmallIntegerField(default=10)
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Count each person's best N events; empty counts all."
    )
    created_at = models.DateTimeField()
    tournaments = models.ManyToManyField(
        "tournaments.Tournament", through="SeriesEvent", related_name="series"
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(points_table__in=["place", "total", "participation"]),
                name="series_points_table_valid",
            ),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1),
                name="series_best_of_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    series = models.ForeignKey(
        "tournaments.Series", on_delete=models.CASCADE, related_name="events"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="+"
    )
    added_at = models.DateTimeField()

    class Meta:
        ordering = ["series_id", "added_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_event_unique")
        ]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.tournament_id}"
