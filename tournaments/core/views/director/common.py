"""Access checks and small helpers shared by the director's views."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from tournaments.core.reads import queries, staff
from tournaments.core.roles import DESK, DIRECTOR, allows
from tournaments.core.services import ServiceError
from tournaments.core.views.access import event_staff

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.event import Tournament
    from tournaments.core.models.rounds import Round

# A page, a redirect, or a streamed file (the PDF sheets).
View = Callable[..., HttpResponseBase]


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware (in every stack) hands it on: with ``htmx``."""

    htmx: HtmxDetails


# The director role: everything on the event. The desk role: check-in, find a seat,
# print sheets. Both take the event from the URL's slug, scoped to the user's clubs.
director_required = event_staff(DIRECTOR)
desk_required = event_staff(DESK)


def is_director(request: HttpRequest) -> bool:
    """Does the signed-in user direct the event of this request (set by the decorator)?"""
    event = getattr(request, "event", None)
    return event is not None and allows(event.staff_role, DIRECTOR)


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


def tournament_or_404(request: HttpRequest, slug: str) -> Tournament:
    """The event the access decorator found for this request's ``slug``; any other slug
    is looked up within the user's events (another club's is not found)."""
    event = getattr(request, "event", None)
    if event is not None and event.slug == slug:
        return event
    found = staff.event(request.user, slug)
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
    return _("letter") if paper == "letter" else paper.upper()


def sheet_links(
    tournament: Tournament, rnd: Round | None = None, *, desk: bool = False
) -> list[tuple[str, str]]:
    """The printable sheets for this page, on the event's paper (the template offers the
    other size beside each); for the desk role, without the table cards (they carry the
    tablets' links)."""
    links: list[tuple[str, str]] = []
    for paper in (tournament.paper,):
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
            # The permanent tents: number, QR and code, never a round's names.
            links.append(
                (
                    _("Table tents, printed once (%(paper)s)") % size,
                    url_with_query("sheets:table_tents", tournament.slug, query=q),
                )
            )
    return links
