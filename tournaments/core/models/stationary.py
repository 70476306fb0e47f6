"""Stationary players (RULES.md §3.1): a player the director keeps at one table and one
chair while the winner-split rotation moves the room around them.

The event core reads these marks when it seats a round (core/services/rounds.py through
core/reads/rounds.py), so they belong to the core's models."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q


class StationaryMarkQuerySet(models.QuerySet["StationaryMark"]):
    def routing(self, number: int) -> StationaryMarkQuerySet:
        """The marks that route the seating of round ``number``, first marked first (the
        first keeps their letter where two share a table)."""
        return (
            self.filter(Q(until_round__isnull=True) | Q(until_round__gt=number))
            .filter(from_round__lte=number)
            .order_by("marked_at", "pk")
        )

    def active(self) -> StationaryMarkQuerySet:
        return self.filter(ended_at__isnull=True).order_by("marked_at", "pk")


class StationaryMark(models.Model):
    """A player marked stationary from round ``from_round`` on, until the director undoes
    the mark (``until_round``: the first round it no longer routes). The reason is for the
    director's pages only; it never leaves them (not the results file, not the players)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="stationary_marks"
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="stationary_marks"
    )
    # The table named for round 1 (marked before the draw), or the table the player sat at
    # when marked: they stay there.
    table = models.PositiveIntegerField()
    reason = models.CharField(max_length=200)
    from_round = models.PositiveSmallIntegerField()
    marked_at = models.DateTimeField()
    marked_by = models.CharField(max_length=150)
    until_round = models.PositiveSmallIntegerField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.CharField(max_length=150, blank=True)
    end_reason = models.CharField(max_length=200, blank=True)

    objects = StationaryMarkQuerySet.as_manager()

    class Meta:
        app_label = "tournaments"
        ordering = ["marked_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(ended_at__isnull=True),
                name="stationary_one_open_mark",
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="stationary_table_positive"),
            models.CheckConstraint(
                condition=Q(from_round__gte=1), name="stationary_from_round_positive"
            ),
            models.CheckConstraint(
                condition=Q(until_round__isnull=True) | Q(until_round__gte=F("from_round")),
                name="stationary_until_after_from",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True, until_round__isnull=True)
                | Q(ended_at__isnull=False, until_round__isnull=False),
                name="stationary_ended_with_round",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="stationary_reason_given"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} stationary at table {self.table} from round {self.from_round}"
