"""The reader's language: a link on every phone page (and the index) sets a cookie on that
phone and goes back where it was. LocaleMiddleware reads the cookie on each request, so the
choice costs no query and nothing is stored on the server.

A GET link, not Django's ``set_language`` form: the phone pages carry no CSRF token (they
are revalidated by ETag and hold no cookie of the server's), and a language cookie changes
nothing but how the next page reads.
"""

from __future__ import annotations

from typing import Literal, cast

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from tournaments.services import accounts

CODES = frozenset(code for code, _name in settings.LANGUAGES)


def supported(code: str | None) -> str | None:
    """``code`` if the site is translated into it, else None (a projector's ?lang=)."""
    return code if code in CODES else None


def chosen(request: HttpRequest) -> str | None:
    """The language this reader chose with the switch (the cookie), if any: it comes
    before the event's own language (issue 24). The browser's Accept-Language is no
    choice: an event in Québec reads French first on an English phone, with "English"
    one tap away on the first screen (the active offer)."""
    return supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def for_event(request: HttpRequest, event_language: str) -> str:
    """The language an event's page reads in: the reader's choice, else the event's."""
    return chosen(request) or supported(event_language) or settings.LANGUAGE_CODE


@never_cache
@require_GET
def choose(request: HttpRequest, code: str) -> HttpResponseBase:
    if supported(code) is None:
        raise Http404(_("No such language."))
    back = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    response = HttpResponseRedirect(back)
    # A signed-in director's choice also follows the account to another browser.
    accounts.remember_language(request.user, code)
    return with_language_cookie(response, code)


def with_language_cookie(response: HttpResponseBase, code: str) -> HttpResponseBase:
    """``response`` setting the reader's language cookie (LocaleMiddleware reads it)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=cast(Literal["Lax", "Strict", "None"], settings.LANGUAGE_COOKIE_SAMESITE),
    )
    return response


@require_GET
def javascript_catalog(request: HttpRequest, code: str) -> HttpResponseBase:
    """Django's JavaScript catalogue (the ``djangojs`` domain) of one language, named in
    the address: the tablet asks for its table's language, and the other team's
    confirmation screen for the other one, without touching the table's choice. One
    address per language, so the tablet's offline worker keeps each as a file."""
    if supported(code) is None:
        raise Http404(_("No such language."))
    with translation.override(code):
        return JavaScriptCatalog.as_view(domain="djangojs")(request)


class SignIn(auth_views.LoginView):
    """Django's sign-in, which puts the account's console language (if it chose one) in
    the browser's cookie: the director's choice is per account, not per laptop."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        code = supported(accounts.account_language(self.request.user))
        if code is not None:
            with_language_cookie(response, code)
        return response
