from django.urls import path

from ..views import public

app_name = "public"
urlpatterns = [
    path("", public.index, name="index"),
    path("p/<slug:slug>/", public.projector, name="projector"),
    path("p/<slug:slug>/standings/", public.projector_standings, name="projector_standings"),
    path("p/<slug:slug>/clock.json", public.clock, name="clock"),
]
