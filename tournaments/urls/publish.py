"""Where a hall publishes an event's results (the club site's end, issue 26)."""

from django.urls import path

from tournaments.views import publish

app_name = "publish"
urlpatterns = [path("publish/", publish.receive, name="receive")]
