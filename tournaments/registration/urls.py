"""Registration's addresses, in the director's and the players' namespaces (composed in
tournaments/urls.py)."""

from django.urls import path

from tournaments.registration import desk_views, views

T = "<slug:slug>/"
E = "e/<slug:slug>/"
# The player's private link; tokens are token_urlsafe(): slug characters.
MINE = E + "r/<slug:token>/"

director_patterns = [
    # Registration before the day.
    path(T + "desk/scan/", desk_views.scan, name="scan"),
    path(T + "desk/scan/check-in/", desk_views.scan_check_in, name="scan_check_in"),
    path(T + "registrations/", desk_views.page, name="registrations"),
    path(T + "registrations/settings/", desk_views.settings, name="registration_settings"),
    path(T + "registrations/decide/", desk_views.decide, name="registration_decide"),
    path(T + "registrations/reorder/", desk_views.reorder, name="registration_reorder"),
    path(T + "registrations/revoke/", desk_views.revoke, name="registration_revoke"),
    path(T + "registrations/invite/", desk_views.invite, name="registration_invite"),
    path(
        T + "registrations/invitations.csv",
        desk_views.invitations_csv,
        name="registration_invitations",
    ),
    path(T + "registrations/list.signed", desk_views.export_signed, name="registration_export"),
    path(T + "registrations/import/", desk_views.import_signed, name="registration_import"),
]
public_patterns = [
    # Registration before the day.
    path(E + "register/", views.register, name="register"),
    path(E + "registrations.signed", views.signed_list, name="signed_list"),
    path(MINE, views.registration, name="registration"),
    path(MINE + "withdraw", views.withdraw, name="registration_withdraw"),
    path(MINE + "answer", views.answer, name="registration_answer"),
    path(MINE + "qr.svg", views.pass_qr, name="registration_qr"),
]
