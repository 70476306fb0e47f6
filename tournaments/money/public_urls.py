"""A player's own money, beside their card (/e/<slug>/me/<player>/money/)."""

from django.urls import path

from tournaments.money import views

app_name = "money_public"
urlpatterns = [path("e/<slug:slug>/me/<id:player>/money/", views.own, name="own")]
