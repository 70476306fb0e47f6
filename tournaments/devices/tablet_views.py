"""The table's call for the director, from the tablet (docs/tablet-api.md): the same table
session and JSON actions as the scoring screen."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments.core.services import tablet
from tournaments.core.views.tablet import error_response, json_action, table_session
from tournaments.devices import forms, reads, services


@require_POST
@table_session()
@json_action(forms.HelpForm)
def call_director(
    request: HttpRequest, scope: tablet.TableScope, form: forms.HelpForm
) -> HttpResponse:
    """The table calls the director: 201 with the new request, 200 with the one already
    open (a second tap, the other device), 429 while the table cools down."""
    try:
        raised = services.call_director(
            scope.tournament,
            scope.table,
            reason=form.cleaned_data["reason"],
            by=scope.actor,
        )
    except services.CoolingDown as exc:
        response = error_response(exc.message, exc.status)
        response["Retry-After"] = str(exc.retry_after)
        return response
    return JsonResponse(
        {"help": reads.request_json(raised.request), "duplicate": raised.duplicate},
        status=200 if raised.duplicate else 201,
    )


@require_GET
@never_cache
@table_session()
def help_state(request: HttpRequest, scope: tablet.TableScope) -> HttpResponse:
    """The table's call for the director: read on load, after a full state read, and every
    poll while a call is open (so only the tables that called ask)."""
    now = timezone.now()
    found = reads.table_request(scope.tournament_id, scope.table, now)
    return JsonResponse({"help": reads.request_json(found)})
