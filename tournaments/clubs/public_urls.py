"""A club's public addresses: its page, and its events and series by a
name short enough to type from a projector. Included last: a club's slug is never one
of the site's own first parts (services.clubs.RESERVED_SLUGS)."""

from django.urls import path

from tournaments.clubs import views

app_name = "club_public"
C = "<slug:club>/"
urlpatterns = [
    path(C, views.club_page, name="club"),
    path(C + "series/<slug:slug>/", views.club_series, name="series"),
    path(C + "<slug:slug>/", views.club_event, name="event"),
]
