"""Series (standings, CSV, PDF, adding events, importing past events) and people pages."""

from __future__ import annotations

from io import BytesIO
from typing import TYPE_CHECKING

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.common import bilingual, csvcells
from tournaments.common.ids import parse_id, parse_ids
from tournaments.core.forms import IdField
from tournaments.core.pdf.styles import DEFAULT_PAPER, PAPERS
from tournaments.core.reads import queries
from tournaments.core.reads.people import division_suggestions, person_page, rating_of
from tournaments.core.roles import DIRECTOR
from tournaments.core.services import ServiceError, players
from tournaments.core.services.people import (
    decide_proposal,
    merge_people,
    recompute_ratings,
    split_person,
)
from tournaments.core.views.access import league_staff
from tournaments.core.views.director.common import (
    director_required,
    form_view,
    tournament_or_404,
    who,
)
from tournaments.core.views.director.events import creating_club
from tournaments.series import pdf, reads, services
from tournaments.series.forms import AddEventForm, SeriesForm
from tournaments.series.rehearsal import make_real, make_rehearsal
from tournaments.series.results_import import import_event

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.people import Person
    from tournaments.core.models.series import Series

MAX_FILE = 20 * 1024 * 1024


class ResultsFileForm(forms.Form):
    file = forms.FileField(label="snowman.results/1 file (.json)")


def series_or_404(request: HttpRequest, slug: str) -> Series:
    found = queries.find_series(slug, request.club_ids)  # type: ignore[attr-defined]
    if found is None:
        raise Http404("No such series.")
    return found


def _person_or_404(request: HttpRequest, pk: int) -> Person:
    found = queries.find_person(pk, request.club_ids)  # type: ignore[attr-defined]
    if found is None:
        raise Http404("No such person.")
    return found


@league_staff(DIRECTOR)
@require_http_methods(["GET", "POST"])
def series_list(request: HttpRequest) -> HttpResponse:
    form = SeriesForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                series = services.create_series(**form.cleaned_data, club=creating_club(request))
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("league:series", series.slug)
        status = 422
    rows = queries.series_with_counts(request.club_ids)  # type: ignore[attr-defined]
    return render(
        request, "director/series/list.html", {"form": form, "series_list": rows}, status=status
    )


def detail_page(
    request: HttpRequest, series: Series, *, status: int = 200, **extra: object
) -> HttpResponse:
    table = reads.series_table(series)
    add = AddEventForm(
        tournaments=queries.tournaments_outside((t.pk for t in table.events), series.club_id)
    )
    context = {
        "series": series,
        "table": table,
        "shared": table.shared_ranks(),
        "rule": reads.describe(series),
        "add_form": add,
        "file_form": ResultsFileForm(),
        **extra,
    }
    return render(request, "director/series/detail.html", context, status=status)


@league_staff(DIRECTOR)
def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return detail_page(request, series_or_404(request, slug))


@league_staff(DIRECTOR)
@require_POST
def series_add(request: HttpRequest, slug: str) -> HttpResponse:
    series = series_or_404(request, slug)
    # Only a real event of the series' own club can be chosen: another club's id, or a
    # rehearsal's, is no choice.
    form = AddEventForm(request.POST, tournaments=queries.counted_club_tournaments(series.club_id))
    if not form.is_valid():
        return detail_page(request, series, add_error="Choose a tournament to add.", status=422)
    t = form.cleaned_data["tournament"]
    if services.add_event(series, t):
        messages.success(
            request,
            _("%(event)s is now part of %(series)s.") % {"event": t.name, "series": series.name},
        )
    return redirect("league:series", series.slug)


@league_staff(DIRECTOR)
@require_POST
def series_remove(request: HttpRequest, slug: str, tslug: str) -> HttpResponse:
    series = series_or_404(request, slug)
    t = queries.find_club_tournament(tslug, series.club_id)
    if t is None:
        raise Http404("No such tournament in this series' club.")
    services.remove_event(series, t)
    messages.success(
        request,
        _("%(event)s no longer counts for %(series)s.") % {"event": t.name, "series": series.name},
    )
    return redirect("league:series", series.slug)


@league_staff(DIRECTOR)
@require_POST
def series_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Import a past event and add it to this series, or refuse it whole with where it is wrong."""
    series = series_or_404(request, slug)
    form = ResultsFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return detail_page(request, series, import_error="Choose a results file.", status=422)
    upload = form.cleaned_data["file"]
    if upload.size > MAX_FILE:
        return detail_page(
            request, series, import_error="The file is larger than 20 MB.", status=422
        )
    try:
        outcome = import_event(upload.read(), by=who(request), filename=upload.name, series=series)
    except ServiceError as exc:
        return detail_page(
            request, series, import_error=f"Nothing was imported. {exc.message}", status=422
        )
    if outcome.created:
        note = (
            " "
            + ngettext(
                "%(count)s close name match to review on the People page.",
                "%(count)s close name matches to review on the People page.",
                outcome.proposals,
            )
            % {"count": outcome.proposals}
            if outcome.proposals
            else ""
        )
        messages.success(
            request,
            _("Imported %(event)s: %(players)s players, %(matches)s matches.")
            % {
                "event": outcome.tournament.name,
                "players": outcome.players,
                "matches": outcome.matches,
            }
            + note,
        )
    else:
        messages.info(
            request,
            _("%(file)s was imported before (%(event)s); no change.")
            % {"file": upload.name, "event": outcome.tournament.name},
        )
    return redirect("league:series", series.slug)


@league_staff(DIRECTOR)
def series_csv(request: HttpRequest, slug: str) -> HttpResponse:
    series = series_or_404(request, slug)
    response, writer = csvcells.attachment(f"{series.slug}-standings.csv")
    writer.writerows(reads.series_csv_rows(reads.series_table(series)))
    return response


@league_staff(DIRECTOR)
def series_pdf_view(request: HttpRequest, slug: str) -> FileResponse:
    series = series_or_404(request, slug)
    paper = request.GET.get("paper", DEFAULT_PAPER)
    if paper not in PAPERS:
        paper = DEFAULT_PAPER
    # ?lang=en|fr|both, as the event's sheets; a series has no language of
    # its own, so without it the sheet reads in the director's.
    choice = request.GET.get("lang")
    if choice not in (*bilingual.CODES, bilingual.BOTH):
        choice = None
    with bilingual.languages(bilingual.sheet_languages(choice, settings.LANGUAGE_CODE, False)):
        data = pdf.build(reads.series_table(series), paper)
    return FileResponse(
        BytesIO(data),
        content_type="application/pdf",
        filename=f"{series.slug}-standings-{paper}.pdf",
        as_attachment=False,
    )


# --- People ---------------------------------------------------------------------------


@league_staff(DIRECTOR)
def people(request: HttpRequest) -> HttpResponse:
    return _people_page(request)


def _people_page(request: HttpRequest, status: int = 200) -> HttpResponse:
    q = request.GET.get("q", "").strip()
    clubs = request.club_ids  # type: ignore[attr-defined]
    page = Paginator(queries.people_list(q, clubs), 100).get_page(request.GET.get("page"))
    proposals = queries.open_proposals(50, clubs)
    open_count = queries.open_proposal_count(clubs)
    return render(
        request,
        "director/people/list.html",
        {"page": page, "q": q, "proposals": proposals, "open_count": open_count},
        status=status,
    )


class MergeForm(forms.Form):
    other = IdField(label=gettext_lazy("Person number to merge into this one"))
    reason = forms.CharField(max_length=500, label=gettext_lazy("Reason"))


class SplitForm(forms.Form):
    name = forms.CharField(max_length=80, label=gettext_lazy("Name of the new person"))
    reason = forms.CharField(max_length=500, label=gettext_lazy("Reason"))


def _person(
    request: HttpRequest, person: Person, status: int = 200, **extra: object
) -> HttpResponse:
    page = person_page(person)
    context = {
        "person": person,
        "page": page,
        "rating": rating_of(person),
        "start": queries.rating_start(),
        "history": queries.history_of(person, 50),
        "proposals": queries.proposals_of(person),
        "merge_form": extra.pop("merge_form", MergeForm()),
        "split_form": extra.pop("split_form", SplitForm()),
        **extra,
    }
    return render(request, "director/people/person.html", context, status=status)


@league_staff(DIRECTOR)
def person(request: HttpRequest, pk: int) -> HttpResponse:
    found = _person_or_404(request, pk)
    if found.merged_into_id:
        messages.info(
            request,
            _("%(name)s (#%(id)s) was merged into this person.")
            % {"name": found.name, "id": found.pk},
        )
        return redirect("league:person", found.merged_into_id)
    return _person(request, found)


@league_staff(DIRECTOR)
@require_POST
def person_merge(request: HttpRequest, pk: int) -> HttpResponse:
    keep = _person_or_404(request, pk)
    form = MergeForm(request.POST)

    def act() -> HttpResponse | None:
        # Merged only within the person's own club: another club's number is not found.
        gone = queries.find_person(form.cleaned_data["other"], [keep.club_id])
        if gone is None:
            form.add_error("other", "There is no person with this number.")
            return None
        merge_people(keep, gone, by=who(request), reason=form.cleaned_data["reason"])
        messages.success(
            request, _("Merged %(gone)s into %(keep)s.") % {"gone": gone.name, "keep": keep.name}
        )
        return redirect("league:person", keep.pk)

    return form_view(form, act, lambda: _person(request, keep, status=422, merge_form=form))


@league_staff(DIRECTOR)
@require_POST
def person_split(request: HttpRequest, pk: int) -> HttpResponse:
    found = _person_or_404(request, pk)
    form = SplitForm(request.POST)

    def act() -> HttpResponse | None:
        ids = parse_ids(request.POST.getlist("players"))
        if ids is None:
            form.add_error(None, "Choose the events to split off from the list.")
            return None
        new = split_person(
            found,
            ids,
            name=form.cleaned_data["name"],
            by=who(request),
            reason=form.cleaned_data["reason"],
        )
        messages.success(
            request, _("Split off %(name)s (#%(id)s).") % {"name": new.name, "id": new.pk}
        )
        return redirect("league:person", found.pk)

    return form_view(form, act, lambda: _person(request, found, status=422, split_form=form))


@league_staff(DIRECTOR)
@require_POST
def proposal_decide(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = queries.find_proposal(pk, request.club_ids)  # type: ignore[attr-defined]
    if proposal is None:
        raise Http404("No such proposal.")
    decision = request.POST.get("decision")
    if decision not in ("accept", "reject"):
        # A POST without a decision (a stale form, a script) decides nothing.
        messages.error(
            request, _("Choose “Same person: merge” or “Different people”: nothing was decided.")
        )
        return _people_page(request, status=422)
    accept = decision == "accept"
    try:
        decide_proposal(proposal, accept, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        names = {"first": proposal.person.name, "second": proposal.candidate.name}
        if accept:
            messages.success(request, _("Merged: %(first)s and %(second)s.") % names)
        else:
            messages.success(request, _("Kept apart: %(first)s and %(second)s.") % names)
    back = request.POST.get("next", "")
    if back.startswith("/director/"):
        return redirect(back)
    return redirect("league:people")


@league_staff(DIRECTOR)
@require_POST
def ratings_recompute(request: HttpRequest) -> HttpResponse:
    count = recompute_ratings()
    messages.success(request, _("Ratings recomputed from %(count)s matches.") % {"count": count})
    return redirect("league:people")


def _share(request: HttpRequest) -> int:
    given = request.POST.get("share") or request.GET.get("share")
    share = parse_id(given, low=0, high=100) if given else None
    return 50 if share is None else share


@director_required
@require_http_methods(["GET", "POST"])
def suggest(request: HttpRequest, slug: str) -> HttpResponse:
    """Divisions suggested by the ratings: the stronger share in A, at the director's split."""
    t = tournament_or_404(request, slug)
    share = _share(request)
    status = 200
    if request.method == "POST":
        try:
            moved = players.apply_suggestions(t, share / 100, by=who(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 422
        else:
            messages.success(
                request,
                ngettext("Moved %(count)s player.", "Moved %(count)s players.", moved)
                % {"count": moved},
            )
            return redirect(f"{request.path}?share={share}")
    rows = division_suggestions(t, share / 100)
    changes = sum(1 for r in rows if r.suggested and r.suggested != r.player.division)
    return render(
        request,
        "director/people/suggest.html",
        {
            "tournament": t,
            "rows": rows,
            "share": share,
            "changes": changes,
            "rated": sum(1 for r in rows if r.rating),
            "drawn": queries.has_rounds(t),
        },
        status=status,
    )


@director_required
@require_POST
def rehearsal(request: HttpRequest, slug: str) -> HttpResponse:
    """Turn a rehearsal into a real event, or back, under the service's rules."""
    t = tournament_or_404(request, slug)
    to = request.POST.get("to", "")
    if to not in ("real", "rehearsal"):
        messages.error(request, _("Choose a real event or a rehearsal."))
        return redirect("director:settings", t.slug)
    try:
        if to == "real":
            make_real(t, by=who(request))
        else:
            make_rehearsal(t, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        done = _("This is now a real event.") if to == "real" else _("This is now a rehearsal.")
        messages.success(request, done)
    return redirect("director:settings", t.slug)
