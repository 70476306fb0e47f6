"""The prizes' addresses, in the director's and the sheets' namespaces (composed in
tournaments/urls.py)."""

from django.urls import path

from tournaments.prizes import views as prizes

T = "<slug:slug>/"

director_patterns = [
    path(T + "prizes/", prizes.page, name="prizes"),
    path(T + "prizes/<id:pk>/remove/", prizes.remove, name="prize_remove"),
]
sheets_patterns = [
    path(T + "prizes.pdf", prizes.prizes_sheet, name="prizes"),
]
