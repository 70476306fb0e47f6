"""The version of a table's state: whether anything the tablet shows changed, in one query.

Five hundred tablets read their state every three seconds; a read that finds nothing
changed answers 304 after this one query (docs/tablet-api.md, "Conditional read"). The
version is made of

- the link's liveness (a revoked link answers 403, never 304);
- the newest entry of the activity log that is not about one match (every director
  action on the room: seating, start, pause, resume, time call, finalize, settings,
  players' names and withdrawals, links) and the newest about this table's matches
  (substitutions, extensions, undos, confirmations, corrections);
- this table's matches in the two latest rounds (the current one, the one just played
  while the next is only seated, the final's games) with their version, which every
  hand, undo, answer, first dealer and confirmation raises, their status and extension,
  and the two rounds' status and clock columns.

A hand at another table changes none of it. What moves with time alone (``server_now``,
the seconds left) is not in the version: the tablet counts down from the absolute call
instant, and the one moment the state changes by itself, when the table's time is
called, travels in the ETag (``coming_call``): once it has passed, the read is answered in
full. Nothing is stored per tablet.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection

from tournaments.common.ids import parse_id
from tournaments.core.db.compiled import prepared_cursor
from tournaments.core.models.log import Activity
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round
from tournaments.core.reads import instant_of
from tournaments.core.reads.tablet.link import (
    TableScope,
    _live_link_params,
    _live_link_sql,
    refusal,
)
from tournaments.core.reads.tablet.lookup import shows_previous


@cache
def _version_sql() -> str:
    qn = connection.ops.quote_name
    activity, match, rnd = (qn(model._meta.db_table) for model in (Activity, Match, Round))
    latest = (
        f"SELECT r2.id FROM {rnd} r2 WHERE r2.tournament_id = %s ORDER BY r2.number DESC LIMIT 2"
    )
    table = qn("table")
    return f"""SELECT {_live_link_sql()},
        (SELECT MAX(a.id) FROM {activity} a WHERE a.tournament_id = %s AND a.match_id IS NULL),
        (SELECT MAX(a.id) FROM {activity} a WHERE a.match_id IN (
            SELECT m2.id FROM {match} m2 WHERE m2.{table} = %s AND m2.round_id IN ({latest}))),
        r.id, r.number, r.status, r.started_at, r.called_at, r.has_pauses,
        m.id, m.game, m.version, m.status, m.extension_seconds, m.last_contact_at
    FROM {rnd} r LEFT JOIN {match} m ON m.round_id = r.id AND m.{table} = %s
    WHERE r.id IN ({latest})
    UNION ALL SELECT {_live_link_sql()}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        NULL, NULL, NULL, NULL, NULL, NULL"""


# Columns of a row: 0 live link, 1-2 activity, 3-8 round, 9-14 match (14 is the contact,
# which is not part of the version). The match's ``time_called_at`` is not either: it is
# written when a read first sees the table's limit reached, the instant the ETag holds
# (or by the director's call, which the activity log shows). The last row (no round) is
# there for a tournament without rounds: the link's liveness is in every row.
_ROUND, _NUMBER, _STATUS, _MATCH, _GAME, _CONTACT = 3, 4, 5, 9, 10, 14


@dataclass(frozen=True)
class TableVersion:
    """What one query said: the version's digest, and the current match's contact."""

    digest: str
    match_id: int | None
    last_contact_at: datetime | None

    def etag(self, state: dict[str, Any]) -> str:
        """The ETag of ``state``, read at this version: the digest and the instant its
        table's time call comes if nothing changes (``clock.call_at``), 0 for none."""
        call_at = state["clock"].get("call_at")
        due = int(datetime.fromisoformat(call_at).timestamp() * 1000) if call_at else 0
        return f'"{self.digest}-{due}"'

    def held(self, if_none_match: str, now: datetime) -> str | None:
        """The ETag the tablet holds of this version, if its table's time call has not
        come since (else None: the state must be read again)."""
        now_ms = now.timestamp() * 1000
        for tag in if_none_match.split(","):
            tag = tag.strip().removeprefix("W/")
            digest, _, due = tag.strip('"').partition("-")
            due_ms = parse_id(due, low=0)
            if digest == self.digest and due_ms is not None and (due_ms == 0 or due_ms > now_ms):
                return tag
        return None


def table_version(scope: TableScope) -> TableVersion:
    """The version of the table's state, in one query; Forbidden when the link is dead."""
    latest = (scope.tournament_id,)
    params = [
        *_live_link_params(scope),
        scope.tournament_id,
        scope.table,
        *latest,
        scope.table,
        *latest,
        *_live_link_params(scope),
    ]
    with prepared_cursor() as cursor:
        cursor.execute(_version_sql(), params)
        rows = cursor.fetchall()
    if not rows[0][0]:
        raise refusal(scope)
    rows = sorted(
        (row for row in rows if row[_ROUND] is not None),
        key=lambda row: (row[_NUMBER], row[_GAME] or 0),
    )
    raw = "|".join(":".join(str(v) for v in row[:_CONTACT]) for row in rows)
    digest = hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()
    match_id, contact = _current(rows)
    return TableVersion(digest, match_id, instant_of(contact))


def _current(rows: list[tuple[Any, ...]]) -> tuple[int | None, object]:
    """The current match's id and last contact, chosen as ``lookup.table_rounds`` does."""
    numbers = sorted({row[_NUMBER] for row in rows}, reverse=True)

    def latest_game(number: int) -> tuple[Any, ...] | None:
        games = [r for r in rows if r[_NUMBER] == number and r[_MATCH] is not None]
        return max(games, key=lambda r: r[_GAME]) if games else None

    if not numbers:
        return None, None
    last = next(r for r in rows if r[_NUMBER] == numbers[0])
    current = latest_game(numbers[0])
    previous = latest_game(numbers[1]) if len(numbers) > 1 else None
    chosen = (
        previous
        if shows_previous(last[_STATUS], current is not None, previous is not None)
        else current
    )
    return (chosen[_MATCH], chosen[_CONTACT]) if chosen is not None else (None, None)
