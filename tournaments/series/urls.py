"""The director's pages across tournaments: series and people (login required)."""

from django.urls import path

from tournaments.series import views as series

app_name = "league"
urlpatterns = [
    path("series/", series.series_list, name="series_list"),
    path("series/<slug:slug>/", series.series_detail, name="series"),
    path("series/<slug:slug>/add/", series.series_add, name="series_add"),
    path("series/<slug:slug>/import/", series.series_import, name="series_import"),
    path("series/<slug:slug>/remove/<slug:tslug>/", series.series_remove, name="series_remove"),
    path("series/<slug:slug>/standings.csv", series.series_csv, name="series_csv"),
    path("series/<slug:slug>/standings.pdf", series.series_pdf_view, name="series_pdf"),
    path("people/", series.people, name="people"),
    path("divisions/<slug:slug>/", series.suggest, name="suggest"),
    path("people/ratings/", series.ratings_recompute, name="ratings"),
    path("people/<id:pk>/", series.person, name="person"),
    path("people/<id:pk>/merge/", series.person_merge, name="person_merge"),
    path("people/<id:pk>/split/", series.person_split, name="person_split"),
    path("people/proposals/<id:pk>/", series.proposal_decide, name="proposal"),
]

T = "<slug:slug>/"
# Turning an event into a rehearsal and back, in the director's namespace.
director_patterns = [
    path(T + "rehearsal/", series.rehearsal, name="rehearsal"),
]
