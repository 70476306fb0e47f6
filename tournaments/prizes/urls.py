"""The prizes' addresses, in the director's and the sheets' namespaces (composed in
tournaments/urls.py)."""

from django.urls import path

from tournaments.prizes import views

T = "<slug:slug>/"

director_patterns = [
    path(T + "prizes/", views.page, name="prizes"),
    path(T + "prizes/<id:pk>/remove/", views.remove, name="prize_remove"),
]
sheets_patterns = [
    path(T + "prizes.pdf", views.prizes_sheet, name="prizes"),
]
