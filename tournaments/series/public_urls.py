"""The public, read-only series standings."""

from django.urls import path

from tournaments.series import public_views

app_name = "series_public"
urlpatterns = [path("<slug:slug>/", public_views.series, name="series")]
