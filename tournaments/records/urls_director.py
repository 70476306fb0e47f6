"""A person's record as the club's directors read it; the owner's erasure."""

from django.urls import path

from tournaments.records import views

app_name = "records"
urlpatterns = [
    path("<id:pk>/", views.person, name="person"),
    path("<id:pk>/data.json", views.person_json, name="json"),
    path("<id:pk>/data.csv", views.person_csv, name="csv"),
    path("<id:pk>/erase/", views.erase, name="erase"),
]
