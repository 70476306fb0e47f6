"""Table tents: the permanent card of each table, printed once for the whole event.

A sheet folded across its middle stands on the table and reads from both sides: each
half carries the table's number, the QR code of its tablet link and the code typed at
the short address when a tablet dies. No round and no names: those change every round
and are on the seating sheet (pdf/seating.py), so the tents never need reprinting."""

from __future__ import annotations

from io import BytesIO

from reportlab.pdfgen.canvas import Canvas

from tournaments.common.bilingual import tr as _
from tournaments.core.pdf import styles
from tournaments.core.pdf.qr import draw_qr
from tournaments.core.pdf.table_cards import centred_lines, fitted_size
from tournaments.core.reads.sheets import TableCard, TableCards


def draw_half(
    c: Canvas, card: TableCard, event: str, fonts: styles.Fonts, width: float, height: float
) -> None:
    """One face of the tent, upright in a box ``width`` x ``height`` at the origin."""
    mid = width / 2
    top = height - styles.MARGIN
    c.setFillColor(styles.MUTED)
    c.setFont(fonts.regular, 10)
    c.drawCentredString(
        mid, top - 10, styles.fit(event, fonts.regular, 10, width - 2 * styles.MARGIN)
    )
    c.setFillColor(styles.INK)
    number = str(card.table)
    room = height - 2 * styles.MARGIN - 24
    size = fitted_size(number, fonts.bold, min(150.0, room * 0.9), width * 0.45, 40)
    left = styles.MARGIN
    c.setFont(fonts.bold, 18)
    c.drawString(left, top - 40, _("TABLE"))
    c.setFont(fonts.bold, size)
    c.drawString(left, top - 40 - size * 0.85, number)
    # The QR code and the code on the right half of the face.
    qr = min(room * 0.7, width * 0.38)
    x = width - styles.MARGIN - qr
    y = top - 24 - qr
    if card.url:
        draw_qr(c, card.url, x, y, qr)
        below = y - 14
        below -= centred_lines(
            c, _("Scan to keep score on the tablet"), x + qr / 2, below, qr + 40, fonts.bold, 9
        )
        if card.code:
            below -= centred_lines(
                c,
                _("or type the table code at %(address)s", address=card.code_url),
                x + qr / 2,
                below,
                qr + 60,
                fonts.regular,
                8,
            )
            c.setFont("Courier-Bold", 20)
            c.drawCentredString(x + qr / 2, below - 14, card.code)
    else:
        c.setStrokeColor(styles.RULE)
        c.setDash(4, 3)
        c.rect(x, y, qr, qr)
        c.setDash()
        centred_lines(
            c,
            _("No live tablet link. Ask the director."),
            x + qr / 2,
            y + qr / 2,
            qr - 12,
            fonts.regular,
            9,
        )


def build(cards: TableCards, paper: str = styles.DEFAULT_PAPER) -> bytes:
    """One page per table, folded in two: the upper face upside down, so that each side
    of the standing tent reads the right way up."""
    fonts = styles.fonts_for([cards.event])
    width, height = styles.paper_size(paper)
    out = BytesIO()
    c = Canvas(out, pagesize=(width, height))
    c.setTitle(_("%(event)s: table tents", event=cards.event))
    c.setAuthor("Snowman")
    half = height / 2
    for card in cards.cards:
        draw_half(c, card, cards.event, fonts, width, half)
        c.saveState()
        c.translate(width, height)
        c.rotate(180)
        draw_half(c, card, cards.event, fonts, width, half)
        c.restoreState()
        c.setStrokeColor(styles.RULE)
        c.setDash(2, 4)
        c.line(styles.MARGIN / 2, half, width - styles.MARGIN / 2, half)
        c.setDash()
        c.showPage()
    if not cards.cards:
        c.setFont(fonts.regular, 12)
        c.drawString(styles.MARGIN, height - styles.MARGIN - 12, _("No tables are seated."))
        c.showPage()
    c.save()
    return out.getvalue()
