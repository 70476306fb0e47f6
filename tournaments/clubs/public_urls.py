"""A club's public addresses (issue 25): its page, and its events and series by a
name short enough to type from a projector. Included last: a club's slug is never one
of the site's own first parts (services.clubs.RESERVED_SLUGS)."""

from django.urls import path

from tournaments.clubs import views as clubs

app_name = "club_public"
C = "<slug:club>/"
urlpatterns = [
    path(C, clubs.club_page, name="club"),
    path(C + "series/<slug:slug>/", clubs.club_series, name="series"),
    path(C + "<slug:slug>/", clubs.club_event, name="event"),
]
