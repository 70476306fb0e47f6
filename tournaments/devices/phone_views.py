"""A player calls the director from their phone's card.

The card is public (a player's own address, as every card), so is this: the call is for
the table the card's player sits at, one open request per table and the cooldown keep it
from paging the director twice, and it changes nothing else.
"""

from __future__ import annotations

import json

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from tournaments.core.reads import queries
from tournaments.core.services import NotFound, ServiceError
from tournaments.devices import reads, services


def _error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_GET
@never_cache
@ensure_csrf_cookie
def help_state(request: HttpRequest, slug: str, player: int) -> HttpResponse:
    """The card's table and its call for the director (the CSRF cookie for the POST)."""
    t = queries.find_tournament(slug)
    if t is None:
        return _error("No such event.", 404)
    try:
        seat = reads.phone_seat(t, player)
    except NotFound as exc:
        return _error(exc.message, 404)
    found = (
        reads.table_request(t.pk, seat.table, timezone.now()) if seat.table is not None else None
    )
    return JsonResponse({"table": seat.table, "help": reads.request_json(found)})


@require_POST
def call(request: HttpRequest, slug: str, player: int) -> HttpResponse:
    t = queries.find_tournament(slug)
    if t is None:
        return _error("No such event.", 404)
    try:
        body = json.loads(request.body or b"{}")
    except RequestDataTooBig:
        return _error("The body is too large.", 400)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _error("The body must be JSON.", 400)
    reason = body.get("reason", "") if isinstance(body, dict) else None
    if not isinstance(reason, str) or len(reason) > 10:
        return _error("The reason must be text.", 422)
    try:
        raised = services.call_from_phone(t, player, reason=reason)
    except services.CoolingDown as exc:
        response = _error(exc.message, exc.status)
        response["Retry-After"] = str(exc.retry_after)
        return response
    except ServiceError as exc:
        return _error(exc.message, exc.status)
    return JsonResponse(
        {"help": reads.request_json(raised.request), "duplicate": raised.duplicate},
        status=200 if raised.duplicate else 201,
    )
