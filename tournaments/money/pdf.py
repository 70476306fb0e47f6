"""The money's printed sheets: the night's reconciliation, the presenter's sheet (in the
order prizes are handed out) and a certificate per prize, in the sheet's languages
(``bilingual.languages``), on the sheets' fonts, grid and footer (pdf/styles.py)."""

from __future__ import annotations

from datetime import datetime
from io import BytesIO
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch, mm
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

from tournaments.common.bilingual import tr as _
from tournaments.core.models.event import Tournament
from tournaments.core.pdf import styles
from tournaments.core.reads.sheets import event_label
from tournaments.domain.money import money_text
from tournaments.money import reads


def bold(text: str) -> str:
    return f"<b>{styles.escape(text)}</b>"


def _doc(out: BytesIO, paper: str, title: str) -> SimpleDocTemplate:
    return SimpleDocTemplate(out, **styles.page_setup(paper, title))


def reconciliation(t: Tournament, sheet: reads.Sheet, paper: str, now: datetime) -> bytes:
    event = event_label(t)
    entries = sheet.entries
    names = [e.player.name for e in entries if e.player] + [e.by for e in entries]
    fonts = styles.fonts_for([event, *names, *(e.label for e in entries)])
    s = styles.styles(fonts, cell_size=9)
    out = BytesIO()
    doc = _doc(out, paper, _("%(event)s: money", event=event))
    printed = styles.printed(now)
    story: list[Any] = [
        Paragraph(styles.escape(event), s.title),
        Paragraph(styles.escape(_("Cash reconciliation · printed %(at)s", at=printed)), s.subtitle),
    ]
    rec = sheet.reconciliation
    rows: list[list[Any]] = [[_("Figure"), styles.head(_("Amount"))]]
    for label, cents in reads.summary_lines(sheet):
        rows.append([label, "–" if cents is None else money_text(cents)])
    short = rec.discrepancy is not None and rec.discrepancy != 0
    extra: list[tuple[Any, ...]] = [("ALIGN", (1, 0), (1, -1), "RIGHT")]
    if short:
        extra.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), colors.yellow))
    extra.append(("FONTNAME", (0, len(rows) - 3), (-1, -1), fonts.bold))
    story.append(styles.header_table(rows, [doc.width - 1.3 * inch, 1.3 * inch], fonts, *extra))
    if short:
        story.append(Spacer(1, 4))
        story.append(
            Paragraph(
                bold(_("The drawer is %(amount)s off.", amount=money_text(rec.discrepancy or 0))),
                s.body,
            )
        )
    story.append(Paragraph(styles.escape(_("Cash by who took it")), s.heading))
    takers: list[list[Any]] = [[_("Staff"), styles.head(_("Net cash"))]]
    takers += [[styles.escape(by), money_text(c)] for by, c in rec.by_taker.items()]
    story.append(
        styles.header_table(
            takers, [doc.width - 1.3 * inch, 1.3 * inch], fonts, ("ALIGN", (1, 0), (1, -1), "RIGHT")
        )
    )
    story.append(Paragraph(styles.escape(_("Every money action")), s.heading))
    ledger: list[list[Any]] = [
        [_("When"), _("What"), _("Player"), styles.head(_("Amount")), _("By"), _("Undone")]
    ]
    undone_rows = []
    for i, e in enumerate(entries, start=1):
        what = e.get_kind_display() + (f" · {e.label}" if e.label else "")
        undone = ""
        if e.undone_at is not None:
            undone = f"{e.undone_by}: {e.undo_reason}"
            undone_rows.append(i)
        ledger.append(
            [
                styles.printed(e.at),
                Paragraph(styles.escape(what), s.cell),
                Paragraph(styles.escape(e.player.name if e.player else ""), s.cell),
                money_text(e.cents) + ("" if e.method == "cash" else " *"),
                Paragraph(styles.escape(e.by), s.cell),
                Paragraph(styles.escape(undone), s.cell),
            ]
        )
    widths = [1.25 * inch, 1.7 * inch, 1.5 * inch, 0.8 * inch, 0.9 * inch, 0]
    widths[-1] = doc.width - sum(widths)
    style: list[tuple[Any, ...]] = [
        ("ALIGN", (3, 0), (3, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTSIZE", (0, 1), (-1, -1), 8),
    ]
    style += [("TEXTCOLOR", (0, r), (-1, r), styles.MUTED) for r in undone_rows]
    story.append(styles.header_table(ledger, widths, fonts, *style))
    story.append(Spacer(1, 4))
    story += styles.stacked(
        _(
            "* paid by other means than cash: not in the drawer. An undone action stays "
            "listed, with who undid it and why, and counts for nothing."
        ),
        s.small,
    )
    footer = _("%(event)s · money · printed %(at)s", event=event, at=printed)
    doc.build(story, canvasmaker=styles.numbered_canvas(footer, fonts))
    return out.getvalue()


def _what(row: reads.PayoutRow) -> str:
    """A payment's reason in the sheet's languages: "Place 1, division A", a prize's."""
    if row.what == "final":
        return _("Champions (the final)")
    if row.what == "place":
        if row.places:
            return _(
                "Places %(places)s shared, division %(division)s",
                places=row.places,
                division=row.division,
            )
        return _("Place %(place)s, division %(division)s", place=row.place, division=row.division)
    if row.what == "pot":
        return _("Loner basket") if row.title == "basket" else _("Fines pot")
    return row.title


def presenter(t: Tournament, seen: reads.Preview, paper: str, now: datetime) -> bytes:
    event = event_label(t)
    rows = reads.payout_rows(seen, handing_out=True)
    fonts = styles.fonts_for([event, *(r.name for r in rows), *(r.title for r in rows)])
    s = styles.styles(fonts, cell_size=12)
    out = BytesIO()
    doc = _doc(out, paper, _("%(event)s: the presenter's sheet", event=event))
    printed = styles.printed(now)
    story: list[Any] = [
        Paragraph(styles.escape(event), s.title),
        Paragraph(
            styles.escape(_("The presenter's sheet · printed %(at)s", at=printed)), s.subtitle
        ),
    ]
    if not seen.confirmed:
        story.append(
            Paragraph(
                bold(_("A preview: the payout is not confirmed yet.")),
                s.body,
            )
        )
    if seen.hidden:
        story.append(
            Paragraph(
                bold(_("Standings are hidden from the players: not for announcing yet.")),
                s.body,
            )
        )
    table: list[list[Any]] = [[_("Prize"), _("Winner"), styles.head(_("Amount"))]]
    for r in rows:
        table.append(
            [
                Paragraph(styles.escape(_what(r)), s.cell),
                Paragraph(bold(r.name), s.cell),
                money_text(r.cents),
            ]
        )
    if len(table) == 1:
        table.append([_("No prize is paid yet."), "", ""])
    widths = [doc.width * 0.45, doc.width * 0.38, doc.width * 0.17]
    story.append(
        styles.header_table(
            table,
            widths,
            fonts,
            ("ALIGN", (2, 0), (2, -1), "RIGHT"),
            ("FONTSIZE", (2, 1), (2, -1), 12),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        )
    )
    story.append(Spacer(1, 6))
    story.append(
        Paragraph(
            styles.escape(_("Paid in all: %(amount)s", amount=money_text(seen.total))), s.body
        )
    )
    if seen.fifty is not None:
        drawn = _(
            "50/50: ticket %(ticket)s of %(tickets)s wins %(amount)s (seed %(seed)s).",
            ticket=seen.fifty.label,
            tickets=seen.fifty.tickets or 0,
            amount=money_text(seen.fifty.cents),
            seed=seen.fifty.seed or 0,
        )
        story.append(Paragraph(bold(drawn), s.cell))
    footer = _("%(event)s · presenter · printed %(at)s", event=event, at=printed)
    doc.build(story, canvasmaker=styles.numbered_canvas(footer, fonts))
    return out.getvalue()


def certificates(
    t: Tournament, seen: reads.Preview, paper: str, *, margin_mm: int = 0, blank: bool = False
) -> bytes:
    """A page per prize winner. ``margin_mm`` more margin for the club's own printed
    stock; ``blank`` prints only what changes (the name, the prize, the event), for
    certificates already printed with their border and title."""
    event = event_label(t)
    rows = reads.payout_rows(seen, handing_out=True)
    fonts = styles.fonts_for([event, *(r.name for r in rows), *(r.title for r in rows)])
    out = BytesIO()
    extra = margin_mm * mm
    # Landscape, as certificates are printed and framed.
    height, width = styles.paper_size(paper)
    setup = styles.page_setup(paper, _("%(event)s: certificates", event=event))
    setup["pagesize"] = (width, height)
    for side in ("leftMargin", "rightMargin", "bottomMargin"):
        setup[side] += extra
    setup["topMargin"] = styles.MARGIN + extra + (0 if blank else 0.6 * inch)
    doc = SimpleDocTemplate(out, **setup)
    big = ParagraphStyle("big", fontName=fonts.bold, fontSize=30, leading=36, alignment=TA_CENTER)
    name = ParagraphStyle("name", fontName=fonts.bold, fontSize=26, leading=32, alignment=TA_CENTER)
    line = ParagraphStyle(
        "line", fontName=fonts.regular, fontSize=15, leading=20, alignment=TA_CENTER
    )
    story: list[Any] = []
    for i, r in enumerate(rows):
        if i:
            story.append(PageBreak())
        story.append(Spacer(1, (height - 2 * styles.MARGIN - 2 * extra) * 0.12))
        if not blank:
            story += [Paragraph(styles.escape(_("Certificate")), big), Spacer(1, 0.4 * inch)]
            story += [Paragraph(styles.escape(_("awarded to")), line), Spacer(1, 0.2 * inch)]
        story += [Paragraph(styles.escape(r.name), name), Spacer(1, 0.3 * inch)]
        story += [Paragraph(styles.escape(_what(r)), line), Spacer(1, 0.2 * inch)]
        story += [Paragraph(styles.escape(event), line)]
    if not story:
        story.append(Paragraph(styles.escape(_("No prize is paid yet.")), line))

    def border(canvas: Any, _doc: Any) -> None:
        if blank:
            return
        canvas.saveState()
        canvas.setStrokeColor(styles.RULE)
        canvas.setLineWidth(3)
        inset = styles.MARGIN / 2 + extra
        canvas.rect(inset, inset, width - 2 * inset, height - 2 * inset)
        canvas.restoreState()

    doc.build(story, onFirstPage=border, onLaterPages=border)
    return out.getvalue()
