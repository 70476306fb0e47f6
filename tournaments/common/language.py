"""The reader's language: the cookie the language switch sets, read by LocaleMiddleware on
each request, so a choice costs no query and nothing is stored on the server. The switch's
views are in snowman/language.py."""

from __future__ import annotations

from typing import Literal, cast

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase

CODES = frozenset(code for code, _name in settings.LANGUAGES)


def supported(code: str | None) -> str | None:
    """``code`` if the site is translated into it, else None (a projector's ?lang=)."""
    return code if code in CODES else None


def chosen(request: HttpRequest) -> str | None:
    """The language this reader chose with the switch (the cookie), if any: it comes
    before the event's own language (issue 24). The browser's Accept-Language is no
    choice: an event in Québec reads French first on an English phone, with "English"
    one tap away on the first screen (the active offer)."""
    return supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


def for_event(request: HttpRequest, event_language: str) -> str:
    """The language an event's page reads in: the reader's choice, else the event's."""
    return chosen(request) or supported(event_language) or settings.LANGUAGE_CODE


def with_language_cookie(response: HttpResponseBase, code: str) -> HttpResponseBase:
    """``response`` setting the reader's language cookie (LocaleMiddleware reads it)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=cast(Literal["Lax", "Strict", "None"], settings.LANGUAGE_COOKIE_SAMESITE),
    )
    return response
