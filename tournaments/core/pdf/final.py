"""Final results: the champions, the final's games and the top of each division."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table

from tournaments.common import bilingual
from tournaments.common.bilingual import tr as _
from tournaments.core.pdf import styles
from tournaments.core.pdf.standings import rank_label, signed
from tournaments.core.reads.sheets import FinalResults, StandingLine
from tournaments.core.reads.standings import withdrawn_text
from tournaments.domain.final import DIVISION_OF_TEAM
from tournaments.domain.hands import Team


def pair(results: FinalResults, team: Team) -> str:
    names = results.pairs.get(team)
    return " & ".join(names) if names else _("to be decided")


def top_name(line: StandingLine, fonts: styles.Fonts, cell: ParagraphStyle, width: float) -> Any:
    """The name, and for a withdrawn leader the mark that says why they are not in the
    final (§4), wrapped under the name rather than cut."""
    if not line.withdrawn:
        return styles.Shrunk(line.name, fonts.regular, 9)
    return Paragraph(styles.escape(f"{line.name} ({withdrawn_text(line.withdrawn_after)})"), cell)


def top_table(
    lines: tuple[StandingLine, ...], fonts: styles.Fonts, cell: ParagraphStyle, width: float
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
    header = [styles.head(_(w)) for w in ("Rank", "Player", "Total", "Wins", "Margin")]
    return styles.ranking_table(header, rows, widths, fonts, kind=Table)


def _champions(results: FinalResults, s: styles.Styles) -> list[Any]:
    """The champions' pair and the final's score in games, or that it is not decided."""
    if results.champions is None:
        return [Paragraph(styles.escape(_("Not yet decided.")), s.body)]
    champion_style = ParagraphStyle(
        "champions", parent=s.title, fontSize=24, leading=30, alignment=1
    )
    return [
        Paragraph(styles.escape(pair(results, results.champions)), champion_style),
        *styles.stacked(
            _(
                "The division %(division)s pair won the final %(won)s–%(lost)s in games.",
                division=DIVISION_OF_TEAM[results.champions],
                won=results.wins[results.champions],
                lost=results.wins[results.champions.other],
            ),
            s.body,
        ),
    ]


def _games_table(results: FinalResults, fonts: styles.Fonts, width: float) -> Table:
    """The final's games, each team headed by its pair, with the games won at the foot."""
    side = 0.85 * inch
    team_width = width / 2 - side - 6

    def team_head(label: str, team: Team) -> str:
        # The team's name in each language, then its pair once.
        return (
            styles.head(label) + "\n" + styles.fit(pair(results, team), fonts.bold, 10, team_width)
        )

    rows: list[list[Any]] = [
        [
            styles.head(_("Game")),
            team_head(_("Team NS (A)"), Team.NS),
            team_head(_("Team EW (B)"), Team.EW),
            styles.head(_("Won by")),
        ]
    ]
    for game in results.games:
        rows.append(
            [
                str(game.number),
                str(game.score_ns),
                str(game.score_ew),
                bilingual.team(game.winner.value) if game.winner else styles.head(game.status),
            ]
        )
    rows.append(
        [styles.head(_("Games")), str(results.wins[Team.NS]), str(results.wins[Team.EW]), ""]
    )
    return Table(
        rows,
        colWidths=[side, width / 2 - side, width / 2 - side, side],
        style=styles.table_style(zebra=False, fonts=fonts)
        + [
            ("FONTNAME", (0, -1), (-1, -1), fonts.bold),
            ("LINEABOVE", (0, -1), (-1, -1), 0.8, styles.INK),
            ("FONTSIZE", (0, 0), (-1, -1), 10),
            ("LEADING", (0, 0), (-1, -1), 12),
            ("ALIGN", (0, 0), (-1, -1), "CENTER"),
            ("INNERGRID", (0, 0), (-1, -1), 0.4, styles.RULE),
        ],
    )


def _division_tops(
    results: FinalResults, fonts: styles.Fonts, s: styles.Styles, width: float
) -> Table:
    """The top of division A beside the top of division B."""
    half = (width - 0.25 * inch) / 2
    return Table(
        [
            [
                Paragraph(f"<b>{styles.escape(_('Division %(d)s', d=d))}</b>", s.body)
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


def build(results: FinalResults, paper: str = styles.DEFAULT_PAPER) -> bytes:
    names = [
        results.event,
        *(n for names in results.pairs.values() for n in names),
        *(line.name for lines in results.top.values() for line in lines),
    ]
    fonts = styles.fonts_for(names)
    s = styles.styles(fonts)
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        **styles.page_setup(paper, _("%(event)s: final results", event=results.event)),
    )
    width = doc.width
    printed = styles.printed(results.printed_at)
    story: list[Any] = [
        Paragraph(styles.escape(results.event), s.title),
        Paragraph(
            styles.escape(_("%(status)s · printed %(at)s", status=results.status, at=printed)),
            s.subtitle,
        ),
        Paragraph(styles.escape(_("Champions")), s.heading),
        *_champions(results, s),
        Paragraph(styles.escape(_("The final")), s.heading),
    ]
    if results.pairs:
        story.append(_games_table(results, fonts, width))
    else:
        story.append(Paragraph(styles.escape(_("The final is not seated yet.")), s.body))

    if results.skipped:
        story.append(Spacer(1, 4))
    for why in results.skipped:
        story.append(Paragraph(styles.escape(_("Skipped for the final: %(why)s", why=why)), s.body))
    story += [
        Paragraph(styles.escape(_("Top of each division (preliminary rounds)")), s.heading),
        _division_tops(results, fonts, s, width),
        Spacer(1, 6),
        *styles.stacked(
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
    doc.build(story, canvasmaker=styles.numbered_canvas(footer, fonts, stamp=results.director_mark))
    return out.getvalue()
