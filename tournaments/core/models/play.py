"""models/play: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from tournaments.core.models.event import SeatPosition, TeamChoice
from tournaments.core.models.rounds import Round


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", gettext_lazy("Waiting")
        PLAYING = "playing", gettext_lazy("Playing")
        FINISHED = "finished", pgettext_lazy("table status", "Finished")
        CONFIRMED = "confirmed", gettext_lazy("Confirmed")
        DISPUTED = "disputed", gettext_lazy("Disputed")

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField()
    game = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status, default=Status.WAITING)
    first_dealer = models.CharField(max_length=1, choices=SeatPosition, blank=True)
    hand_in_progress_at_call = models.BooleanField(null=True, blank=True)
    extension_seconds = models.PositiveIntegerField(default=0)
    # Recomputed from the standing hands on every change (never incremented).
    score_ns = models.SmallIntegerField(default=0)
    score_ew = models.SmallIntegerField(default=0)
    bonus_ns = models.SmallIntegerField(default=0)
    bonus_ew = models.SmallIntegerField(default=0)
    hands_played = models.PositiveSmallIntegerField(default=0)
    recorded_winner = models.CharField(max_length=2, choices=TeamChoice, blank=True)
    winner = models.CharField(
        max_length=2,
        choices=TeamChoice,
        blank=True,
        help_text="The recorded winner, or the director's override.",
    )
    has_renege = models.BooleanField(default=False)
    has_correction = models.BooleanField(default=False)
    has_override = models.BooleanField(default=False)
    # A standing hand was accepted by late sync and the director has not reviewed it.
    has_late_sync = models.BooleanField(default=False)
    last_entry_at = models.DateTimeField(null=True, blank=True)
    last_contact_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.CharField(max_length=150, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    dispute_note = models.TextField(blank=True)
    # docs/rules.md §7: the instant time was called for this table, written once (by the
    # director's call, or when a request first sees the limit reached) and never
    # recomputed from the settings, so no later change un-calls it.
    time_called_at = models.DateTimeField(null=True, blank=True)
    # Raised (under the match's row lock) by every change a tablet or the director makes:
    # answers, agreements and disputes name the version they answer.
    version = models.PositiveIntegerField(default=0)
    # The seat whose player keeps score: the other team confirms.
    scorekeeper = models.CharField(max_length=1, choices=SeatPosition, blank=True)

    class Meta:
        ordering = ["round_id", "table", "game"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "table", "game"], name="match_unique"),
            models.CheckConstraint(condition=Q(table__gte=1), name="match_table_positive"),
            models.CheckConstraint(condition=Q(game__gte=1), name="match_game_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "playing", "finished", "confirmed", "disputed"]),
                name="match_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(winner="") | Q(status__in=["finished", "confirmed", "disputed"]),
                name="match_winner_only_when_over",
            ),
        ]

    def __str__(self) -> str:
        label = f"{self.round} table {self.table}"
        return f"{label} game {self.game}" if self.round.kind == Round.Kind.FINAL else label

    def label(self) -> str:
        """The match named in the reader's language ("Ronde 3, table 7")."""
        if self.round.kind == Round.Kind.FINAL:
            return gettext("%(round)s game %(game)s") % {
                "round": self.round.label(),
                "game": self.game,
            }
        return gettext("%(round)s table %(table)s") % {
            "round": self.round.label(),
            "table": self.table,
        }

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CONFIRMED, self.Status.DISPUTED)


class HandEntryQuerySet(models.QuerySet["HandEntry"]):
    def standing(self) -> HandEntryQuerySet:
        """The entries that count: neither undone nor replaced by a correction."""
        return self.filter(state=HandEntry.State.STANDING)


class HandOutcome(models.TextChoices):
    PLAYED = "played", gettext_lazy("Played")
    RENEGE = "renege", gettext_lazy("Renege")
    MISDEAL = "misdeal", gettext_lazy("Misdeal")


class HandPhase(models.TextChoices):
    REGULAR = "regular", gettext_lazy("Regular")
    AT_CALL = "at_call", gettext_lazy("In progress at the call")
    TIEBREAK = "tiebreak", gettext_lazy("Tie-break")


class HandState(models.TextChoices):
    STANDING = "standing", gettext_lazy("Standing")
    SUPERSEDED = "superseded", gettext_lazy("Corrected")
    UNDONE = "undone", gettext_lazy("Undone")


class HandEntry(models.Model):
    """One hand as entered. Never deleted: undone or superseded entries stay as history."""

    Outcome = HandOutcome
    Phase = HandPhase
    State = HandState

    class Source(models.TextChoices):
        TABLET = "tablet", gettext_lazy("Tablet")
        DIRECTOR = "director", gettext_lazy("Director")
        SIMULATION = "simulation", gettext_lazy("Simulation")
        IMPORTED = "import", gettext_lazy("Imported from a results file")

    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    client_key = models.CharField(max_length=64, unique=True)
    outcome = models.CharField(max_length=8, choices=Outcome)
    maker = models.CharField(max_length=1, choices=SeatPosition, blank=True)
    alone = models.BooleanField(default=False)
    maker_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    renege_by = models.CharField(max_length=1, choices=SeatPosition, blank=True)
    dealer_partner_ordered_up = models.BooleanField(default=False)
    defender_alone = models.CharField(max_length=1, choices=SeatPosition, blank=True)
    # A hand sent after the call that the tablet says it entered before (docs/rules.md §7):
    # the claimed instant, and the flag the director sees until they review it.
    claimed_at = models.DateTimeField(null=True, blank=True)
    late_sync = models.BooleanField(default=False)
    dealer = models.CharField(max_length=1, choices=SeatPosition)
    phase = models.CharField(max_length=8, choices=Phase, default=Phase.REGULAR)
    points_ns = models.SmallIntegerField(default=0)
    points_ew = models.SmallIntegerField(default=0)
    state = models.CharField(max_length=10, choices=State, default=State.STANDING)
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    source = models.CharField(max_length=10, choices=Source, default=Source.TABLET)
    entered_at = models.DateTimeField()
    entered_by = models.CharField(max_length=150)
    reason = models.TextField(blank=True, help_text="Why this entry corrects another.")
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.CharField(max_length=150, blank=True)
    end_reason = models.TextField(blank=True)

    objects = HandEntryQuerySet.as_manager()

    class Meta:
        ordering = ["match_id", "number", "entered_at"]
        verbose_name_plural = "hand entries"
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(state=HandState.STANDING),
                name="one_standing_hand_per_number",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(maker_tricks__isnull=True) | Q(maker_tricks__lte=5),
                name="hand_tricks_0_to_5",
            ),
            models.CheckConstraint(
                condition=(
                    Q(
                        outcome=HandOutcome.PLAYED,
                        maker__in=SeatPosition.values,
                        maker_tricks__isnull=False,
                        renege_by="",
                    )
                    | Q(
                        outcome=HandOutcome.RENEGE,
                        renege_by__in=SeatPosition.values,
                        maker_tricks__isnull=True,
                        alone=False,
                    )
                    | Q(
                        outcome=HandOutcome.MISDEAL,
                        maker="",
                        renege_by="",
                        maker_tricks__isnull=True,
                        alone=False,
                    )
                ),
                name="hand_outcome_consistent",
            ),
            models.CheckConstraint(
                condition=Q(phase__in=HandPhase.values), name="hand_phase_valid"
            ),
            models.CheckConstraint(
                condition=Q(defender_alone="")
                | Q(outcome=HandOutcome.PLAYED, defender_alone__in=SeatPosition.values),
                name="hand_defender_alone_only_in_a_played_hand",
            ),
            models.CheckConstraint(
                condition=Q(late_sync=False) | Q(claimed_at__isnull=False),
                name="hand_late_sync_has_its_claim",
            ),
            models.CheckConstraint(
                condition=Q(state=HandState.STANDING) | Q(ended_at__isnull=False),
                name="hand_end_recorded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} hand {self.number} ({self.get_state_display()})"


class WinnerOverride(models.Model):
    match = models.ForeignKey(
        "tournaments.Match", on_delete=models.CASCADE, related_name="overrides"
    )
    winner = models.CharField(max_length=2, choices=TeamChoice)
    reason = models.TextField()
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match_id", "created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="override_needs_reason"),
            models.CheckConstraint(
                condition=Q(winner__in=TeamChoice.values), name="override_winner"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.winner} by override"


class TableLinkQuerySet(models.QuerySet["TableLink"]):
    def live(self) -> TableLinkQuerySet:
        """The links a tablet may still open: not revoked."""
        return self.filter(revoked_at__isnull=True)


class TableLink(models.Model):
    """A table's tablet link: the token is a capability, printed as a QR code on the card."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="table_links"
    )
    table = models.PositiveIntegerField()
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The short code printed beside the QR and typed at /t/: unique among every
    # code ever issued, so a re-issued (revoked) code can never open a table again.
    code = models.CharField(max_length=8, unique=True, null=True, blank=True)
    # Which device holds the table: a takeover with the code raises it, and every session
    # opened before answers "replaced" (403) and sends nothing more.
    device = models.PositiveIntegerField(default=1)
    # What the table's device last reported, written at most every
    # ``domain.health.HEALTH_EVERY`` by its polls: when it was heard from, how many
    # entries it holds not yet sent, and its battery where the browser tells it.
    seen_at = models.DateTimeField(null=True, blank=True)
    unsent = models.PositiveSmallIntegerField(null=True, blank=True)
    battery = models.PositiveSmallIntegerField(null=True, blank=True)
    charging = models.BooleanField(null=True, blank=True)
    # Wrong director PINs typed on this table's tablet; five lock the PIN for a while.
    pin_failures = models.PositiveSmallIntegerField(default=0)
    pin_locked_until = models.DateTimeField(null=True, blank=True)

    objects = TableLinkQuerySet.as_manager()

    class Meta:
        ordering = ["tournament_id", "table", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_link_per_table",
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="link_table_positive"),
            models.CheckConstraint(
                condition=Q(battery__isnull=True) | Q(battery__lte=100),
                name="link_battery_percent",
            ),
        ]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "live"
        return f"{self.tournament} table {self.table} link ({state})"


class PaperTable(models.Model):
    """A table the director scores from its paper scoresheet (no tablet): the board shows
    it as "paper" and raises no silent-tablet or idle alarm for it. Per table of the
    event, not per round: a table without a tablet stays without one."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="paper_tables"
    )
    table = models.PositiveIntegerField()
    marked_at = models.DateTimeField()
    marked_by = models.CharField(max_length=150)

    class Meta:
        app_label = "tournaments"
        ordering = ["tournament_id", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"], name="one_paper_mark_per_table"
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="paper_table_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} table {self.table} (paper)"
