"""registration/models: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# --- Registration before the day (issue 26) ---------------------------------------------
from tournaments.core.models.event import Division


class RegistrationStatus(models.TextChoices):
    INVITED = "invited", _("Invited")
    PENDING = "pending", _("Pending")
    CHANGE = "change", _("Change asked")
    ACCEPTED = "accepted", _("Accepted")
    WAITLIST = "waitlist", _("Waitlist")
    DECLINED = "declined", _("Declined")
    WITHDRAWN = "withdrawn", _("Withdrawn")


# An application in these states holds a place under the caps (and its name).
PLACE_HOLDING = ("pending", "change", "accepted")
ACTIVE_REGISTRATION = ("invited", "pending", "change", "accepted", "waitlist")


class RegistrationSettings(models.Model):
    """An event's online registration: open or closed, its caps, and the key that signs
    the registration list the hall imports (docs/series.md, "The registration list")."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="registration_settings"
    )
    open = models.BooleanField(default=False)
    # Empty: no cap. A division's cap counts the applications asking for (or given) it.
    cap_total = models.PositiveIntegerField(null=True, blank=True)
    cap_a = models.PositiveIntegerField(null=True, blank=True)
    cap_b = models.PositiveIntegerField(null=True, blank=True)
    transfer_key = models.CharField(max_length=64)
    # The next number in the line: every application takes one, the waitlist is read in
    # this order, and a reorder renumbers the waitlist.
    next_queue = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name_plural = "registration settings"
        constraints = [
            models.CheckConstraint(condition=~Q(transfer_key=""), name="registration_key_set")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: registration {'open' if self.open else 'closed'}"


class Registration(models.Model):
    """A player's application for an event, from the public page or an invitation."""

    Status = RegistrationStatus

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="registrations"
    )
    # The same application on the club site and the hall (the signed list carries it).
    uid = models.UUIDField()
    name = models.CharField(max_length=80)
    # The name under names.fold with single spaces: one application per name and event.
    folded = models.CharField(max_length=160)
    # Asked for: "A", "B" or "" (the director decides); set to A or B on acceptance.
    division = models.CharField(max_length=1, blank=True)
    # An e-mail address or a phone number: shown to the director only, never exported.
    contact = models.CharField(max_length=120, blank=True)
    consent = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=RegistrationStatus)
    # What the director says to the player with a decision (a change asked, a decline).
    message = models.TextField(blank=True)
    queue = models.PositiveIntegerField()
    # The client's key of the form that sent the application: a resubmission is the same.
    client_key = models.CharField(max_length=64, blank=True)
    player = models.OneToOneField(
        "tournaments.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registration",
    )
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["tournament_id", "queue"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "uid"], name="registration_uid_unique"),
            models.UniqueConstraint(
                fields=["tournament", "client_key"],
                condition=~Q(client_key=""),
                name="registration_client_key_unique",
            ),
            models.UniqueConstraint(
                fields=["tournament", "folded"],
                condition=Q(status__in=ACTIVE_REGISTRATION),
                name="registration_name_once",
            ),
            models.UniqueConstraint(
                fields=["tournament", "queue"], name="registration_queue_unique"
            ),
            models.CheckConstraint(
                condition=Q(status__in=RegistrationStatus.values), name="registration_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(division__in=["", *Division.values]),
                name="registration_division_valid",
            ),
            models.CheckConstraint(
                condition=~Q(status="accepted") | Q(division__in=Division.values),
                name="registration_accepted_has_division",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="registration_name_set"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class RegistrationPass(models.Model):
    """The token of a player's private link, which is also the check-in pass (its QR).
    Revoking keeps the row, so a revoked pass is refused with a reason, not as unknown."""

    registration = models.ForeignKey(
        "tournaments.Registration", on_delete=models.CASCADE, related_name="passes"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["registration_id", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_pass_per_registration",
            )
        ]

    def __str__(self) -> str:
        return f"pass of {self.registration_id}"


class RegistrationAttempt(models.Model):
    """One public registration request, kept for the throttle: rows in the database so
    that every app server process counts the same requests."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    address = models.CharField(max_length=45)
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["tournament", "address", "at"], name="registration_attempts"),
            models.Index(fields=["tournament", "at"], name="registration_attempts_event"),
        ]

    def __str__(self) -> str:
        return f"{self.address} at {self.at:%H:%M:%S}"
