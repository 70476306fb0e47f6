"""django-tables2 tables of the director console; rows come from querysets or services."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from .models import Activity, Player
from .services.standings import StandingRow


class PlayerTable(tables.Table):
    name = tables.Column(linkify=False)
    division = tables.Column(verbose_name="Div.")
    checked_in = tables.TemplateColumn(
        template_name="director/players/_checkin_cell.html",
        verbose_name="Checked in",
    )
    withdrawn = tables.BooleanColumn(yesno="withdrawn,")
    # §6 attendance: the view annotates ``state`` (seated, waiting, sat out, ...).
    state = tables.Column(verbose_name="Status", orderable=False, empty_values=())
    actions = tables.TemplateColumn(
        template_name="director/players/_actions_cell.html",
        orderable=False,
        verbose_name="",
    )

    class Meta:
        model = Player
        fields = ("name", "division", "checked_in", "withdrawn")
        sequence = ("name", "division", "checked_in", "withdrawn", "state", "actions")
        attrs = {"class": "grid", "id": "players-table"}
        row_attrs = {"id": lambda record: f"player-{record.pk}"}
        order_by = ("name",)
        empty_text = "No players match."

    def render_division(self, value: str, record: Player) -> str:
        return format_html('<span class="div div-{}">{}</span>', record.division, record.division)

    def render_state(self, value: object, record: Player) -> str:
        state = getattr(record, "state", "")
        if record.withdrawn:
            after = record.withdrawn_after_round
            text = f"withdrawn after round {after}" if after else "withdrawn"
            if record.house:
                text = "house, retired"
            return format_html('<span class="pill disputed">{}</span>', text)
        if record.house:
            extra = " · seated" if state == "seated" else ""
            return format_html('<span class="pill final">house</span>{}', extra)
        labels = {
            "seated": "seated",
            "waiting": "waiting",
            "sat_out": "sat out",
            "registered": "registered",
            "checked_in": "checked in",
        }
        return format_html('<span class="pill {}">{}</span>', state, labels.get(state, state))


class SeatFinderTable(tables.Table):
    # Sorted as the printed list is: accents and case do not move a name.
    name = tables.Column(order_by=("sort_name",))
    division = tables.Column(verbose_name="Div.")
    table = tables.Column()
    seat = tables.Column()
    partner = tables.Column()
    opponents = tables.Column(orderable=False)

    class Meta:
        attrs = {"class": "grid", "id": "find-your-seat"}
        order_by = ("name",)


NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


class StandingsTable(tables.Table):
    """One division; the per-round columns are added for the tournament's round count."""

    rank = tables.Column(attrs=NUM)
    player = tables.Column(accessor="player__name", verbose_name="Player")
    bonuses = tables.Column(accessor="record__bonuses", verbose_name="Bonuses", attrs=NUM)
    individual = tables.Column(
        accessor="record__individual", verbose_name="Awards & penalties", attrs=NUM
    )
    total = tables.Column(
        accessor="record__total", attrs={"th": {"class": "num"}, "td": {"class": "num total"}}
    )
    wins = tables.Column(accessor="record__wins", attrs=NUM)
    margin = tables.Column(accessor="record__margin", attrs=NUM)

    class Meta:
        attrs = {"class": "grid standings"}
        orderable = False
        empty_text = "No players in this division."

    def __init__(self, rows: list[StandingRow], rounds: int, **kwargs: object) -> None:
        extra = [
            (
                f"r{n}",
                tables.Column(
                    verbose_name=f"R{n}", attrs=NUM, accessor=f"by_round__{n}", default="—"
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
        if record.standing.decided_by_lot:
            return format_html(
                '{} <abbr class="lot" title="Tie broken by lot">lot</abbr>', record.rank
            )
        return str(record.rank)

    def render_player(self, record: StandingRow) -> str:
        # §6: matches played and sit-outs are shown with the name (the round columns
        # already hold the sit-out points).
        played = record.played
        outs = record.record.sit_outs
        note = f"{played} played"
        if outs:
            note += f", sat out R{', R'.join(str(o.round_number) for o in outs)}"
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


class ActivityTable(tables.Table):
    # Entries of one instant keep the order they were written in.
    at = tables.DateTimeColumn(format="Y-m-d H:i:s", verbose_name="When", order_by=("at", "id"))
    actor = tables.Column(verbose_name="Who")
    action = tables.Column(verbose_name="What")
    summary = tables.Column(verbose_name="Details", orderable=False)
    reason = tables.Column(verbose_name="Why", orderable=False)

    class Meta:
        model = Activity
        fields = ("at", "actor", "action", "summary", "reason")
        attrs = {"class": "grid", "id": "activity"}
        order_by = ("-at",)

    def render_summary(self, record: Activity, value: str) -> str:
        match = record.match
        if match is None:
            return value
        url = reverse(
            "director:table", args=[record.tournament.slug, match.round.number, match.table]
        )
        return format_html('{} <a href="{}">open table</a>', value, url)
