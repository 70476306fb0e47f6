"""The record's pages: the person's own (by their private link) and the director's copy;
the choices for public pages; the file to take away; the owner's erasure."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments.common import csvcells
from tournaments.core.reads import queries, staff
from tournaments.core.roles import DIRECTOR, OWNER
from tournaments.core.services import ServiceError
from tournaments.core.views.access import league_staff
from tournaments.core.views.director.common import who
from tournaments.records import export, services
from tournaments.records.forms import ChoiceForm, EraseForm, FilterForm
from tournaments.records.reads import Filter, owner_of, record, season_of
from tournaments.registration.reads import pass_of

if TYPE_CHECKING:  # annotations only: the views read through the reads
    from tournaments.core.models.people import Person


def _owner(slug: str, token: str) -> tuple[Person | None, str]:
    """The person of a private link (None: not in any event's results yet) and the event's
    name; a forged, revoked or other event's link is 404."""
    try:
        found = pass_of(token)
    except ServiceError:
        raise Http404("No such link.") from None
    if found.registration.tournament.slug != slug:
        raise Http404("No such link.")
    return owner_of(found), found.registration.tournament.name


def _person_or_404(request: HttpRequest, pk: int) -> Person:
    found = queries.find_person(pk, request.club_ids)  # type: ignore[attr-defined]
    if found is None or found.merged_into_id is not None:
        raise Http404("No such person.")
    return found


def _page(
    request: HttpRequest,
    person: Person | None,
    *,
    links: dict[str, str],
    director: bool = False,
    choice: ChoiceForm | None = None,
    erase_form: EraseForm | None = None,
    status: int = 200,
    refusal: str = "",
) -> HttpResponse:
    query = FilterForm(request.GET or None)
    flt, with_person, error = Filter(), None, refusal
    if person is not None and request.GET:
        if query.is_valid():
            data = query.cleaned_data
            season = None
            if data["season"] is not None:
                season = season_of(person, data["season"])
                if season is None:
                    error = _("There is no such season.")
            flt = Filter(season, data["since"], data["until"])
            with_person = data["with_person"]
        else:
            error = " ".join(str(e) for errors in query.errors.values() for e in errors)
            status = 422
    mine = record(person, flt, with_person=with_person) if person is not None else None
    if mine is not None and with_person is not None and mine.head_to_head is None:
        error = _("Head-to-head compares with someone you played with or against.")
    if person is not None and choice is None:
        choice = ChoiceForm(
            initial={"full_name": person.public_full_name, "listed": person.public_listed}
        )
    context = {
        "person": person,
        "record": mine,
        "query": query,
        "error": error,
        "choice": choice,
        "erase_form": erase_form or (EraseForm() if director else None),
        "director": director,
        "links": links,
        "erased": person is not None and services.is_erased(person),
    }
    return render(request, "public/record/record.html", context, status=status)


def _links(slug: str, token: str) -> dict[str, str]:
    base = ("record:" + name for name in ("page", "choose", "json", "csv"))
    return {name.split(":")[1]: reverse(name, args=[slug, token]) for name in base}


@never_cache
@require_GET
def page(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    person, _event = _owner(slug, token)
    return _page(request, person, links=_links(slug, token))


@never_cache
@require_POST
def choose(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    person, _event = _owner(slug, token)
    if person is None:
        raise Http404("No record yet.")
    form = ChoiceForm(request.POST)
    if not form.is_valid():
        return _page(request, person, links=_links(slug, token), choice=form, status=422)
    said = services.choose(
        person,
        full_name=form.cleaned_data["full_name"],
        listed=form.cleaned_data["listed"],
        by="the person's private link",
    )
    messages.success(request, _("Your choices are saved.") if said else _("Nothing changed."))
    return redirect("record:page", slug, token)


def _json(person: Person) -> HttpResponse:
    body = json.dumps(export.person_file(person), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="snowman-person-{person.pk}.json"'
    return response


def _csv(person: Person) -> HttpResponse:
    response, writer = csvcells.attachment(f"snowman-person-{person.pk}.csv")
    writer.writerows(export.person_csv_rows(export.person_file(person)))
    return response


@never_cache
@require_GET
def data_json(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    person, _event = _owner(slug, token)
    if person is None:
        raise Http404("No record yet.")
    return _json(person)


@never_cache
@require_GET
def data_csv(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    person, _event = _owner(slug, token)
    if person is None:
        raise Http404("No record yet.")
    return _csv(person)


def _director_links(pk: int) -> dict[str, str]:
    return {
        "page": reverse("records:person", args=[pk]),
        "json": reverse("records:json", args=[pk]),
        "csv": reverse("records:csv", args=[pk]),
        "erase": reverse("records:erase", args=[pk]),
    }


@league_staff(DIRECTOR)
def person(request: HttpRequest, pk: int) -> HttpResponse:
    found = _person_or_404(request, pk)
    return _page(request, found, links=_director_links(pk), director=True)


@league_staff(DIRECTOR)
def person_json(request: HttpRequest, pk: int) -> HttpResponse:
    return _json(_person_or_404(request, pk))


@league_staff(DIRECTOR)
def person_csv(request: HttpRequest, pk: int) -> HttpResponse:
    return _csv(_person_or_404(request, pk))


@league_staff(DIRECTOR)
def erase(request: HttpRequest, pk: int) -> HttpResponse:
    # Found among the clubs the user directs (another club's person is 404, as on every
    # page), then erased only by that club's owner.
    found = queries.find_person(pk, request.club_ids)  # type: ignore[attr-defined]
    if found is None:
        raise Http404("No such person.")
    if queries.find_person(pk, staff.club_ids(request.user, OWNER)) is None:
        raise PermissionDenied("Only the club's owner erases a person.")
    # Asked after who may: a GET tells a director who may not erase just that.
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = EraseForm(request.POST)
    links = _director_links(pk)
    if not form.is_valid():
        return _page(request, found, links=links, director=True, erase_form=form, status=422)
    try:
        services.erase(found, by=who(request))
    except ServiceError as exc:
        return _page(
            request, found, links=links, director=True, status=exc.status, refusal=exc.message
        )
    messages.success(request, _("The person's name and contact are erased; results kept."))
    return redirect("records:person", pk)
