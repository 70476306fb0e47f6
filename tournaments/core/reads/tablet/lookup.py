"""Which match a table's request acts on.

The same link serves the table in every round: the *current match* of a table is its
match in the latest round, except while that round is only seated, when the table still
shows the match just played and tells its players where to go next. A tablet that
queued hands offline names their match instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from tournaments.common.errors import ServiceError
from tournaments.core.db import compiled
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Substitution
from tournaments.core.reads.tablet.link import Forbidden, TableScope


@dataclass(frozen=True)
class TableRounds:
    match: Match | None
    next_round: Round | None


def _latest_rounds(tournament_id: int) -> QuerySet[Round]:
    return Round.objects.filter(tournament_id=tournament_id).order_by("-number")[:2]


def _table_matches(table: int, *round_ids: int) -> QuerySet[Match]:
    return (
        Match.objects.filter(round_id__in=round_ids, table=table)
        .select_related("round__tournament")
        # Whether the state must name earlier holders of a seat (no query when none).
        .annotate(substituted=Exists(Substitution.objects.filter(match=OuterRef("pk"))))
    )


# Compiled once per connection (tournaments/compiled.py): building these two statements
# was most of a full state read's CPU, which every tablet pays at a round's turnover.
_LATEST_ROUNDS = compiled.CompiledSelect(_latest_rounds)
_TABLE_MATCHES = compiled.CompiledSelect(_table_matches)


def table_rounds(scope: TableScope) -> TableRounds:
    """The table's current match, and the seated round its players go to next, if any."""
    rounds = _LATEST_ROUNDS(scope.tournament_id)
    if not rounds:
        return TableRounds(None, None)
    ids = [r.pk for r in rounds]
    matches = {(m.round_id, m.game): m for m in _TABLE_MATCHES(scope.table, *ids, variant=len(ids))}

    def latest(rnd: Round) -> Match | None:
        games = [m for (rid, _), m in sorted(matches.items()) if rid == rnd.pk]
        return games[-1] if games else None

    last = rounds[0]
    current = latest(last)
    previous = latest(rounds[1]) if len(rounds) > 1 else None
    if shows_previous(last.status, current is not None, previous is not None):
        return TableRounds(previous, last)
    return TableRounds(current, None)


def shows_previous(latest_status: str, has_current: bool, has_previous: bool) -> bool:
    """The table still shows its match of the round before the latest: the latest round
    is only seated (or has no match here) and there is a match to show."""
    if has_current and (latest_status != Round.Status.SEATED or not has_previous):
        return False
    return has_previous


def named_match(pk: int) -> int:
    """The id of a match a request names (a whole number, checked by its form), or
    Forbidden when no match can have it."""
    if not 1 <= pk < 2**63:
        # Beyond a bigint PostgreSQL would fail the query; no such match exists anyway.
        raise Forbidden(_("That match is not this table's."))
    return pk


def match_for(scope: TableScope, match_id: int | None = None) -> Match:
    """The match a request acts on: the table's current one, or one it names.

    A tablet that queued hands offline names their match, so a hand entered in one round
    is never recorded into the next; naming another table's match is forbidden.
    """
    if match_id is None:
        match = table_rounds(scope).match
        if match is None:
            raise ServiceError(_("There is no match at this table yet."))
        return match
    pk = named_match(match_id)
    match = Match.objects.select_related("round__tournament").filter(pk=pk).first()
    if (
        match is None
        or match.round.tournament_id != scope.tournament_id
        or match.table != scope.table
    ):
        raise Forbidden(_("That match is not this table's."))
    return match
