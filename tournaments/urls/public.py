from django.urls import path

from tournaments.views import phone_help, public, registration

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
    # Calling the director from the card (issue 23).
    path(ME + "help.json", phone_help.help_state, name="help_state"),
    path(ME + "help", phone_help.call, name="help"),
    # Registration before the day (issue 26).
    path(E + "register/", registration.register, name="register"),
    path(E + "registrations.signed", registration.signed_list, name="signed_list"),
    path(MINE, registration.registration, name="registration"),
    path(MINE + "withdraw", registration.withdraw, name="registration_withdraw"),
    path(MINE + "answer", registration.answer, name="registration_answer"),
    path(MINE + "qr.svg", registration.pass_qr, name="registration_qr"),
    path("p/<slug:slug>/", public.projector, name="projector"),
    path("p/<slug:slug>/standings/", public.projector_standings, name="projector_standings"),
    path("p/<slug:slug>/clock.json", public.clock, name="clock"),
]
