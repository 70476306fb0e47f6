"""The public, read-only series standings."""

from django.urls import path

from tournaments.series import public_views as series_public

app_name = "series_public"
urlpatterns = [path("<slug:slug>/", series_public.series, name="series")]
