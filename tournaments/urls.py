"""Every address of the app, composed from the packages: each namespace (director, sheets,
tablet, public, league…) takes the core's patterns and those of the contexts that add to
it, so a context adds its pages without the core importing it."""

from django.urls import URLPattern, include, path

import tournaments.clubs.public_urls
import tournaments.clubs.urls
import tournaments.core.phones.urls
import tournaments.devices.urls
import tournaments.money.public_urls
import tournaments.money.urls
import tournaments.prizes.urls
import tournaments.publishing.urls
import tournaments.records.urls
import tournaments.records.urls_director
import tournaments.registration.urls
import tournaments.series.public_urls
import tournaments.series.urls
from tournaments.clubs.views import join
from tournaments.core.urls import director, sheets, tablet


def namespace(name: str, *lists: list[URLPattern]) -> tuple[list[URLPattern], str]:
    return [pattern for patterns in lists for pattern in patterns], name


urlpatterns = [
    path(
        "director/league/",
        include(
            namespace(
                "league",
                tournaments.series.urls.urlpatterns,
                tournaments.publishing.urls.league_patterns,
            )
        ),
    ),
    path("director/clubs/", include(tournaments.clubs.urls)),
    path("director/records/", include(tournaments.records.urls_director)),
    path(
        "director/",
        include(
            namespace(
                "director",
                director.urlpatterns,
                tournaments.registration.urls.director_patterns,
                tournaments.publishing.urls.director_patterns,
                tournaments.prizes.urls.director_patterns,
                tournaments.devices.urls.director_patterns,
                tournaments.series.urls.director_patterns,
            )
        ),
    ),
    # The money's pages under each event's address, in their own namespace.
    path("director/", include(tournaments.money.urls)),
    path(
        "director/sheets/",
        include(namespace("sheets", sheets.urlpatterns, tournaments.prizes.urls.sheets_patterns)),
    ),
    # The tablet's last pattern takes any token: the contexts' paths come before it.
    path(
        "t/",
        include(namespace("tablet", tournaments.devices.urls.tablet_patterns, tablet.urlpatterns)),
    ),
    path("series/", include(tournaments.series.public_urls)),
    path("join/<slug:token>/", join, name="join"),
    path("results/", include(tournaments.publishing.urls)),
    path(
        "",
        include(
            namespace(
                "public",
                tournaments.core.phones.urls.urlpatterns,
                tournaments.registration.urls.public_patterns,
                tournaments.devices.urls.public_patterns,
            )
        ),
    ),
    path("", include(tournaments.money.public_urls)),
    # A person's own record, on their private link.
    path("", include(tournaments.records.urls)),
    # Last: a club's page and its short addresses (/<club>/, /<club>/<event>/).
    path("", include(tournaments.clubs.public_urls)),
]
