"""Pages anyone in the hall may open: the projector and the clock it ticks from."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from ..models import Round, Tournament
from ..services.console import clock_view, current_round
from ..services.standings import champions, standings

PROJECTOR_TOP = 8


def index(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.exclude(status=Tournament.Status.FINISHED)[:20]
    return render(request, "public/index.html", {"tournaments": tournaments})


def _projector_context(t: Tournament) -> dict[str, object]:
    rnd = current_round(t)
    top = {d: rows[:PROJECTOR_TOP] for d, rows in standings(t).items()}
    return {
        "tournament": t,
        "round": rnd,
        "top": top,
        "any_lot": any(r.standing.decided_by_lot for rows in top.values() for r in rows),
        "champions": champions(t) if t.status in ("final", "finished") else None,
        "is_final": rnd is not None and rnd.kind == Round.Kind.FINAL,
    }


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_object_or_404(Tournament, slug=slug)
    return render(request, "public/projector.html", _projector_context(t))


@never_cache
def projector_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The part of the projector that htmx refreshes."""
    t = get_object_or_404(Tournament, slug=slug)
    return render(request, "public/_projector_body.html", _projector_context(t))


@never_cache
def clock(request: HttpRequest, slug: str) -> JsonResponse:
    """The current round's clock; the countdown script ticks locally between reads."""
    t = get_object_or_404(Tournament, slug=slug)
    now = timezone.now()
    rnd = current_round(t)
    if rnd is None:
        return JsonResponse({"server_now": now.isoformat(), "round": None})
    data = clock_view(rnd, now).as_json(now)
    data["round"] = str(rnd)
    data["status"] = rnd.status
    return JsonResponse(data)
