"""The money's pages, under each event's director address (/director/<slug>/money/…);
wired in snowman/urls.py, since the core's URLs import no context."""

from django.urls import path

from tournaments.money import views

app_name = "money"
M = "<slug:slug>/money/"
urlpatterns = [
    path(M + "fees/", views.fees, name="fees"),
    path(M + "fees/refund/", views.refund, name="refund"),
    path(M + "fees/fines/", views.fines, name="fines"),
    path(M + "settings/", views.money_settings, name="settings"),
    path(M, views.payout, name="payout"),
    path(M + "lines/<id:pk>/remove/", views.line_remove, name="line_remove"),
    path(M + "confirm/", views.confirm, name="confirm"),
    path(M + "undo-payout/", views.undo_payout, name="undo_payout"),
    path(M + "draw-pots/", views.draw_pots, name="draw_pots"),
    path(M + "drawer/", views.drawer, name="drawer"),
    path(M + "drawer/sponsor/", views.sponsor, name="sponsor"),
    path(M + "drawer/count/", views.count, name="count"),
    path(M + "drawer/fifty/", views.fifty, name="fifty"),
    path(M + "drawer/fifty/draw/", views.fifty_draw, name="fifty_draw"),
    path(M + "drawer/<id:pk>/undo/", views.undo, name="undo"),
    path(M + "money.csv", views.reconciliation_csv, name="csv"),
    path(M + "money.pdf", views.reconciliation_pdf, name="pdf"),
    path(M + "presenter.pdf", views.presenter_pdf, name="presenter"),
    path(M + "certificates.pdf", views.certificates_pdf, name="certificates"),
]
