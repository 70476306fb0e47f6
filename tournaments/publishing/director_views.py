"""The hall's end of publishing results to the club site: where they go, and
the director's "Publish results to the club site". A failed publish is shown on the
settings page ("not published yet"), never an error page: the hall works offline."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.core.reads.visibility import of_event
from tournaments.core.roles import DIRECTOR
from tournaments.core.services import ServiceError
from tournaments.core.views.access import league_staff
from tournaments.core.views.director.common import director_required, tournament_or_404, who
from tournaments.publishing import services
from tournaments.series.views import detail_page, series_or_404


@director_required
@require_POST
def configure(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    try:
        services.configure(
            t,
            club_url=request.POST.get("club_url", ""),
            token=request.POST.get("token", ""),
            by=who(request),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The club site is set for this event's results."))
    return redirect("director:settings", t.slug)


@director_required
@require_POST
def publish(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    try:
        publication = services.publish(t, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if publication.last_error:
            messages.warning(
                request,
                _("Not published yet: %(error)s The results stay here; publish again later.")
                % {"error": publication.last_error},
            )
        elif (through := of_event(t).through) is not None:
            messages.success(
                request,
                _(
                    "The club site has what players see: the figures up to round %(n)s; the "
                    "rest goes once the standings are revealed or the final is seeded."
                )
                % {"n": through},
            )
        else:
            messages.success(request, _("The results are on the club site."))
    return redirect("director:settings", t.slug)


@league_staff(DIRECTOR)
@require_POST
def series_token(request: HttpRequest, slug: str) -> HttpResponse:
    """A token with which a hall publishes one event's results into this series;
    shown once, in this answer only (never stored but as its digest, never redirected)."""
    series = series_or_404(request, slug)
    event = request.POST.get("slug", "").strip()
    if not event or len(event) > 140 or slugify(event) != event:
        error = _("Give the event's slug as the hall shows it (letters, digits and dashes).")
        return detail_page(request, series, token_error=error, status=422)
    try:
        token = services.grant(event, series=series, by=who(request))
    except ServiceError as exc:
        return detail_page(request, series, token_error=exc.message, status=422)
    return detail_page(request, series, new_token={"slug": event, "token": token})
