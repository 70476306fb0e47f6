"""Every address of the app, composed from the packages: each namespace (director, sheets,
tablet, public, league…) takes the core's patterns and those of the contexts that add to
it, so a context adds its pages without the core importing it."""

from django.urls import URLPattern, include, path

from tournaments.clubs import public_urls as club_public
from tournaments.clubs import urls as clubs
from tournaments.clubs import views as club_views
from tournaments.core.phones import urls as public
from tournaments.core.urls import director, sheets, tablet
from tournaments.devices import urls as devices
from tournaments.money import public_urls as money_public
from tournaments.money import urls as money
from tournaments.prizes import urls as prizes
from tournaments.publishing import urls as publishing
from tournaments.records import urls as records_public
from tournaments.records import urls_director as records
from tournaments.registration import urls as registration
from tournaments.series import public_urls as series_public
from tournaments.series import urls as series


def namespace(name: str, *lists: list[URLPattern]) -> tuple[list[URLPattern], str]:
    return [pattern for patterns in lists for pattern in patterns], name


urlpatterns = [
    path(
        "director/league/",
        include(namespace("league", series.urlpatterns, publishing.league_patterns)),
    ),
    path("director/clubs/", include(clubs)),
    path("director/records/", include(records)),
    path(
        "director/",
        include(
            namespace(
                "director",
                director.urlpatterns,
                registration.director_patterns,
                publishing.director_patterns,
                prizes.director_patterns,
                devices.director_patterns,
                series.director_patterns,
            )
        ),
    ),
    # The money's pages under each event's address, in their own namespace.
    path("director/", include(money)),
    path(
        "director/sheets/", include(namespace("sheets", sheets.urlpatterns, prizes.sheets_patterns))
    ),
    # The tablet's last pattern takes any token: the contexts' paths come before it.
    path("t/", include(namespace("tablet", devices.tablet_patterns, tablet.urlpatterns))),
    path("series/", include(series_public)),
    path("join/<slug:token>/", club_views.join, name="join"),
    path("results/", include(publishing)),
    path(
        "",
        include(
            namespace(
                "public",
                public.urlpatterns,
                registration.public_patterns,
                devices.public_patterns,
            )
        ),
    ),
    path("", include(money_public)),
    # A person's own record, on their private link.
    path("", include(records_public)),
    # Last: a club's page and its short addresses (/<club>/, /<club>/<event>/).
    path("", include(club_public)),
]
