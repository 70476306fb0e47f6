"""models/rounds: rows of this subject and the invariants the database keeps."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext

from tournaments.core.models.event import Division, RoundKind, RoundStatus, SeatPosition


class RoundQuerySet(models.QuerySet["Round"]):
    def newest(self) -> Round | None:
        """The highest-numbered round: the one being played or about to be."""
        return self.order_by("-number").first()


class Round(models.Model):
    Kind = RoundKind
    Status = RoundStatus

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="rounds"
    )
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
    # The final only: the withdrawn players its seeding passed over (§4), as
    # [{"player": id, "division": "A", "after": round or null}], so that who plays the final
    # and why stays what the seeding found, whatever withdrawals change later. Null on a
    # preliminary round and on a final seeded before this was kept.
    skipped = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        # By the key column: ordering by the relation itself would join the related
        # table (for its own Meta.ordering) into every query of this model.
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(kind=RoundKind.FINAL),
                name="one_final_per_tournament",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values), name="round_status_valid"
            ),
            models.CheckConstraint(condition=Q(kind__in=RoundKind.values), name="round_kind_valid"),
            models.CheckConstraint(
                condition=Q(status=RoundStatus.SEATED) | Q(started_at__isnull=False),
                name="round_started_when_running",
            ),
        ]

    def __str__(self) -> str:
        return "Final" if self.kind == self.Kind.FINAL else f"Round {self.number}"

    def label(self) -> str:
        """ "Round 3" or "Final" in the reader's language, for a message to a person (the
        English ``str()`` stays for logs and the admin)."""
        if self.kind == self.Kind.FINAL:
            return gettext("Final")
        return gettext("Round %(n)s") % {"n": self.number}


class RoundPause(models.Model):
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="pauses")
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


class SeatingQuerySet(models.QuerySet["Seating"]):
    def by_table(self, *fields: str) -> defaultdict[int, dict[str, tuple[Any, ...]]]:
        """The seats read in one query: table -> position -> the values of ``fields``
        (e.g. "player__name"), in the model's order: by round, table, position."""
        tables: defaultdict[int, dict[str, tuple[Any, ...]]] = defaultdict(dict)
        for table, position, *values in self.values_list("table", "position", *fields):
            tables[table][position] = tuple(values)
        return tables


class Seating(models.Model):
    """A player's seat at a table for a round, and their result there once it is known."""

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="seats")
    table = models.PositiveIntegerField()
    position = models.CharField(max_length=1, choices=SeatPosition)
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="seats")
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

    objects = SeatingQuerySet.as_manager()

    class Meta:
        ordering = ["round_id", "table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "position"], name="seat_position_unique"
            ),
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.CheckConstraint(condition=Q(table__gte=1), name="seat_table_positive"),
            models.CheckConstraint(
                condition=Q(position__in=SeatPosition.values), name="seat_position_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.table} {self.position}"


class SitOut(models.Model):
    """A checked-in player without a seat in a preliminary round (§6); scored by the
    tournament's ``sit_out_score`` when standings are computed."""

    round = models.ForeignKey(
        "tournaments.Round", on_delete=models.CASCADE, related_name="sit_outs"
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.PROTECT, related_name="sit_outs"
    )

    class Meta:
        ordering = ["round_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="sit_out_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.player} sits out"


class Substitution(models.Model):
    """A seat changing hands during a match from hand ``from_hand`` on (§6).

    The seat row names whoever held the seat when the match ended; the player who left
    keeps the team points of the hands they sat for and their own awards, written here
    by the service from the standing hands."""

    match = models.ForeignKey(
        "tournaments.Match", on_delete=models.CASCADE, related_name="substitutions"
    )
    position = models.CharField(max_length=1, choices=SeatPosition)
    from_hand = models.PositiveSmallIntegerField()
    player_out = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="+")
    player_in = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="+")
    out_team_score = models.SmallIntegerField(null=True, blank=True)
    out_individual = models.SmallIntegerField(null=True, blank=True)
    # The substitute was sitting this round out when they came in (their sit-out was
    # cancelled): a correction that takes them out again gives it back.
    in_sat_out = models.BooleanField(default=False)
    reason = models.TextField(blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match_id", "position", "from_hand"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position", "from_hand"], name="one_substitution_per_hand"
            ),
            models.CheckConstraint(condition=Q(from_hand__gte=1), name="substitution_hand_pos"),
            models.CheckConstraint(
                condition=~Q(player_out=models.F("player_in")), name="substitution_two_people"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} {self.position}: {self.player_in} from hand {self.from_hand}"


class TieBreak(models.Model):
    """The director's order for players who share a rank that decides who enters the
    final (§4, a chain without the lot). The latest one for a division applies while its
    players are still the tied group."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    division = models.CharField(max_length=1, choices=Division)
    order = models.CharField(max_length=400, help_text="Player ids, best first.")
    reason = models.TextField()
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament_id", "division", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="tiebreak_needs_reason")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.division}: tie broken"
