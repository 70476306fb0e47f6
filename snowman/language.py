"""The reader's language: a link on every phone page (and the index) sets a cookie on that
phone and goes back where it was. LocaleMiddleware reads the cookie on each request, so the
choice costs no query and nothing is stored on the server.

A GET link, not Django's ``set_language`` form: the phone pages carry no CSRF token (they
are revalidated by ETag and hold no cookie of the server's), and a language cookie changes
nothing but how the next page reads.
"""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from tournaments.clubs import accounts
from tournaments.common.language import supported, with_language_cookie


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


class SignIn(LoginView):
    """Django's sign-in, which puts the account's console language (if it chose one) in
    the browser's cookie: the director's choice is per account, not per laptop."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        code = supported(accounts.account_language(self.request.user))
        if code is not None:
            with_language_cookie(response, code)
        return response
