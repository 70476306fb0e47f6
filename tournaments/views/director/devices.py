"""The devices on the tables (issue 23): re-issuing a table's code."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ...services import NotFound, table_codes
from .common import director_required, round_or_404, tournament_or_404, who

MAX_TABLE = 2**31 - 1


@director_required
@require_POST
def table_code(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A new code for the table: the old one opens nothing any more, on any device."""
    rnd = round_or_404(tournament_or_404(slug), number)
    if not 1 <= table <= MAX_TABLE:
        raise Http404("No such table.")
    try:
        code = table_codes.reissue_code(rnd.tournament, table, by=who(request))
    except NotFound as exc:
        raise Http404(exc.message) from None
    messages.success(
        request,
        f"Table {table}: new table code {table_codes.shown(code)}; the old code opens nothing.",
    )
    return redirect("director:table", slug, number, table)
