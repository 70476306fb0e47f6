"""The printed sheets as PDF downloads for the director (staff login).

Each view checks its arguments, asks ``reads.sheets`` for the rows and hands them to
a ``tournaments.pdf`` builder. Every sheet takes ``?paper=letter|a4`` and
``?lang=en|fr|both`` (the director chooses per sheet; without it a sheet is in
the reader's language, or in both when the event prints bilingual sheets).
"""

from __future__ import annotations

from io import BytesIO
from typing import TYPE_CHECKING

from django.core.exceptions import BadRequest
from django.http import FileResponse, Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common import bilingual
from tournaments.common.hall import absolute_url
from tournaments.common.ids import parse_id
from tournaments.core.pdf import final, scoresheets, seating, standings, table_cards, table_tents
from tournaments.core.pdf.styles import DEFAULT_PAPER, PAPERS
from tournaments.core.reads import queries, sheets
from tournaments.core.views.director.common import (
    desk_required,
    director_required,
    round_or_404,
    tournament_or_404,
)

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.event import Tournament
    from tournaments.core.models.rounds import Round

# Round numbers are smallints and tables 32-bit: anything larger cannot exist, and
# PostgreSQL would refuse the lookup with an error instead of finding nothing.
MAX_ROUND = 32767
MAX_TABLE = 2**31 - 1


def paper_of(request: HttpRequest, tournament: Tournament | None = None) -> str:
    """The paper the print names (?paper=), else the event's own, else letter."""
    default = tournament.paper if tournament is not None else DEFAULT_PAPER
    paper = request.GET.get("paper", default).lower()
    if paper not in PAPERS:
        raise BadRequest(f"Unknown paper {paper!r}: use {' or '.join(PAPERS)}.")
    return paper


def sheet_languages(request: HttpRequest, tournament: Tournament) -> tuple[str, ...]:
    choice = request.GET.get("lang")
    if choice is not None and choice not in (*bilingual.CODES, bilingual.BOTH):
        raise BadRequest(
            _("Unknown language %(lang)r: use %(codes)s.")
            % {"lang": choice, "codes": ", ".join((*bilingual.CODES, bilingual.BOTH))}
        )
    return bilingual.sheet_languages(choice, tournament.language, tournament.bilingual_sheets)


def _round(tournament: Tournament, number: int) -> Round:
    if number > MAX_ROUND:
        raise Http404("No such round.")
    return round_or_404(tournament, number)


def pdf_response(data: bytes, filename: str) -> FileResponse:
    # Inline: the director previews in the browser and prints from there.
    return FileResponse(
        BytesIO(data), content_type="application/pdf", filename=filename, as_attachment=False
    )


# The standings sheet's copies (§5): the wall's, what players may see; the director's,
# every figure, marked "not for posting" while the standings are hidden.
COPIES = ("wall", "director")


def _standings_response(
    request: HttpRequest, slug: str, divisions: tuple[str, ...]
) -> FileResponse:
    """The standings sheet of these divisions, one after the other in one document."""
    copy = request.GET.get("copy", "wall")
    if copy not in COPIES:
        raise BadRequest(
            _("Unknown copy %(copy)r: use %(copies)s.")
            % {"copy": copy, "copies": " or ".join(COPIES)}
        )
    tournament = tournament_or_404(request, slug)
    paper = paper_of(request, tournament)
    director_copy = copy == "director"
    now = timezone.now()
    with bilingual.languages(sheet_languages(request, tournament)):
        data = standings.build_many(
            [
                sheets.standings_sheet(tournament, d, now, director_copy=director_copy)
                for d in divisions
            ],
            paper,
        )
    suffix = "-director" if director_copy else ""
    return pdf_response(data, f"{slug}-standings-{'-'.join(divisions)}{suffix}-{paper}.pdf")


@director_required
def standings_pdf(request: HttpRequest, slug: str, division: str) -> FileResponse:
    division = division.upper()
    if division not in queries.DIVISIONS:
        raise Http404("Divisions are A and B.")
    return _standings_response(request, slug, (division,))


@director_required
def standings_both(request: HttpRequest, slug: str) -> FileResponse:
    """Both divisions in one print job: A, then B from a new page."""
    return _standings_response(request, slug, queries.DIVISIONS)


@desk_required
def seating_pdf(request: HttpRequest, slug: str, number: int) -> FileResponse:
    tournament = tournament_or_404(request, slug)
    paper = paper_of(request, tournament)
    rnd = _round(tournament, number)
    with bilingual.languages(sheet_languages(request, tournament)):
        sheet = sheets.seating_sheet(rnd, timezone.now())
        data = seating.build(sheet, paper, players_url=_players_url(request, slug))
    return pdf_response(data, f"{slug}-seating-round-{number}-{paper}.pdf")


@director_required
def table_cards_pdf(request: HttpRequest, slug: str) -> FileResponse:
    tournament = tournament_or_404(request, slug)
    paper = paper_of(request, tournament)

    def link(token: str) -> str:
        return absolute_url(request, reverse("tablet:link", args=[token]))

    with bilingual.languages(sheet_languages(request, tournament)):
        cards = sheets.table_cards(tournament, link, timezone.now())
        if cards is None:
            raise Http404("No tables are seated yet: draw round 1 first.")
        data = table_cards.build(cards, paper, players_url=_players_url(request, slug))
    return pdf_response(data, f"{slug}-table-cards-{paper}.pdf")


@director_required
def table_tents_pdf(request: HttpRequest, slug: str) -> FileResponse:
    """The permanent table tents (number, QR, code; no names): printed once an event."""
    tournament = tournament_or_404(request, slug)
    paper = paper_of(request, tournament)

    def link(token: str) -> str:
        return absolute_url(request, reverse("tablet:link", args=[token]))

    with bilingual.languages(sheet_languages(request, tournament)):
        cards = sheets.table_cards(tournament, link, timezone.now())
        if cards is None:
            raise Http404("No tables are seated yet: draw round 1 first.")
        data = table_tents.build(cards, paper)
    return pdf_response(data, f"{slug}-table-tents-{paper}.pdf")


def _players_url(request: HttpRequest, slug: str) -> str:
    """The players' event page, printed as a QR code on the seating sheet and cards."""
    return absolute_url(request, reverse("public:event", args=[slug]))


@desk_required
def scoresheets_pdf(request: HttpRequest, slug: str, number: int) -> FileResponse:
    """All the round's tables, or one with ``?table=N`` when a single tablet dies."""
    tournament = tournament_or_404(request, slug)
    paper = paper_of(request, tournament)
    rnd = _round(tournament, number)
    languages = sheet_languages(request, tournament)
    table: int | None = None
    if request.GET.get("table"):
        raw = request.GET["table"]
        table = parse_id(raw, high=MAX_TABLE)
        if table is None:
            raise BadRequest(f"Table must be a table number, not {raw!r}.")
    with bilingual.languages(languages):
        sheet = sheets.scoresheets(rnd, table, timezone.now())
        if table is not None and not sheet.sheets:
            raise Http404(f"No table {table} in {rnd}.")
        data = scoresheets.build(sheet, paper)
    suffix = f"-table-{table}" if table is not None else ""
    return pdf_response(data, f"{slug}-scoresheets-round-{number}{suffix}-{paper}.pdf")


@director_required
def final_pdf(request: HttpRequest, slug: str) -> FileResponse:
    tournament = tournament_or_404(request, slug)
    paper = paper_of(request, tournament)
    with bilingual.languages(sheet_languages(request, tournament)):
        results = sheets.final_results(tournament, now=timezone.now())
        data = final.build(results, paper)
    return pdf_response(data, f"{slug}-final-results-{paper}.pdf")
