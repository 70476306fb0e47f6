"""The printed sheets (PDF), for the director; every one takes ?paper=letter|a4."""

from django.urls import path

from tournaments.core.views import sheets as views

app_name = "sheets"
T = "<slug:slug>/"
urlpatterns = [
    path(T + "standings.pdf", views.standings_both, name="standings_both"),
    path(T + "standings/<str:division>.pdf", views.standings, name="standings"),
    path(T + "rounds/<id:number>/seating.pdf", views.seating, name="seating"),
    path(T + "table-cards.pdf", views.table_cards, name="table_cards"),
    path(T + "table-tents.pdf", views.table_tents, name="table_tents"),
    path(T + "rounds/<id:number>/scoresheets.pdf", views.scoresheets, name="scoresheets"),
    path(T + "final.pdf", views.final, name="final"),
]
