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

from tournaments.common import bilingual
from tournaments.common.bilingual import tr as _
from tournaments.core.pdf import styles
from tournaments.core.reads.sheets import HandLine, Scoresheet, Scoresheets
from tournaments.domain.hands import SEATS, Seat
from tournaments.domain.match import dealer_for

MIN_ROWS = 20  # on Letter; taller paper gets the extra rows it has room for
LETTER_HEIGHT = 792
SPARE_ROWS = 6
ROW_HEIGHT = 17
BILINGUAL_ROW_HEIGHT = 15.5


def hand_row(line: HandLine) -> list[str]:
    return [
        str(line.number),
        bilingual.seat(line.dealer.value),
        bilingual.team(line.makers.value) if line.makers else "",
        _("yes") if line.alone else "",
        "" if line.tricks is None else str(line.tricks),
        line.note,
        str(line.points_ns),
        str(line.points_ew),
        str(line.total_ns),
        str(line.total_ew),
    ]


def seats_block(sheet: Scoresheet, fonts: styles.Fonts, width: float) -> Table:
    def cell(seat: Seat) -> styles.Shrunk:
        player = sheet.seats.get(seat)
        name = f"{player.name} ({player.mark})" if player else _("(empty)")
        return styles.Shrunk(f"{bilingual.seat(seat.value)}   {name}", fonts.regular, 11)

    rows = [
        [_("Team NS"), _("Team EW")],
        [cell(Seat.N), cell(Seat.E)],
        [cell(Seat.S), cell(Seat.W)],
    ]
    return Table(
        rows,
        colWidths=[width / 2] * 2,
        style=styles.table_style(zebra=False, fonts=fonts)
        + [
            ("FONTSIZE", (0, 0), (-1, 0), 9),
            ("FONTSIZE", (0, 1), (-1, -1), 11),
            ("LINEBEFORE", (1, 0), (1, -1), 0.6, styles.INK),
        ],
    )


def grid(sheet: Scoresheet, fonts: styles.Fonts, width: float, page_height: float) -> Table:
    # Translators: the scoresheet's narrow columns; "\n" breaks the header in two lines.
    header = [
        styles.head(_("Hand")),
        styles.head(_("Dealer")),
        styles.head(_("Makers")),
        styles.head(_("Alone")),
        styles.head(_("Tricks")),
        styles.head(_("Note")),
        styles.head(_("NS\npoints")),
        styles.head(_("EW\npoints")),
        styles.head(_("NS\ntotal")),
        styles.head(_("EW\ntotal")),
    ]
    # A bilingual header stacks its languages: the row grows, the grid loses no column.
    header_lines = max(cell.count("\n") + 1 for cell in header)
    rows: list[list[Any]] = [header, *(hand_row(h) for h in sheet.hands)]
    circle_team = f"{bilingual.team('NS')} / {bilingual.team('EW')}"
    rows_on_page = MIN_ROWS + max(0, int((page_height - LETTER_HEIGHT) // ROW_HEIGHT))
    count = max(rows_on_page, len(sheet.hands) + SPARE_ROWS)
    for number in range(len(sheet.hands) + 1, count + 1):
        dealer = (
            bilingual.seat(dealer_for(sheet.first_dealer, number).value)
            if sheet.first_dealer
            else ""
        )
        rows.append([str(number), dealer, circle_team, "", "", "", "", "", "", ""])
    narrow = 0.55 * inch
    widths = [0.45 * inch, narrow, 0.7 * inch, narrow, narrow, 0, narrow, narrow, narrow, narrow]
    widths[5] = width - sum(widths)
    filled = len(sheet.hands)
    style = styles.table_style(zebra=False, fonts=fonts) + [
        ("FONTSIZE", (0, 0), (-1, 0), 8 if header_lines <= 2 else 7),
        ("LEADING", (0, 0), (-1, 0), 9 if header_lines <= 2 else 7.5),
        ("FONTSIZE", (0, 1), (-1, -1), 10),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("ALIGN", (5, 1), (5, -1), "LEFT"),
        ("INNERGRID", (0, 0), (-1, -1), 0.4, styles.RULE),
        ("LINEBEFORE", (6, 0), (6, -1), 0.8, styles.INK),
        ("LINEBEFORE", (8, 0), (8, -1), 0.8, styles.INK),
        ("BACKGROUND", (8, 1), (9, -1), styles.SHADE),
        # The circle-one hint and pre-printed dealers are faint; the table's ink is not.
        ("TEXTCOLOR", (2, filled + 1), (2, -1), styles.RULE),
        ("FONTSIZE", (2, filled + 1), (2, -1), 8),
        ("TEXTCOLOR", (1, filled + 1), (1, -1), styles.MUTED),
    ]
    top = 22 if header_lines <= 2 else 7.5 * header_lines + 4
    # Two languages take the notes' room: the rows give a point and a half each, never a
    # row (a match to 10 can take 19 hands), so the sheet stays on its page.
    row_height = ROW_HEIGHT if len(bilingual.current()) == 1 else BILINGUAL_ROW_HEIGHT
    return Table(
        rows, colWidths=widths, rowHeights=[top] + [row_height] * (len(rows) - 1), style=style
    )


def boxes(sheets: Scoresheets, fonts: styles.Fonts, width: float) -> Table:
    """Write-in boxes: what ended the match and what the director must add to it."""
    rules = sheets.rules

    def box(label: str, blanks: str = "") -> str:
        # Bilingual: the labels one above the other, the blanks once, after the last.
        return "\n".join(dict.fromkeys(getattr(label, "parts", (label,)))) + blanks

    def either(word: str) -> str:
        return "·".join(dict.fromkeys(getattr(word, "parts", (word,))))

    yes, no = _("yes"), _("no")
    yes_no = f"   {either(yes)}  /  {either(no)}"
    ns, ew = bilingual.team("NS"), bilingual.team("EW")
    score = f"   {ns} ______   {ew} ______"
    circle = f"   {ns}  /  {ew}"
    points = f"   {ns} ____   {ew} ____"
    if sheets.final:
        rows = [
            [box(_("Final score"), score), box(_("Game won by (circle)"), circle)],
            [
                box(_("First pair to win %(n)s games are the champions.", n=sheets.games_to_win)),
                box(_("No time limit, no bonuses, no individual points in the final.")),
            ],
        ]
    else:
        seats = "   " + _("seat(s)") + " ________"
        rows = [
            [
                box(_("Time called at"), "   ____ : ____"),
                box(_("Hand in progress at the call?"), yes_no),
            ],
            [box(_("Final score"), score), box(_("Winner (circle)"), circle)],
            [
                box(_("Reach bonus (+%(n)s)", n=rules.reach_bonus), points),
                box(_("Skunk bonus (+%(n)s)", n=rules.skunk_bonus), points),
            ],
            [
                box(_("Lone march award (%(n)s)", n=f"{rules.alone_march_award:+d}"), seats),
                box(_("Renege penalty (%(n)s)", n=f"{rules.renege_penalty:+d}"), seats),
            ],
        ]
    stacked = any("\n" in cell for row in rows for cell in row)
    return Table(
        rows,
        colWidths=[width / 2] * 2,
        rowHeights=[24] * len(rows),
        style=styles.table_style(header_rows=0, zebra=False)[2:]
        + [
            ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
            ("FONTSIZE", (0, 0), (-1, -1), 8.5 if stacked else 10),
            ("LEADING", (0, 0), (-1, -1), 9.5 if stacked else 12),
            ("INNERGRID", (0, 0), (-1, -1), 0.4, styles.RULE),
        ],
    )


def signatures(fonts: styles.Fonts, width: float) -> Table:
    line = "_" * 34
    sign = _("signature")
    rows = [
        [styles.head(_("Team NS")), line, line],
        [styles.head(_("Team EW")), line, line],
        ["", sign, sign],
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
            ("TEXTCOLOR", (0, 2), (-1, 2), styles.MUTED),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ("ALIGN", (1, 2), (-1, 2), "CENTER"),
        ],
    )


def _heading(
    sheets: Scoresheets,
    sheet: Scoresheet,
    fonts: styles.Fonts,
    s: styles.Styles,
    width: float,
) -> Table:
    """The event and round on the left, the table (and game) as large as fits on the right."""
    title: str = _("Table %(n)s", n=sheet.table)
    if sheet.game is not None:
        title = _("Table %(n)s · game %(game)s", n=sheet.table, game=sheet.game)
    title = styles.head(title)
    # Bilingual, the event's line takes two languages' words: the table number less.
    split = 0.45 if len(bilingual.current()) == 1 else 0.33
    title_size = 26.0 if "\n" not in title else 18.0
    while (
        title_size > 12
        and max(
            styles.pdfmetrics.stringWidth(line, fonts.bold, title_size)
            for line in title.split("\n")
        )
        > width * split - 8
    ):
        title_size -= 1
    subtitle = _("Backup scoresheet · %(round)s", round=sheets.round_label)
    return Table(
        [
            [
                Paragraph(
                    f"{styles.escape(sheets.event)}<br/>"
                    f"<font size=10>{styles.escape(subtitle)}</font>",
                    s.heading,
                ),
                title,
            ]
        ],
        colWidths=[width * (1 - split), width * split],
        style=[
            ("FONTNAME", (1, 0), (1, 0), fonts.bold),
            ("FONTSIZE", (1, 0), (1, 0), title_size),
            ("LEADING", (1, 0), (1, 0), title_size * 1.15),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
            ("ALIGN", (1, 0), (1, 0), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ("LEFTPADDING", (0, 0), (0, 0), 0),
            ("RIGHTPADDING", (1, 0), (1, 0), 0),
        ],
    )


def _terms(sheets: Scoresheets) -> bilingual.Said:
    """How a game or match ends, and when the sheet was printed."""
    rules = sheets.rules
    printed = styles.printed(sheets.printed_at)
    if sheets.final:
        return _(
            "Game to %(target)s, no time limit; best of %(games)s. Printed %(at)s.",
            target=rules.final_target,
            games=2 * sheets.games_to_win - 1,
            at=printed,
        )
    return _(
        "Match to %(target)s or %(minutes)s minutes; when time is called, finish the "
        "hand in progress, then play on while tied. Printed %(at)s.",
        target=rules.target,
        minutes=sheets.round_minutes,
        at=printed,
    )


def _dealer_text(sheet: Scoresheet) -> bilingual.Said:
    """Who deals first (in bold, or seats to circle), and where to carry on the hands the
    tablet already recorded. Markup: the words are ours, nothing typed."""
    if sheet.first_dealer:
        dealer_text = _(
            "First dealer: %(seat)s · the deal passes clockwise (N, E, S, W) after "
            "every hand, misdeals and reneges included.",
            seat=bilingual.Said(
                [f"<b>{p}</b>" for p in bilingual.seat(sheet.first_dealer.value).parts]
            ),
        )
    else:
        dealer_text = _(
            "First dealer (circle): %(seats)s · the deal passes clockwise (N, E, S, W) "
            "after every hand, misdeals and reneges included.",
            seats=bilingual.Said(
                [
                    "  /  ".join(letters)
                    for letters in zip(
                        *(bilingual.seat(seat.value).parts for seat in SEATS), strict=True
                    )
                ]
            ),
        )
    if sheet.hands:
        dealer_text = _(
            "%(dealer)s %(n)s hands already recorded on the tablet are printed; carry "
            "on below them.",
            dealer=dealer_text,
            n=len(sheet.hands),
        )
    return dealer_text


def build(sheets: Scoresheets, paper: str = styles.DEFAULT_PAPER) -> bytes:
    fonts = styles.fonts_for(
        [sheets.event, *(p.name for sheet in sheets.sheets for p in sheet.seats.values())]
    )
    s = styles.styles(fonts)
    pagesize = styles.paper_size(paper)
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        **styles.page_setup(
            paper,
            _(
                "%(event)s: backup scoresheets, %(round)s",
                event=sheets.event,
                round=sheets.round_label,
            ),
            top=styles.MARGIN * 0.8,
        ),
    )
    width = doc.width
    story: list[Any] = []
    for index, sheet in enumerate(sheets.sheets):
        if index:
            story.append(PageBreak())
        dealer_text = _dealer_text(sheet)
        story += [
            _heading(sheets, sheet, fonts, s, width),
            *styles.stacked(_terms(sheets), s.small),
            Spacer(1, 6),
            seats_block(sheet, fonts, width),
            Spacer(1, 6),
            # Markup: the first dealer in bold; the words are ours, nothing typed.
            *styles.stacked(
                dealer_text,
                s.body if len(set(dealer_text.parts)) == 1 else s.small,
                markup=True,
            ),
            Spacer(1, 4),
            grid(sheet, fonts, width, pagesize[1]),
            Spacer(1, 8),
            boxes(sheets, fonts, width),
            Spacer(1, 4),
            signatures(fonts, width),
        ]
    if not sheets.sheets:
        story.append(Paragraph(styles.escape(_("No tables to print.")), s.body))
    footer = _(
        "%(event)s · backup scoresheets, %(round)s", event=sheets.event, round=sheets.round_label
    )
    doc.build(story, canvasmaker=styles.numbered_canvas(footer, fonts))
    return out.getvalue()
