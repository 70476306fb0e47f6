"""Where a hall publishes an event's results (the club site's end, issue 26)."""

from django.urls import path

from tournaments.publishing import director_views as publish_director
from tournaments.publishing import views as publish

app_name = "publish"
urlpatterns = [path("publish/", publish.receive, name="receive")]

T = "<slug:slug>/"
director_patterns = [
    path(T + "publish/", publish_director.publish, name="publish"),
    path(T + "publish/settings/", publish_director.configure, name="publish_settings"),
]
# The series page's token for a hall, in the league's namespace.
league_patterns = [
    path("series/<slug:slug>/token/", publish_director.series_token, name="series_token"),
]
