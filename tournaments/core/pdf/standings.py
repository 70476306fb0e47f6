"""The standings sheet for one division: posted on the wall after every round.

While the standings are hidden (§5) the wall's sheet is what players may see, saying which
rounds it leaves out; the director's copy, with every figure, says on every page that it
is not for posting."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from reportlab.lib.units import inch
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Spacer

from tournaments.common.bilingual import Said
from tournaments.common.bilingual import tr as _
from tournaments.core.pdf import styles
from tournaments.core.reads.sheets import StandingLine, StandingsSheet

LOT_MARK = "†"
FIXED = {
    "rank": 0.5 * inch,
    "bonus": 0.5 * inch,
    "awards": 0.6 * inch,
    "total": 0.5 * inch,
    "wins": 0.42 * inch,
    "margin": 0.55 * inch,
}
ROUND_WIDTH = 0.36 * inch
MIN_NAME = 1.6 * inch


def rank_label(line: StandingLine) -> str:
    return f"{'=' if line.shared else ''}{line.rank}{LOT_MARK if line.by_lot else ''}"


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _fonts(sheets: list[StandingsSheet]) -> styles.Fonts:
    return styles.fonts_for(
        [
            text
            for sheet in sheets
            for text in (sheet.event, sheet.director_mark, *(line.name for line in sheet.lines))
        ]
    )


def _footer(sheet: StandingsSheet) -> str:
    footer: str = _(
        "%(event)s · standings, division %(division)s · %(status)s · printed %(at)s",
        event=sheet.event,
        division=sheet.division,
        status=sheet.status,
        at=styles.printed(sheet.printed_at),
    )
    return f"{sheet.director_mark} · {footer}" if sheet.director_mark else footer


class FooterFrom(Flowable):  # type: ignore[misc]
    """Sets the page footer from here on: a document of several divisions names, at the
    foot of each page, the division that page shows."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        self.canv.footer_left = self.text


def build(sheet: StandingsSheet, paper: str = styles.DEFAULT_PAPER) -> bytes:
    """One division's sheet."""
    return build_many([sheet], paper)


def build_many(sheets: list[StandingsSheet], paper: str = styles.DEFAULT_PAPER) -> bytes:
    """The divisions' sheets in one document, each from a new page (the walls of a hall
    with both divisions take one print job)."""
    first = sheets[0]
    fonts = _fonts(sheets)
    s = styles.styles(fonts, cell_size=9)
    out = BytesIO()
    title = (
        _(
            "%(event)s: standings, division %(division)s",
            event=first.event,
            division=first.division,
        )
        if len(sheets) == 1
        else _("%(event)s: standings, both divisions", event=first.event)
    )
    doc = SimpleDocTemplate(out, **styles.page_setup(paper, title))
    story: list[Any] = []
    for index, sheet in enumerate(sheets):
        if index:
            story.append(PageBreak())
        story += [FooterFrom(_footer(sheet)), *_division_story(sheet, fonts, s, doc.width)]
    doc.build(
        story,
        canvasmaker=styles.numbered_canvas(_footer(first), fonts, stamp=first.director_mark),
    )
    return out.getvalue()


def _name_cell(line: StandingLine, fonts: styles.Fonts, s: styles.Styles, width: float) -> Any:
    """The player's name with why they played fewer rounds, wrapped only if it must be."""
    mark = (
        _("withdrawn after round %(n)s", n=line.withdrawn_after)
        if line.withdrawn_after
        else _("withdrawn")
    )
    text = line.name + (f" ({mark})" if line.withdrawn else "")
    if line.sit_outs:
        text += " · " + _(
            "%(played)s played, %(sat)s sat out", played=line.played, sat=line.sit_outs
        )
    # A plain string draws far faster than a Paragraph; wrap only names that need it.
    if styles.pdfmetrics.stringWidth(text, fonts.regular, s.cell.fontSize) <= width - 6:
        return text
    return Paragraph(styles.escape(text), s.cell)


def _table_rows(
    sheet: StandingsSheet,
    heads: dict[str, str],
    fonts: styles.Fonts,
    s: styles.Styles,
    name_width: float,
) -> list[list[Any]]:
    """The header and a row per player, or a row saying why there is none."""
    header = [
        heads["rank"],
        styles.head(_("Player")),
        # Translators: a round's column on the standings sheet, "R3"; keep it short.
        *(_("R%(n)s", n=n) for n in sheet.rounds),
        heads["bonus"],
        heads["awards"],
        heads["total"],
        heads["wins"],
        heads["margin"],
    ]
    rows: list[list[Any]] = [header]
    for line in sheet.lines:
        rows.append(
            [
                rank_label(line),
                _name_cell(line, fonts, s, name_width),
                *("" if p is None else str(p) for p in line.by_round),
                str(line.bonuses),
                signed(line.individual),
                str(line.total),
                str(line.wins),
                signed(line.margin),
            ]
        )
    if not sheet.lines:
        # Hiding every round leaves no standings players may see, though players played.
        empty = sheet.status if sheet.hidden_note and not sheet.director_mark else ""
        rows.append(
            [
                "",
                empty or _("No players registered in this division."),
                *[""] * (len(header) - 2),
            ]
        )
    return rows


def _legend(sheet: StandingsSheet) -> Said:
    """What the columns add up to, and what a shared or drawn rank means."""
    if sheet.lot_shown:
        return _(
            "Points per round = team score + team bonuses + own awards and penalties. "
            "Bonus = team bonuses; Awards = lone-march awards and renege penalties. "
            "%(mark)s Equal on every other tiebreak: order drawn by lot (seed %(seed)s). "
            "= Rank shared.",
            mark=LOT_MARK,
            seed=sheet.lot_seed,
        )
    return _(
        "Points per round = team score + team bonuses + own awards and penalties. "
        "Bonus = team bonuses; Awards = lone-march awards and renege penalties. "
        "=3: a rank shared by players equal on every tiebreak (the lot orders them "
        "only for the final's seeding, seed %(seed)s).",
        seed=sheet.lot_seed,
    )


def _division_story(
    sheet: StandingsSheet, fonts: styles.Fonts, s: styles.Styles, width: float
) -> list[Any]:
    """One division's flowables: its title, the hidden note, the table, the legend."""
    # Headers stack in two lines when the sheet is bilingual: the columns stay narrow,
    # and a column whose word is longer in French (Victoires) widens to hold it.
    heads = {
        "rank": styles.head(_("Rank")),
        "bonus": styles.head(_("Bonus")),
        "awards": styles.head(_("Awards")),
        "total": styles.head(_("Total")),
        "wins": styles.head(_("Wins")),
        "margin": styles.head(_("Margin")),
    }
    widths_of = {
        key: max(FIXED[key], styles.widest(heads[key], fonts.bold, s.cell.fontSize) + 7)
        for key in FIXED
    }
    fixed = sum(widths_of.values())
    # Many rounds squeeze the round columns before the names lose their room.
    round_width = min(
        ROUND_WIDTH, max(0.26 * inch, (width - fixed - MIN_NAME) / max(1, len(sheet.rounds)))
    )
    name_width = width - fixed - round_width * len(sheet.rounds)
    size = s.cell.fontSize
    rows = _table_rows(sheet, heads, fonts, s, name_width)
    widths = [
        widths_of["rank"],
        name_width,
        *[round_width] * len(sheet.rounds),
        widths_of["bonus"],
        widths_of["awards"],
        widths_of["total"],
        widths_of["wins"],
        widths_of["margin"],
    ]
    total_col = 2 + len(sheet.rounds) + 2
    table = styles.header_table(
        rows,
        widths,
        fonts,
        ("FONTNAME", (total_col, 1), (total_col, -1), fonts.bold),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LEADING", (0, 0), (-1, -1), size + 2),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
        ("ALIGN", (0, 0), (0, -1), "LEFT"),
        ("LINEBEFORE", (2, 0), (2, -1), 0.4, styles.RULE),
        ("LINEBEFORE", (2 + len(sheet.rounds), 0), (2 + len(sheet.rounds), -1), 0.4, styles.RULE),
        ("LINEBEFORE", (total_col, 0), (total_col, -1), 0.4, styles.RULE),
    )
    printed = styles.printed(sheet.printed_at)
    return [
        Paragraph(styles.escape(sheet.event), s.title),
        Paragraph(
            styles.escape(
                _(
                    "Standings, division %(division)s · %(status)s · printed %(at)s",
                    division=sheet.division,
                    status=sheet.status,
                    at=printed,
                )
            ),
            s.subtitle,
        ),
        *(
            [Paragraph(f"<b>{styles.escape(sheet.hidden_note)}</b>", s.cell), Spacer(1, 4)]
            if sheet.hidden_note
            else []
        ),
        table,
        Spacer(1, 6),
        *styles.stacked(_legend(sheet), s.small),
    ]
