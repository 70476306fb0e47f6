"""Django admin for every model. The history (hands, overrides, activity) is read-only:
the admin is a window on the data, and changes that the rules care about go through the
console, which calls the services. So rounds, seats, matches, pauses and table links are
read-only here too (editing or deleting them would bypass the services, and deleting a
round or a match would delete its hands), as are a tournament's rule settings and
status and a player's tournament and division."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from tournaments.clubs.services import RESERVED_SLUGS
from tournaments.core.models.event import Club, Player, Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.people import (
    EventResult,
    ImportedEvent,
    Person,
    PersonEvent,
    PersonLink,
    PersonProposal,
)
from tournaments.core.models.play import HandEntry, Match, TableLink, WinnerOverride
from tournaments.core.models.rounds import Round, RoundPause, Seating
from tournaments.core.models.series import Series, SeriesEvent
from tournaments.core.models.staff import Invitation, Membership
from tournaments.core.reads import staff
from tournaments.core.roles import DESK, DIRECTOR, OWNER
from tournaments.core.services.players import set_checked_in
from tournaments.publishing.models import Publication, PublishGrant

# How each model's rows reach their club: staff see their own clubs' rows only.
CLUB_PATHS: dict[type[Model], str] = {
    Club: "pk",
    Membership: "club",
    Invitation: "club",
    Tournament: "club",
    Player: "tournament__club",
    Round: "tournament__club",
    RoundPause: "round__tournament__club",
    Seating: "round__tournament__club",
    Match: "round__tournament__club",
    HandEntry: "match__round__tournament__club",
    WinnerOverride: "match__round__tournament__club",
    TableLink: "tournament__club",
    Activity: "tournament__club",
    Person: "club",
    PersonLink: "person__club",
    PersonEvent: "person__club",
    PersonProposal: "person__club",
    ImportedEvent: "tournament__club",
    EventResult: "tournament__club",
    Series: "club",
    SeriesEvent: "series__club",
    Publication: "tournament__club",
    PublishGrant: "club",
}


def _clubs(request: HttpRequest) -> list[int]:
    """The clubs whose rows the admin shows this user: those where a club-wide role holds
    the admin's permissions. They come from the director's group, which a director's role
    anywhere brings (``services.clubs.assign``), so a desk role in another club, or a
    membership limited to named events, opens none of that club's rows."""
    return [c.pk for c in staff.clubs_of(request.user, DIRECTOR)]


class ScopedAdmin(admin.ModelAdmin):
    """Every list, change page and choice of another model holds the user's clubs' rows
    only (a superuser's: all); another club's row is not found (404)."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        return rows.filter(**{f"{CLUB_PATHS[self.model]}__in": _clubs(request)})

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        path = CLUB_PATHS.get(db_field.related_model)
        if path is not None and not request.user.is_superuser:
            kwargs["queryset"] = db_field.related_model._default_manager.filter(
                **{f"{path}__in": _clubs(request)}
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        path = CLUB_PATHS.get(db_field.related_model)
        if path is not None and not request.user.is_superuser:
            kwargs["queryset"] = db_field.related_model._default_manager.filter(
                **{f"{path}__in": _clubs(request)}
            )
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class ReadOnlyAdmin(ScopedAdmin):
    """History is never edited by hand: it is what happened."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ScopedAdmin):
    list_display = (
        "name",
        "slug",
        "status",
        "preliminary_rounds",
        "round_minutes",
        "target",
        "created_at",
    )
    list_filter = ("status", "rehearsal", ("club", admin.RelatedOnlyFieldListFilter))
    search_fields = ("name", "slug")
    # The settings page validates the rules and refuses scoring changes once play has
    # started; the status moves only with the draw, the final and the finish.
    readonly_fields = (
        "club",
        "slug",
        "lot_seed",
        "created_at",
        "status",
        *Tournament.RULE_FIELDS,
        "tiebreaks",
        "sit_out_score",
        # The devices' settings: the Devices page validates and logs them.
        "kiosk",
        "director_pin",
        "silent_after_seconds",
        # Changed only under its rules (services/rehearsal.py), from the settings page.
        "rehearsal",
        # The settings page's Languages and printing.
        "language",
        "bilingual_sheets",
        "paper",
    )
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a new tournament needs a slug and a lot seed: the console makes it

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        # Deleting a tournament that has been drawn would delete its hands.
        if obj is not None and obj.rounds.exists():
            return False
        return super().has_delete_permission(request, obj)


@admin.register(Player)
class PlayerAdmin(ScopedAdmin):
    list_display = ("name", "division", "tournament", "checked_in", "withdrawn", "created_at")
    list_filter = (
        "division",
        "checked_in",
        "withdrawn",
        ("tournament", admin.RelatedOnlyFieldListFilter),
    )
    search_fields = ("name", "tournament__name")
    list_select_related = ("tournament",)
    actions = ("check_in",)

    def get_readonly_fields(
        self, request: HttpRequest, obj: Player | None = None
    ) -> tuple[str, ...]:
        # The console refuses a division change once seated; standings group by it.
        # Attendance (§6) changes only through the console's services, which log it.
        attendance = ("house", "withdrawn", "withdrawn_after_round", "checked_in_at")
        return ("tournament", "division", *attendance) if obj is not None else attendance

    def has_check_in_permission(self, request: HttpRequest) -> bool:
        # The role's permission, as on the console's desk: not any staff login, nor a
        # view-only one.
        return request.user.is_active and bool(staff.clubs_of(request.user, DESK))

    @admin.action(description="Check in the selected players", permissions=["check_in"])
    def check_in(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        by_tournament: dict[int, list[int]] = defaultdict(list)
        tournaments = {}
        for player in queryset.select_related("tournament"):
            by_tournament[player.tournament_id].append(player.pk)
            tournaments[player.tournament_id] = player.tournament
        count = sum(
            set_checked_in(tournaments[tid], ids, True, by=request.user.get_username())
            for tid, ids in by_tournament.items()
        )
        self.message_user(request, f"Checked in {count} player(s).", messages.SUCCESS)


class PauseInline(admin.TabularInline):
    model = RoundPause
    extra = 0
    can_delete = False
    readonly_fields = ("started_at", "ended_at", "started_by")

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "tournament",
        "number",
        "kind",
        "status",
        "started_at",
        "called_at",
        "finished_at",
    )
    list_filter = ("kind", "status", ("tournament", admin.RelatedOnlyFieldListFilter))
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    readonly_fields = ("seed", "created_at")
    inlines = (PauseInline,)


@admin.register(RoundPause)
class RoundPauseAdmin(ReadOnlyAdmin):
    list_display = ("round", "started_at", "ended_at", "started_by")
    list_filter = (("round__tournament", admin.RelatedOnlyFieldListFilter),)
    list_select_related = ("round__tournament",)


@admin.register(Seating)
class SeatAdmin(ReadOnlyAdmin):
    list_display = (
        "round",
        "table",
        "position",
        "player",
        "team_score",
        "bonus",
        "individual",
        "points",
        "won",
        "margin",
    )
    list_filter = (
        ("round__tournament", admin.RelatedOnlyFieldListFilter),
        "round__number",
        "position",
        "won",
    )
    search_fields = ("player__name",)
    list_select_related = ("round__tournament", "player")
    readonly_fields = ("team_score", "bonus", "individual", "points", "won", "margin")


class HandInline(ReadOnlyInline):
    model = HandEntry
    fields = (
        "number",
        "state",
        "dealer",
        "outcome",
        "maker",
        "alone",
        "maker_tricks",
        "renege_by",
        "phase",
        "points_ns",
        "points_ew",
        "source",
        "entered_at",
        "entered_by",
        "reason",
        "end_reason",
    )
    readonly_fields = fields
    ordering = ("number", "entered_at")


class OverrideInline(ReadOnlyInline):
    model = WinnerOverride
    fields = ("winner", "reason", "created_by", "created_at")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "table",
        "game",
        "status",
        "score_ns",
        "score_ew",
        "hands_played",
        "winner",
        "has_renege",
        "has_correction",
        "has_override",
        "last_entry_at",
    )
    list_filter = (
        "status",
        "has_renege",
        "has_correction",
        "has_override",
        ("round__tournament", admin.RelatedOnlyFieldListFilter),
        "round__number",
    )
    search_fields = ("round__tournament__name", "=table")
    list_select_related = ("round__tournament",)
    readonly_fields = (
        "seats",
        "score_ns",
        "score_ew",
        "bonus_ns",
        "bonus_ew",
        "hands_played",
        "recorded_winner",
        "winner",
        "has_renege",
        "has_correction",
        "has_override",
        "last_entry_at",
        "last_contact_at",
        "confirmed_by",
        "confirmed_at",
    )
    inlines = (HandInline, OverrideInline)

    @admin.display(description="Seats")
    def seats(self, obj: Match) -> str:
        # Seats belong to the round and table rather than to the match row.
        rows = Seating.objects.filter(round_id=obj.round_id, table=obj.table).select_related(
            "player"
        )
        return (
            format_html_join(
                ", ",
                "{}: {} ({})",
                ((s.position, s.player.name, s.player.division) for s in rows),
            )
            or "—"
        )


@admin.register(HandEntry)
class HandEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "number",
        "state",
        "outcome",
        "maker",
        "maker_tricks",
        "alone",
        "renege_by",
        "phase",
        "points_ns",
        "points_ew",
        "source",
        "entered_by",
        "entered_at",
    )
    list_filter = (
        "state",
        "outcome",
        "phase",
        "source",
        ("match__round__tournament", admin.RelatedOnlyFieldListFilter),
    )
    search_fields = ("client_key", "entered_by", "reason")
    list_select_related = ("match__round__tournament",)


@admin.register(WinnerOverride)
class WinnerOverrideAdmin(ReadOnlyAdmin):
    list_display = ("match", "winner", "reason", "created_by", "created_at")
    list_filter = ("winner", ("match__round__tournament", admin.RelatedOnlyFieldListFilter))
    search_fields = ("reason", "created_by")
    list_select_related = ("match__round__tournament",)


@admin.register(TableLink)
class TableLinkAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "table", "created_at", "revoked_at")
    list_filter = (
        ("tournament", admin.RelatedOnlyFieldListFilter),
        ("revoked_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("tournament__name", "=table")
    list_select_related = ("tournament",)
    readonly_fields = ("token", "created_at")


@admin.register(Activity)
class ActivityAdmin(ReadOnlyAdmin):
    list_display = ("at", "tournament", "actor", "action", "text", "reason")
    list_filter = ("action", ("tournament", admin.RelatedOnlyFieldListFilter))
    search_fields = ("summary", "message", "args", "reason", "actor")
    list_select_related = ("tournament",)
    date_hierarchy = "at"


# --- People and series: read-only windows; changes go through the
# People and Series pages, which keep the history (merges, splits, imports).


@admin.register(Person)
class PersonAdmin(ReadOnlyAdmin):
    list_display = ("name", "merged_into", "rating_mu", "rating_sigma", "rating_matches")
    search_fields = ("name", "name_key")
    list_select_related = ("merged_into",)


@admin.register(PersonLink)
class PersonLinkAdmin(ReadOnlyAdmin):
    list_display = ("player", "person", "how", "at")
    list_filter = ("how",)
    search_fields = ("player__name", "person__name")
    list_select_related = ("player", "person")


@admin.register(PersonEvent)
class PersonEventAdmin(ReadOnlyAdmin):
    list_display = ("at", "person", "actor", "action", "summary", "reason")
    list_filter = ("action",)
    search_fields = ("summary", "reason", "person__name")
    list_select_related = ("person",)


@admin.register(PersonProposal)
class PersonProposalAdmin(ReadOnlyAdmin):
    list_display = ("person", "candidate", "score", "status", "decided_by")
    list_filter = ("status",)
    search_fields = ("person__name", "candidate__name")
    list_select_related = ("person", "candidate")


@admin.register(ImportedEvent)
class ImportedEventAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "filename", "digest", "imported_at", "imported_by")
    search_fields = ("tournament__name", "filename", "digest")
    list_select_related = ("tournament",)


@admin.register(EventResult)
class EventResultAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "player", "division", "rank", "total", "wins", "margin")
    list_filter = ("division",)
    search_fields = ("player__name", "tournament__name")
    list_select_related = ("tournament", "player")


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ("name", "points_table", "best_of", "created_at")
    search_fields = ("name",)


@admin.register(SeriesEvent)
class SeriesEventAdmin(ReadOnlyAdmin):
    list_display = ("series", "tournament", "added_at")
    search_fields = ("series__name", "tournament__name")
    list_select_related = ("series", "tournament")


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "slug", "created_at")

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(
                _("“%(slug)s” cannot be a club's address; choose another.") % {"slug": slug}
            )
        return slug


@admin.register(Club)
class ClubAdmin(ScopedAdmin):
    form = ClubForm
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_change_permission(self, request: HttpRequest, obj: Club | None = None) -> bool:
        # The club's name and address are its owner's, as its staff are: a director sees them.
        if obj is not None and staff.club_role(request.user, obj) != OWNER:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return request.user.is_superuser


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    """Staff change on the club's staff page (invitations, removal), which the owner runs."""

    list_display = ("user", "club", "role", "created_at")
    list_filter = ("role", ("club", admin.RelatedOnlyFieldListFilter))


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ("club", "role", "created_by", "created_at", "used_at", "revoked_at")
    list_filter = ("role", ("club", admin.RelatedOnlyFieldListFilter))
    exclude = ("token",)


@admin.register(Publication)
class PublicationAdmin(ReadOnlyAdmin):
    # The token is a credential: not listed, not searchable.
    list_display = ("tournament", "club_url", "published_at", "attempted_at", "last_error")
    exclude = ("token",)
    list_select_related = ("tournament",)


@admin.register(PublishGrant)
class PublishGrantAdmin(ReadOnlyAdmin):
    list_display = ("slug", "series", "created_at", "created_by", "last_published_at")
    exclude = ("token_digest",)
    search_fields = ("slug",)
