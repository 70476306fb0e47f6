"""The club site's end of publishing: the hall posts an event's results file
with the event's token as a bearer token. No session, no cookie, no CSRF: the token is
the credential, and it grants that one event only."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tournaments.core.services import ServiceError
from tournaments.publishing import services


@csrf_exempt
@never_cache
@require_POST
def receive(request: HttpRequest) -> JsonResponse:
    scheme, _sep, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return JsonResponse({"error": _("Send the event's token as a bearer token.")}, status=403)
    # Read here with its own bound: request.body would refuse past Django's form limit.
    data = request.read(services.MAX_BODY + 1)
    if len(data) > services.MAX_BODY:
        return JsonResponse({"error": _("The results file is too large.")}, status=413)
    try:
        outcome = services.receive(token.strip(), data)
    except ServiceError as exc:
        return JsonResponse({"error": exc.message}, status=exc.status)
    return JsonResponse(
        {
            "event": outcome.tournament.slug,
            "created": outcome.created,
            "updated": outcome.updated,
            "players": outcome.players,
            "matches": outcome.matches,
        }
    )
