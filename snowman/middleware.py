"""Request middleware of the event server: an access log that never writes a tablet
token, and ``Cache-Control: no-store`` on every page that may show one."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import csp.middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

access_log = logging.getLogger("snowman.access")

# A tablet link is /t/<token>/; its fixed neighbours (/t/table/..., /t/sw.js) are kept.
TOKEN_PATH = re.compile(r"/t/(?!table/|table$|sw\.js)[A-Za-z0-9_\-]{8,}")
# The other secrets an address carries: a player's private registration link (its pass:
# withdraw, change, check in), an invitation to a club's staff, and a scanned pass, which
# the desk's scan page looks up by GET (?pass=, the whole link, %-encoded).
SECRET_PATHS = (
    (re.compile(r"(/e/[A-Za-z0-9_\-]+/r/)[A-Za-z0-9_\-]{8,}"), r"\1[token]"),
    (re.compile(r"/join/[A-Za-z0-9_\-]{8,}"), "/join/[token]"),
    (re.compile(r"([?&]pass=)[^&\s]+"), r"\1[token]"),
)


def redact(text: str) -> str:
    text = TOKEN_PATH.sub("/t/[token]", text)
    for pattern, replacement in SECRET_PATHS:
        text = pattern.sub(replacement, text)
    return text


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
# run on its session, an invitation's address is the invitation: none of it may stay in
# a browser's or a proxy's cache.
PRIVATE_PREFIXES = ("/director/", "/t/", "/admin/", "/accounts/", "/join/")


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
        from tournaments.common.hall import client_ip

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


# A response that asks nothing of its own: no per-view policy, no nonce.
_PLAIN = csp.middleware.PolicyParts()


class CSPMiddleware(csp.middleware.CSPMiddleware):
    """django-csp's, with each policy header built once while its setting stays the same.

    Every response but the few with a nonce or a per-view policy gets the header that the
    settings alone decide; django-csp builds it afresh each time (the parts turned into a
    dict, the directives copied, sorted and joined), about a tenth of a trivial request's
    CPU and more of a phone's 304. The rest is django-csp's own, in its order.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        super().__init__(get_response)
        # report_only -> (the setting it was built from, the header); the setting is
        # held, so ``is`` tells a changed setting (a test's override) from the same one.
        self._built: dict[bool, tuple[Any, str]] = {}

    def _policy(self, parts: csp.middleware.PolicyParts, report_only: bool) -> str:
        if parts != _PLAIN:
            return build_policy(**asdict(parts), report_only=report_only)
        name = "CONTENT_SECURITY_POLICY_REPORT_ONLY" if report_only else "CONTENT_SECURITY_POLICY"
        setting = getattr(settings, name, None)
        held = self._built.get(report_only)
        if held is None or held[0] is not setting:
            held = self._built[report_only] = (setting, build_policy(report_only=report_only))
        return held[1]

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.status_code in (500, 404) and settings.DEBUG:
            return response  # django-csp leaves Django's debug pages alone
        for report_only, header, exempt, name in (
            (False, HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (True, HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
        ):
            parts = self.get_policy_parts(
                request=request, response=response, report_only=report_only
            )
            policy = self._policy(parts, report_only)
            if not policy or header in response or getattr(response, exempt, False) is not False:
                continue
            prefixes = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        if getattr(request, "_csp_nonce", None) is None:
            # As django-csp: a nonce asked for once the header is written is an error.
            request.csp_nonce = csp.middleware.CheckableLazyObject(  # type: ignore[attr-defined]
                self._csp_nonce_post_response
            )
        return response
