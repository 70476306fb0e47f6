"""The scorekeeper's tablet (docs/tablet-api.md): the link, the screen, its JSON API."""

from django.urls import path

from tournaments.core.views import tablet as views

app_name = "tablet"
urlpatterns = [
    # The short address a table's code is typed at (issue 23).
    path("", views.take_over, name="code"),
    path("table/", views.table, name="table"),
    path("table/state.json", views.state, name="state"),
    path("table/hands", views.hands, name="hands"),
    path("table/first-dealer", views.first_dealer, name="first_dealer"),
    path("table/undo", views.undo, name="undo"),
    path("table/answer-call", views.answer_call, name="answer_call"),
    path("table/confirm", views.confirm, name="confirm"),
    path("table/pin", views.director_pin, name="pin"),
    path("sw.js", views.service_worker, name="service_worker"),
    # Last: a token never shadows the paths above.
    # Tokens are token_urlsafe(): slug characters only, so anything else (a NUL byte,
    # which PostgreSQL cannot even compare) is a 404 before any query.
    path("<slug:token>/", views.open_link, name="link"),
]
