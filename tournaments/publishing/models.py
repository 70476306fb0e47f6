"""publishing/models: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.db import models

# --- Results from the hall to the club site (issue 26, item 5) ---


class Publication(models.Model):
    """At the hall: where an event's results go (the club site and the event's token) and
    how the last attempt went. A failed attempt is recorded here, never raised at the
    director: the hall works without the internet and retries later."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="publication"
    )
    club_url = models.URLField(max_length=300)
    token = models.CharField(max_length=100)
    # The digest of the results the club site last acknowledged; when it differs from the
    # current export's, the event is "not published yet".
    published_digest = models.CharField(max_length=64, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    attempted_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"{self.tournament_id} -> {self.club_url}"


class PublishGrant(models.Model):
    """On the club site: a bearer of the token may publish the results of the event whose
    slug (its stable id at the hall) is ``slug``; only the token's SHA-256 is kept."""

    # The club the results go to: another club's token for the same slug is another
    # grant, never a replacement of this one.
    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="+")
    slug = models.SlugField(max_length=140)
    token_digest = models.CharField(max_length=64, unique=True)
    series = models.ForeignKey(
        "tournaments.Series", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    created_by = models.CharField(max_length=150)
    last_published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="publish_grant_once_per_club")
        ]

    def __str__(self) -> str:
        return self.slug
