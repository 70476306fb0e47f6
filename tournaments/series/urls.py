"""The director's pages across tournaments: series and people (login required)."""

from django.urls import path

from tournaments.series import views

app_name = "league"
urlpatterns = [
    path("series/", views.series_list, name="series_list"),
    path("series/<slug:slug>/", views.series_detail, name="series"),
    path("series/<slug:slug>/add/", views.series_add, name="series_add"),
    path("series/<slug:slug>/import/", views.series_import, name="series_import"),
    path("series/<slug:slug>/remove/<slug:tslug>/", views.series_remove, name="series_remove"),
    path("series/<slug:slug>/standings.csv", views.series_csv, name="series_csv"),
    path("series/<slug:slug>/standings.pdf", views.series_pdf_view, name="series_pdf"),
    path("people/", views.people, name="people"),
    path("divisions/<slug:slug>/", views.suggest, name="suggest"),
    path("people/ratings/", views.ratings_recompute, name="ratings"),
    path("people/<id:pk>/", views.person, name="person"),
    path("people/<id:pk>/merge/", views.person_merge, name="person_merge"),
    path("people/<id:pk>/split/", views.person_split, name="person_split"),
    path("people/proposals/<id:pk>/", views.proposal_decide, name="proposal"),
]

T = "<slug:slug>/"
# Turning an event into a rehearsal and back, in the director's namespace.
director_patterns = [
    path(T + "rehearsal/", views.rehearsal, name="rehearsal"),
]
