"""Backup scoresheets: what a table keeps score on when its tablet dies.

One page per table (per game in the final). Hands the tablet already recorded are
printed in the grid, and once the first dealer is known every row's dealer is printed
too (the deal passes clockwise after every hand), so the table only fills in what
happened. The boxes below the grid are what the director needs to enter the match:
time called, bonuses, awards and penalties, and both teams' signatures.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

from reportlab.lib.units import inch
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table

from ..domain.hands import SEATS, Seat
from ..domain.match import dealer_for
from ..reads.sheets import HandLine, Scoresheet, Scoresheets
from . import styles as st

MIN_ROWS = 20  # on Letter; taller paper gets the extra rows it has room for
LETTER_HEIGHT = 792
SPARE_ROWS = 6
ROW_HEIGHT = 17


def hand_row(line: HandLine) -> list[str]:
    return [
        str(line.number),
        line.dealer.value,
        line.makers.value if line.makers else "",
        "yes" if line.alone else "",
        "" if line.tricks is None else str(line.tricks),
        line.note,
        str(line.points_ns),
        str(line.points_ew),
        str(line.total_ns),
        str(line.total_ew),
    ]


def seats_block(sheet: Scoresheet, fonts: st.Fonts, width: float) -> Table:
    def cell(seat: Seat) -> str:
        player = sheet.seats.get(seat)
        name = f"{player.name} ({player.division})" if player else "(empty)"
        return st.fit(f"{seat.value}   {name}", fonts.regular, 11, width / 2 - 10)

    rows = [["Team NS", "Team EW"], [cell(Seat.N), cell(Seat.E)], [cell(Seat.S), cell(Seat.W)]]
    return Table(
        rows,
        colWidths=[width / 2] * 2,
        style=st.table_style(zebra=False, fonts=fonts)
        + [
            ("FONTSIZE", (0, 0), (-1, 0), 9),
            ("FONTSIZE", (0, 1), (-1, -1), 11),
            ("LINEBEFORE", (1, 0), (1, -1), 0.6, st.INK),
        ],
    )


def grid(sheet: Scoresheet, fonts: st.Fonts, width: float, page_height: float) -> Table:
    header = [
        "Hand",
        "Dealer",
        "Makers",
        "Alone",
        "Tricks",
        "Note",
        "NS\npoints",
        "EW\npoints",
        "NS\ntotal",
        "EW\ntotal",
    ]
    rows: list[list[Any]] = [header, *(hand_row(h) for h in sheet.hands)]
    rows_on_page = MIN_ROWS + max(0, int((page_height - LETTER_HEIGHT) // ROW_HEIGHT))
    count = max(rows_on_page, len(sheet.hands) + SPARE_ROWS)
    for number in range(len(sheet.hands) + 1, count + 1):
        dealer = dealer_for(sheet.first_dealer, number).value if sheet.first_dealer else ""
        rows.append([str(number), dealer, "NS / EW", "", "", "", "", "", "", ""])
    narrow = 0.55 * inch
    widths = [0.45 * inch, narrow, 0.7 * inch, narrow, narrow, 0, narrow, narrow, narrow, narrow]
    widths[5] = width - sum(widths)
    filled = len(sheet.hands)
    style = st.table_style(zebra=False, fonts=fonts) + [
        ("FONTSIZE", (0, 0), (-1, 0), 8),
        ("LEADING", (0, 0), (-1, 0), 9),
        ("FONTSIZE", (0, 1), (-1, -1), 10),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("ALIGN", (5, 1), (5, -1), "LEFT"),
        ("INNERGRID", (0, 0), (-1, -1), 0.4, st.RULE),
        ("LINEBEFORE", (6, 0), (6, -1), 0.8, st.INK),
        ("LINEBEFORE", (8, 0), (8, -1), 0.8, st.INK),
        ("BACKGROUND", (8, 1), (9, -1), st.SHADE),
        # The circle-one hint and pre-printed dealers are faint; the table's ink is not.
        ("TEXTCOLOR", (2, filled + 1), (2, -1), st.RULE),
        ("FONTSIZE", (2, filled + 1), (2, -1), 8),
        ("TEXTCOLOR", (1, filled + 1), (1, -1), st.MUTED),
    ]
    return Table(
        rows, colWidths=widths, rowHeights=[22] + [ROW_HEIGHT] * (len(rows) - 1), style=style
    )


def boxes(sheets: Scoresheets, fonts: st.Fonts, width: float) -> Table:
    """Write-in boxes: what ended the match and what the director must add to it."""
    rules = sheets.rules
    if sheets.final:
        rows = [
            ["Final score   NS ______   EW ______", "Game won by (circle)   NS  /  EW"],
            [
                f"First pair to win {sheets.games_to_win} games are the champions.",
                "No time limit, no bonuses, no individual points in the final.",
            ],
        ]
    else:
        rows = [
            ["Time called at   ____ : ____", "Hand in progress at the call?   yes  /  no"],
            ["Final score   NS ______   EW ______", "Winner (circle)   NS  /  EW"],
            [
                f"Reach bonus (+{rules.reach_bonus})   NS ____   EW ____",
                f"Skunk bonus (+{rules.skunk_bonus})   NS ____   EW ____",
            ],
            [
                f"Lone march award ({rules.alone_march_award:+d})   seat(s) ________",
                f"Renege penalty ({rules.renege_penalty:+d})   seat(s) ________",
            ],
        ]
    return Table(
        rows,
        colWidths=[width / 2] * 2,
        rowHeights=[24] * len(rows),
        style=st.table_style(header_rows=0, zebra=False)[2:]
        + [
            ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
            ("FONTSIZE", (0, 0), (-1, -1), 10),
            ("INNERGRID", (0, 0), (-1, -1), 0.4, st.RULE),
        ],
    )


def signatures(fonts: st.Fonts, width: float) -> Table:
    line = "_" * 34
    rows = [
        ["Team NS", line, line],
        ["Team EW", line, line],
        ["", "signature", "signature"],
    ]
    return Table(
        rows,
        colWidths=[0.9 * inch, (width - 0.9 * inch) / 2, (width - 0.9 * inch) / 2],
        rowHeights=[30, 30, 12],
        style=[
            ("FONTNAME", (0, 0), (0, -1), fonts.bold),
            ("FONTNAME", (1, 0), (-1, -1), fonts.regular),
            ("FONTSIZE", (0, 0), (-1, 1), 10),
            ("FONTSIZE", (0, 2), (-1, 2), 7),
            ("TEXTCOLOR", (0, 2), (-1, 2), st.MUTED),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ("ALIGN", (1, 2), (-1, 2), "CENTER"),
        ],
    )


def build(sheets: Scoresheets, paper: str = st.DEFAULT_PAPER) -> bytes:
    fonts = st.fonts_for(
        [sheets.event, *(p.name for sheet in sheets.sheets for p in sheet.seats.values())]
    )
    s = st.styles(fonts)
    pagesize = st.paper_size(paper)
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        **st.page_setup(
            paper, f"{sheets.event}: backup scoresheets, {sheets.round_label}", top=st.MARGIN * 0.8
        ),
    )
    width = doc.width
    rules = sheets.rules
    story: list[Any] = []
    for index, sheet in enumerate(sheets.sheets):
        if index:
            story.append(PageBreak())
        title = f"Table {sheet.table}"
        if sheet.game is not None:
            title += f" · game {sheet.game}"
        heading = Table(
            [
                [
                    Paragraph(
                        f"{st.escape(sheets.event)}<br/><font size=10>Backup scoresheet · "
                        f"{st.escape(sheets.round_label)}</font>",
                        s.heading,
                    ),
                    title,
                ]
            ],
            colWidths=[width * 0.55, width * 0.45],
            style=[
                ("FONTNAME", (1, 0), (1, 0), fonts.bold),
                ("FONTSIZE", (1, 0), (1, 0), 26),
                ("LEADING", (1, 0), (1, 0), 30),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
                ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                ("LEFTPADDING", (0, 0), (0, 0), 0),
                ("RIGHTPADDING", (1, 0), (1, 0), 0),
            ],
        )
        if sheets.final:
            terms = (
                f"Game to {rules.final_target}, no time limit; best of "
                f"{2 * sheets.games_to_win - 1}."
            )
        else:
            terms = (
                f"Match to {rules.target} or {sheets.round_minutes} minutes; when time is "
                "called, finish the hand in progress, then play on while tied."
            )
        dealer = (
            sheet.first_dealer.value
            if sheet.first_dealer
            else "  /  ".join(seat.value for seat in SEATS)
        )
        dealer_text = (
            f"First dealer: <b>{dealer}</b>"
            if sheet.first_dealer
            else f"First dealer (circle): {dealer}"
        )
        recorded = (
            f" · {len(sheet.hands)} hands already recorded on the tablet are printed;"
            " carry on below them."
            if sheet.hands
            else ""
        )
        story += [
            heading,
            Paragraph(f"{st.escape(terms)} Printed {st.printed(sheets.printed_at)}.", s.small),
            Spacer(1, 6),
            seats_block(sheet, fonts, width),
            Spacer(1, 6),
            Paragraph(
                dealer_text + " · the deal passes clockwise (N, E, S, W) after every "
                "hand, misdeals and reneges included." + recorded,
                s.body,
            ),
            Spacer(1, 4),
            grid(sheet, fonts, width, pagesize[1]),
            Spacer(1, 8),
            boxes(sheets, fonts, width),
            Spacer(1, 4),
            signatures(fonts, width),
        ]
    if not sheets.sheets:
        story.append(Paragraph("No tables to print.", s.body))
    footer = f"{sheets.event} · backup scoresheets, {sheets.round_label}"
    doc.build(story, canvasmaker=st.numbered_canvas(footer, fonts))
    return out.getvalue()
