"""The series standings sheet: rank, person, counted points, best event, events played."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.utils import timezone
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from ..services.series import SeriesTable, describe
from . import styles as st


def build(table: SeriesTable, paper: str = st.DEFAULT_PAPER) -> bytes:
    name = table.series.name
    fonts = st.fonts_for([name, *(row.person.name for row in table.rows)])
    s = st.styles(fonts, cell_size=9)
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        **st.page_setup(paper, f"{name}: series standings"),
    )
    shared = table.shared_ranks()
    fixed = [0.6 * inch, 0.8 * inch, 0.8 * inch, 0.8 * inch]
    widths = [fixed[0], doc.width - sum(fixed), *fixed[1:]]
    rows: list[list[Any]] = [["Rank", "Person", "Points", "Best event", "Events"]]
    for row in table.rows:
        line = row.line
        rank = f"{line.rank}{'=' if line.rank in shared else ''}"
        rows.append(
            [
                rank,
                st.fit(row.person.name, fonts.regular, 9, widths[1] - 6),
                str(line.points),
                str(line.best),
                str(line.played),
            ]
        )
    if not table.rows:
        rows.append(["", "No results yet.", "", "", ""])
    grid = st.header_table(
        rows,
        widths,
        fonts,
        ("FONTNAME", (2, 1), (2, -1), fonts.bold),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
    )
    printed = st.printed(timezone.now())
    story = [
        Paragraph(st.escape(name), s.title),
        Paragraph(f"Series standings · {len(table.events)} events · printed {printed}", s.subtitle),
        grid,
        Spacer(1, 6),
        Paragraph(st.escape(describe(table.series).capitalize() + ". = Rank shared."), s.small),
    ]
    footer = f"{name} · series standings · printed {printed}"
    doc.build(story, canvasmaker=st.numbered_canvas(footer, fonts))
    return out.getvalue()
