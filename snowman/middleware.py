"""Request middleware of the event server: an access log that never writes a tablet
token, and ``Cache-Control: no-store`` on every page that may show one."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

access_log = logging.getLogger("snowman.access")

# A tablet link is /t/<token>/; its fixed neighbours (/t/table/..., /t/sw.js) are kept.
TOKEN_PATH = re.compile(r"/t/(?!table/|table$|sw\.js)[A-Za-z0-9_\-]{8,}")


def redact(text: str) -> str:
    return TOKEN_PATH.sub("/t/[token]", text)


class RedactTokens(logging.Filter):
    """Rewrites a record's message with tokens replaced: Django's own 'Not Found:
    /t/<token>/' warnings and the access log alike."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


# Director pages show table links and QR codes, sheets print them, the tablet's pages
# run on its session: none of it may stay in a browser's or a proxy's cache.
PRIVATE_PREFIXES = ("/director/", "/t/", "/admin/", "/accounts/")


class NoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(PRIVATE_PREFIXES):
            add_never_cache_headers(response)
        return response


class AccessLogMiddleware:
    """One line a request, first in the chain so it times everything below it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not access_log.isEnabledFor(logging.INFO):
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        from .throttle import client_ip  # the address a trusted proxy saw, or the peer's

        access_log.info(
            "%s %s %s %s %d %.1fms",
            client_ip(request) or "-",
            request.method,
            redact(request.get_full_path()),
            response.status_code,
            len(response.content) if not response.streaming else -1,
            (time.perf_counter() - started) * 1000,
        )
        return response


class RefuseNulMiddleware:
    """A NUL byte in the query string is a 400 for every page: PostgreSQL cannot even
    compare a string holding one, so a search for it would otherwise be a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if any("\x00" in key or "\x00" in value for key, value in request.GET.items()):
            message = "The address contains a NUL character."
            # A phone's or tablet's script reads JSON errors; people read the page.
            if request.path.endswith(".json"):
                return JsonResponse({"error": message}, status=400)
            return render(request, "400.html", {"message": message}, status=400)
        return self.get_response(request)
