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
from tournaments.core.pdf import styles
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
    said = "<br/>".join(
        styles.escape(p) for p in dict.fromkeys(getattr(caption, "parts", (caption,)))
    )
    text = Paragraph(f"{said}<br/><b>{styles.escape(url)}</b>", style)
    return Table(
        [[drawing, text]],
        colWidths=[size + 8, width - size - 8],
        style=[("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (0, 0), 0)],
    )


def _columns(doc: BaseDocTemplate, height: float) -> list[Frame]:
    """The name list's two columns, ``height`` tall from the bottom margin."""
    half = (doc.width - COLUMN_GAP) / 2
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


def _add_page_templates(doc: BaseDocTemplate) -> None:
    """The tables on full pages, then the names in two columns."""
    full = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="full")
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
                [title, *_columns(doc, doc.height - TITLE_HEIGHT)],
                autoNextPageTemplate="names",
            ),
            PageTemplate("names", _columns(doc, doc.height)),
        ]
    )


def _by_table(sheet: SeatingSheet, fonts: styles.Fonts, width: float) -> Table:
    size = 9.5
    table_col = 0.6 * inch
    team_width = (width - table_col) / 2
    rows: list[list[Any]] = [[styles.head(_("Table")), _("Team NS"), _("Team EW")]]
    for line in sheet.tables:
        cells = []
        for team in (Team.NS, Team.EW):
            # Two lines per team: A/B marks show the division, seat letters the chair.
            cells.append(
                styles.Shrunk(
                    "\n".join(seat_line(seat, line.seats.get(seat)) for seat in team.seats),
                    fonts.regular,
                    size,
                )
            )
        rows.append([str(line.table), *cells])
    return styles.header_table(
        rows,
        [table_col, team_width, team_width],
        fonts,
        ("FONTNAME", (0, 1), (0, -1), fonts.bold),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("FONTSIZE", (0, 1), (0, -1), size + 4),
        ("LEADING", (0, 0), (-1, -1), size + 2.5),
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("LINEBEFORE", (2, 0), (2, -1), 0.6, styles.INK),
    )


def _by_name(sheet: SeatingSheet, fonts: styles.Fonts, half: float) -> Table:
    name_size = 9
    widths = [half * 0.42, half * 0.12, half * 0.10, half * 0.36]
    names: list[list[Any]] = [
        [
            styles.head(_("Name")),
            styles.head(_("Table")),
            styles.head(_("Seat")),
            styles.head(_("Partner")),
        ]
    ]
    entries: list[tuple[tuple[str, str], list[Any]]] = [
        (
            sort_key(p.name),
            [
                styles.Shrunk(f"{p.name} ({p.mark})", fonts.regular, name_size),
                str(p.table),
                bilingual.seat(p.seat.value),
                styles.Shrunk(p.partner, fonts.regular, name_size),
            ],
        )
        for p in sheet.players
    ]
    # §6: a player sitting this round out finds their name in its place too.
    entries += [
        (
            sort_key(name),
            [
                styles.Shrunk(name, fonts.regular, name_size),
                "—",
                "",
                styles.fit(_("sits out"), fonts.regular, name_size, widths[3] - 6),
            ],
        )
        for name in sheet.sit_outs
    ]
    names += [row for _, row in sorted(entries, key=lambda e: e[0])]
    return styles.header_table(
        names,
        widths,
        fonts,
        ("FONTNAME", (1, 1), (2, -1), fonts.bold),
        ("FONTSIZE", (0, 0), (-1, -1), name_size),
        ("LEADING", (0, 0), (-1, -1), name_size + 2),
        ("ALIGN", (1, 0), (2, -1), "CENTER"),
    )


def _how_to_sit(sheet: SeatingSheet) -> bilingual.Said:
    """Which seats each division takes, as the sheet says it under its title."""
    if sheet.turned:
        return _(
            "A players sit North and East, B players South and West, except at a table "
            "turned for a stationary player; partners sit opposite. (A)/(B) marks each "
            "player's division; (%(house)s) a house player.",
            house=bilingual.house(),
        )
    return _(
        "A players sit North and East, B players South and West; partners sit "
        "opposite. (A)/(B) marks each player's division; (%(house)s) a house player.",
        house=bilingual.house(),
    )


def _sitting_out(sheet: SeatingSheet, body: Any) -> list[Any]:
    """The line naming who sits this round out, when anyone does."""
    if not sheet.sit_outs:
        return []
    return [
        Spacer(1, 6),
        Paragraph(
            "<b>"
            + styles.escape(
                _(
                    "Sitting out %(round)s (%(n)s):",
                    round=sheet.round_label,
                    n=len(sheet.sit_outs),
                )
            )
            + "</b> "
            + styles.escape(", ".join(sheet.sit_outs))
            + ". "
            + styles.escape(_("First in line for the next round.")),
            body,
        ),
    ]


def build(
    sheet: SeatingSheet, paper: str = styles.DEFAULT_PAPER, players_url: str | None = None
) -> bytes:
    fonts = styles.fonts_for([sheet.event, *(p.name for p in sheet.players)])
    s = styles.styles(fonts)
    out = BytesIO()
    doc = BaseDocTemplate(
        out,
        **styles.page_setup(
            paper, _("%(event)s: seating, %(round)s", event=sheet.event, round=sheet.round_label)
        ),
    )
    half = (doc.width - COLUMN_GAP) / 2
    _add_page_templates(doc)
    phone_caption = _("Your seat, the clock and the standings on your phone: scan, or open")
    by_table = _by_table(sheet, fonts, doc.width)
    by_name = _by_name(sheet, fonts, half)

    printed = styles.printed(sheet.printed_at)
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
        Paragraph(styles.escape(sheet.event), s.title),
        Paragraph(styles.escape(by_table_title), s.subtitle),
        *styles.stacked(_how_to_sit(sheet), s.small),
        *(
            [players_qr(players_url, 0.9 * inch, phone_caption, s.small, doc.width)]
            if players_url
            else []
        ),
        by_table,
        *_sitting_out(sheet, s.body),
        NextPageTemplate("names_first"),
        PageBreak(),
        Paragraph(styles.escape(sheet.event), s.title),
        Paragraph(styles.escape(by_name_title), s.subtitle),
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
    doc.build(story, canvasmaker=styles.numbered_canvas(footer, fonts))
    return out.getvalue()
