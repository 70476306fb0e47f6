"""Table links and the table session.

A table's link carries a secret token (``TableLink``); opening it trades the token for a
*table session*: a signed cookie naming the tournament, the table and the link
(``session_value``). Every later request is authorised by that cookie alone, and only
while its link is live, so the director's "revoke and reissue" cuts off every tablet that
holds the old link. The cookie keeps the table session out of the session table: at the
end of a round every tablet writes at once, and the link's row is read anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, cast

from django.db import connection
from django.db.models import BooleanField, Field
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext as _

from tournaments.common.errors import NotFound
from tournaments.common.ids import parse_ids
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import TableLink

# The signed cookie that holds a table session, and its signing salt.
COOKIE = "snowman_table"
COOKIE_SALT = "snowman.tablet.session"
# A tournament day is long; a tablet should not have to rescan its card at lunch.
SESSION_SECONDS = 18 * 60 * 60


def shown(code: str | None) -> str:
    """A table code (``services.table_codes`` issues them) as printed and shown: two
    groups of three (``K7M Q2P``)."""
    return f"{code[:3]} {code[3:]}" if code else ""


class Forbidden(Exception):
    """No live table session, or a request for another table's data (HTTP 403)."""

    def __init__(self, message: str, *, revoked: bool = False, replaced: bool = False) -> None:
        self.message = message
        self.revoked = revoked or replaced
        # Another device took the table over with its code (issue 23): this one must
        # send nothing it still holds.
        self.replaced = replaced
        super().__init__(message)


@dataclass
class TableScope:
    tournament_id: int
    table: int
    link_id: int
    # The link's device when the session was opened (``TableLink.device``).
    device: int = 1

    @property
    def actor(self) -> str:
        return f"Table {self.table} tablet"

    @cached_property
    def tournament(self) -> Tournament:
        return Tournament.objects.get(pk=self.tournament_id)

    def knows(self, tournament: Tournament) -> None:
        """Take the tournament read with a match, which spares reading it again."""
        if tournament.pk == self.tournament_id:
            self.__dict__["tournament"] = tournament


# --- links and the session -------------------------------------------------------------


def open_link(token: str) -> TableScope:
    """The table a link's token opens; Forbidden for a revoked link."""
    link = TableLink.objects.filter(token=token).first() if token and len(token) <= 64 else None
    if link is None:
        raise NotFound(_("Unknown table link."))
    if link.revoked_at is not None:
        raise Forbidden(
            _("This table link was revoked. Ask the director for the table's new QR code."),
            revoked=True,
        )
    return TableScope(link.tournament_id, link.table, link.pk, link.device)


def taken_over(link: TableLink) -> TableScope:
    """The scope of the device that just took the table over (``table_codes.take_over``)."""
    return TableScope(link.tournament_id, link.table, link.pk, link.device)


def session_value(scope: TableScope) -> str:
    """What the table session's cookie holds (signed by the view that sets it)."""
    return f"{scope.tournament_id}:{scope.table}:{scope.link_id}:{scope.device}"


REVOKED = "This tablet's table link was revoked. Scan the table's new QR code."
REPLACED = (
    "Another device took this table over with the table code. This tablet sends nothing "
    "more: enter hands on the new device, or take the table back with the code."
)


def refusal(scope: TableScope) -> Forbidden:
    """Why the session's link check failed: the table was taken over by another device
    (the link is live, its device moved on) or the link was revoked. Only a refused
    request asks (one query)."""
    replaced = (
        TableLink.objects.live()
        .filter(pk=scope.link_id, tournament_id=scope.tournament_id, table=scope.table)
        .exclude(device=scope.device)
        .exists()
    )
    return Forbidden(REPLACED, replaced=True) if replaced else Forbidden(REVOKED, revoked=True)


def scope_of(value: str | None, *, check_link: bool = True) -> TableScope:
    """The table a session cookie's (verified) value may see; Forbidden when there is
    none or, unless the caller checks it later (``live_link``), its link is dead."""
    parts = parse_ids((value or "").split(":"), low=0)
    if parts is not None and len(parts) == 3:
        parts.append(1)  # a session opened before table codes: the link's first device
    if parts is None or len(parts) != 4:
        raise Forbidden(_("This tablet is not linked to a table. Scan the table's QR code."))
    scope = TableScope(*parts)
    if check_link:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {_live_link_sql()}", _live_link_params(scope))
            if not cursor.fetchone()[0]:
                raise refusal(scope)
    return scope


# The link-is-live condition, written out once for the session check and for the lock's
# query: Django takes about 0.4 ms to resolve an ``Exists()`` subquery on every call, as
# long as the rest of the lock's query, on the busiest request of the day.
@cache
def _live_link_sql() -> str:
    qn = connection.ops.quote_name
    # Concrete fields of the link's own table (never a reverse relation): the cast is safe.
    column = {
        f: qn(str(cast("Field[Any, Any]", TableLink._meta.get_field(f)).column))
        for f in ("id", "tournament", "table", "revoked_at", "device")
    }
    return (
        f"EXISTS (SELECT 1 FROM {qn(TableLink._meta.db_table)} WHERE {column['id']} = %s"
        f" AND {column['tournament']} = %s AND {column['table']} = %s"
        f" AND {column['revoked_at']} IS NULL AND {column['device']} = %s)"
    )


def _live_link_params(scope: TableScope) -> tuple[int, int, int, int]:
    return (scope.link_id, scope.tournament_id, scope.table, scope.device)


def live_link(scope: TableScope) -> RawSQL:
    """The session's link is live, as a condition to check inside another query."""
    return RawSQL(_live_link_sql(), _live_link_params(scope), output_field=BooleanField())
