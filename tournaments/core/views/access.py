"""Who may open a staff page (issue 25): the decorators every director, desk, sheet,
series and club view wears. Each takes the event, series or club from the URL, reads it
with the user's role on it (``reads.staff``, one query) and answers:

- signed out, or staff of no club: the sign-in page;
- an object of a club the user is not staff of (or an event outside the user's named
  events): 404, exactly as if it did not exist;
- staff whose role there is below the page's need: 403;
- else the view runs, with ``request.event`` / ``request.club_ids`` / ``request.club``
  set for it.

To scope a new view, wear ``@event_staff(DESK)`` (its URL has ``<slug:slug>``),
``@league_staff(DIRECTOR)`` (pages across a club's events) or ``@club_staff(OWNER)``
(its URL has ``<slug:club>``). Each marks its view with ``staff_need``, which
tests/test_club_scoping.py looks for on every staff URL.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import render

from tournaments.core.phones.reads import running_at_hall
from tournaments.core.reads import staff
from tournaments.core.roles import DESK, DIRECTOR, OWNER, Need, allows

View = Callable[..., HttpResponseBase]
__all__ = ["DESK", "DIRECTOR", "OWNER", "club_staff", "event_staff", "league_staff", "may"]

may = staff.may


def _signed_in_staff(request: HttpRequest) -> bool:
    return staff.is_staff_member(request.user)


def event_staff(need: Need) -> Callable[[View], View]:
    """The event named by the URL's ``slug``, for staff whose role on it allows ``need``."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not _signed_in_staff(request):
                return redirect_to_login(request.get_full_path())
            tournament = staff.event(request.user, kwargs["slug"])
            if tournament is None:
                raise Http404("No such tournament.")
            if not allows(getattr(tournament, "staff_role", None), need):
                raise PermissionDenied("Your role does not include this page.")
            if request.method not in ("GET", "HEAD", "OPTIONS") and running_at_hall(tournament):
                # The hall runs it and publishes it here; the next file would undo a change
                # made on this copy, so none is made.
                return render(request, "director/hall_copy.html", {"event": tournament}, status=409)
            request.event = tournament  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        checked.staff_need = ("event", need)  # type: ignore[attr-defined]
        return checked

    return decorate


def league_staff(need: Need) -> Callable[[View], View]:
    """Pages across a club's events (series, people): staff whose club-wide role allows
    ``need`` in at least one club; ``request.club_ids`` are those clubs' ids, the only
    rows the page may read or write."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not _signed_in_staff(request):
                return redirect_to_login(request.get_full_path())
            if not staff.has_club_role(request.user, need):
                raise PermissionDenied("Your role does not include this page.")
            # A subquery of the page's own queries: the check costs the page no query.
            request.club_ids = staff.club_ids(request.user, need)  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        checked.staff_need = ("league", need)  # type: ignore[attr-defined]
        return checked

    return decorate


def club_staff(need: Need) -> Callable[[View], View]:
    """The club named by the URL's ``club``, for staff whose club-wide role allows
    ``need``; another club, or a role below it, is 404 / 403 as above."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not _signed_in_staff(request):
                return redirect_to_login(request.get_full_path())
            found = next(
                (c for c in staff.clubs_of(request.user, DESK) if c.slug == kwargs["club"]),
                None,
            )
            if found is None:
                raise Http404("No such club.")
            if not allows(getattr(found, "staff_role", None), need):
                raise PermissionDenied("Your role does not include this page.")
            request.club = found  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        checked.staff_need = ("club", need)  # type: ignore[attr-defined]
        return checked

    return decorate


def staff_required(view: View) -> View:
    """Any staff member of any club (the console's home lists what each may open)."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not _signed_in_staff(request):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    checked.staff_need = ("staff", None)  # type: ignore[attr-defined]
    return checked


def context(request: HttpRequest) -> dict[str, bool]:
    """For the templates: may the user direct, or work the desk of, this page's event? And
    is it the copy of an event the hall is running (``hall_copy``), whose pages say so up
    front and offer no change the decorator above would refuse?"""
    event = getattr(request, "event", None)
    role = getattr(event, "staff_role", None)
    return {
        "may_direct": allows(role, DIRECTOR),
        "may_desk": allows(role, DESK),
        "hall_copy": event is not None and running_at_hall(event),
    }
