"""The application's URLs and a trivial view: the floor every request pays (WSGI,
middleware, session cookie parsing) with no database work of its own."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def ping(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/ping", ping, name="bench-ping"),
    path("", include("snowman.urls")),
]
