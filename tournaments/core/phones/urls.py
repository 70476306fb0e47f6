from django.urls import path

from tournaments.core.phones import views

app_name = "public"
E = "e/<slug:slug>/"
ME = E + "me/<id:player>/"
# The player's private link; tokens are token_urlsafe(): slug characters.
MINE = E + "r/<slug:token>/"
urlpatterns = [
    path("", views.index, name="index"),
    # The players' event page: a short address, printed as a QR code.
    path(E, views.event, name="event"),
    path(E + "find.json", views.find, name="find"),
    path(E + "now.json", views.server_now, name="now"),
    path(E + "qr.svg", views.qr, name="qr"),
    path(E + "standings/", views.standings, name="standings"),
    path(ME, views.card, name="card"),
    path(ME + "card/", views.card_part, name="card_part"),
    path(ME + "ledger/", views.ledger_page, name="ledger"),
    path("p/<slug:slug>/", views.projector, name="projector"),
    path("p/<slug:slug>/standings/", views.projector_standings, name="projector_standings"),
    path("p/<slug:slug>/clock.json", views.clock, name="clock"),
]
