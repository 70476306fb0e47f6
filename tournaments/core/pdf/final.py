"""Final results: the champions, the final's games and the top of each division."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table

from tournaments.common import bilingual
from tournaments.common.bilingual import tr as _
from tournaments.core.pdf import styles as st
from tournaments.core.pdf.standings import rank_label, signed
from tournaments.core.reads.sheets import FinalResults, StandingLine
from tournaments.core.reads.standings import withdrawn_text
from tournaments.domain.final import DIVISION_OF_TEAM
from tournaments.domain.hands import Team


def pair(results: FinalResults, team: Team) -> str:
    names = results.pairs.get(team)
    return " & ".join(names) if names else _("to be decided")


def top_name(line: StandingLine, fonts: st.Fonts, cell: ParagraphStyle, width: float) -> Any:
    """The name, and for a withdrawn leader the mark that says why they are not in the
    final (§4), wrapped under the name rather than cut."""
    if not line.withdrawn:
        return st.Shrunk(line.name, fonts.regular, 9)
    return Paragraph(st.escape(f"{line.name} ({withdrawn_text(line.withdrawn_after)})"), cell)


def top_table(
    lines: tuple[StandingLine, ...], fonts: st.Fonts, cell: ParagraphStyle, width: float
) -> Table:
    widths = [0.45 * inch, 0, 0.5 * inch, 0.45 * inch, 0.55 * inch]
    widths[1] = width - sum(widths)
    rows: list[list[Any]] = [
        [
            rank_label(line),
            top_name(line, fonts, cell, widths[1] - 6),
            str(line.total),
            str(line.wins),
            signed(line.margin),
        ]
        for line in lines
    ]
    header = [st.head(_(w)) for w in ("Rank", "Player", "Total", "Wins", "Margin")]
    return st.ranking_table(header, rows, widths, fonts, kind=Table)


def build(results: FinalResults, paper: str = st.DEFAULT_PAPER) -> bytes:
    names = [
        results.event,
        *(n for names in results.pairs.values() for n in names),
        *(line.name for lines in results.top.values() for line in lines),
    ]
    fonts = st.fonts_for(names)
    s = st.styles(fonts)
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        **st.page_setup(paper, _("%(event)s: final results", event=results.event)),
    )
    width = doc.width
    champion_style = ParagraphStyle(
        "champions", parent=s.title, fontSize=24, leading=30, alignment=1
    )
    printed = st.printed(results.printed_at)
    story: list[Any] = [
        Paragraph(st.escape(results.event), s.title),
        Paragraph(
            st.escape(_("%(status)s · printed %(at)s", status=results.status, at=printed)),
            s.subtitle,
        ),
        Paragraph(st.escape(_("Champions")), s.heading),
    ]
    if results.champions is not None:
        story += [
            Paragraph(st.escape(pair(results, results.champions)), champion_style),
            *st.stacked(
                _(
                    "The division %(division)s pair won the final %(won)s–%(lost)s in games.",
                    division=DIVISION_OF_TEAM[results.champions],
                    won=results.wins[results.champions],
                    lost=results.wins[results.champions.other],
                ),
                s.body,
            ),
        ]
    else:
        story.append(Paragraph(st.escape(_("Not yet decided.")), s.body))

    story.append(Paragraph(st.escape(_("The final")), s.heading))
    if results.pairs:
        side = 0.85 * inch
        team_width = width / 2 - side - 6

        def team_head(label: str, team: Team) -> str:
            # The team's name in each language, then its pair once.
            return st.head(label) + "\n" + st.fit(pair(results, team), fonts.bold, 10, team_width)

        rows: list[list[Any]] = [
            [
                st.head(_("Game")),
                team_head(_("Team NS (A)"), Team.NS),
                team_head(_("Team EW (B)"), Team.EW),
                st.head(_("Won by")),
            ]
        ]
        for game in results.games:
            rows.append(
                [
                    str(game.number),
                    str(game.score_ns),
                    str(game.score_ew),
                    bilingual.team(game.winner.value) if game.winner else st.head(game.status),
                ]
            )
        rows.append(
            [st.head(_("Games")), str(results.wins[Team.NS]), str(results.wins[Team.EW]), ""]
        )
        story.append(
            Table(
                rows,
                colWidths=[side, width / 2 - side, width / 2 - side, side],
                style=st.table_style(zebra=False, fonts=fonts)
                + [
                    ("FONTNAME", (0, -1), (-1, -1), fonts.bold),
                    ("LINEABOVE", (0, -1), (-1, -1), 0.8, st.INK),
                    ("FONTSIZE", (0, 0), (-1, -1), 10),
                    ("LEADING", (0, 0), (-1, -1), 12),
                    ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                    ("INNERGRID", (0, 0), (-1, -1), 0.4, st.RULE),
                ],
            )
        )
    else:
        story.append(Paragraph(st.escape(_("The final is not seated yet.")), s.body))

    if results.skipped:
        story.append(Spacer(1, 4))
    for why in results.skipped:
        story.append(Paragraph(st.escape(_("Skipped for the final: %(why)s", why=why)), s.body))
    story.append(Paragraph(st.escape(_("Top of each division (preliminary rounds)")), s.heading))
    half = (width - 0.25 * inch) / 2
    story.append(
        Table(
            [
                [
                    Paragraph(f"<b>{st.escape(_('Division %(d)s', d=d))}</b>", s.body)
                    for d in ("A", "B")
                ],
                [top_table(results.top.get(d, ()), fonts, s.cell, half) for d in ("A", "B")],
            ],
            colWidths=[half + 0.125 * inch] * 2,
            style=[
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ],
        )
    )
    story += [
        Spacer(1, 6),
        *st.stacked(
            _(
                "Total = points over the preliminary rounds; equal totals are ordered by the "
                "event's tiebreak chain, † marking an order drawn by lot. = marks a shared "
                "rank. The final decides the champions and adds nothing to the totals."
            ),
            s.small,
        ),
    ]
    footer: str = _("%(event)s · final results · printed %(at)s", event=results.event, at=printed)
    if results.director_mark:
        footer = f"{results.director_mark} · {footer}"
    doc.build(story, canvasmaker=st.numbered_canvas(footer, fonts, stamp=results.director_mark))
    return out.getvalue()
