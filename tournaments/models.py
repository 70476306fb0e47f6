"""Rows and the invariants the database keeps; the rules live in ``tournaments.domain``.

Hands are never deleted: an undo marks an entry undone, a correction adds a new entry
that replaces the old one, and both record who, when and why. The result columns on
``Match`` and ``Seat`` are recomputed from the standing hands by the service layer in
the same transaction as every change; they are never incremented.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from .domain.rules import TIEBREAK_KEYS, RuleSettings


class Division(models.TextChoices):
    A = "A", "Division A"
    B = "B", "Division B"


class SeatPosition(models.TextChoices):
    N = "N", "North"
    E = "E", "East"
    S = "S", "South"
    W = "W", "West"


class TeamChoice(models.TextChoices):
    NS = "NS", "North–South"
    EW = "EW", "East–West"


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        PRELIMINARY = "preliminary", "Preliminary rounds"
        FINAL = "final", "Final"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    status = models.CharField(max_length=16, choices=Status, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)
    # The seed of the draw by lot that ends the tiebreak chain, recorded so the
    # standings can be reproduced and shown.
    lot_seed = models.BigIntegerField()

    preliminary_rounds = models.PositiveSmallIntegerField(default=5)
    round_minutes = models.PositiveSmallIntegerField(default=20)
    target = models.PositiveSmallIntegerField(default=10)
    points_make = models.PositiveSmallIntegerField(default=1)
    points_march = models.PositiveSmallIntegerField(default=2)
    points_alone_march = models.PositiveSmallIntegerField(default=4)
    points_euchre = models.PositiveSmallIntegerField(default=2)
    points_renege = models.PositiveSmallIntegerField(default=2)
    alone_march_award = models.SmallIntegerField(default=1)
    renege_penalty = models.SmallIntegerField(default=-2)
    reach_bonus = models.SmallIntegerField(default=1)
    skunk_bonus = models.SmallIntegerField(default=2)
    skunk_includes_reach = models.BooleanField(default=False)
    cap_at_target = models.BooleanField(default=False)
    tiebreaks = models.CharField(max_length=40, default=",".join(TIEBREAK_KEYS))
    final_games_to_win = models.PositiveSmallIntegerField(default=2)
    final_target = models.PositiveSmallIntegerField(default=10)
    # RULES.md §5: players' phones and the projector show no totals or ranks during the
    # last N preliminary rounds (0 = never hidden).
    hide_standings_last_rounds = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(preliminary_rounds__gte=1)
                & Q(round_minutes__gte=1)
                & Q(target__gte=1)
                & Q(final_target__gte=1)
                & Q(final_games_to_win__gte=1),
                name="tournament_positive_limits",
            ),
            models.CheckConstraint(
                condition=Q(points_make__gte=1)
                & Q(points_march__gte=1)
                & Q(points_alone_march__gte=1)
                & Q(points_euchre__gte=1)
                & Q(points_renege__gte=1),
                name="tournament_positive_points",
            ),
            models.CheckConstraint(
                condition=Q(alone_march_award__gte=0)
                & Q(renege_penalty__lte=0)
                & Q(reach_bonus__gte=0)
                & Q(skunk_bonus__gte=0),
                name="tournament_award_signs",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["registration", "preliminary", "final", "finished"]),
                name="tournament_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    RULE_FIELDS = (
        "preliminary_rounds",
        "round_minutes",
        "target",
        "points_make",
        "points_march",
        "points_alone_march",
        "points_euchre",
        "points_renege",
        "alone_march_award",
        "renege_penalty",
        "reach_bonus",
        "skunk_bonus",
        "skunk_includes_reach",
        "cap_at_target",
        "final_games_to_win",
        "final_target",
        "hide_standings_last_rounds",
    )

    @property
    def rules(self) -> RuleSettings:
        values = {name: getattr(self, name) for name in self.RULE_FIELDS}
        return RuleSettings(**values, tiebreaks=tuple(self.tiebreaks.split(",")))


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    division = models.CharField(max_length=1, choices=Division)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="player_name_unique"),
            models.CheckConstraint(
                condition=Q(division__in=["A", "B"]), name="player_division_valid"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "division"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.division})"


class Round(models.Model):
    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", "Preliminary"
        FINAL = "final", "Final"

    class Status(models.TextChoices):
        SEATED = "seated", "Seated"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind, default=Kind.PRELIMINARY)
    status = models.CharField(max_length=10, choices=Status, default=Status.SEATED)
    seed = models.BigIntegerField(null=True, blank=True, help_text="Seed of a random draw.")
    started_at = models.DateTimeField(null=True, blank=True)
    called_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when the director calls time early."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set with the round's first pause and never cleared (pauses are never deleted): most
    # rounds are never paused, and every tablet request reads the clock.
    has_pauses = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # By the key column: ordering by the relation itself would join the related
        # table (for its own Meta.ordering) into every query of this model.
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(kind="final"), name="one_final_per_tournament"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["seated", "running", "finished"]),
                name="round_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["preliminary", "final"]), name="round_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status="seated") | Q(started_at__isnull=False),
                name="round_started_when_running",
            ),
        ]

    def __str__(self) -> str:
        return "Final" if self.kind == self.Kind.FINAL else f"Round {self.number}"


class RoundPause(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pauses")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    started_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"], condition=Q(ended_at__isnull=True), name="one_open_pause"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="pause_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} paused at {self.started_at:%H:%M:%S}"


class Seat(models.Model):
    """A player's seat at a table for a round, and their result there once it is known."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.PositiveIntegerField()
    position = models.CharField(max_length=1, choices=SeatPosition)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # Written by the service from the standing hands when the match is over.
    team_score = models.SmallIntegerField(null=True, blank=True)
    bonus = models.SmallIntegerField(null=True, blank=True)
    individual = models.SmallIntegerField(null=True, blank=True)
    points = models.SmallIntegerField(null=True, blank=True)
    won = models.BooleanField(null=True, blank=True)
    margin = models.SmallIntegerField(null=True, blank=True)
    # Set when the director changes this seat after the round was published (a swap), so
    # the player's phone marks the change; seats written by the draw or rotation have none.
    changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round_id", "table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "position"], name="seat_position_unique"
            ),
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.CheckConstraint(condition=Q(table__gte=1), name="seat_table_positive"),
            models.CheckConstraint(
                condition=Q(position__in=["N", "E", "S", "W"]), name="seat_position_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.table} {self.position}"


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
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
    last_entry_at = models.DateTimeField(null=True, blank=True)
    last_contact_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.CharField(max_length=150, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    dispute_note = models.TextField(blank=True)

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

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CONFIRMED, self.Status.DISPUTED)


class HandEntry(models.Model):
    """One hand as entered. Never deleted: undone or superseded entries stay as history."""

    class Outcome(models.TextChoices):
        PLAYED = "played", "Played"
        RENEGE = "renege", "Renege"
        MISDEAL = "misdeal", "Misdeal"

    class Phase(models.TextChoices):
        REGULAR = "regular", "Regular"
        AT_CALL = "at_call", "In progress at the call"
        TIEBREAK = "tiebreak", "Tie-break"

    class State(models.TextChoices):
        STANDING = "standing", "Standing"
        SUPERSEDED = "superseded", "Corrected"
        UNDONE = "undone", "Undone"

    class Source(models.TextChoices):
        TABLET = "tablet", "Tablet"
        DIRECTOR = "director", "Director"
        SIMULATION = "simulation", "Simulation"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    client_key = models.CharField(max_length=64, unique=True)
    outcome = models.CharField(max_length=8, choices=Outcome)
    maker = models.CharField(max_length=1, choices=SeatPosition, blank=True)
    alone = models.BooleanField(default=False)
    maker_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    renege_by = models.CharField(max_length=1, choices=SeatPosition, blank=True)
    dealer_partner_ordered_up = models.BooleanField(default=False)
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

    class Meta:
        ordering = ["match_id", "number", "entered_at"]
        verbose_name_plural = "hand entries"
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(state="standing"),
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
                        outcome="played",
                        maker__in=["N", "E", "S", "W"],
                        maker_tricks__isnull=False,
                        renege_by="",
                    )
                    | Q(
                        outcome="renege",
                        renege_by__in=["N", "E", "S", "W"],
                        maker_tricks__isnull=True,
                        alone=False,
                    )
                    | Q(
                        outcome="misdeal",
                        maker="",
                        renege_by="",
                        maker_tricks__isnull=True,
                        alone=False,
                    )
                ),
                name="hand_outcome_consistent",
            ),
            models.CheckConstraint(
                condition=Q(phase__in=["regular", "at_call", "tiebreak"]), name="hand_phase_valid"
            ),
            models.CheckConstraint(
                condition=Q(state="standing") | Q(ended_at__isnull=False),
                name="hand_end_recorded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} hand {self.number} ({self.get_state_display()})"


class WinnerOverride(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="overrides")
    winner = models.CharField(max_length=2, choices=TeamChoice)
    reason = models.TextField()
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match_id", "created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="override_needs_reason"),
            models.CheckConstraint(condition=Q(winner__in=["NS", "EW"]), name="override_winner"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.winner} by override"


class TableLink(models.Model):
    """A table's tablet link: the token is a capability, printed as a QR code on the card."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_links")
    table = models.PositiveIntegerField()
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "table", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_link_per_table",
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="link_table_positive"),
        ]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "live"
        return f"{self.tournament} table {self.table} link ({state})"


class Activity(models.Model):
    """The activity log: every change with who, when, what and why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="activity")
    at = models.DateTimeField()
    actor = models.CharField(max_length=150)
    action = models.CharField(max_length=40)
    summary = models.TextField()
    reason = models.TextField(blank=True)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="activity"
    )

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "activity"
        indexes = [models.Index(fields=["tournament", "-at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.summary}"
