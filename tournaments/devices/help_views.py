"""Tables calling the director: the banner every director and desk
screen polls, the page with the log, and the director's two answers."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from tournaments.core.services import Conflict, ServiceError
from tournaments.core.views.director.common import (
    HtmxRequest,
    desk_required,
    director_required,
    is_director,
    tournament_or_404,
    who,
)
from tournaments.devices import reads, services


class AnswerForm(forms.Form):
    version = forms.IntegerField(min_value=1, max_value=2**31 - 1)


def _context(request: HttpRequest, slug: str) -> dict[str, object]:
    t = tournament_or_404(request, slug)
    return {
        "tournament": t,
        "open_requests": reads.open_requests(t),
        # The desk sees who is waiting; the director answers.
        "may_answer": is_director(request),
    }


@desk_required
@require_GET
def banner(request: HttpRequest, slug: str) -> HttpResponse:
    """The open requests, polled every 3 seconds by every director and desk page."""
    return render(request, "director/help/_banner.html", _context(request, slug))


@desk_required
@require_GET
def page(request: HttpRequest, slug: str) -> HttpResponse:
    context = _context(request, slug)
    context["log"] = reads.request_log(context["tournament"])  # type: ignore[arg-type]
    return render(request, "director/help/page.html", context)


ANSWERS = {"coming": services.on_my_way, "resolve": services.resolve}


@director_required
@require_POST
def answer(request: HtmxRequest, slug: str, pk: int, action: str) -> HttpResponse:
    """ "On my way" or "resolved", naming the version the director saw: a stale click is
    409 with the banner as it now stands; the same click twice is answered as the first."""
    t = tournament_or_404(request, slug)
    act = ANSWERS.get(action)
    if act is None:
        return HttpResponse(status=404)
    form = AnswerForm(request.POST)
    status = 200
    error = ""
    if not form.is_valid():
        status, error = 422, "Say which version of the request you answer."
    else:
        try:
            act(t, pk, form.cleaned_data["version"], by=who(request))
        except Conflict as exc:
            status, error = 409, exc.message
        except ServiceError as exc:
            status, error = exc.status, exc.message
    if status == 404:
        return HttpResponse(error, status=404)
    if not request.htmx and status == 200:
        return redirect("director:help", slug)
    context = _context(request, slug)
    context["error"] = error
    if request.htmx:
        return render(request, "director/help/_banner.html", context, status=status)
    context["log"] = reads.request_log(t)
    return render(request, "director/help/page.html", context, status=status)
