"""Rows and the invariants the database keeps; the rules live in ``tournaments.domain``.

Hands are never deleted: an undo marks an entry undone, a correction adds a new entry
that replaces the old one, and both record who, when and why. The result columns on
``Match`` and ``Seating`` are recomputed from the standing hands by the service layer in
the same transaction as every change; they are never incremented.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournaments.common.names import NAME_MAX
from tournaments.core.pdf.styles import DEFAULT_PAPER, PAPERS
from tournaments.domain.rules import COLUMN_SETTINGS, RuleSettings

# How the set-up form names each paper size.
PAPER_NAMES = {"letter": pgettext_lazy("paper size", "Letter (8½ × 11 in)"), "a4": "A4"}
PAPER_CHOICES = [(p, PAPER_NAMES.get(p, p)) for p in PAPERS]


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
        tournaments through this, so a rehearsal stays out of all of them."""
        return self.filter(rehearsal=False)

    def listed(self) -> TournamentQuerySet:
        """The events that count, a registration copy whose results arrived from the hall
        (``played_as``) left out: the event is read once, as those results."""
        return self.counted().filter(played_as__isnull=True)


class Tournament(models.Model):
    Status = TournamentStatus

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.PROTECT, related_name="tournaments"
    )
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
    # A seated table's device not heard from for this long while its round runs
    # is flagged "silent" on the director's board. Not a rule: not in RULE_FIELDS.
    silent_after_seconds = models.PositiveSmallIntegerField(default=60)
    # Kiosk mode on the tablets: full screen, kept awake, guarded; the
    # director's controls on a tablet open with this PIN (shown on the console).
    kiosk = models.BooleanField(default=True)
    director_pin = models.CharField(max_length=8, blank=True)
    # A rehearsal runs like an event but counts nowhere and is listed nowhere
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
    # The language the event's public pages, projector and tablets read in
    # until a reader chooses (the language cookie); a sheet printed bilingual leads with it.
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # Sheets print in both languages unless the director picks one when printing.
    bilingual_sheets = models.BooleanField(default=False)
    # The paper every sheet prints on unless a print names another (?paper=).
    paper = models.CharField(
        max_length=8,
        choices=PAPER_CHOICES,
        default=DEFAULT_PAPER,
    )
    # When and where: what the set-up form asks beside the name; none is needed.
    event_date = models.DateField(null=True, blank=True)
    start_time = models.TimeField(null=True, blank=True)
    venue = models.CharField(max_length=120, blank=True, default="")

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

    RULE_FIELDS = COLUMN_SETTINGS

    @property
    def rules(self) -> RuleSettings:
        values = {name: getattr(self, name) for name in self.RULE_FIELDS}
        return RuleSettings(
            **values, tiebreaks=tuple(self.tiebreaks.split(",")), sit_out_score=self.sit_out_score
        )


class Player(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="players"
    )
    name = models.CharField(max_length=NAME_MAX)
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
