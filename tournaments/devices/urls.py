"""The devices' addresses, in the director's, the players' and the tablet's namespaces
(composed in tournaments/urls.py)."""

from django.urls import path

from tournaments.devices import help_views as help
from tournaments.devices import phone_views as phone_help
from tournaments.devices import tablet_views
from tournaments.devices import views as devices

T = "<slug:slug>/"
R = T + "rounds/<id:number>/"
TABLE = R + "tables/<id:table>/"
ME = "e/<slug:slug>/me/<id:player>/"

director_patterns = [
    path(T + "devices/", devices.settings, name="devices"),
    path(T + "help/", help.page, name="help"),
    path(T + "help/banner/", help.banner, name="help_banner"),
    path(T + "help/<id:pk>/<slug:action>/", help.answer, name="help_answer"),
    path(TABLE + "code/", devices.table_code, name="table_code"),
]
public_patterns = [
    # Calling the director from the card (issue 23).
    path(ME + "help.json", phone_help.help_state, name="help_state"),
    path(ME + "help", phone_help.call, name="help"),
]
tablet_patterns = [
    path("table/help", tablet_views.call_director, name="help"),
    path("table/help.json", tablet_views.help_state, name="help_state"),
]
