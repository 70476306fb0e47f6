from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from snowman import language
from tournaments.views import clubs

urlpatterns = [
    path("admin/", admin.site.urls),
    path("lang/<str:code>/", language.choose, name="language"),
    path("jsi18n/<str:code>/", language.javascript_catalog, name="javascript_catalog"),
    path("accounts/login/", language.SignIn.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("director/league/", include("tournaments.urls.league")),
    path("director/records/", include("tournaments.records.urls_director")),
    path("director/clubs/", include("tournaments.urls.clubs")),
    path("director/", include("tournaments.urls.director")),
    path("director/sheets/", include("tournaments.urls.sheets")),
    path("t/", include("tournaments.urls.tablet")),
    path("series/", include("tournaments.urls.series_public")),
    path("join/<slug:token>/", clubs.join, name="join"),
    path("results/", include("tournaments.urls.publish")),
    path("", include("tournaments.urls.public")),
    # A person's own record, on their private link (issue 35).
    path("", include("tournaments.records.urls")),
    # Last: a club's page and its short addresses (/<club>/, /<club>/<event>/).
    path("", include("tournaments.urls.club_public")),
]
