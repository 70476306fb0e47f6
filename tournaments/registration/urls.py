"""Registration's addresses, in the director's and the players' namespaces (composed in
tournaments/urls.py)."""

from django.urls import path

from tournaments.registration import desk_views as registrations
from tournaments.registration import views as registration

T = "<slug:slug>/"
E = "e/<slug:slug>/"
# The player's private link; tokens are token_urlsafe(): slug characters.
MINE = E + "r/<slug:token>/"

director_patterns = [
    # Registration before the day (issue 26).
    path(T + "desk/scan/", registrations.scan, name="scan"),
    path(T + "desk/scan/check-in/", registrations.scan_check_in, name="scan_check_in"),
    path(T + "registrations/", registrations.page, name="registrations"),
    path(T + "registrations/settings/", registrations.settings, name="registration_settings"),
    path(T + "registrations/decide/", registrations.decide, name="registration_decide"),
    path(T + "registrations/reorder/", registrations.reorder, name="registration_reorder"),
    path(T + "registrations/revoke/", registrations.revoke, name="registration_revoke"),
    path(T + "registrations/invite/", registrations.invite, name="registration_invite"),
    path(
        T + "registrations/invitations.csv",
        registrations.invitations_csv,
        name="registration_invitations",
    ),
    path(T + "registrations/list.signed", registrations.export_signed, name="registration_export"),
    path(T + "registrations/import/", registrations.import_signed, name="registration_import"),
]
public_patterns = [
    # Registration before the day (issue 26).
    path(E + "register/", registration.register, name="register"),
    path(E + "registrations.signed", registration.signed_list, name="signed_list"),
    path(MINE, registration.registration, name="registration"),
    path(MINE + "withdraw", registration.withdraw, name="registration_withdraw"),
    path(MINE + "answer", registration.answer, name="registration_answer"),
    path(MINE + "qr.svg", registration.pass_qr, name="registration_qr"),
]
