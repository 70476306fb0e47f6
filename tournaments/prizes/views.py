"""The club-night prizes: the director's page, with the prizes they add."""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.common import bilingual
from tournaments.core.services import NotFound
from tournaments.core.views.director.common import (
    director_required,
    form_view,
    tournament_or_404,
    url_with_query,
    who,
)
from tournaments.core.views.sheets import paper_of, pdf_response, sheet_languages
from tournaments.prizes import pdf, services
from tournaments.prizes.forms import PrizeForm
from tournaments.prizes.reads import event_prizes


@director_required
@require_http_methods(["GET", "POST"])
def page(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    form = PrizeForm(request.POST or None)

    def show(status: int = 200) -> HttpResponse:
        sheet = event_prizes(t, timezone.now())
        return render(
            request,
            "director/prizes.html",
            {
                "tournament": t,
                "sheet": sheet,
                "form": form,
                "pdf": [
                    (p, url_with_query("sheets:prizes", t.slug, query=f"paper={p}"))
                    for p in (t.paper,)
                ],
            },
            status=status,
        )

    if request.method == "GET":
        return show()

    def act() -> HttpResponse:
        d = form.cleaned_data
        services.define_prize(
            t,
            name=d["name"],
            figure=d["figure"],
            highest=d["highest"],
            division=d["division"],
            by=who(request),
        )
        messages.success(request, _("Prize added."))
        return redirect("director:prizes", slug)

    return form_view(form, act, lambda: show(422))


@director_required
@require_POST
def remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = tournament_or_404(request, slug)
    try:
        services.remove_prize(t, pk, by=who(request))
    except NotFound as exc:
        raise Http404(exc.message) from None
    messages.success(request, _("Prize removed."))
    return redirect("director:prizes", slug)


@director_required
def prizes_sheet(request: HttpRequest, slug: str) -> FileResponse:
    """Results, so the director's alone; it shows hidden standings, marked (§5)."""
    tournament = tournament_or_404(request, slug)
    paper = paper_of(request, tournament)
    with bilingual.languages(sheet_languages(request, tournament)):
        sheet = event_prizes(tournament, timezone.now())
        data = pdf.build(sheet, paper)
    return pdf_response(data, f"{slug}-prizes-{paper}.pdf")
