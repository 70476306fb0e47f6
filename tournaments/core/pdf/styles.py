"""What every sheet shares: paper sizes, fonts, paragraph styles, the page footer.

Fonts: the built-in Helvetica is used whenever every string on the sheet is in its
WinAnsi encoding (Latin-1 accents: José, Zoë, Ångström), because it needs no embedding
and keeps the files small and fast. A name outside it (Łukasz, Dvořák, Şükrü) would
print as black boxes in Helvetica, so such a sheet embeds a TrueType font instead,
preferring Liberation Sans (drawn to Helvetica's metrics, so the layout is unchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax import saxutils

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, LongTable, Paragraph, Table

from tournaments.common import bilingual
from tournaments.common.bilingual import tr as _

PAPERS: dict[str, tuple[float, float]] = {"letter": LETTER, "a4": A4}
DEFAULT_PAPER = "letter"
MARGIN = 0.5 * inch
FOOTER_GAP = 0.22 * inch

INK = colors.black
MUTED = colors.HexColor("#555555")
RULE = colors.HexColor("#999999")
SHADE = colors.HexColor("#EEEEEE")
HEADER_SHADE = colors.HexColor("#D9D9D9")

# Debian's fonts-liberation2 / fonts-dejavu-core; the first one found is used.
TTF_CANDIDATES: tuple[tuple[str, Path, Path], ...] = (
    (
        "LiberationSans",
        Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
        Path("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"),
    ),
    (
        "DejaVuSans",
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ),
)


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str


HELVETICA = Fonts("Helvetica", "Helvetica-Bold")


@cache
def _unicode_fonts() -> Fonts:
    for name, regular, bold in TTF_CANDIDATES:
        if regular.exists() and bold.exists():
            pdfmetrics.registerFont(TTFont(name, str(regular)))
            pdfmetrics.registerFont(TTFont(f"{name}-Bold", str(bold)))
            return Fonts(name, f"{name}-Bold")
    return HELVETICA  # no TrueType font installed: Latin-1 still prints


def _in_helvetica(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def fonts_for(texts: Iterable[str]) -> Fonts:
    """Helvetica if it can print every string, else an embedded Unicode font."""
    return HELVETICA if all(_in_helvetica(t) for t in texts) else _unicode_fonts()


def escape(text: str) -> str:
    """Text for a Paragraph, whose markup would otherwise eat "<" and "&" in names."""
    return saxutils.escape(text)


def paper_size(paper: str) -> tuple[float, float]:
    return PAPERS[paper]


def printed(at: datetime) -> bilingual.Said:
    """When the sheet was printed, in the sheet's language(s): "2026-12-02 14 h 05"."""
    return bilingual.printed(at)


def head(words: str) -> str:
    """A column header: a bilingual one on two lines, one language each, so a narrow
    column stays narrow."""
    return "\n".join(dict.fromkeys(getattr(words, "parts", (words,))))


def widest(text: str, font: str, size: float) -> float:
    """The width of the longest line of ``text`` (a header may hold two)."""
    return max(pdfmetrics.stringWidth(line, font, size) for line in text.split("\n"))


def stacked(text: bilingual.Said, style: ParagraphStyle, markup: bool = False) -> list[Any]:
    """A paragraph in each of the sheet's languages, one under the other, the second
    in italics: a long note reads better stacked than split by slashes. ``markup``:
    the text is already escaped Paragraph markup."""
    parts = list(dict.fromkeys(text.parts))
    out: list[Any] = []
    for index, part in enumerate(parts):
        body = part if markup else escape(part)
        out.append(Paragraph(f"<i>{body}</i>" if index else body, style))
    return out


@dataclass(frozen=True)
class Styles:
    fonts: Fonts
    title: ParagraphStyle
    subtitle: ParagraphStyle
    heading: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle


def styles(fonts: Fonts, cell_size: float = 9) -> Styles:
    base = ParagraphStyle(
        "base", fontName=fonts.regular, fontSize=10, leading=12, textColor=INK, alignment=TA_LEFT
    )
    return Styles(
        fonts=fonts,
        title=ParagraphStyle(
            "title", parent=base, fontName=fonts.bold, fontSize=18, leading=22, spaceAfter=2
        ),
        subtitle=ParagraphStyle(
            "subtitle", parent=base, fontSize=11, leading=14, textColor=MUTED, spaceAfter=8
        ),
        heading=ParagraphStyle(
            "heading",
            parent=base,
            fontName=fonts.bold,
            fontSize=13,
            leading=16,
            spaceBefore=10,
            spaceAfter=4,
        ),
        body=base,
        small=ParagraphStyle("small", parent=base, fontSize=8, leading=10, textColor=MUTED),
        cell=ParagraphStyle("cell", parent=base, fontSize=cell_size, leading=cell_size + 1.5),
    )


SMALLEST_NAME = 6.0


def shrunk_size(text: str, font: str, size: float, width: float, smallest: float) -> float:
    """The largest size (in quarter points, from ``size`` down to ``smallest``) at which the
    text fits the width on one line."""
    while size > smallest and pdfmetrics.stringWidth(text, font, size) > width:
        size = max(smallest, size - 0.25)
    return size


class Shrunk(Flowable):  # type: ignore[misc]
    """A name set whole: its type shrinks to the width the cell gives (down to
    ``smallest``); a name still too wide wraps between its words, never inside one and
    never cut, so "Jean-François Bélanger (A)" keeps its division mark. Lines may be
    several: one a seat, as the by-table cells have."""

    def __init__(self, text: str, font: str, size: float, smallest: float = SMALLEST_NAME):
        super().__init__()
        self.lines = text.split("\n")
        self.font, self.size, self.smallest = font, size, smallest
        self._drawn: list[str] = []
        self._size = size

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self._size = min(
            shrunk_size(line, self.font, self.size, avail_width, self.smallest)
            for line in self.lines
        )
        self._drawn = [
            part
            for line in self.lines
            for part in (simpleSplit(line, self.font, self._size, avail_width) or [""])
        ]
        self.width = avail_width
        self.height = len(self._drawn) * (self._size + 2)
        return self.width, self.height

    def draw(self) -> None:
        self.canv.setFont(self.font, self._size)
        for index, line in enumerate(self._drawn):
            self.canv.drawString(0, self.height - (index + 1) * (self._size + 2) + 2, line)


def fit(text: str, font: str, size: float, width: float) -> str:
    """The text cut with an ellipsis to fit the width: used only where wrapping can't be,
    and never for a name (``Shrunk``)."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def numbered_canvas(left: str, fonts: Fonts, stamp: str = "") -> Callable[..., Canvas]:
    """A canvas class that prints ``left`` and "Page x of y" at the foot of every page,
    and ``stamp`` (a copy not for posting) in bold at the head of every page.

    The page count is only known at the end, so each page's drawing is kept and the
    footers are stamped when the document is saved (reportlab's two-pass idiom).
    """

    class NumberedCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802 - reportlab's name
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for number, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                self._footer(number, total)
                super().showPage()
            super().save()

        def _footer(self, number: int, total: int) -> None:
            width = self._pagesize[0]
            self.saveState()
            self.setFont(fonts.regular, 8)
            self.setFillColor(MUTED)
            page = _("Page %(number)s of %(total)s", number=number, total=total)
            # Cut, never overlapping the page number (a long event name or mark).
            room = width - 2 * MARGIN - pdfmetrics.stringWidth(page, fonts.regular, 8) - 12
            # A flowable may name the page's own footer (standings of several divisions).
            text = getattr(self, "footer_left", left)
            self.drawString(MARGIN, MARGIN - FOOTER_GAP, fit(text, fonts.regular, 8, room))
            self.drawRightString(width - MARGIN, MARGIN - FOOTER_GAP, page)
            if stamp:
                # A page taken off the pile alone still says what it is.
                self.setFont(fonts.bold, 10)
                self.setFillColor(INK)
                top = self._pagesize[1] - MARGIN + FOOTER_GAP / 2
                self.drawCentredString(
                    width / 2, top, fit(stamp, fonts.bold, 10, width - 2 * MARGIN)
                )
            self.restoreState()

    return NumberedCanvas


def table_style(
    header_rows: int = 1, zebra: bool = True, fonts: Fonts | None = None
) -> list[tuple[Any, ...]]:
    """The grid look shared by the sheets' tables; with ``fonts``, a bold header row over
    regular body rows."""
    commands: list[tuple[Any, ...]] = [
        ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.8, INK),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), HEADER_SHADE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("BOX", (0, 0), (-1, -1), 0.6, INK),
    ]
    if zebra:
        commands.append(("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [colors.white, SHADE]))
    if fonts is not None:
        commands += [
            ("FONTNAME", (0, 0), (-1, 0), fonts.bold),
            ("FONTNAME", (0, 1), (-1, -1), fonts.regular),
        ]
    return commands


def header_table(
    rows: list[list[Any]],
    widths: Sequence[float],
    fonts: Fonts,
    *extra: tuple[Any, ...],
    kind: type[Table] = LongTable,
) -> Table:
    """A table in the sheets' grid whose bold header row repeats on every page it runs
    to; ``extra``: the table's own style commands, after the shared ones."""
    return kind(rows, colWidths=widths, repeatRows=1, style=table_style(fonts=fonts) + list(extra))


def ranking_table(
    header: list[str],
    lines: list[list[Any]],
    widths: Sequence[float],
    fonts: Fonts,
    kind: type[Table] = LongTable,
) -> Table:
    """A ranking at 9 points: rank, name, then numbers right-aligned, the first in bold
    (what ranks); a ranking with no lines says so."""
    empty = [["", _("No results yet."), *[""] * (len(header) - 2)]]
    # A header longer in French than its column (Victoires) widens it; the name gives.
    widths = list(widths)
    for index, text in enumerate(header):
        need = widest(text, fonts.bold, 9) + 7
        if index != 1 and need > widths[index]:
            widths[1] -= need - widths[index]
            widths[index] = need
    return header_table(
        [header, *(lines or empty)],
        widths,
        fonts,
        ("FONTNAME", (2, 1), (2, -1), fonts.bold),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
        kind=kind,
    )


def page_setup(paper: str, title: str, top: float = MARGIN) -> dict[str, Any]:
    """The page every sheet is laid out on: paper, margins (room for the footer at the
    bottom) and the document's title, as keyword arguments for a DocTemplate."""
    return {
        "pagesize": paper_size(paper),
        "leftMargin": MARGIN,
        "rightMargin": MARGIN,
        "topMargin": top,
        "bottomMargin": MARGIN + 0.1 * inch,
        "title": title,
        "author": "Snowman",
    }
