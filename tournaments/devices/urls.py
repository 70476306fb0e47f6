"""The devices' addresses, in the director's, the players' and the tablet's namespaces
(composed in tournaments/urls.py)."""

from django.urls import path

from tournaments.devices import help_views, phone_views, tablet_views, views

T = "<slug:slug>/"
R = T + "rounds/<id:number>/"
TABLE = R + "tables/<id:table>/"
ME = "e/<slug:slug>/me/<id:player>/"

director_patterns = [
    path(T + "devices/", views.settings, name="devices"),
    path(T + "help/", help_views.page, name="help"),
    path(T + "help/banner/", help_views.banner, name="help_banner"),
    path(T + "help/<id:pk>/<slug:action>/", help_views.answer, name="help_answer"),
    path(TABLE + "code/", views.table_code, name="table_code"),
]
public_patterns = [
    # Calling the director from the card.
    path(ME + "help.json", phone_views.help_state, name="help_state"),
    path(ME + "help", phone_views.call, name="help"),
]
tablet_patterns = [
    path("table/help", tablet_views.call_director, name="help"),
    path("table/help.json", tablet_views.help_state, name="help_state"),
]
