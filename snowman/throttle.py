"""Sign-in throttling on top of django-axes (settings: ``AXES_*``).

Two locks, each for ``AXES_COOLOFF_TIME``: a username from one address after
``AXES_FAILURE_LIMIT`` failures (a director mistyping, or someone guessing one account),
and an address after ``AXES_ADDRESS_FAILURE_LIMIT`` failures over any usernames (password
spraying). Failures while locked are not counted, so a lock cannot be kept alive by
retrying. The client's address is the connection's, or, only when the connection comes
from one of ``TRUSTED_PROXIES``, the last address that proxy saw.
"""

from __future__ import annotations

import shlex
from datetime import datetime
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def _address(request: HttpRequest) -> str:
    # Set on the request by axes' middleware.
    address: str = request.axes_ip_address  # type: ignore[attr-defined]
    return address


def _recent(request: HttpRequest) -> tuple[Any, datetime]:
    threshold = get_cool_off_threshold(request)
    return AccessAttempt.objects.filter(
        ip_address=_address(request), attempt_time__gte=threshold
    ), threshold


def _failures(attempts: Any) -> int:
    n: int = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
    return n


class Handler(AxesDatabaseHandler):
    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """The failures that count against this sign-in, as axes compares them with
        ``AXES_FAILURE_LIMIT``: the username's from this address, or the limit itself
        once the address has used up its own."""
        attempts, _ = _recent(request)
        username = get_client_username(request, credentials)
        pair = _failures(attempts.filter(username=username))
        if _failures(attempts) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            return max(pair, settings.AXES_FAILURE_LIMIT)
        return pair

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """A successful sign-in clears that username's failures from that address only:
        not another director's lock, nor the count against a spraying address."""
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(
            username=username, ip_address=_address(request)
        ).delete()
        return count


def lock_ends(request: HttpRequest, username: str) -> datetime:
    attempts, _ = _recent(request)
    address_locked = _failures(attempts) >= settings.AXES_ADDRESS_FAILURE_LIMIT
    relevant = attempts if address_locked else attempts.filter(username=username)
    last = relevant.aggregate(last=Max("attempt_time"))["last"] or timezone.now()
    return last + settings.AXES_COOLOFF_TIME


def lockout_response(
    request: HttpRequest, original_response: object = None, credentials: dict | None = None
) -> HttpResponse:
    username = get_client_username(request, credentials) or ""
    attempts, _ = _recent(request)
    by_address = _failures(attempts) >= settings.AXES_ADDRESS_FAILURE_LIMIT
    ends = lock_ends(request, username)
    minutes = max(1, round((ends - timezone.now()).total_seconds() / 60 + 0.49))
    context = {
        "username": username,
        # Shown inside a command to copy: the username is whatever was typed.
        "username_arg": shlex.quote(username or "director"),
        "address": _address(request),
        "by_address": by_address,
        "ends": ends,
        "minutes": minutes,
        "limit": settings.AXES_FAILURE_LIMIT,
        "address_limit": settings.AXES_ADDRESS_FAILURE_LIMIT,
        "cooloff_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    response = render(request, "registration/locked.html", context, status=429)
    response["Retry-After"] = str(max(1, int((ends - timezone.now()).total_seconds())))
    return response
