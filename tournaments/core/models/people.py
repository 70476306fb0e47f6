"""models/people: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

# --- The Snowman Series: people across events, series and their standings ---
from tournaments.core.models.event import Division


class Person(models.Model):
    """One human across tournaments; a tournament's ``Player`` is linked to one person.

    A merged person is kept (``merged_into`` set, no players left) so the history of
    who was merged into whom, and why, stays readable.
    """

    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="people")
    name = models.CharField(max_length=80)
    # The name folded for matching: case, accents and spacing ignored (services.people.key).
    name_key = models.CharField(max_length=80, db_index=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_people"
    )
    created_at = models.DateTimeField()
    # Recomputed from every match by services.people.recompute_ratings (a full replay).
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    rating_matches = models.PositiveIntegerField(default=0)
    # The person's own choices for public pages (names.public_name), made on their private
    # link and logged in their history: private by default (the short form, listed).
    public_full_name = models.BooleanField(default=False)
    public_listed = models.BooleanField(default=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name_plural = "people"
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="person_name_not_empty"),
            models.CheckConstraint(
                condition=Q(merged_into__isnull=True) | ~Q(merged_into=models.F("id")),
                name="person_not_merged_into_self",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PersonLink(models.Model):
    """Which person a tournament's player is, and how that was decided."""

    class How(models.TextChoices):
        EXACT = "exact", gettext_lazy("Same name")
        NEW = "new", gettext_lazy("New person")
        ACCEPTED = "accepted", gettext_lazy("Accepted close match")
        MERGED = "merged", gettext_lazy("Merged")
        SPLIT = "split", gettext_lazy("Split off")

    player = models.OneToOneField(
        "tournaments.Player", on_delete=models.CASCADE, related_name="person_link"
    )
    person = models.ForeignKey("tournaments.Person", on_delete=models.PROTECT, related_name="links")
    how = models.CharField(max_length=10, choices=How)
    at = models.DateTimeField()

    class Meta:
        ordering = ["person_id", "player_id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(how__in=["exact", "new", "accepted", "merged", "split"]),
                name="person_link_how_valid",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} is {self.person_id}"


class PersonEvent(models.Model):
    """The history of a person record: created, matched, merged, split, with who and why."""

    person = models.ForeignKey(
        "tournaments.Person", on_delete=models.PROTECT, related_name="history"
    )
    other = models.ForeignKey(
        "tournaments.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField()
    actor = models.CharField(max_length=150)
    action = models.CharField(max_length=20)
    summary = models.TextField()
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d} {self.action}: {self.summary}"


class PersonProposal(models.Model):
    """A close name match for the director to accept (merge) or reject; never applied alone."""

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Open")
        ACCEPTED = "accepted", gettext_lazy("Accepted")
        REJECTED = "rejected", gettext_lazy("Rejected")

    person = models.ForeignKey(
        "tournaments.Person", on_delete=models.CASCADE, related_name="proposals"
    )
    candidate = models.ForeignKey("tournaments.Person", on_delete=models.CASCADE, related_name="+")
    score = models.FloatField()
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    created_at = models.DateTimeField()
    decided_by = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-score", "id"]
        constraints = [
            models.UniqueConstraint(fields=["person", "candidate"], name="proposal_unique"),
            models.CheckConstraint(
                condition=~Q(person=models.F("candidate")), name="proposal_two_people"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "accepted", "rejected"]),
                name="proposal_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} may be {self.candidate_id}"


class ImportedEvent(models.Model):
    """A past event read from a ``snowman.results/1`` file; the digest makes imports idempotent."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="imported_from"
    )
    digest = models.CharField(max_length=64, unique=True)
    filename = models.CharField(max_length=200, blank=True)
    imported_at = models.DateTimeField()
    imported_by = models.CharField(max_length=150)

    def __str__(self) -> str:
        return f"{self.tournament} ({self.digest[:12]})"


class EventResult(models.Model):
    """A player's final standing in an imported event, as the file states it."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="results"
    )
    player = models.OneToOneField(
        "tournaments.Player", on_delete=models.CASCADE, related_name="result"
    )
    division = models.CharField(max_length=1, choices=Division)
    rank = models.PositiveIntegerField()
    total = models.IntegerField()
    wins = models.PositiveSmallIntegerField()
    margin = models.IntegerField()
    played = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["tournament_id", "division", "rank"]
        constraints = [
            models.CheckConstraint(condition=Q(rank__gte=1), name="event_result_rank_positive")
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rank} in {self.division}"
