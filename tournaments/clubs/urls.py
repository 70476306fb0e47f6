"""A club's staff page and its invitations (owners; login)."""

from django.urls import path

from tournaments.clubs import views as clubs

app_name = "clubs"
C = "<slug:club>/"
urlpatterns = [
    path(C + "staff/", clubs.staff_page, name="staff"),
    path(C + "staff/invitations/<id:pk>/revoke/", clubs.revoke, name="revoke"),
    path(C + "staff/<id:pk>/remove/", clubs.remove, name="remove"),
]
