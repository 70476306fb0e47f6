"""The scorekeeper's tablet (docs/tablet-api.md): the link, the screen, its JSON API."""

from django.urls import path

from tournaments.core.views import tablet

app_name = "tablet"
urlpatterns = [
    # The short address a table's code is typed at.
    path("", tablet.take_over, name="code"),
    path("table/", tablet.table, name="table"),
    path("table/state.json", tablet.state, name="state"),
    path("table/hands", tablet.hands, name="hands"),
    path("table/first-dealer", tablet.first_dealer, name="first_dealer"),
    path("table/keeper", tablet.keeper, name="keeper"),
    path("table/undo", tablet.undo, name="undo"),
    path("table/answer-call", tablet.answer_call, name="answer_call"),
    path("table/confirm", tablet.confirm, name="confirm"),
    path("table/pin", tablet.director_pin, name="pin"),
    path("sw.js", tablet.service_worker, name="service_worker"),
    # Last: a token never shadows the paths above.
    # Tokens are token_urlsafe(): slug characters only, so anything else (a NUL byte,
    # which PostgreSQL cannot even compare) is a 404 before any query.
    path("<slug:token>/", tablet.open_link, name="link"),
]
