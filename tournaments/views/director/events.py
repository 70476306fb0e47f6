"""Tournaments: the list, creating one, its settings and its overview page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ...forms import TournamentForm
from ...reads import queries
from ...reads.console import readiness
from ...services import ServiceError
from ...services.standings import champions
from ...services.tournaments import create_tournament, scoring_locked, update_tournament
from .common import (
    desk_required,
    director_required,
    sheet_links,
    tiebreak_words,
    tournament_or_404,
    who,
)


@desk_required
def home(request: HttpRequest) -> HttpResponse:
    tournaments = queries.all_tournaments()
    return render(request, "director/home.html", {"tournaments": tournaments})


@director_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_for(None))
    if request.method == "POST":
        if form.is_valid():
            try:
                t = create_tournament(form.cleaned_data["name"], rules=form.rules, by=who(request))
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Created %(name)s.") % {"name": t.name})
                return redirect("director:players", t.slug)
        return render(
            request, "director/settings.html", {"form": form, "creating": True}, status=422
        )
    return render(request, "director/settings.html", {"form": form, "creating": True})


@director_required
@require_http_methods(["GET", "POST"])
def settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(slug)
    form = TournamentForm(
        request.POST or None, initial=TournamentForm.initial_for(t), locked=scoring_locked(t)
    )
    context = {"form": form, "tournament": t, "creating": False}
    if request.method == "POST":
        if form.is_valid():
            try:
                update_tournament(
                    t, name=form.cleaned_data["name"], rules=form.rules, by=who(request)
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Settings saved."))
                return redirect("director:tournament", t.slug)
        return render(request, "director/settings.html", context, status=422)
    return render(request, "director/settings.html", context)


@director_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(slug)
    rounds = queries.rounds_of(t)
    current = rounds[-1] if rounds else None
    prelim = [r for r in rounds if r.kind == queries.RoundKind.PRELIMINARY]
    return render(
        request,
        "director/overview.html",
        {
            "tournament": t,
            "rounds": rounds,
            "current": current,
            "ready": readiness(t) if not rounds else None,
            "all_seated": len(prelim) >= t.preliminary_rounds,
            "champions": champions(t) if t.status in ("final", "finished") else None,
            "sheets": sheet_links(t, current),
            "tiebreak_text": tiebreak_words(t.rules.tiebreaks, ", "),
        },
    )
