"""The printed sheets (PDF), for the director; every one takes ?paper=letter|a4."""

from django.urls import path

from tournaments.core.views import sheets

app_name = "sheets"
T = "<slug:slug>/"
urlpatterns = [
    path(T + "standings.pdf", sheets.standings_both, name="standings_both"),
    path(T + "standings/<str:division>.pdf", sheets.standings_pdf, name="standings"),
    path(T + "rounds/<id:number>/seating.pdf", sheets.seating_pdf, name="seating"),
    path(T + "table-cards.pdf", sheets.table_cards_pdf, name="table_cards"),
    path(T + "table-tents.pdf", sheets.table_tents_pdf, name="table_tents"),
    path(T + "rounds/<id:number>/scoresheets.pdf", sheets.scoresheets_pdf, name="scoresheets"),
    path(T + "final.pdf", sheets.final_pdf, name="final"),
]
