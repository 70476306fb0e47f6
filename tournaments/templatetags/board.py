"""The live board's rows written in Python: the console polls it every 3 seconds and, at
500 tables, its template rows (a dozen variables and filters each) were most of the
page's time (docs/performance.md, "Director pages"). The standard library's ``escape``
is Django's without the lazy-string wrapper around it (13,000 calls a page at 500
tables: half the rows' time), and gives the same text."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape

from django import template
from django.template.defaultfilters import timesince_filter
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournaments.common import bilingual
from tournaments.core.reads.console import BoardRow

register = template.Library()

# The board's words in the reader's language, looked up by the English the console's
# services give (a status key, a flag's and an attention reason's text); a text not
# listed here shows as given.
STATUS = {
    "waiting": gettext_lazy("Waiting"),
    "playing": gettext_lazy("Playing"),
    "time_called": gettext_lazy("Time called"),
    "finished": pgettext_lazy("table status", "Finished"),
    "confirmed": gettext_lazy("Confirmed"),
    "disputed": gettext_lazy("Disputed"),
}
WORDS = {
    "renege": gettext_lazy("renege"),
    "override": gettext_lazy("override"),
    "correction": gettext_lazy("correction"),
    "late sync": gettext_lazy("late sync"),
    "result disputed": gettext_lazy("result disputed"),
    "time called, still playing": gettext_lazy("time called, still playing"),
    "no entry for a while": gettext_lazy("no entry for a while"),
    "no hand entered yet": gettext_lazy("no hand entered yet"),
    "finished, not confirmed": gettext_lazy("finished, not confirmed"),
    "tablet silent": gettext_lazy("tablet silent"),
    "tablet battery low": gettext_lazy("tablet battery low"),
}

# xgettext reads no call inside an f-string: these are marked here.
EXTENSION = gettext_lazy("extension")
NEVER_HEARD = gettext_lazy("never heard")
# A table scored on paper, in the board's device column.
PAPER = gettext_lazy("paper")
WON = gettext_lazy("%(team)s won")


def _word(text: str) -> str:
    return str(WORDS.get(text, text))


def _status(row: BoardRow, pills: dict[str, str]) -> str:
    html = pills.get(row.status) or (
        f'<span class="pill {escape(row.status)}">{escape(str(row.status_label))}</span>'
    )
    extension = row.match.extension_seconds
    if extension:
        title = escape(str(EXTENSION))
        html += f' <span class="tag" title="{title}">+{round(extension / 60)}′</span>'
        if row.own_remaining is not None:
            html += (
                ' <span class="own-clock" data-table-clock>'
                + _("%(left)s left") % {"left": row.own_remaining_text}
                + "</span>"
            )
    return html


def _last_entry(row: BoardRow, now: datetime) -> str:
    if not row.since_entry:
        return "—"
    if row.since_entry.total_seconds() < 60:
        return _("just now")
    return escape(_("%(since)s ago") % {"since": timesince_filter(row.match.last_entry_at, now)})


def _device(row: BoardRow, now: datetime) -> str:
    """The table's device: when it was last heard from, what it holds unsent, its
    battery."""
    d = row.device
    if row.paper:
        return f'<span class="device-paper">{escape(str(PAPER))}</span>'
    if d is None or d.seen_at is None:
        if not row.silent:
            return "—"
        return f'<span class="device-silent">{escape(str(NEVER_HEARD))}</span>'
    seconds = max(0, int((now - d.seen_at).total_seconds()))
    heard = (
        _("%(s)s s ago") % {"s": seconds}
        if seconds < 120
        else _("%(m)s min ago") % {"m": seconds // 60}
    )
    parts = [f'<span class="{"device-silent" if row.silent else "device-seen"}">{heard}</span>']
    if d.unsent:
        unsent = _("%(n)s not sent") % {"n": d.unsent}
        parts.append(f'<span class="device-unsent">{unsent}</span>')
    if d.battery is not None:
        low = " device-low" if d.low_battery else ""
        plug = " ⚡" if d.charging else ""
        parts.append(f'<span class="device-battery{low}">{d.battery}%{plug}</span>')
    return " · ".join(parts)


@register.simple_tag
def board_rows(rows: Sequence[BoardRow], now: datetime) -> SafeString:
    """Each table's row: number (a link to its page), status and extension, teams, score
    and winner, hands, time since the last entry, flags and what needs attention.

    Every byte is paid 500 times and again at each of the console's polls, so what the
    stylesheet can say is left to it: the numbers' alignment, the table number's weight,
    the teams' colours (by column), and a table's page is linked relative to the round's
    page, the only page that shows the board (``tables/7/``, not the whole path with the
    event's name: 36 KB at 500 tables)."""
    html = []
    # Each status's pill in the reader's language, translated once a board, not a row.
    pills = {
        key: f'<span class="pill {escape(key)}">{escape(str(label))}</span>'
        for key, label in STATUS.items()
    }
    for row in rows:
        m = row.match
        status = escape(row.status)
        won = WON % {"team": bilingual.team(m.winner)} if m.winner else ""  # EW is EO in French
        winner = f" <small>{escape(won)}</small>" if m.winner else ""
        flags = "".join(
            f'<span class="flag {escape(f)}">{escape(_word(f))}</span>' for f in row.flags
        )
        html.append(
            f'<tr class="status-{status}{" needs-attention" if row.attention else ""}" '
            f'data-table="{m.table}"><td><a href="tables/{m.table}/">'
            f"{m.table}</a></td><td>{_status(row, pills)}</td>"
            f'<td>{escape(row.ns)}</td><td class="score"><span class="ns">'
            f'{m.score_ns}</span>–<span class="ew">{m.score_ew}</span>{winner}</td>'
            f"<td>{escape(row.ew)}</td><td>{m.hands_played}</td>"
            f"<td>{_last_entry(row, now)}</td>"
            f'<td class="device">{_device(row, now)}</td><td>{flags}</td>'
            f'<td class="attention">{"; ".join(escape(_word(a)) for a in row.attention)}</td></tr>'
        )
    return mark_safe("\n".join(html))  # noqa: S308 (every value escaped above)
