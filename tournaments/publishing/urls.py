"""Where a hall publishes an event's results (the club site's end)."""

from django.urls import path

from tournaments.publishing import director_views, views

app_name = "publish"
urlpatterns = [path("publish/", views.receive, name="receive")]

T = "<slug:slug>/"
director_patterns = [
    path(T + "publish/", director_views.publish, name="publish"),
    path(T + "publish/settings/", director_views.configure, name="publish_settings"),
]
# The series page's token for a hall, in the league's namespace.
league_patterns = [
    path("series/<slug:slug>/token/", director_views.series_token, name="series_token"),
]
