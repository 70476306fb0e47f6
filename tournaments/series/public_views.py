"""The public series page: read-only standings, no login, cached briefly by browsers and proxies."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import cache_control

from tournaments.core.reads import queries
from tournaments.series import reads

# Standings change when an event's results do; a minute's delay is harmless and spares
# the server when a whole club opens the page at once.
MAX_AGE = 60


@cache_control(public=True, max_age=MAX_AGE)
def series(request: HttpRequest, slug: str) -> HttpResponse:
    found = queries.public_series(slug)
    if found is None:
        raise Http404("No such series.")
    # As players may see each event: an event with hidden standings as it stood after
    # its last visible round, so the page (cached a minute by anyone) never holds a
    # hidden figure.
    table = reads.series_table(found, for_players=True)
    # English only until the page is translated whole: a proxy caches one copy
    # for everyone, so the language cannot follow a reader's cookie here.
    with translation.override("en"):
        return render(
            request,
            "public/series.html",
            {
                "series": found,
                "table": table,
                "shared": table.shared_ranks(),
                "rule": reads.describe(found),
            },
        )
