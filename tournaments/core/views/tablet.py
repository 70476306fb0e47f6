"""The scorekeeper's tablet: the link, the table screen and its JSON endpoints.

Thin views: ``forms_tablet`` checks each JSON body's shape, ``services.tablet`` scopes,
acts and serialises; ``services.play`` changes things. Every view but the link itself
needs a live table session (``table_session``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.common import language
from tournaments.common.hall import client_ip
from tournaments.core import forms_tablet
from tournaments.core.forms import TableCodeForm
from tournaments.core.services import (
    BadRequest,
    Conflict,
    NotFound,
    ServiceError,
    device_health,
    kiosk,
    table_codes,
    tablet,
)

View = Callable[..., HttpResponse]


def error_response(message: str, status: int, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def _forbidden(exc: tablet.Forbidden) -> JsonResponse:
    """403: no live session, another table's match, a revoked link, or a device replaced
    by a takeover (``replaced``: the tablet drops what it still holds)."""
    return error_response(exc.message, 403, revoked=exc.revoked, replaced=exc.replaced)


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
                tablet.COOKIE,
                default=None,
                salt=tablet.COOKIE_SALT,
                max_age=tablet.SESSION_SECONDS,
            )
            try:
                scope = tablet.scope_of(value, check_link=not link_checked_later)
            except tablet.Forbidden as exc:
                if page:
                    return render(
                        request, "tablet/forbidden.html", {"message": exc.message}, status=403
                    )
                return _forbidden(exc)
            return view(request, scope, *args, **kwargs)

        return wrapper

    return decorate


def _body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = json.loads(request.body or b"{}")
    except RequestDataTooBig:
        # Django's own answer is its HTML 400 page and a logged traceback.
        raise BadRequest("The body is too large.") from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("The body must be JSON.") from None
    if not isinstance(data, dict):
        raise BadRequest("The body must be a JSON object.")
    return data


Action = Callable[[HttpRequest, tablet.TableScope, Any], HttpResponse]


def json_action(form_class: type[forms_tablet.TabletForm]) -> Callable[[Action], View]:
    """Parse the JSON body, check its shape with ``form_class`` (the view gets the valid
    form) and turn refusals into JSON answers with their status (never a 500)."""

    def decorate(view: Action) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, scope: tablet.TableScope) -> HttpResponse:
            try:
                form = form_class(_body(request))
                if not form.is_valid():
                    return error_response(form.first_error, ServiceError.status)
                return view(request, scope, form)
            except tablet.Forbidden as exc:
                return _forbidden(exc)
            except Conflict as exc:
                # A stale request is answered with the state it should have answered, so
                # the tablet shows it at once (docs/rules.md §7).
                return error_response(exc.message, exc.status, state=_current_state(scope, form))
            except ServiceError as exc:
                return error_response(exc.message, exc.status)

        return wrapper

    return decorate


def _current_state(scope: tablet.TableScope, form: forms_tablet.TabletForm) -> dict | None:
    try:
        return tablet.table_state(scope, match_id=form.cleaned_data["match"], touch=False)
    except (tablet.Forbidden, ServiceError):
        return None


@require_GET
@never_cache
def open_link(request: HttpRequest, token: str) -> HttpResponse:
    try:
        scope = tablet.open_link(token)
    except NotFound:
        raise Http404("Unknown table link.") from None
    except tablet.Forbidden as exc:
        return render(request, "tablet/forbidden.html", {"message": exc.message}, status=403)
    return _into_table(scope)


def _into_table(scope: tablet.TableScope) -> HttpResponse:
    """The table session's cookie, and on to the table screen."""
    # The token leaves the address bar (and the history) at once.
    screen = reverse("tablet:table")
    response = HttpResponseRedirect(screen)
    # Every table endpoint lives under the screen's path; the cookie goes nowhere else.
    response.set_signed_cookie(
        tablet.COOKIE,
        tablet.session_value(scope),
        salt=tablet.COOKIE_SALT,
        max_age=tablet.SESSION_SECONDS,
        path=screen,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


# Wrong codes one address may type in ``CODE_WINDOW`` seconds before it must wait.
CODE_TRIES = 10
CODE_WINDOW = 600


def _window() -> int:
    return time.time_ns() // (CODE_WINDOW * 1_000_000_000)


def _claim_try(address: str) -> str | None:
    """One of the address's ``CODE_TRIES`` in this window, claimed before the code is
    looked up: a try is a key the cache adds, one row of the database's cache whose
    unique key lets one request have it, so a burst of requests sent at once cannot all
    read the same count and all go on (a count read, then written, let them). The key
    names its window, so no row is ever reused. None: every try is taken."""
    window = _window()
    for n in range(CODE_TRIES):
        key = f"snowman:table-code:{address}:{window}:{n}"
        if cache.add(key, 1, CODE_WINDOW):
            return key
    return None


@require_http_methods(["GET", "POST"])
@never_cache
def take_over(request: HttpRequest) -> HttpResponse:
    """``/t/``: type the table's code (printed beside the QR) to take the table over on
    this device; every device that held it before is told it was replaced."""
    form = TableCodeForm(request.POST or None)
    if request.method == "GET":
        return render(request, "tablet/code.html", {"form": form})
    if not form.is_valid():
        return render(request, "tablet/code.html", {"form": form}, status=422)
    tried = _claim_try(client_ip(request))
    if tried is None:
        form.add_error(
            None, _("Too many wrong codes from this device. Wait ten minutes or ask the director.")
        )
        return render(request, "tablet/code.html", {"form": form}, status=429)
    try:
        link = table_codes.take_over(form.cleaned_data["code"])
    except NotFound as exc:
        form.add_error("code", exc.message)
        return render(request, "tablet/code.html", {"form": form}, status=422)
    cache.delete(tried)  # a right code costs no try
    return _into_table(tablet.taken_over(link))


@require_GET
@never_cache
@ensure_csrf_cookie
@table_session(page=True)
def table(request: HttpRequest, scope: tablet.TableScope) -> HttpResponse:
    """The table's screen in the table's language (the device's cookie, which the
    scorekeeper sets with the switch in Display); ``?lang=`` reads it once in another
    (the other team's confirmation screen) without changing the table's choice."""
    once = language.supported(request.GET.get("lang"))
    # Until the table chooses (its cookie), the event's language.
    with translation.override(once or language.for_event(request, scope.tournament.language)):
        return render(
            request,
            "tablet/table.html",
            {
                "scope": scope,
                "health_every": forms_tablet.HEALTH_EVERY // timedelta(seconds=1),
                "kiosk": scope.tournament.kiosk,
                "read_once": once,
            },
        )


@require_GET
@never_cache
@ensure_csrf_cookie
@table_session(link_checked_later=True)
def state(request: HttpRequest, scope: tablet.TableScope) -> HttpResponse:
    """The table's state; 304 after one query when the tablet holds the current version
    (its ETag in If-None-Match). A read naming a match is always answered in full."""
    query = forms_tablet.StateQuery(request.GET.dict())
    if not query.is_valid():
        return error_response(query.first_error, ServiceError.status)
    match_id = query.cleaned_data["match"]
    now = timezone.now()
    try:
        # The version's query is also the check that the link is live.
        version = tablet.table_version(scope)
        health = forms_tablet.parse_health(request.headers.get("X-Snowman-Health", ""))
        if health is not None:
            # The device's own report: the version query just said the session
            # is live, so this is the table's current device.
            device_health.report(scope.link_id, scope.device, health, now)
        held = version.held(request.headers.get("If-None-Match", ""), now)
        if match_id is None and held is not None:
            tablet.note_contact(version, now)
            not_modified = HttpResponseNotModified()
            not_modified["ETag"] = held
            return not_modified
        data = tablet.table_state(scope, now, match_id=match_id)
    except tablet.Forbidden as exc:
        return _forbidden(exc)
    except ServiceError as exc:
        return error_response(exc.message, exc.status)
    response = JsonResponse(data)
    if match_id is None:
        response["ETag"] = version.etag(data)
    return response


@require_POST
@table_session(link_checked_later=True)
@json_action(forms_tablet.HandForm)
def hands(
    request: HttpRequest, scope: tablet.TableScope, form: forms_tablet.HandForm
) -> HttpResponse:
    d = form.cleaned_data
    recorded = tablet.record(scope, form.hand(), form.details(), match_id=d["match"])
    return JsonResponse(
        {
            "hand": tablet.entry_json(recorded.entry),
            "duplicate": recorded.duplicate,
            "state": tablet.state_after_hand(scope, recorded),
        },
        status=200 if recorded.duplicate else 201,
    )


def _state_of(scope: tablet.TableScope, match_id: int) -> JsonResponse:
    return JsonResponse({"state": tablet.table_state(scope, match_id=match_id)})


Change = Callable[[tablet.TableScope, Any], int]


def table_change(
    form_class: type[forms_tablet.TabletForm], *, link_checked_later: bool = False
) -> Callable[[Change], View]:
    """A POST that changes the table's match (``change`` returns its id) and answers with
    the match's state."""

    def decorate(change: Change) -> View:
        @wraps(change)
        def act(request: HttpRequest, scope: tablet.TableScope, form: Any) -> HttpResponse:
            return _state_of(scope, change(scope, form))

        view = json_action(form_class)(act)
        return require_POST(table_session(link_checked_later=link_checked_later)(view))

    return decorate


@table_change(forms_tablet.FirstDealerForm)
def first_dealer(scope: tablet.TableScope, form: forms_tablet.FirstDealerForm) -> int:
    d = form.cleaned_data
    return tablet.first_dealer(scope, d["seat"], keeper=d["keeper"], match_id=d["match"]).pk


@table_change(forms_tablet.KeeperForm)
def keeper(scope: tablet.TableScope, form: forms_tablet.KeeperForm) -> int:
    d = form.cleaned_data
    return tablet.keeper(scope, d["seat"], match_id=d["match"]).pk


@table_change(forms_tablet.UndoForm, link_checked_later=True)
def undo(scope: tablet.TableScope, form: forms_tablet.UndoForm) -> int:
    d = form.cleaned_data
    return tablet.undo(scope, d["number"], d["client_key"], match_id=d["match"])


@table_change(forms_tablet.AnswerCallForm)
def answer_call(scope: tablet.TableScope, form: forms_tablet.AnswerCallForm) -> int:
    d = form.cleaned_data
    answers = form.answers()
    return tablet.answer_call(scope, d["in_progress"], answers=answers, match_id=d["match"]).pk


@table_change(forms_tablet.ConfirmForm)
def confirm(scope: tablet.TableScope, form: forms_tablet.ConfirmForm) -> int:
    d = form.cleaned_data
    return tablet.confirm(
        scope,
        agree=d["agree"],
        by=d["by"],
        note=d["note"],
        answers=form.answers(),
        match_id=d["match"],
    ).pk


@require_POST
@table_session()
@json_action(forms_tablet.PinForm)
def director_pin(
    request: HttpRequest, scope: tablet.TableScope, form: forms_tablet.PinForm
) -> HttpResponse:
    """Kiosk mode: the director's PIN opens the director's controls on this tablet; 422
    for a wrong one, 429 once five wrong ones lock it."""
    try:
        opened = kiosk.check_pin(
            scope.link_id, scope.device, scope.tournament, form.cleaned_data["pin"]
        )
    except LookupError:
        return _forbidden(tablet.refusal(scope))
    except kiosk.PinLocked as exc:
        response = error_response(exc.message, exc.status, locked=True)
        response["Retry-After"] = str(exc.retry_after)
        return response
    except kiosk.WrongPin as exc:
        return error_response(exc.message, exc.status, left=exc.left)
    return JsonResponse({"open_until": opened.until.isoformat()})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The offline worker, served under /t/ so that it may control the table screen."""
    found = finders.find("tablet/sw.js")
    if not found:
        found = str(Path(settings.STATIC_ROOT) / "tablet" / "sw.js")
    response = HttpResponse(Path(found).read_text(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response
