"""§6 at a table: a substitute comes in during a match (director's table page)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ...services import ServiceError, queries
from ...services.substitutions import substitute
from .common import director_required, round_or_404, tournament_or_404, who
from .rounds import _table_page


@director_required
@require_POST
def table_substitute(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    t = tournament_or_404(slug)
    rnd = round_or_404(t, number)
    match = queries.game_at(rnd, table, 1)
    if match is None:
        raise Http404("No such table in this round.")
    player = queries.find_player(t, request.POST.get("player") or 0)
    try:
        from_hand = int(request.POST.get("from_hand", ""))
    except ValueError:
        from_hand = 0
    reason = request.POST.get("reason", "").replace("\x00", "")[:500]
    try:
        if player is None:
            raise ServiceError("Choose a substitute from the list.")
        substitute(
            match,
            request.POST.get("position", ""),
            from_hand,
            player,
            by=who(request),
            reason=reason,
        )
    except ServiceError as exc:
        # Refused, nothing changed: the table page again, with the reason, as 422.
        messages.error(request, exc.message)
        return _table_page(request, rnd, table, status=422)
    messages.success(
        request, f"{player.name} takes seat {request.POST['position']} from hand {from_hand}."
    )
    return redirect("director:table", t.slug, rnd.number, table)
