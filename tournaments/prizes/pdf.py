"""The prizes sheet: each prize, its value and every winner (ties shared and shown)."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from tournaments.common.bilingual import tr as _
from tournaments.core.pdf import styles
from tournaments.prizes.reads import PrizeSheet, winner_text


def build(sheet: PrizeSheet, paper: str = styles.DEFAULT_PAPER) -> bytes:
    names = [n for p in sheet.prizes for w in p.winners for n in w.names]
    fonts = styles.fonts_for([sheet.event, *names, *(p.rule.name for p in sheet.prizes)])
    s = styles.styles(fonts, cell_size=10)
    out = BytesIO()
    doc = SimpleDocTemplate(
        out, **styles.page_setup(paper, _("%(event)s: prizes", event=sheet.event))
    )
    widths = [2.3 * inch, 0, 0.8 * inch]
    widths[1] = doc.width - sum(widths)
    rows: list[list[Any]] = [[_("Prize"), _("Winner"), styles.head(_("Value"))]]
    for prize in sheet.prizes:
        if not prize.winners:
            rows.append([Paragraph(styles.escape(prize.rule.name), s.cell), _("nobody"), "–"])
            continue
        shared = _("shared by %(count)s", count=len(prize.winners)) if prize.shared else ""
        who = "<br/>".join(styles.escape(winner_text(w)) for w in prize.winners)
        if shared:
            who += f"<br/><i>{styles.escape(shared)}</i>"
        rows.append(
            [
                Paragraph(styles.escape(prize.rule.name), s.cell),
                Paragraph(who, s.cell),
                str(prize.value),
            ]
        )
    table = styles.header_table(
        rows,
        widths,
        fonts,
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("ALIGN", (2, 0), (2, -1), "RIGHT"),
        ("FONTNAME", (2, 1), (2, -1), fonts.bold),
    )
    status = (
        _("Standings are hidden from the players: not for announcing yet.") if sheet.hidden else ""
    )
    printed = styles.printed(sheet.printed_at)
    story: list[Any] = [
        Paragraph(styles.escape(sheet.event), s.title),
        Paragraph(
            styles.escape(_("Prizes · printed %(at)s", at=printed)),
            s.subtitle,
        ),
    ]
    if status:
        story.append(Paragraph(f"<b>{styles.escape(status)}</b>", s.cell))
        story.append(Spacer(1, 6))
    story += [
        table,
        Spacer(1, 6),
        *styles.stacked(
            _(
                "From the preliminary matches. Tied winners share the prize and are all "
                "listed. Withdrawn players take no prize. A pair is the two partners who "
                "held the seats at the end of the match; its value is the team's score "
                "and bonuses there."
            ),
            s.small,
        ),
    ]
    footer = _("%(event)s · prizes · printed %(at)s", event=sheet.event, at=printed)
    doc.build(story, canvasmaker=styles.numbered_canvas(footer, fonts))
    return out.getvalue()
