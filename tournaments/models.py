"""Rows and the invariants the database keeps; the rules live in ``tournaments.domain``.

Hands are never deleted: an undo marks an entry undone, a correction adds a new entry
that replaces the old one, and both record who, when and why. The result columns on
``Match`` and ``Seating`` are recomputed from the standing hands by the service layer in
the same transaction as every change; they are never incremented.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.domain.rules import RuleSettings
from tournaments.logtext import actor_label, render


class Division(models.TextChoices):
    A = "A", gettext_lazy("Division A")
    B = "B", gettext_lazy("Division B")


class SeatPosition(models.TextChoices):
    N = "N", gettext_lazy("North")
    E = "E", gettext_lazy("East")
    S = "S", gettext_lazy("South")
    W = "W", gettext_lazy("West")


class TeamChoice(models.TextChoices):
    NS = "NS", gettext_lazy("North–South")
    EW = "EW", gettext_lazy("East–West")


# The enums that constraints name live at module level: a model's Meta cannot see the
# classes nested beside it. The models keep them under their usual names.
class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", gettext_lazy("Registration")
    PRELIMINARY = "preliminary", gettext_lazy("Preliminary rounds")
    FINAL = "final", gettext_lazy("Final")
    FINISHED = "finished", gettext_lazy("Finished")


class RoundKind(models.TextChoices):
    PRELIMINARY = "preliminary", gettext_lazy("Preliminary")
    FINAL = "final", gettext_lazy("Final")


class RoundStatus(models.TextChoices):
    SEATED = "seated", gettext_lazy("Seated")
    RUNNING = "running", gettext_lazy("Running")
    FINISHED = "finished", pgettext_lazy("round status", "Finished")


# The rules' defaults are written once, in the domain; the columns take theirs from it, so a
# changed default is one line there plus the migration that Django then asks for.
_DEFAULTS = RuleSettings()


class Club(models.Model):
    """A club or league: it owns its tournaments, series and people, and its staff
    (``Membership``) work only its rows. A hall laptop is a site with one club."""

    name = models.CharField(max_length=120)
    # The short first part of the club's public addresses (/<club>/<event>/): typed
    # from a projector, so it is short and may not be one of the site's own paths.
    slug = models.SlugField(max_length=40, unique=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty")]

    def __str__(self) -> str:
        return self.name


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def counted(self) -> TournamentQuerySet:
        """The events that count: every public listing, series, people page and rating reads
        tournaments through this, so a rehearsal (issue 25) stays out of all of them."""
        return self.filter(rehearsal=False)

    def listed(self) -> TournamentQuerySet:
        """The events that count, a registration copy whose results arrived from the hall
        (``played_as``) left out: the event is read once, as those results."""
        return self.counted().filter(played_as__isnull=True)


class Tournament(models.Model):
    Status = TournamentStatus

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    status = models.CharField(max_length=16, choices=Status, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)
    # The seed of the draw by lot that ends the tiebreak chain, recorded so the
    # standings can be reproduced and shown.
    lot_seed = models.BigIntegerField()

    preliminary_rounds = models.PositiveSmallIntegerField(default=_DEFAULTS.preliminary_rounds)
    round_minutes = models.PositiveSmallIntegerField(default=_DEFAULTS.round_minutes)
    target = models.PositiveSmallIntegerField(default=_DEFAULTS.target)
    points_make = models.PositiveSmallIntegerField(default=_DEFAULTS.points_make)
    points_march = models.PositiveSmallIntegerField(default=_DEFAULTS.points_march)
    points_alone_march = models.PositiveSmallIntegerField(default=_DEFAULTS.points_alone_march)
    points_euchre = models.PositiveSmallIntegerField(default=_DEFAULTS.points_euchre)
    points_renege = models.PositiveSmallIntegerField(default=_DEFAULTS.points_renege)
    alone_march_award = models.SmallIntegerField(default=_DEFAULTS.alone_march_award)
    renege_penalty = models.SmallIntegerField(default=_DEFAULTS.renege_penalty)
    reach_bonus = models.SmallIntegerField(default=_DEFAULTS.reach_bonus)
    skunk_bonus = models.SmallIntegerField(default=_DEFAULTS.skunk_bonus)
    skunk_includes_reach = models.BooleanField(default=_DEFAULTS.skunk_includes_reach)
    cap_at_target = models.BooleanField(default=_DEFAULTS.cap_at_target)
    tiebreaks = models.CharField(max_length=40, default=",".join(_DEFAULTS.tiebreaks))
    final_games_to_win = models.PositiveSmallIntegerField(default=_DEFAULTS.final_games_to_win)
    final_target = models.PositiveSmallIntegerField(default=_DEFAULTS.final_target)
    defend_alone_allowed = models.BooleanField(default=_DEFAULTS.defend_alone_allowed)
    points_alone_euchre = models.PositiveSmallIntegerField(default=_DEFAULTS.points_alone_euchre)
    late_sync_grace_minutes = models.PositiveSmallIntegerField(
        default=_DEFAULTS.late_sync_grace_minutes
    )
    # §6: "average", "none", or a fixed number of points, for a player who sits out.
    sit_out_score = models.CharField(max_length=8, default=_DEFAULTS.sit_out_score)
    # docs/rules.md §5: players' phones and the projector show no totals or ranks during the
    # last N preliminary rounds (0 = never hidden).
    hide_standings_last_rounds = models.PositiveSmallIntegerField(
        default=_DEFAULTS.hide_standings_last_rounds
    )
    # §5: when the director revealed hidden standings before the final (one action on
    # the console); seeding the final reveals them in any case.
    standings_revealed_at = models.DateTimeField(null=True, blank=True)
    # Issue 23: a seated table's device not heard from for this long while its round runs
    # is flagged "silent" on the director's board. Not a rule: not in RULE_FIELDS.
    silent_after_seconds = models.PositiveSmallIntegerField(default=60)
    # Kiosk mode on the tablets (issue 23, part 1): full screen, kept awake, guarded; the
    # director's controls on a tablet open with this PIN (shown on the console).
    kiosk = models.BooleanField(default=True)
    director_pin = models.CharField(max_length=8, blank=True)
    # Issue 25: a rehearsal runs like an event but counts nowhere and is listed nowhere
    # public (``Tournament.objects.counted()``); services/rehearsal.py changes it.
    rehearsal = models.BooleanField(default=False)
    # On the club site: an event that took registrations here and was played at the hall,
    # whose results arrived as this other event (docs/series.md, "Registration before the
    # day"). Set by the import of the hall's results, found through the registrations' uids
    # the results file carries; the copy then follows the results' status, its players'
    # links lead to their results and the club page lists the event once, as its results.
    played_as = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registration_copies",
    )
    # Issue 24: the language the event's public pages, projector and tablets read in
    # until a reader chooses (the language cookie); a sheet printed bilingual leads with it.
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # Issue 24: sheets print in both languages unless the director picks one when printing.
    bilingual_sheets = models.BooleanField(default=False)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        # The two roles (groups "director" and "desk", tournaments/roles.py).
        permissions = [
            ("run_event", "Run events: rounds, results, settings, players"),
            ("work_desk", "Work the desk: check-in, find a seat, print seating and score sheets"),
        ]
        constraints = [
            # Slugs stay unique on the whole site too (the field's own unique): the
            # console, the sheets and the QR codes printed before clubs name an event by
            # its slug alone. Within a club the database says so by name as well.
            models.UniqueConstraint(fields=["club", "slug"], name="tournament_slug_unique_in_club"),
            models.CheckConstraint(
                condition=Q(preliminary_rounds__gte=1)
                & Q(round_minutes__gte=1)
                & Q(target__gte=1)
                & Q(final_target__gte=1)
                & Q(final_games_to_win__gte=1),
                name="tournament_positive_limits",
            ),
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="tournament_language_known",
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
                condition=Q(status__in=TournamentStatus.values),
                name="tournament_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(silent_after_seconds__gte=30), name="tournament_silent_after_min"
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
        "defend_alone_allowed",
        "points_alone_euchre",
        "late_sync_grace_minutes",
        "hide_standings_last_rounds",
    )

    @property
    def rules(self) -> RuleSettings:
        values = {name: getattr(self, name) for name in self.RULE_FIELDS}
        return RuleSettings(
            **values, tiebreaks=tuple(self.tiebreaks.split(",")), sit_out_score=self.sit_out_score
        )


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    division = models.CharField(max_length=1, choices=Division)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    # §6 attendance. A house player is a stand-in: plays, never ranked, never in the final.
    house = models.BooleanField(default=False)
    # The last preliminary round the player could play (0: withdrawn before round 1).
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # In an event imported from a results file: the application (``Registration.uid``) the
    # player came from, as the file names it; the club site's application of that uid is
    # this player's (her private link leads here). At the hall the registration itself says
    # it (``registration``), and the export writes it from there.
    registration_uid = models.UUIDField(null=True, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # The services refuse a name that differs only in case (casefold); the
            # database keeps the same rule for whatever writes rows (Lower() folds ASCII
            # only on SQLite, every letter on PostgreSQL).
            models.UniqueConstraint(Lower("name"), "tournament", name="player_name_unique_ci"),
            models.CheckConstraint(
                condition=Q(division__in=Division.values), name="player_division_valid"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "division"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.division})"


class RoundQuerySet(models.QuerySet["Round"]):
    def newest(self) -> Round | None:
        """The highest-numbered round: the one being played or about to be."""
        return self.order_by("-number").first()


class Round(models.Model):
    Kind = RoundKind
    Status = RoundStatus

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


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", gettext_lazy("Waiting")
        PLAYING = "playing", gettext_lazy("Playing")
        FINISHED = "finished", pgettext_lazy("table status", "Finished")
        CONFIRMED = "confirmed", gettext_lazy("Confirmed")
        DISPUTED = "disputed", gettext_lazy("Disputed")

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

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
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
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="overrides")
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

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_links")
    table = models.PositiveIntegerField()
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The short code printed beside the QR and typed at /t/ (issue 23): unique among every
    # code ever issued, so a re-issued (revoked) code can never open a table again.
    code = models.CharField(max_length=8, unique=True, null=True, blank=True)
    # Which device holds the table: a takeover with the code raises it, and every session
    # opened before answers "replaced" (403) and sends nothing more.
    device = models.PositiveIntegerField(default=1)
    # What the table's device last reported (issue 23, part 5), written at most every
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
        Tournament, on_delete=models.CASCADE, related_name="help_requests"
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


class Activity(models.Model):
    """The activity log: every change with who, when, what and why."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="activity")
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
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="activity"
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


# --- The Snowman Series: people across events, series and their standings (issue 16) ---


class Person(models.Model):
    """One human across tournaments; a tournament's ``Player`` is linked to one person.

    A merged person is kept (``merged_into`` set, no players left) so the history of
    who was merged into whom, and why, stays readable.
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="people")
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

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="person_link")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="links")
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

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="history")
    other = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
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

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="proposals")
    candidate = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
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
        Tournament, on_delete=models.CASCADE, related_name="imported_from"
    )
    digest = models.CharField(max_length=64, unique=True)
    filename = models.CharField(max_length=200, blank=True)
    imported_at = models.DateTimeField()
    imported_by = models.CharField(max_length=150)

    def __str__(self) -> str:
        return f"{self.tournament} ({self.digest[:12]})"


class EventResult(models.Model):
    """A player's final standing in an imported event, as the file states it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="result")
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


class Series(models.Model):
    class Table(models.TextChoices):
        PLACE = "place", gettext_lazy("By finishing place in the division")
        TOTAL = "total", gettext_lazy("By total points")
        PARTICIPATION = "participation", gettext_lazy("Participation points")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="series")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    points_table = models.CharField(max_length=14, choices=Table, default=Table.PLACE)
    # Points for 1st, 2nd, ... in the division; places beyond the list score the last entry.
    place_points = models.CharField(max_length=200, default="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1")
    participation_points = models.PositiveSmallIntegerField(default=10)
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Count each person's best N events; empty counts all."
    )
    created_at = models.DateTimeField()
    tournaments = models.ManyToManyField(Tournament, through="SeriesEvent", related_name="series")

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(points_table__in=["place", "total", "participation"]),
                name="series_points_table_valid",
            ),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1),
                name="series_best_of_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="+")
    added_at = models.DateTimeField()

    class Meta:
        ordering = ["series_id", "added_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_event_unique")
        ]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.tournament_id}"


class SitOut(models.Model):
    """A checked-in player without a seat in a preliminary round (§6); scored by the
    tournament's ``sit_out_score`` when standings are computed."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="sit_outs")

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

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="substitutions")
    position = models.CharField(max_length=1, choices=SeatPosition)
    from_hand = models.PositiveSmallIntegerField()
    player_out = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_in = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
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

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
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


class PrizeFigure(models.TextChoices):
    # The figures of tournaments/domain/prizes.py FIGURES, in its order.
    TOTAL = "total", _("Total")
    WINS = "wins", _("Wins")
    MARGIN = "margin", _("Margin")
    LONE_MARCHES = "lone_marches", _("Lone marches")
    EUCHRES = "euchres", _("Euchres made")
    RENEGES = "reneges", _("Reneges")
    BEST_MATCH = "best_match", _("Most points in one match")
    EXPECTATION = "expectation", _("Wins against expectation")


class DefinedPrize(models.Model):
    """A prize the director adds from a fixed list of figures (issue 23): no expressions,
    so a prize can only read numbers already recorded."""

    Figure = PrizeFigure

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    name = models.CharField(max_length=80)
    figure = models.CharField(max_length=16, choices=PrizeFigure)
    highest = models.BooleanField(default=True)
    division = models.CharField(max_length=1, choices=Division, blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(figure__in=PrizeFigure.values), name="prize_figure_valid"
            ),
            models.CheckConstraint(
                condition=Q(division__in=["", *Division.values]), name="prize_division_valid"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="prize_needs_name"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.name}"


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
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=StaffRole)
    events = models.ManyToManyField(Tournament, blank=True, related_name="+")
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


class Invitation(models.Model):
    """A one-time link that makes whoever opens it (signed in) staff of the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=8, choices=StaffRole)
    events = models.ManyToManyField(Tournament, blank=True, related_name="+")
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


# --- Results from the hall to the club site (issue 26, item 5) ---


class Publication(models.Model):
    """At the hall: where an event's results go (the club site and the event's token) and
    how the last attempt went. A failed attempt is recorded here, never raised at the
    director: the hall works without the internet and retries later."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="publication"
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
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    slug = models.SlugField(max_length=140)
    token_digest = models.CharField(max_length=64, unique=True)
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
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


# --- Registration before the day (issue 26) ---------------------------------------------


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
        Tournament, on_delete=models.CASCADE, related_name="registration_settings"
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
        Tournament, on_delete=models.CASCADE, related_name="registrations"
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
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="registration"
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

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="passes")
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

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    address = models.CharField(max_length=45)
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["tournament", "address", "at"], name="registration_attempts"),
            models.Index(fields=["tournament", "at"], name="registration_attempts_event"),
        ]

    def __str__(self) -> str:
        return f"{self.address} at {self.at:%H:%M:%S}"


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
