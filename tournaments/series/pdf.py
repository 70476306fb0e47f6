"""The series standings sheet: rank, person, counted points, best event, events played."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.utils import timezone
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from tournaments.common.bilingual import Said
from tournaments.common.bilingual import tr as _
from tournaments.common.bilingual import trn as ngettext
from tournaments.core.pdf import styles
from tournaments.series.reads import SeriesTable, describe


def build(table: SeriesTable, paper: str = styles.DEFAULT_PAPER) -> bytes:
    name = table.series.name
    fonts = styles.fonts_for([name, *(row.person.name for row in table.rows)])
    s = styles.styles(fonts, cell_size=9)
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        **styles.page_setup(paper, _("%(series)s: series standings", series=name)),
    )
    shared = table.shared_ranks()
    fixed = [0.6 * inch, 0.8 * inch, 0.8 * inch, 0.8 * inch]
    widths = [fixed[0], doc.width - sum(fixed), *fixed[1:]]
    rows: list[list[Any]] = [
        [
            f"{row.line.rank}{'=' if row.line.rank in shared else ''}",
            styles.Shrunk(row.person.name, fonts.regular, 9),
            str(row.line.points),
            str(row.line.best),
            str(row.line.played),
        ]
        for row in table.rows
    ]
    header = [styles.head(_(w)) for w in ("Rank", "Person", "Points", "Best event", "Events")]
    grid = styles.ranking_table(header, rows, widths, fonts)
    printed = styles.printed(timezone.now())
    subtitle = ngettext(
        "Series standings · %(n)s event · printed %(at)s",
        "Series standings · %(n)s events · printed %(at)s",
        len(table.events),
        at=printed,
    )
    how = describe(table.series)
    capitalised = Said([p[:1].upper() + p[1:] for p in getattr(how, "parts", (how,))])
    story = [
        Paragraph(styles.escape(name), s.title),
        Paragraph(styles.escape(subtitle), s.subtitle),
        grid,
        Spacer(1, 6),
        *styles.stacked(_("%(how)s. = Rank shared.", how=capitalised), s.small),
    ]
    footer = _("%(series)s · series standings · printed %(at)s", series=name, at=printed)
    doc.build(story, canvasmaker=styles.numbered_canvas(footer, fonts))
    return out.getvalue()
