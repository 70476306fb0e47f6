"""Access checks and small helpers shared by the director's views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import user_passes_test
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, reverse

from ...models import Round, Tournament

View = Callable[..., HttpResponse]


def _is_director(user: Any) -> bool:
    return bool(user.is_active and user.is_staff)


def director_required(view: View) -> View:
    """Every director page needs a staff login; others are sent to the sign-in page."""
    return user_passes_test(_is_director)(view)


def who(request: HttpRequest) -> str:
    return request.user.get_username()


def tournament_or_404(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def round_or_404(tournament: Tournament, number: int) -> Round:
    rnd = get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )
    return rnd


def optional_url(name: str, *args: object, query: str = "") -> str | None:
    """A link to a page another part of the app may not provide yet (the PDF sheets)."""
    try:
        url = reverse(name, args=args)
    except NoReverseMatch:
        return None
    return f"{url}?{query}" if query else url


def sheet_links(tournament: Tournament, rnd: Round | None = None) -> list[tuple[str, str]]:
    """The printable sheets for this page, in letter and A4, where they exist."""
    links: list[tuple[str, str | None]] = []
    for paper in ("letter", "a4"):
        q = f"paper={paper}"
        if rnd is not None and rnd.kind == Round.Kind.PRELIMINARY:
            links += [
                (
                    f"Seating ({paper})",
                    optional_url("sheets:seating", tournament.slug, rnd.number, query=q),
                ),
                (
                    f"Score sheets ({paper})",
                    optional_url("sheets:scoresheets", tournament.slug, rnd.number, query=q),
                ),
            ]
        links.append(
            (f"Table cards ({paper})", optional_url("sheets:table_cards", tournament.slug, query=q))
        )
    return [(label, url) for label, url in links if url]
