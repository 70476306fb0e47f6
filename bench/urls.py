"""The application's URLs and two reference views for the benches.

``ping``: the floor every request pays (WSGI, middleware, session cookie parsing) with
no database work of its own. ``least_hand``: the least any hand POST can cost on this
stack (issue 22): the table's signed cookie, the JSON body, and the hand path's
statements (the match read under its lock with its entries, the entry's INSERT, the
match's UPDATE, in one transaction) sent as fixed SQL through Django's connection, with
no model instance, no rules and a two-key answer. Whatever the real path does beyond
this is the part a change can still cut.
"""

import itertools
import json
from functools import cache

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.utils import timezone

from tournaments.core.models.play import HandEntry, Match
from tournaments.core.reads.tablet.link import COOKIE, COOKIE_SALT, SESSION_SECONDS


def ping(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


_FIELDS = [f for f in HandEntry._meta.concrete_fields if not f.primary_key]


@cache
def _statements() -> tuple[str, str, str, str]:
    q = connection.ops.quote_name
    entry, match = HandEntry._meta.db_table, Match._meta.db_table
    columns = [f.column for f in _FIELDS]
    lock = f"SELECT * FROM {q(match)} WHERE {q('id')} = %s"
    if connection.features.has_select_for_update:
        lock += " FOR UPDATE"
    return (
        lock,
        f"SELECT * FROM {q(entry)} WHERE {q('match_id')} = %s",
        f"INSERT INTO {q(entry)} ({', '.join(map(q, columns))}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})",
        f"UPDATE {q(match)} SET {q('last_contact_at')} = %s WHERE {q('id')} = %s",
    )


@cache
def _defaults() -> list[object]:
    """Each column's default, worked out once: a real hand's row is built from its values
    alone, and the least hand should not pay more than it does."""
    return [f.get_default() for f in _FIELDS]


_numbers = itertools.count(10_000)


def least_hand(request: HttpRequest, match_id: int, read_id: int) -> HttpResponse:
    """Writes to ``match_id`` (one no tablet posts to) and reads ``read_id``'s row and
    entries (the posting table's match, so the read is a match's size, not the bench's)."""
    if request.get_signed_cookie(COOKIE, salt=COOKIE_SALT, max_age=SESSION_SECONDS) is None:
        return JsonResponse({"error": "no table"}, status=403)
    body = json.loads(request.body)
    lock, entries, insert, update = _statements()
    now = timezone.now()
    number = next(_numbers)
    values = {
        "match_id": match_id,
        "number": number,
        "client_key": f"least-{number}-{body.get('client_key', '')}"[:64],
        "outcome": "played",
        "maker": "N",
        "maker_tricks": 3,
        "dealer": "E",
        "entered_at": now,
        "entered_by": "bench",
        "points_ns": 1,
    }
    row = [values.get(f.column, default) for f, default in zip(_FIELDS, _defaults(), strict=True)]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(lock, [read_id])
        cursor.fetchall()
        cursor.execute(entries, [read_id])
        cursor.fetchall()
        cursor.execute(insert, row)
        cursor.execute(update, [now, match_id])
    return JsonResponse({"number": number, "duplicate": False}, status=201)


urlpatterns = [
    path("bench/ping", ping, name="bench-ping"),
    path("bench/least-hand/<int:match_id>/<int:read_id>", least_hand, name="bench-least-hand"),
    path("", include("snowman.urls")),
]
