"""Access checks and small helpers shared by the director's views."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from ...reads import queries
from ...roles import DESK, RUN
from ...services import ServiceError

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from ...models import Round, Tournament

# A page, a redirect, or a streamed file (the PDF sheets).
View = Callable[..., HttpResponseBase]


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware (in every stack) hands it on: with ``htmx``."""

    htmx: HtmxDetails


def can(user: Any, *perms: str) -> bool:
    return bool(user.is_active and any(user.has_perm(p) for p in perms))


def role_required(*perms: str) -> Callable[[View], View]:
    """Signed out, or an account in neither role (a staff flag alone is none): to the
    sign-in page. A desk account at a director's page: 403."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not can(request.user, RUN, DESK):
                return redirect_to_login(request.get_full_path())
            if not can(request.user, *perms):
                raise PermissionDenied("Your account's role does not include this page.")
            return view(request, *args, **kwargs)

        return checked

    return decorate


# The director role: everything. The desk role: check-in, find a seat, print sheets.
director_required = role_required(RUN)
desk_required = role_required(RUN, DESK)


def form_view(
    form: Form,
    act: Callable[[], HttpResponse | None],
    refused: Callable[[], HttpResponse],
) -> HttpResponse:
    """A form that asks a service for something: ``act`` runs when the form is valid and
    answers (usually a redirect); an invalid form, a refusal (its ServiceError becomes the
    form's error) or an ``act`` that answers None shows ``refused`` (the page again)."""
    if form.is_valid():
        try:
            answer = act()
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            if answer is not None:
                return answer
    return refused()


def who(request: HttpRequest) -> str:
    return request.user.get_username()


def tournament_or_404(slug: str) -> Tournament:
    found = queries.find_tournament(slug)
    if found is None:
        raise Http404("No such tournament.")
    return found


def round_or_404(tournament: Tournament, number: int) -> Round:
    rnd = queries.find_round(tournament, number)
    if rnd is None:
        raise Http404("No such round.")
    return rnd


def url_with_query(name: str, *args: object, query: str = "") -> str:
    """The address of a page with its query string; a route that does not exist is an
    error (NoReverseMatch), never a link quietly left out."""
    url = reverse(name, args=args)
    return f"{url}?{query}" if query else url


def tiebreak_words(keys: list[str] | tuple[str, ...], separator: str) -> str:
    """The tiebreak chain in the reader's words ("total, victoires, écart, sort")."""
    words = {"total": _("total"), "wins": _("wins"), "margin": _("margin"), "lot": _("lot")}
    return separator.join(words.get(k.strip(), k) for k in keys)


def paper_name(paper: str) -> str:
    return _("letter") if paper == "letter" else paper


def sheet_links(
    tournament: Tournament, rnd: Round | None = None, *, desk: bool = False
) -> list[tuple[str, str]]:
    """The printable sheets for this page, in letter and A4; for the desk role, without
    the table cards (they carry the tablets' links)."""
    links: list[tuple[str, str]] = []
    for paper in ("letter", "a4"):
        q = f"paper={paper}"
        size = {"paper": paper_name(paper)}
        if rnd is not None and rnd.kind == queries.RoundKind.PRELIMINARY:
            links += [
                (
                    _("Seating (%(paper)s)") % size,
                    url_with_query("sheets:seating", tournament.slug, rnd.number, query=q),
                ),
                (
                    _("Score sheets (%(paper)s)") % size,
                    url_with_query("sheets:scoresheets", tournament.slug, rnd.number, query=q),
                ),
            ]
        if not desk:
            links.append(
                (
                    _("Table cards (%(paper)s)") % size,
                    url_with_query("sheets:table_cards", tournament.slug, query=q),
                )
            )
    return links
