"""devices/models: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class HelpStatus(models.TextChoices):
    OPEN = "open", _("Waiting for the director")
    COMING = "coming", _("The director is on the way")
    RESOLVED = "resolved", _("Resolved")


class HelpReason(models.TextChoices):
    DISPUTE = "dispute", _("Dispute")
    RENEGE = "renege", _("Renege question")
    DEVICE = "device", _("Device trouble")
    OTHER = "other", _("Other")


class HelpRequest(models.Model):
    """A table calling the director (issue 23): raised by the tablet or a player's phone,
    answered "on my way", then resolved. The database keeps one open request per table,
    so two taps, two devices or a retry all find the same request."""

    Status = HelpStatus
    Reason = HelpReason

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="help_requests"
    )
    table = models.PositiveIntegerField()
    reason = models.CharField(max_length=10, choices=HelpReason, blank=True)
    status = models.CharField(max_length=10, choices=HelpStatus, default=HelpStatus.OPEN)
    raised_by = models.CharField(max_length=150)
    raised_at = models.DateTimeField()
    coming_by = models.CharField(max_length=150, blank=True)
    coming_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.CharField(max_length=150, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    # Raised by every change: the director's buttons name the version they saw, so a
    # stale click is refused (409) instead of undoing a colleague's answer.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=~Q(status=HelpStatus.RESOLVED),
                name="one_open_help_request_per_table",
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="help_table_positive"),
            models.CheckConstraint(
                condition=Q(status__in=HelpStatus.values), name="help_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(reason="") | Q(reason__in=HelpReason.values),
                name="help_reason_valid",
            ),
            models.CheckConstraint(
                condition=(Q(status=HelpStatus.RESOLVED) & Q(resolved_at__isnull=False))
                | (~Q(status=HelpStatus.RESOLVED) & Q(resolved_at__isnull=True)),
                name="help_resolved_when_resolved",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"], name="help_by_status")]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.table} help ({self.status})"
