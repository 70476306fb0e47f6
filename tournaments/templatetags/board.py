"""The live board's rows written in Python: the console polls it every 3 seconds and, at
500 tables, its template rows (a dozen variables and filters each) were most of the
page's time (docs/performance.md, "Director pages")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django import template
from django.template.defaultfilters import timesince_filter
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from ..reads.console import BoardRow

register = template.Library()


def _status(row: BoardRow) -> str:
    html = f'<span class="pill {escape(row.status)}">{escape(row.status_label)}</span>'
    extension = row.match.extension_seconds
    if extension:
        html += f' <span class="tag" title="extension">+{round(extension / 60)}′</span>'
        if row.own_remaining is not None:
            html += (
                f' <span class="own-clock" data-table-clock>{row.own_remaining_text} left</span>'
            )
    return html


def _last_entry(row: BoardRow, now: datetime) -> str:
    if not row.since_entry:
        return "—"
    if row.since_entry.total_seconds() < 60:
        return "just now"
    return f"{escape(timesince_filter(row.match.last_entry_at, now))} ago"


def _device(row: BoardRow, now: datetime) -> str:
    """The table's device: when it was last heard from, what it holds unsent, its
    battery (issue 23)."""
    d = row.device
    if d is None or d.seen_at is None:
        return (
            '<span class="device-none">—</span>'
            if not row.silent
            else ('<span class="device-silent">never heard</span>')
        )
    seconds = max(0, int((now - d.seen_at).total_seconds()))
    heard = f"{seconds} s ago" if seconds < 120 else f"{seconds // 60} min ago"
    parts = [f'<span class="{"device-silent" if row.silent else "device-seen"}">{heard}</span>']
    if d.unsent:
        parts.append(f'<span class="device-unsent">{d.unsent} not sent</span>')
    if d.battery is not None:
        low = " device-low" if d.low_battery else ""
        plug = " ⚡" if d.charging else ""
        parts.append(f'<span class="device-battery{low}">{d.battery}%{plug}</span>')
    return " · ".join(parts)


@register.simple_tag
def board_rows(rows: Sequence[BoardRow], round_url: str, now: datetime) -> SafeString:
    """Each table's row: number (a link to its page), status and extension, teams, score
    and winner, hands, time since the last entry, flags and what needs attention. The
    numbers' alignment and the table number's weight come from the stylesheet (a class
    and a <strong> a row were 25 KB at 500 tables)."""
    html = []
    for row in rows:
        m = row.match
        status = escape(row.status)
        winner = f" <small>{escape(m.winner)} won</small>" if m.winner else ""
        flags = "".join(f'<span class="flag {escape(f)}">{escape(f)}</span>' for f in row.flags)
        html.append(
            f'<tr class="status-{status}{" needs-attention" if row.attention else ""}" '
            f'data-table="{m.table}"><td><a href="{escape(round_url)}tables/{m.table}/">'
            f"{m.table}</a></td><td>{_status(row)}</td>"
            f'<td class="ns">{escape(row.ns)}</td><td class="score"><span class="ns">'
            f'{m.score_ns}</span>–<span class="ew">{m.score_ew}</span>{winner}</td>'
            f'<td class="ew">{escape(row.ew)}</td><td>{m.hands_played}</td>'
            f"<td>{_last_entry(row, now)}</td>"
            f'<td class="device">{_device(row, now)}</td><td>{flags}</td>'
            f'<td class="attention">{"; ".join(escape(a) for a in row.attention)}</td></tr>'
        )
    return mark_safe("\n".join(html))  # noqa: S308 (every value escaped above)
