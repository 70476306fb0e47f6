"""Table cards: one page per table, read from across the room.

A big table number, the QR code of the table's tablet link (drawn as vectors so it
stays sharp at any printer resolution) and the seat diagram of the current round.
Each page is drawn straight on the canvas: there is nothing to flow.
"""

from __future__ import annotations

from io import BytesIO

from reportlab.lib.units import inch
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from tournaments.common.bilingual import tr as _
from tournaments.core.pdf import styles
from tournaments.core.pdf.qr import draw_qr
from tournaments.core.reads.sheets import Seated, TableCard, TableCards
from tournaments.domain.hands import Seat

QR_MAX = 3.2 * inch
TABLE_SIZE = 1.5 * inch
NUMBER_SIZE = 150
PLAYERS_QR = 0.85 * inch


def fitted_size(text: str, font: str, size: float, width: float, smallest: float = 8) -> float:
    while size > smallest and styles.pdfmetrics.stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def centred_lines(
    c: Canvas, said: str, x: float, top: float, width: float, font: str, size: float
) -> float:
    """``said`` centred under ``top``, each language on its own line(s), wrapped to
    ``width``; returns the height used, so what follows moves down."""
    lines = [
        line
        for part in dict.fromkeys(getattr(said, "parts", (said,)))
        for line in simpleSplit(part, font, size, width)
    ]
    c.setFont(font, size)
    for index, line in enumerate(lines):
        c.drawCentredString(x, top - index * (size + 2), line)
    return len(lines) * (size + 2)


def draw_name(
    c: Canvas,
    seat: Seat,
    player: Seated | None,
    x: float,
    y: float,
    width: float,
    fonts: styles.Fonts,
    align: str,
) -> None:
    """Seat letter above, name (with its A/B mark) below, aligned toward the table."""
    name = f"{player.name} ({player.mark})" if player else _("(empty)")
    size = fitted_size(name, fonts.regular, 13, width)
    name = styles.fit(name, fonts.regular, size, width)
    label: str = {
        Seat.N: _("North · team NS"),
        Seat.E: _("East · team EW"),
        Seat.S: _("South · team NS"),
        Seat.W: _("West · team EW"),
    }[seat]
    label = styles.fit(label, fonts.regular, 8.5, width)
    draw = {"center": c.drawCentredString, "left": c.drawString, "right": c.drawRightString}[align]
    c.setFillColor(styles.MUTED)
    c.setFont(fonts.regular, 8.5)
    draw(x, y + 14, label)
    c.setFillColor(styles.INK)
    c.setFont(fonts.bold, size)
    draw(x, y, name)


def _draw_heading(
    c: Canvas, card: TableCard, cards: TableCards, fonts: styles.Fonts, width: float, top: float
) -> None:
    """The event, the round and when printed, then the table's number as large as fits."""
    mid = width / 2
    c.setFont(fonts.bold, 13)
    c.drawCentredString(
        mid, top - 12, styles.fit(cards.event, fonts.bold, 13, width - 2 * styles.MARGIN)
    )
    c.setFont(fonts.regular, 9)
    c.setFillColor(styles.MUTED)
    c.drawCentredString(
        mid,
        top - 26,
        _(
            "%(round)s · printed %(at)s",
            round=cards.round_label,
            at=styles.printed(cards.printed_at),
        ),
    )
    c.setFillColor(styles.INK)

    c.setFont(fonts.bold, 26)
    c.drawCentredString(mid, top - 70, _("TABLE"))
    number = str(card.table)
    size = fitted_size(number, fonts.bold, NUMBER_SIZE, width - 2 * styles.MARGIN, 40)
    c.setFont(fonts.bold, size)
    c.drawCentredString(mid, top - 70 - size * 0.78, number)


def _draw_tablet_link(
    c: Canvas,
    card: TableCard,
    fonts: styles.Fonts,
    width: float,
    qr_top: float,
    qr_size: float,
    scan: str,
) -> None:
    """The tablet's QR code with its link and table code, or a dashed square saying
    there is no live link."""
    mid = width / 2
    qr_x = mid - qr_size / 2
    if card.url:
        draw_qr(c, card.url, qr_x, qr_top - qr_size, qr_size)
        y = qr_top - qr_size - 12
        y -= centred_lines(c, scan, mid, y, width - 2 * styles.MARGIN, fonts.bold, 11) - 13
        c.setFont("Courier", 7)
        c.setFillColor(styles.MUTED)
        c.drawCentredString(
            mid, y - 12, styles.fit(card.url, "Courier", 7, width - 2 * styles.MARGIN)
        )
        c.setFillColor(styles.INK)
        if card.code:
            # Beside the QR, for a device without a camera or a tablet that died: type
            # the code at the short address.
            y -= 28
            y -= centred_lines(
                c,
                _("or type the table code at %(address)s", address=card.code_url),
                mid,
                y,
                width - 2 * styles.MARGIN,
                fonts.regular,
                10,
            )
            c.setFont("Courier-Bold", 22)
            c.drawCentredString(mid, y - 10, card.code)
    else:
        c.setStrokeColor(styles.RULE)
        c.setDash(4, 3)
        c.rect(qr_x, qr_top - qr_size, qr_size, qr_size)
        c.setDash()
        centred_lines(
            c,
            _("No live tablet link. Ask the director."),
            mid,
            qr_top - qr_size / 2 + 6,
            qr_size - 12,
            fonts.regular,
            10,
        )


def _draw_seat_diagram(
    c: Canvas,
    card: TableCard,
    cards: TableCards,
    fonts: styles.Fonts,
    width: float,
    centre_y: float,
) -> None:
    """The table as a square, each player on their side of it."""
    mid = width / 2
    half = TABLE_SIZE / 2
    c.setStrokeColor(styles.INK)
    c.setLineWidth(1.2)
    c.setFillColor(styles.SHADE)
    c.rect(mid - half, centre_y - half, TABLE_SIZE, TABLE_SIZE, fill=1)
    c.setFillColor(styles.INK)
    c.setFont(fonts.bold, 14)
    c.drawCentredString(mid, centre_y + 4, _("Table %(n)s", n=card.table))
    c.setFont(fonts.regular, 8.5)
    c.drawCentredString(mid, centre_y - 10, cards.round_label)
    side = (width - 2 * styles.MARGIN - TABLE_SIZE) / 2 - 10
    seats = card.seats
    draw_name(
        c,
        Seat.N,
        seats.get(Seat.N),
        mid,
        centre_y + half + 8,
        width - 2 * styles.MARGIN,
        fonts,
        "center",
    )
    draw_name(
        c,
        Seat.S,
        seats.get(Seat.S),
        mid,
        centre_y - half - 32,
        width - 2 * styles.MARGIN,
        fonts,
        "center",
    )
    draw_name(c, Seat.W, seats.get(Seat.W), mid - half - 10, centre_y - 6, side, fonts, "right")
    draw_name(c, Seat.E, seats.get(Seat.E), mid + half + 10, centre_y - 6, side, fonts, "left")


def _draw_foot(c: Canvas, fonts: styles.Fonts, width: float, players_url: str | None) -> None:
    """Who partners whom, and the players' own QR code in the corner when there is one."""
    mid = width / 2
    c.setFont(fonts.regular, 8)
    c.setFillColor(styles.MUTED)
    partners = _("Partners sit opposite: North with South, East with West.")
    room = width - 2 * styles.MARGIN - (2 * PLAYERS_QR + 12 if players_url else 0)
    # Bilingual: one line per language, the first above the usual line's place.
    lines = list(dict.fromkeys(getattr(partners, "parts", (partners,))))
    for index, part in enumerate(lines):
        y = styles.MARGIN - 4 + 9 * (len(lines) - 1 - index)
        c.drawCentredString(mid, y, styles.fit(part, fonts.regular, 8, room))
    c.setFillColor(styles.INK)
    if players_url:
        # Players' own phones: a smaller code in the corner, apart from the tablet's.
        size = PLAYERS_QR
        draw_qr(c, players_url, width - styles.MARGIN - size, styles.MARGIN + 6, size)
        c.setFont(fonts.bold, 7.5)
        said = _("Players: your seat on your phone")
        lines = [
            line
            for part in dict.fromkeys(getattr(said, "parts", (said,)))
            for line in simpleSplit(part, fonts.bold, 7.5, 1.3 * inch)
        ]
        for index, line in enumerate(reversed(lines)):
            c.drawRightString(width - styles.MARGIN, styles.MARGIN + size + 1 + 9 * index, line)


def draw_card(
    c: Canvas,
    card: TableCard,
    cards: TableCards,
    fonts: styles.Fonts,
    pagesize: tuple[float, float],
    players_url: str | None = None,
) -> None:
    width, height = pagesize
    top = height - styles.MARGIN
    _draw_heading(c, card, cards, fonts, width, top)

    # The seat diagram sits at the foot of the page; the QR code takes the room between.
    centre_y = styles.MARGIN + 0.45 * inch + TABLE_SIZE / 2 + 30
    half = TABLE_SIZE / 2
    qr_top = top - 70 - NUMBER_SIZE * 0.78 - 22
    # Room under the QR for the link, and the table code when there is one; a bilingual
    # card's captions take a line more each, taken from the QR.
    scan = _("Scan to keep score on the tablet")
    extra = 12 * (len(set(getattr(scan, "parts", (scan,)))) - 1)
    below = 80 + 2 * extra if card.code else 40 + extra
    qr_size = min(QR_MAX, qr_top - (centre_y + half + 40) - below)
    _draw_tablet_link(c, card, fonts, width, qr_top, qr_size, scan)
    _draw_seat_diagram(c, card, cards, fonts, width, centre_y)
    _draw_foot(c, fonts, width, players_url)


def build(
    cards: TableCards, paper: str = styles.DEFAULT_PAPER, players_url: str | None = None
) -> bytes:
    fonts = styles.fonts_for(
        [cards.event, *(p.name for card in cards.cards for p in card.seats.values())]
    )
    pagesize = styles.paper_size(paper)
    out = BytesIO()
    c = Canvas(out, pagesize=pagesize)
    c.setTitle(_("%(event)s: table cards, %(round)s", event=cards.event, round=cards.round_label))
    c.setAuthor("Snowman")
    for card in cards.cards:
        draw_card(c, card, cards, fonts, pagesize, players_url)
        c.showPage()
    if not cards.cards:
        c.setFont(fonts.regular, 12)
        c.drawString(styles.MARGIN, pagesize[1] - styles.MARGIN - 12, _("No tables are seated."))
        c.showPage()
    c.save()
    return out.getvalue()
