"""The person's own record, on their private link (a registration pass)."""

from django.urls import path

from tournaments.records import views

app_name = "record"
MINE = "e/<slug:slug>/r/<slug:token>/record/"
urlpatterns = [
    path(MINE, views.page, name="page"),
    path(MINE + "choose", views.choose, name="choose"),
    path(MINE + "my-data.json", views.data_json, name="json"),
    path(MINE + "my-data.csv", views.data_csv, name="csv"),
]
