from django.urls import path

from tournaments.core.phones import views as public

app_name = "public"
E = "e/<slug:slug>/"
ME = E + "me/<id:player>/"
# The player's private link (issue 26); tokens are token_urlsafe(): slug characters.
MINE = E + "r/<slug:token>/"
urlpatterns = [
    path("", public.index, name="index"),
    # The players' event page: a short address, printed as a QR code.
    path(E, public.event, name="event"),
    path(E + "find.json", public.find, name="find"),
    path(E + "now.json", public.server_now, name="now"),
    path(E + "qr.svg", public.qr, name="qr"),
    path(E + "standings/", public.standings, name="standings"),
    path(ME, public.card, name="card"),
    path(ME + "card/", public.card_part, name="card_part"),
    path(ME + "ledger/", public.ledger, name="ledger"),
    path("p/<slug:slug>/", public.projector, name="projector"),
    path("p/<slug:slug>/standings/", public.projector_standings, name="projector_standings"),
    path("p/<slug:slug>/clock.json", public.clock, name="clock"),
]
