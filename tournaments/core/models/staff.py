"""models/staff: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# --- Staff per club and per event (issue 25) ---


class StaffRole(models.TextChoices):
    OWNER = "owner", _("Owner")
    DIRECTOR = "director", _("Director")
    DESK = "desk", _("Desk")


class Membership(models.Model):
    """An account's role in one club: owner (everything, staff too), director (runs the
    club's events) or desk (check-in, seating, sheets). A director or desk membership
    with ``events`` works those events only; with none, every event of the club."""

    Role = StaffRole

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=8, choices=StaffRole)
    events = models.ManyToManyField("tournaments.Tournament", blank=True, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["club_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_once_per_club"),
            models.CheckConstraint(
                condition=Q(role__in=StaffRole.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} of {self.club_id}"


class AccountLanguage(models.Model):
    """The language a director's account reads the console in (issue 24): written when
    the signed-in director uses the top bar's "English / Français", put back in the
    browser's language cookie at sign-in, so a director's choice follows the account to
    another laptop. Pages read the cookie, never this row: no query on any page."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="console_language",
    )
    language = models.CharField(max_length=8)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="account_language_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"


class Invitation(models.Model):
    """A one-time link that makes whoever opens it (signed in) staff of the club."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="invitations"
    )
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=8, choices=StaffRole)
    events = models.ManyToManyField("tournaments.Tournament", blank=True, related_name="+")
    note = models.CharField(max_length=120, blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=StaffRole.values), name="invitation_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} of {self.club_id}"
