"""django-tables2 tables of the director console; rows come from querysets or services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import Column, DateTimeColumn, Table
from django_tables2.rows import BoundRow
from django_tables2.utils import signature

from tournaments.common import bilingual
from tournaments.core.logtext import action_label, actor_label, reason_label
from tournaments.core.models.event import Player
from tournaments.core.models.log import Activity
from tournaments.core.reads.players import attendance_state
from tournaments.core.reads.standings import StandingRow

CELL_ARGUMENTS = ("value", "record", "column", "bound_column", "bound_row", "table")


class LeanTable(Table):
    """A table whose body is written in Python rather than through django-tables2's
    cell template. The stock template rebuilds each column's attributes, inspects each
    render method's signature and resolves a dozen template variables for every cell:
    at 50 rows of 12 columns that was most of a 500-table page's time (docs/performance.md,
    "Director pages"). Cells, headers, sorting and pagination are django-tables2's own;
    cell attributes are computed once per column, so they must not depend on the record,
    and values print as ``str`` does (no column here asks to be localized; the stock
    template printed these whole numbers the same).
    """

    def body_html(self) -> SafeString:
        columns = [
            (column, column.attrs["td"].as_html(), *signature(column.render))
            for column in self.columns
        ]
        rows = []
        for row in self.paginated_rows:
            cells = "".join(
                f"<td {td}>{conditional_escape(self._cell(row, column, args, catch_all))}</td>"
                for column, td, args, catch_all in columns
            )
            rows.append(f"<tr {row.attrs.as_html()}>{cells}</tr>")
        if not rows and self.empty_text:
            rows.append(
                f'<tr><td colspan="{len(columns)}">{conditional_escape(self.empty_text)}</td></tr>'
            )
        return mark_safe("".join(rows))  # noqa: S308 (every cell escaped above)

    @staticmethod
    def _cell(row: BoundRow, column: Any, args: list[str], catch_all: str | None) -> Any:
        # ``BoundRow._call_render`` with the signature read once per column, not per cell.
        def render(bound_column: Any, value: object = None) -> object:
            given = row._optional_cell_arguments(bound_column, value)
            if not catch_all:
                given = {key: given[key] for key in args if key in given}
                if len(given) < len(args):
                    return None
            content = bound_column.render(**given)
            if bound_column.link:
                return bound_column.link(content, **row._optional_cell_arguments(column, value))
            return content

        return row._get_and_render_with(column, render_func=render, default=column.default)


def csrf_field(request: Any) -> SafeString:
    return format_html(
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
    )


def checkin_cell(record: Player, url: str, csrf: SafeString) -> SafeString:
    """The one-tap check-in form of a player's row (the table's cell and the htmx answer
    that replaces it)."""
    if record.checked_in:
        # The name begins with the words on the button, so a voice user saying what
        # they see ("here") reaches it (WCAG 2.5.3).
        here = _("here")
        field = format_html(
            '<input type="hidden" name="checked_in" value="0">'
            '<button type="submit" class="tick on" aria-label="{}: {}">✓ {}</button>',
            here,
            _("Undo check-in of %(name)s") % {"name": record.name},
            here,
        )
    else:
        field = format_html(
            '<input type="hidden" name="checked_in" value="1">'
            '<button type="submit" class="tick" aria-label="{}"{}>{}</button>',
            _("Check in %(name)s") % {"name": record.name},
            mark_safe(" disabled") if record.withdrawn else "",
            _("check in"),
        )
    return format_html(
        '<form method="post" action="{}" class="inline" hx-post="{}" hx-target="this" '
        'hx-swap="outerHTML">{}{}</form>',
        url,
        url,
        csrf,
        field,
    )


def _url_with_pk(name: str, slug: str) -> Callable[[int], str]:
    """The director URL ``name`` for any player of the tournament, reversed once per
    page (a reverse per row and per link cost ~0.05 ms each, 200 a page)."""
    template = reverse(name, args=[slug, 0])
    head, _, tail = template.rpartition("/0/")
    return lambda pk: f"{head}/{pk}/{tail}"


class PlayerTable(LeanTable):
    # By the one name rule (``names.sort_key``: "Mélanie" before "Mireille"), which the
    # database's collation does not know: the rows come as a list, each with its key.
    name = Column(linkify=False, verbose_name=gettext_lazy("Name"), order_by=("name_order",))
    division = Column(verbose_name=gettext_lazy("Div."))
    checked_in = Column(verbose_name=gettext_lazy("Checked in"), empty_values=())
    withdrawn = Column(verbose_name=gettext_lazy("Withdrawn"))
    # §6 attendance: seated, waiting, sat out, ...
    state = Column(verbose_name=gettext_lazy("Status"), orderable=False, empty_values=())
    actions = Column(orderable=False, verbose_name="", empty_values=())

    class Meta:
        model = Player
        fields = ("name", "division", "checked_in", "withdrawn")
        sequence = ("name", "division", "checked_in", "withdrawn", "state", "actions")
        attrs = {"class": "grid", "id": "players-table"}
        row_attrs = {"id": lambda record: f"player-{record.pk}"}
        order_by = ("name",)
        empty_text = gettext_lazy("No players match.")
        template_name = "django_tables2/lean.html"

    def __init__(self, data: Any, *, slug: str, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.checkin_url = _url_with_pk("director:checkin", slug)
        self.edit_url = _url_with_pk("director:player_edit", slug)
        self.withdraw_url = _url_with_pk("director:player_withdraw", slug)

    def _csrf(self) -> SafeString:
        return csrf_field(self.request)

    def render_checked_in(self, record: Player) -> str:
        return checkin_cell(record, self.checkin_url(record.pk), self._csrf())

    def render_actions(self, record: Player) -> str:
        if record.withdrawn:
            value, label, confirm = "0", _("reinstate"), ""
        elif record.house:
            value, label = "1", _("retire")
            confirm = _("Retire house player %(name)s?") % {"name": record.name}
        else:
            value, label = "1", _("withdraw")
            confirm = _(
                "Withdraw %(name)s? They keep every hand played and are never seated again."
            ) % {"name": record.name}
        return format_html(
            '<a href="{}">{}</a> <form method="post" action="{}" class="inline">{}'
            '<input type="hidden" name="next" value="{}">'
            '<input type="hidden" name="withdrawn" value="{}">'
            '<button type="submit" class="link"{}>{}</button></form>',
            self.edit_url(record.pk),
            _("edit"),
            self.withdraw_url(record.pk),
            self._csrf(),
            self.request.get_full_path(),
            value,
            format_html(' data-confirm="{}"', confirm) if confirm else "",
            label,
        )

    def render_withdrawn(self, value: bool) -> str:
        return _("withdrawn") if value else ""

    def render_division(self, value: str, record: Player) -> str:
        return format_html('<span class="div div-{}">{}</span>', record.division, record.division)

    def render_state(self, value: object, record: Player) -> str:
        # is_seated, is_out and drawn are annotations of queries.player_list.
        row = cast(Any, record)
        state = attendance_state(
            checked_in=record.checked_in,
            withdrawn=record.withdrawn,
            house=record.house,
            seated=row.is_seated,
            sat_out=row.is_out,
            drawn=row.drawn,
        )
        if record.withdrawn:
            after = record.withdrawn_after_round
            text = _("withdrawn after round %(n)s") % {"n": after} if after else _("withdrawn")
            if record.house:
                text = _("house, retired")
            return format_html('<span class="pill disputed">{}</span>', text)
        if record.house:
            extra = " · " + _("seated") if state == "seated" else ""
            return format_html('<span class="pill final">{}</span>{}', bilingual.house(), extra)
        labels = {
            "seated": _("seated"),
            "waiting": _("waiting"),
            "sat_out": _("sat out"),
            "registered": _("registered"),
            "checked_in": _("checked in"),
        }
        return format_html('<span class="pill {}">{}</span>', state, labels.get(state, state))


class SeatFinderTable(LeanTable):
    # Sorted as the printed list is: accents and case do not move a name.
    name = Column(order_by=("sort_name",), verbose_name=gettext_lazy("Name"))
    division = Column(verbose_name=gettext_lazy("Div."))
    table = Column(verbose_name=gettext_lazy("Table"))
    seat = Column(verbose_name=gettext_lazy("Seat"))
    partner = Column(verbose_name=gettext_lazy("Partner"))
    opponents = Column(orderable=False, verbose_name=gettext_lazy("Opponents"))

    def render_seat(self, value: str) -> str:
        return str(bilingual.seat(value))  # West is "O" in French

    class Meta:
        attrs = {"class": "grid", "id": "find-your-seat"}
        order_by = ("name",)
        template_name = "django_tables2/lean.html"


NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


class StandingsTable(LeanTable):
    """One division; the per-round columns are added for the tournament's round count."""

    rank = Column(attrs=NUM, verbose_name=gettext_lazy("Rank"))
    player = Column(accessor="player__name", verbose_name=gettext_lazy("Player"))
    bonuses = Column(accessor="record__bonuses", verbose_name=gettext_lazy("Bonuses"), attrs=NUM)
    individual = Column(
        accessor="record__individual",
        verbose_name=gettext_lazy("Awards & penalties"),
        attrs=NUM,
    )
    total = Column(
        accessor="record__total",
        verbose_name=gettext_lazy("Total"),
        attrs={"th": {"class": "num"}, "td": {"class": "num total"}},
    )
    wins = Column(accessor="record__wins", verbose_name=gettext_lazy("Wins"), attrs=NUM)
    margin = Column(accessor="record__margin", verbose_name=gettext_lazy("Margin"), attrs=NUM)

    class Meta:
        attrs = {"class": "grid standings"}
        orderable = False
        empty_text = gettext_lazy("No players in this division.")
        template_name = "django_tables2/lean.html"

    def __init__(self, rows: list[StandingRow], rounds: int, **kwargs: object) -> None:
        extra = [
            (
                f"r{n}",
                Column(
                    verbose_name=_("R%(n)s") % {"n": n},
                    attrs=NUM,
                    accessor=f"by_round__{n}",
                    default="—",
                ),
            )
            for n in range(1, rounds + 1)
        ]
        sequence = [
            "rank",
            "player",
            *[f"r{n}" for n in range(1, rounds + 1)],
            "bonuses",
            "individual",
            "total",
            "wins",
            "margin",
        ]
        super().__init__(
            rows,
            extra_columns=extra,
            sequence=sequence,  # type: ignore[arg-type]
            **kwargs,
        )

    def render_rank(self, record: StandingRow) -> str:
        # The rank as players see it ("=3"): the lot shows where it decides, on the
        # final's seeding page.
        if record.standing.shares:
            return format_html(
                '<abbr title="{}">{}</abbr>',
                _("Shared rank: equal on every tiebreak"),
                record.shown_rank,
            )
        return record.shown_rank

    def render_player(self, record: StandingRow) -> str:
        # §6: matches played and sit-outs are shown with the name (the round columns
        # already hold the sit-out points).
        played = record.played
        outs = record.record.sit_outs
        note = _("%(n)s played") % {"n": played}
        if outs:
            rounds = ", ".join(_("R%(n)s") % {"n": o.round_number} for o in outs)
            note += ", " + _("sat out %(rounds)s") % {"rounds": rounds}
        if record.player.withdrawn:
            return format_html(
                '{} <span class="tag">{}</span> <small class="muted">{}</small>',
                record.player.name,
                record.withdrawn_mark,
                note,
            )
        return format_html('{} <small class="muted">{}</small>', record.player.name, note)

    def render_margin(self, value: int) -> str:
        return f"{value:+d}"


class ActivityTable(LeanTable):
    # Entries of one instant keep the order they were written in.
    at = DateTimeColumn(
        format="Y-m-d H:i:s", verbose_name=gettext_lazy("When"), order_by=("at", "id")
    )
    actor = Column(verbose_name=gettext_lazy("Who"))
    action = Column(verbose_name=gettext_lazy("What"))
    # The line in the reader's language (Activity.text: a msgid and its arguments).
    summary = Column(accessor="text", verbose_name=gettext_lazy("Details"), orderable=False)
    reason = Column(verbose_name=gettext_lazy("Why"), orderable=False)

    class Meta:
        model = Activity
        fields = ("at", "actor", "action", "summary", "reason")
        attrs = {"class": "grid", "id": "activity"}
        order_by = ("-at",)
        template_name = "django_tables2/lean.html"

    def render_action(self, value: str) -> str:
        return action_label(value)

    def render_actor(self, value: str) -> str:
        return actor_label(value)

    def render_reason(self, value: str) -> str:
        return reason_label(value)

    def render_summary(self, record: Activity, value: str) -> str:
        match = record.match
        if match is None:
            return value
        url = reverse(
            "director:table", args=[record.tournament.slug, match.round.number, match.table]
        )
        return format_html('{} <a href="{}">{}</a>', value, url, _("open table"))
