from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from snowman import language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("lang/<str:code>/", language.choose, name="language"),
    path("jsi18n/<str:code>/", language.javascript_catalog, name="javascript_catalog"),
    path("accounts/login/", language.SignIn.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("tournaments.urls")),
]
