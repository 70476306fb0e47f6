"""A club's staff page and its invitations (owners; login)."""

from django.urls import path

from tournaments.clubs import views

app_name = "clubs"
C = "<slug:club>/"
urlpatterns = [
    path(C + "staff/", views.staff_page, name="staff"),
    path(C + "staff/invitations/<id:pk>/revoke/", views.revoke, name="revoke"),
    path(C + "staff/<id:pk>/remove/", views.remove, name="remove"),
]
