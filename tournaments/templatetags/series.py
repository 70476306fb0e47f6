"""The series page's compact results cell written in Python: past ten events each row
lists the events played, and at 100 events x 1,900 people (16,000 results) a template
loop per result took ~3.5 s of the page (docs/rating.md, "Figures at size")."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.series.reads import SeriesRow

register = template.Library()


@register.simple_tag
def series_results(row: SeriesRow) -> SafeString:
    """``#3 10 A1`` per event played; a result that does not count is struck through."""
    parts = []
    for r in row.played:
        finish = f"{escape(r.score.finish.division)}{r.score.finish.place}"
        if r.score.counted:
            parts.append(
                f'<span class="series-result"><small>#{r.number}</small> {r.score.points} '
                f'<small class="muted">{finish}</small></span>'
            )
        else:
            parts.append(
                f'<span class="series-result muted"><small>#{r.number}</small> '
                f'<s title="not counted">{r.score.points}</s> '
                f'<small class="muted">{finish}</small></span>'
            )
    return mark_safe(" ".join(parts))  # noqa: S308 - numbers and an escaped division only
