"""Tournaments: the list, creating one, its settings and its overview page."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

if TYPE_CHECKING:  # annotations only: the views read through reads
    from tournaments.core.models.event import Club

from tournaments.core.forms import PRESETS, TIEBREAK_LABELS, TournamentForm
from tournaments.core.reads import queries, staff
from tournaments.core.reads.console import readiness
from tournaments.core.reads.standings import champions
from tournaments.core.roles import DESK, DIRECTOR, allows, role_name
from tournaments.core.services import ServiceError
from tournaments.core.services.tournaments import (
    create_tournament,
    scoring_locked,
    update_tournament,
)
from tournaments.core.views.access import league_staff, staff_required
from tournaments.core.views.director.common import (
    director_required,
    sheet_links,
    tiebreak_words,
    tournament_or_404,
    who,
)


@staff_required
def home(request: HttpRequest) -> HttpResponse:
    tournaments = list(staff.events_of(request.user).select_related("club"))
    for t in tournaments:
        t.directs = allows(t.staff_role, DIRECTOR)  # type: ignore[attr-defined]
    clubs = staff.clubs_of(request.user, DESK)
    for club in clubs:
        club.role_name = role_name(getattr(club, "staff_role", None))  # type: ignore[attr-defined]
    context = {
        "tournaments": tournaments,
        "clubs": clubs,
        "creating_clubs": [c for c in clubs if allows(getattr(c, "staff_role", None), DIRECTOR)],
        "several_clubs": len({t.club_id for t in tournaments} | {c.pk for c in clubs}) > 1,
    }
    return render(request, "director/home.html", context)


def creating_club(request: HttpRequest) -> Club:
    """The club a new event or series goes into: the one named (``club``, among the
    user's), else the user's first club."""
    named = request.POST.get("club") or request.GET.get("club")
    clubs = staff.clubs_of(request.user, DIRECTOR)
    if not named:
        return clubs[0]
    found = next((c for c in clubs if c.slug == named), None)
    if found is None:
        raise Http404("No such club.")
    return found


@league_staff(DIRECTOR)
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    club = creating_club(request)
    form = TournamentForm(
        request.POST or None, initial=TournamentForm.initial_for(None), creating=True
    )
    if request.method == "POST":
        if form.is_valid():
            try:
                t = create_tournament(
                    form.cleaned_data["name"],
                    rules=form.rules,
                    by=who(request),
                    club=club,
                    rehearsal=form.cleaned_data["rehearsal"],
                    language=form.cleaned_data["language"],
                    bilingual_sheets=form.cleaned_data["bilingual_sheets"],
                    occasion=form.occasion,
                    paper=form.cleaned_data["paper"],
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Created %(name)s.") % {"name": t.name})
                return redirect("director:players", t.slug)
        return render(
            request,
            "director/settings.html",
            {"form": form, "creating": True, "club": club, **_setup_texts()},
            status=422,
        )
    return render(
        request,
        "director/settings.html",
        {"form": form, "creating": True, "club": club, **_setup_texts()},
    )


def _setup_texts() -> dict[str, str]:
    """What the set-up page's script reads: the presets' values and the tiebreaks' names."""
    return {
        "presets_json": json.dumps(PRESETS),
        "tiebreak_labels_json": json.dumps({k: str(v) for k, v in TIEBREAK_LABELS.items()}),
    }


@director_required
@require_http_methods(["GET", "POST"])
def settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    form = TournamentForm(
        request.POST or None, initial=TournamentForm.initial_for(t), locked=scoring_locked(t)
    )
    context = {
        "form": form,
        "tournament": t,
        "creating": False,
        "play_started": queries.play_started(t),
        **_setup_texts(),
    }
    if request.method == "POST":
        if form.is_valid():
            try:
                update_tournament(
                    t,
                    name=form.cleaned_data["name"],
                    rules=form.rules,
                    by=who(request),
                    language=form.cleaned_data["language"],
                    # Unticked posts nothing: only a form that showed the box decides.
                    bilingual_sheets=form.cleaned_data["bilingual_sheets"]
                    if "language" in request.POST
                    else None,
                    # A post without the fields (an old form, a script) keeps them.
                    occasion=form.occasion if "venue" in request.POST else None,
                    # A post without the field keeps the event's paper.
                    paper=form.cleaned_data["paper"] if "paper" in request.POST else "",
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
    t = tournament_or_404(request, slug)
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


@director_required
def guide(request: HttpRequest, slug: str) -> HttpResponse:
    """Running your first event: a one-page checklist whose every step links to where it
    is done for this event (its current round and first table where a step needs one)."""
    t = tournament_or_404(request, slug)
    rounds = queries.rounds_of(t)
    current = rounds[-1] if rounds else None
    return render(
        request,
        "director/guide.html",
        {"tournament": t, "current": current, "drawn": current is not None},
    )
