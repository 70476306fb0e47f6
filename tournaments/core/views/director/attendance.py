"""§6 at a table: a substitute comes in during a match, and a substitution made in error
is corrected (director's table page)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.common.bilingual import seat_letter
from tournaments.common.ids import parse_id
from tournaments.core.reads import queries
from tournaments.core.services import ServiceError
from tournaments.core.services.substitutions import (
    Signed,
    replace_substitute,
    substitute,
    undo_substitution,
)
from tournaments.core.views.director.common import (
    director_required,
    round_or_404,
    tournament_or_404,
    who,
)
from tournaments.core.views.director.tables import _table_page


def _number(text: str | None) -> int | None:
    return parse_id(text, low=0)


def _signed(request: HttpRequest) -> Signed:
    """Who asks, why, and the match version the page showed (a page without it is not
    checked: the service still refuses what the state no longer allows)."""
    reason = request.POST.get("reason", "").replace("\x00", "")[:500]
    return Signed(who(request), reason, _number(request.POST.get("version")))


@director_required
@require_POST
def table_substitute(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    t = tournament_or_404(request, slug)
    rnd = round_or_404(t, number)
    match = queries.game_at(rnd, table, 1)
    if match is None:
        raise Http404("No such table in this round.")
    player = queries.find_player(t, parse_id(request.POST.get("player")))
    from_hand = _number(request.POST.get("from_hand")) or 0
    try:
        if player is None:
            raise ServiceError(_("Choose a substitute from the list."))
        leaves = request.POST.get("withdraw") == "1"
        position = request.POST.get("position", "")
        substitute(match, position, from_hand, player, _signed(request), withdraw_out=leaves)
    except ServiceError as exc:
        # Refused, nothing changed: the table page again, with the reason (422, or 409
        # when the table changed since the page was shown).
        messages.error(request, exc.message)
        return _table_page(request, rnd, table, status=exc.status)
    messages.success(
        request,
        _("%(name)s takes seat %(seat)s from hand %(hand)s.")
        % {"name": player.name, "seat": seat_letter(request.POST["position"]), "hand": from_hand},
    )
    return redirect("director:table", t.slug, rnd.number, table)


@director_required
@require_POST
def table_substitution_correct(
    request: HttpRequest, slug: str, number: int, table: int, pk: int
) -> HttpResponse:
    """A substitution made in error: another player instead, from the same hand, or
    undone while no hand was played under it."""
    t = tournament_or_404(request, slug)
    rnd = round_or_404(t, number)
    match = queries.game_at(rnd, table, 1)
    sub = queries.substitution_at(match, pk) if match is not None else None
    if match is None or sub is None:
        raise Http404("No such substitution at this table.")
    action = request.POST.get("action", "")
    try:
        if action == "undo":
            undo_substitution(sub, _signed(request))
            done = _("Substitution undone: %(name)s holds seat %(seat)s again.") % {
                "name": sub.player_out.name,
                "seat": seat_letter(sub.position),
            }
        elif action == "replace":
            player = queries.find_player(t, parse_id(request.POST.get("player")))
            if player is None:
                raise ServiceError(_("Choose who sat there instead from the list."))
            replace_substitute(sub, player, _signed(request))
            done = _("%(name)s holds seat %(seat)s from hand %(hand)s.") % {
                "name": player.name,
                "seat": seat_letter(sub.position),
                "hand": sub.from_hand,
            }
        else:
            raise ServiceError(_("Choose to replace the substitute or to undo the substitution."))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _table_page(request, rnd, table, status=exc.status)
    messages.success(request, done)
    return redirect("director:table", t.slug, rnd.number, table)
