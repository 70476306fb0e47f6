"""The seating chart for a round: by table, then "find your seat" by name.

The by-table list is for the director and the floor; the alphabetical list is what
players crowd around, so it is set in two columns to keep a 2,000-player list short.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

from reportlab.lib.units import inch
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    FrameBreak,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
)

from tournaments.common import bilingual
from tournaments.common.bilingual import tr as _
from tournaments.common.bilingual import trn as ngettext
from tournaments.common.names import sort_key
from tournaments.core.pdf import styles as st
from tournaments.core.pdf.qr import QrFlowable
from tournaments.core.reads.sheets import Seated, SeatingSheet
from tournaments.domain.hands import Seat, Team

COLUMN_GAP = 0.3 * inch
TITLE_HEIGHT = 0.85 * inch


def seat_line(seat: Seat, player: Seated | None) -> str:
    if player is None:
        return f"{bilingual.seat(seat.value)}  " + _("(empty)")
    return f"{bilingual.seat(seat.value)}  {player.name} ({player.mark})"


def players_qr(url: str, size: float, caption: str, style: Any, width: float) -> Table:
    """The event page's QR code beside its address: players scan it for their own card."""
    drawing = QrFlowable(url, size)
    # Stacked when bilingual: one sentence per language, then the address once.
    said = "<br/>".join(st.escape(p) for p in dict.fromkeys(getattr(caption, "parts", (caption,))))
    text = Paragraph(f"{said}<br/><b>{st.escape(url)}</b>", style)
    return Table(
        [[drawing, text]],
        colWidths=[size + 8, width - size - 8],
        style=[("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (0, 0), 0)],
    )


def build(
    sheet: SeatingSheet, paper: str = st.DEFAULT_PAPER, players_url: str | None = None
) -> bytes:
    fonts = st.fonts_for([sheet.event, *(p.name for p in sheet.players)])
    s = st.styles(fonts)
    out = BytesIO()
    doc = BaseDocTemplate(
        out,
        **st.page_setup(
            paper, _("%(event)s: seating, %(round)s", event=sheet.event, round=sheet.round_label)
        ),
    )
    full = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="full")
    half = (doc.width - COLUMN_GAP) / 2

    def columns(height: float) -> list[Frame]:
        return [
            Frame(
                doc.leftMargin + i * (half + COLUMN_GAP),
                doc.bottomMargin,
                half,
                height,
                id=f"col{i}",
            )
            for i in (0, 1)
        ]

    # The first page of the name list has its title across both columns.
    title = Frame(
        doc.leftMargin,
        doc.bottomMargin + doc.height - TITLE_HEIGHT,
        doc.width,
        TITLE_HEIGHT,
        id="title",
    )
    doc.addPageTemplates(
        [
            PageTemplate("tables", [full]),
            PageTemplate(
                "names_first",
                [title, *columns(doc.height - TITLE_HEIGHT)],
                autoNextPageTemplate="names",
            ),
            PageTemplate("names", columns(doc.height)),
        ]
    )

    size = 9.5
    table_col = 0.6 * inch
    team_width = (doc.width - table_col) / 2
    phone_caption = _("Your seat, the clock and the standings on your phone: scan, or open")
    rows: list[list[Any]] = [[st.head(_("Table")), _("Team NS"), _("Team EW")]]
    for line in sheet.tables:
        cells = []
        for team in (Team.NS, Team.EW):
            # Two lines per team: A/B marks show the division, seat letters the chair.
            cells.append(
                st.Shrunk(
                    "\n".join(seat_line(seat, line.seats.get(seat)) for seat in team.seats),
                    fonts.regular,
                    size,
                )
            )
        rows.append([str(line.table), *cells])
    by_table = st.header_table(
        rows,
        [table_col, team_width, team_width],
        fonts,
        ("FONTNAME", (0, 1), (0, -1), fonts.bold),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("FONTSIZE", (0, 1), (0, -1), size + 4),
        ("LEADING", (0, 0), (-1, -1), size + 2.5),
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("LINEBEFORE", (2, 0), (2, -1), 0.6, st.INK),
    )

    name_size = 9
    widths = [half * 0.42, half * 0.12, half * 0.10, half * 0.36]
    names: list[list[Any]] = [
        [st.head(_("Name")), st.head(_("Table")), st.head(_("Seat")), st.head(_("Partner"))]
    ]
    entries: list[tuple[tuple[str, str], list[Any]]] = [
        (
            sort_key(p.name),
            [
                st.Shrunk(f"{p.name} ({p.mark})", fonts.regular, name_size),
                str(p.table),
                bilingual.seat(p.seat.value),
                st.Shrunk(p.partner, fonts.regular, name_size),
            ],
        )
        for p in sheet.players
    ]
    # §6: a player sitting this round out finds their name in its place too.
    entries += [
        (
            sort_key(name),
            [
                st.Shrunk(name, fonts.regular, name_size),
                "—",
                "",
                st.fit(_("sits out"), fonts.regular, name_size, widths[3] - 6),
            ],
        )
        for name in sheet.sit_outs
    ]
    names += [row for _, row in sorted(entries, key=lambda e: e[0])]
    by_name = st.header_table(
        names,
        widths,
        fonts,
        ("FONTNAME", (1, 1), (2, -1), fonts.bold),
        ("FONTSIZE", (0, 0), (-1, -1), name_size),
        ("LEADING", (0, 0), (-1, -1), name_size + 2),
        ("ALIGN", (1, 0), (2, -1), "CENTER"),
    )

    printed = st.printed(sheet.printed_at)
    count = len(sheet.tables)
    by_table_title = ngettext(
        "Seating by table · %(round)s · %(n)s table · printed %(at)s",
        "Seating by table · %(round)s · %(n)s tables · printed %(at)s",
        count,
        round=sheet.round_label,
        at=printed,
    )
    by_name_title = ngettext(
        "Find your seat · %(round)s · %(n)s table · printed %(at)s",
        "Find your seat · %(round)s · %(n)s tables · printed %(at)s",
        count,
        round=sheet.round_label,
        at=printed,
    )
    story: list[Any] = [
        Paragraph(st.escape(sheet.event), s.title),
        Paragraph(st.escape(by_table_title), s.subtitle),
        *st.stacked(
            _(
                "A players sit North and East, B players South and West, except at a table "
                "turned for a stationary player; partners sit opposite. (A)/(B) marks each "
                "player's division; (%(house)s) a house player.",
                house=bilingual.house(),
            )
            if sheet.turned
            else _(
                "A players sit North and East, B players South and West; partners sit "
                "opposite. (A)/(B) marks each player's division; (%(house)s) a house player.",
                house=bilingual.house(),
            ),
            s.small,
        ),
        *(
            [players_qr(players_url, 0.9 * inch, phone_caption, s.small, doc.width)]
            if players_url
            else []
        ),
        by_table,
        *(
            [
                Spacer(1, 6),
                Paragraph(
                    "<b>"
                    + st.escape(
                        _(
                            "Sitting out %(round)s (%(n)s):",
                            round=sheet.round_label,
                            n=len(sheet.sit_outs),
                        )
                    )
                    + "</b> "
                    + st.escape(", ".join(sheet.sit_outs))
                    + ". "
                    + st.escape(_("First in line for the next round.")),
                    s.body,
                ),
            ]
            if sheet.sit_outs
            else []
        ),
        NextPageTemplate("names_first"),
        PageBreak(),
        Paragraph(st.escape(sheet.event), s.title),
        Paragraph(st.escape(by_name_title), s.subtitle),
        FrameBreak(),
        *(
            [players_qr(players_url, 0.8 * inch, phone_caption, s.small, half)]
            if players_url
            else []
        ),
        by_name,
    ]
    footer = _(
        "%(event)s · seating, %(round)s · printed %(at)s",
        event=sheet.event,
        round=sheet.round_label,
        at=printed,
    )
    doc.build(story, canvasmaker=st.numbered_canvas(footer, fonts))
    return out.getvalue()
