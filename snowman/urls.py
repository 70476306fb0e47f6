from django.contrib import admin
from django.contrib.auth.views import LogoutView
from django.urls import include, path

from snowman import language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("lang/<str:code>/", language.choose, name="language"),
    path("jsi18n/<str:code>/", language.javascript_catalog, name="javascript_catalog"),
    path("accounts/login/", language.SignIn.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path("", include("tournaments.urls")),
]
