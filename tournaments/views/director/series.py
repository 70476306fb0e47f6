"""Series (standings, CSV, PDF, adding events, importing past events) and people pages."""

from __future__ import annotations

from io import BytesIO

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from ...domain.rating import RatingSettings
from ...models import Person, PersonProposal, Series, Tournament
from ...pdf import series as series_pdf
from ...pdf.styles import DEFAULT_PAPER, PAPERS
from ...services import ServiceError
from ...services import people as people_service
from ...services import series as series_service
from ...services.results_import import import_results
from .common import director_required, who

MAX_FILE = 20 * 1024 * 1024


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120)
    points_table = forms.ChoiceField(choices=Series.Table.choices, initial=Series.Table.PLACE)
    place_points = forms.CharField(
        max_length=200,
        initial="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1",
        help_text="For 1st, 2nd, … in the division; later places score the last number.",
    )
    participation_points = forms.IntegerField(min_value=0, max_value=1000, initial=10)
    best_of = forms.IntegerField(
        min_value=1, max_value=1000, required=False, help_text="Empty counts every event."
    )


class ResultsFileForm(forms.Form):
    file = forms.FileField(label="snowman.results/1 file (.json)")


class AddEventForm(forms.Form):
    tournament = forms.ModelChoiceField(queryset=Tournament.objects.none())


@director_required
@require_http_methods(["GET", "POST"])
def series_list(request: HttpRequest) -> HttpResponse:
    form = SeriesForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                series = series_service.create_series(**form.cleaned_data)
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("league:series", series.slug)
        status = 422
    rows = Series.objects.annotate(event_count=Count("events"))
    return render(
        request, "director/series/list.html", {"form": form, "series_list": rows}, status=status
    )


def _detail(request: HttpRequest, series: Series, **extra: object) -> HttpResponse:
    table = series_service.series_table(series)
    add = AddEventForm()
    add.fields["tournament"].queryset = Tournament.objects.exclude(
        pk__in=[t.pk for t in table.events]
    ).order_by("-created_at")
    context = {
        "series": series,
        "table": table,
        "shared": table.shared_ranks(),
        "rule": series_service.describe(series),
        "add_form": add,
        "file_form": ResultsFileForm(),
        **extra,
    }
    return render(
        request, "director/series/detail.html", context, status=int(extra.get("status", 200))
    )


@director_required
def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return _detail(request, get_object_or_404(Series, slug=slug))


@director_required
@require_POST
def series_add(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    form = AddEventForm(request.POST)
    form.fields["tournament"].queryset = Tournament.objects.all()
    if not form.is_valid():
        return _detail(request, series, add_error="Choose a tournament to add.", status=422)
    t = form.cleaned_data["tournament"]
    if series_service.add_event(series, t):
        messages.success(request, f"{t.name} is now part of {series.name}.")
    return redirect("league:series", series.slug)


@director_required
@require_POST
def series_remove(request: HttpRequest, slug: str, tslug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    t = get_object_or_404(Tournament, slug=tslug)
    series_service.remove_event(series, t)
    messages.success(request, f"{t.name} no longer counts for {series.name}.")
    return redirect("league:series", series.slug)


@director_required
@require_POST
def series_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Import a past event and add it to this series, or refuse it whole with where it is wrong."""
    series = get_object_or_404(Series, slug=slug)
    form = ResultsFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return _detail(request, series, import_error="Choose a results file.", status=422)
    upload = form.cleaned_data["file"]
    if upload.size > MAX_FILE:
        return _detail(request, series, import_error="The file is larger than 20 MB.", status=422)
    try:
        outcome = import_results(upload.read(), by=who(request), filename=upload.name)
    except ServiceError as exc:
        return _detail(
            request, series, import_error=f"Nothing was imported. {exc.message}", status=422
        )
    series_service.add_event(series, outcome.tournament)
    if outcome.created:
        people_service.recompute_ratings()
        note = (
            f" {outcome.proposals} close name match{'es' if outcome.proposals != 1 else ''} "
            "to review on the People page."
            if outcome.proposals
            else ""
        )
        messages.success(
            request,
            f"Imported {outcome.tournament.name}: {outcome.players} players, "
            f"{outcome.matches} matches.{note}",
        )
    else:
        messages.info(
            request, f"{upload.name} was imported before ({outcome.tournament.name}); no change."
        )
    return redirect("league:series", series.slug)


@director_required
def series_csv(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    text = series_service.series_csv(series_service.series_table(series))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-standings.csv"'
    return response


@director_required
def series_pdf_view(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    paper = request.GET.get("paper", DEFAULT_PAPER)
    if paper not in PAPERS:
        paper = DEFAULT_PAPER
    data = series_pdf.build(series_service.series_table(series), paper)
    return FileResponse(
        BytesIO(data),
        content_type="application/pdf",
        filename=f"{series.slug}-standings-{paper}.pdf",
        as_attachment=False,
    )


# --- People ---------------------------------------------------------------------------


@director_required
def people(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip()
    rows = Person.objects.filter(merged_into__isnull=True).annotate(events=Count("links"))
    for word in q.split():
        rows = rows.filter(name__icontains=word)
    page = Paginator(rows.order_by("name", "id"), 100).get_page(request.GET.get("page"))
    proposals = (
        PersonProposal.objects.filter(status=PersonProposal.Status.OPEN)
        .select_related("person", "candidate")
        .annotate(
            person_events=Count("person__links", distinct=True),
        )
        .order_by("-score", "id")[:50]
    )
    open_count = PersonProposal.objects.filter(status=PersonProposal.Status.OPEN).count()
    return render(
        request,
        "director/people/list.html",
        {"page": page, "q": q, "proposals": proposals, "open_count": open_count},
    )


class MergeForm(forms.Form):
    other = forms.IntegerField(label="Person number to merge into this one", min_value=1)
    reason = forms.CharField(max_length=500)


class SplitForm(forms.Form):
    name = forms.CharField(max_length=80, label="Name of the new person")
    reason = forms.CharField(max_length=500)


def _person(request: HttpRequest, person: Person, status: int = 200, **extra: object):
    page = people_service.person_page(person)
    context = {
        "person": person,
        "page": page,
        "rating": people_service.rating_of(person),
        "start": RatingSettings(),
        "history": person.history.select_related("other")[:50],
        "proposals": PersonProposal.objects.filter(
            Q(person=person) | Q(candidate=person), status=PersonProposal.Status.OPEN
        ).select_related("person", "candidate"),
        "merge_form": extra.pop("merge_form", MergeForm()),
        "split_form": extra.pop("split_form", SplitForm()),
        **extra,
    }
    return render(request, "director/people/person.html", context, status=status)


@director_required
def person(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Person, pk=pk)
    if found.merged_into_id:
        messages.info(request, f"{found.name} (#{found.pk}) was merged into this person.")
        return redirect("league:person", found.merged_into_id)
    return _person(request, found)


@director_required
@require_POST
def person_merge(request: HttpRequest, pk: int) -> HttpResponse:
    keep = get_object_or_404(Person, pk=pk)
    form = MergeForm(request.POST)
    if form.is_valid():
        gone = Person.objects.filter(pk=form.cleaned_data["other"]).first()
        if gone is None:
            form.add_error("other", "There is no person with this number.")
        else:
            try:
                people_service.merge_people(
                    keep, gone, by=who(request), reason=form.cleaned_data["reason"]
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, f"Merged {gone.name} into {keep.name}.")
                return redirect("league:person", keep.pk)
    return _person(request, keep, status=422, merge_form=form)


@director_required
@require_POST
def person_split(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Person, pk=pk)
    form = SplitForm(request.POST)
    if form.is_valid():
        try:
            ids = [int(v) for v in request.POST.getlist("players")]
            new = people_service.split_person(
                found,
                ids,
                name=form.cleaned_data["name"],
                by=who(request),
                reason=form.cleaned_data["reason"],
            )
        except ValueError:
            form.add_error(None, "Choose the events to split off.")
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Split off {new.name} (#{new.pk}).")
            return redirect("league:person", found.pk)
    return _person(request, found, status=422, split_form=form)


@director_required
@require_POST
def proposal_decide(request: HttpRequest, pk: int) -> HttpResponse:
    proposal = get_object_or_404(
        PersonProposal.objects.select_related("person", "candidate"), pk=pk
    )
    accept = request.POST.get("decision") == "accept"
    try:
        people_service.decide_proposal(proposal, accept, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        verb = "Merged" if accept else "Kept apart"
        messages.success(request, f"{verb}: {proposal.person.name} and {proposal.candidate.name}.")
    back = request.POST.get("next", "")
    if back.startswith("/director/"):
        return redirect(back)
    return redirect("league:people")


@director_required
@require_POST
def ratings_recompute(request: HttpRequest) -> HttpResponse:
    count = people_service.recompute_ratings()
    messages.success(request, f"Ratings recomputed from {count} matches.")
    return redirect("league:people")


def _share(request: HttpRequest) -> int:
    try:
        share = int(request.POST.get("share") or request.GET.get("share") or 50)
    except ValueError:
        share = 50
    return min(max(share, 0), 100)


@director_required
@require_http_methods(["GET", "POST"])
def suggest(request: HttpRequest, slug: str) -> HttpResponse:
    """Divisions suggested by the ratings: the stronger share in A, at the director's split."""
    t = get_object_or_404(Tournament, slug=slug)
    share = _share(request)
    status = 200
    if request.method == "POST":
        try:
            moved = people_service.apply_suggestions(t, share / 100, by=who(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 422
        else:
            messages.success(request, f"Moved {moved} player{'s' if moved != 1 else ''}.")
            return redirect(f"{request.path}?share={share}")
    rows = people_service.division_suggestions(t, share / 100)
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
            "drawn": t.rounds.exists(),
        },
        status=status,
    )
