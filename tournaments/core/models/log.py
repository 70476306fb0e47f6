"""models/log: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.db import models

from tournaments.core.logtext import actor_label, render


class Activity(models.Model):
    """The activity log: every change with who, when, what and why."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="activity"
    )
    at = models.DateTimeField()
    actor = models.CharField(max_length=150)
    action = models.CharField(max_length=40)
    # The line as a msgid and its arguments, read in the reader's language (logtext.py);
    # ``summary`` is the English text of the rows written before (issue 24), empty since.
    message = models.TextField(blank=True)
    args = models.JSONField(default=dict, blank=True)
    summary = models.TextField(blank=True)
    reason = models.TextField(blank=True)
    match = models.ForeignKey(
        "tournaments.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="activity",
    )

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "activity"
        indexes = [
            models.Index(fields=["tournament", "-at"]),
            # The tablets' version query asks for the newest entry about the room (no
            # match) 170 times a second: one seek, however long the log has grown.
            models.Index(fields=["tournament", "match", "id"], name="activity_newest_by_match"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.text}"

    @property
    def text(self) -> str:
        """The line in the active language (an old row's stored English otherwise)."""
        return render(self.message, self.args) if self.message else self.summary

    @property
    def who(self) -> str:
        """The actor in the active language (a device's stored form, translated)."""
        return actor_label(self.actor)
