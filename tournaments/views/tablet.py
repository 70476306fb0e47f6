"""The scorekeeper's tablet: the link, the table screen and its JSON endpoints.

Thin views: ``services.tablet`` parses, scopes and serialises; ``services.play`` changes
things. Every view but the link itself needs a live table session (``table_session``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from ..models import TableLink
from ..services import Conflict, ServiceError
from ..services import tablet as service

View = Callable[..., HttpResponse]


def _error(message: str, status: int, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def table_session(
    *, page: bool = False, link_checked_later: bool = False
) -> Callable[[View], View]:
    """Resolve the request's table scope, or answer 403 (an HTML page for the screen).

    ``link_checked_later``: the view's service checks that the session's link is live
    in a query of its own (``services.tablet.live_link``) instead of here.
    """

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            value = request.get_signed_cookie(
                service.COOKIE,
                default=None,
                salt=service.COOKIE_SALT,
                max_age=service.SESSION_SECONDS,
            )
            try:
                scope = service.scope_of(value, check_link=not link_checked_later)
            except service.Forbidden as exc:
                if page:
                    return render(
                        request, "tablet/forbidden.html", {"message": exc.message}, status=403
                    )
                return _error(exc.message, 403, revoked=exc.revoked)
            return view(request, scope, *args, **kwargs)

        return wrapper

    return decorate


def json_action(view: Callable[[HttpRequest, service.TableScope, dict], HttpResponse]) -> View:
    """Parse the JSON body and turn refusals into JSON answers (never a 500)."""

    @wraps(view)
    def wrapper(request: HttpRequest, scope: service.TableScope) -> HttpResponse:
        try:
            data = json.loads(request.body or b"{}")
        except (ValueError, UnicodeDecodeError, RecursionError):
            return _error("The body must be JSON.", 400)
        if not isinstance(data, dict):
            return _error("The body must be a JSON object.", 400)
        try:
            return view(request, scope, data)
        except service.Forbidden as exc:
            return _error(exc.message, 403, revoked=exc.revoked)
        except Conflict as exc:
            # A stale request is answered with the state it should have answered, so the
            # tablet shows it at once (RULES.md §7).
            return _error(exc.message, 409, state=_current_state(scope, data))
        except ServiceError as exc:
            return _error(exc.message, 422)

    return wrapper


def _current_state(scope: service.TableScope, data: dict) -> dict | None:
    try:
        return service.table_state(scope, match_id=data.get("match"), touch=False)
    except (service.Forbidden, ServiceError):
        return None


@require_GET
@never_cache
def open_link(request: HttpRequest, token: str) -> HttpResponse:
    try:
        scope = service.open_link(token)
    except TableLink.DoesNotExist:
        raise Http404("Unknown table link.") from None
    except service.Forbidden as exc:
        return render(request, "tablet/forbidden.html", {"message": exc.message}, status=403)
    # The token leaves the address bar (and the history) at once.
    screen = reverse("tablet:table")
    response = HttpResponseRedirect(screen)
    # Every table endpoint lives under the screen's path; the cookie goes nowhere else.
    response.set_signed_cookie(
        service.COOKIE,
        service.session_value(scope),
        salt=service.COOKIE_SALT,
        max_age=service.SESSION_SECONDS,
        path=screen,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


@require_GET
@never_cache
@ensure_csrf_cookie
@table_session(page=True)
def table(request: HttpRequest, scope: service.TableScope) -> HttpResponse:
    return render(request, "tablet/table.html", {"scope": scope})


@require_GET
@never_cache
@ensure_csrf_cookie
@table_session()
def state(request: HttpRequest, scope: service.TableScope) -> HttpResponse:
    try:
        return JsonResponse(service.table_state(scope, match_id=request.GET.get("match")))
    except service.Forbidden as exc:
        return _error(exc.message, 403)
    except ServiceError as exc:
        return _error(exc.message, 422)


@require_POST
@table_session(link_checked_later=True)
@json_action
def hands(request: HttpRequest, scope: service.TableScope, data: dict) -> HttpResponse:
    recorded = service.record(scope, data)
    return JsonResponse(
        {
            "hand": service.hand_json(recorded.entry),
            "duplicate": recorded.duplicate,
            "state": service.state_after_hand(scope, recorded),
        },
        status=200 if recorded.duplicate else 201,
    )


@require_POST
@table_session()
@json_action
def first_dealer(request: HttpRequest, scope: service.TableScope, data: dict) -> HttpResponse:
    match = service.first_dealer(scope, data)
    return JsonResponse({"state": service.table_state(scope, match_id=match.pk)})


@require_POST
@table_session()
@json_action
def undo(request: HttpRequest, scope: service.TableScope, data: dict) -> HttpResponse:
    match = service.undo(scope, data)
    return JsonResponse({"state": service.table_state(scope, match_id=match.pk)})


@require_POST
@table_session()
@json_action
def answer_call(request: HttpRequest, scope: service.TableScope, data: dict) -> HttpResponse:
    match = service.answer_call(scope, data)
    return JsonResponse({"state": service.table_state(scope, match_id=match.pk)})


@require_POST
@table_session()
@json_action
def confirm(request: HttpRequest, scope: service.TableScope, data: dict) -> HttpResponse:
    match = service.confirm(scope, data)
    return JsonResponse({"state": service.table_state(scope, match_id=match.pk)})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The offline worker, served under /t/ so that it may control the table screen."""
    found = finders.find("tablet/sw.js")
    if not found:
        found = str(Path(settings.STATIC_ROOT) / "tablet" / "sw.js")
    response = HttpResponse(Path(found).read_text(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response
