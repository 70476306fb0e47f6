"""The one question every public reader asks: may players see this? (RULES.md §5)

The phones' pages and JSON, the projector and the public series page read an event's
figures only through this module: ``of_event`` says which rounds' figures players may
see, ``visible_standings`` ranks the event as players may see it (as it stood after the
last visible round while the standings are hidden); ``services.standings.reveal`` is the
director's action that ends the hiding before the final. The director's pages and exports
read the live standings. tests/test_hidden.py walks every public URL with hidden rounds and
checks that no public reader reads the live standings or the setting itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments.core.models.event import Tournament
from tournaments.core.models.rounds import Round
from tournaments.core.reads import current_round
from tournaments.core.reads.standings import StandingRow, standings
from tournaments.domain.visibility import EVERYTHING, Visibility, visibility

__all__ = [
    "EVERYTHING",
    "SEEN_ACTIVITY",
    "VERSION_COLUMNS",
    "Visibility",
    "of_event",
    "of_version_columns",
    "visible_standings",
]

_NEWEST = object()


def of_event(tournament: Tournament, latest: Round | None | object = _NEWEST) -> Visibility:
    """The event's visibility now; ``latest`` spares the query when the caller already
    read the newest round."""
    newest = current_round(tournament) if latest is _NEWEST else latest
    assert newest is None or isinstance(newest, Round)
    return visibility(
        preliminary_rounds=tournament.preliminary_rounds,
        hide_last=tournament.hide_standings_last_rounds,
        latest_number=newest.number if newest is not None else None,
        latest_is_final=newest is not None and newest.kind == Round.Kind.FINAL,
        final_seeded=tournament.status in (Tournament.Status.FINAL, Tournament.Status.FINISHED),
        revealed=tournament.standings_revealed_at is not None,
    )


# The same question asked inside the public version query (reads/public.version), on
# its tournament row ``t``, so that a 304 still costs one query: the columns ``of_version_columns``
# reads back, in this order.
VERSION_COLUMNS = (
    "t.preliminary_rounds",
    "t.hide_standings_last_rounds",
    "t.status",
    "t.standings_revealed_at",
    "(SELECT r.number || ':' || r.kind FROM tournaments_round r WHERE r.tournament_id = t.id"
    " ORDER BY r.number DESC LIMIT 1)",
)


def of_version_columns(values: Sequence[Any]) -> Visibility:
    """The event's visibility from the values of ``VERSION_COLUMNS``."""
    preliminary, hide_last, status, revealed_at, newest = values
    number, _, kind = (newest or "").partition(":")
    return visibility(
        preliminary_rounds=preliminary,
        hide_last=hide_last,
        latest_number=int(number) if number else None,
        latest_is_final=kind == Round.Kind.FINAL,
        final_seeded=status in (Tournament.Status.FINAL, Tournament.Status.FINISHED),
        revealed=revealed_at is not None,
    )


# What a hidden round's match may tell the phones through the activity log: who sits
# there (a substitute) and its clock (an extension). Its hands, corrections, overrides
# and late syncs change its score, so while standings are hidden a phone's version must
# not move with them (§5: not even *when* a hidden score changed).
SHOWN_MATCH_ACTIONS = ("extend", "substitute", "substitute-replace", "substitute-undo")
# The newest activity players may notice while the standings are hidden: the room's (one
# seek), and that of matches but a hidden round's score changes. Two columns, evaluated
# only for an event that hides rounds; the hidden rounds' matches are looked up once, by
# the event's slug (``%s``): a subquery on ``t`` would be run again for every entry.
SEEN_ACTIVITY = (
    """(CASE WHEN t.hide_standings_last_rounds > 0 THEN (
    SELECT MAX(a.id) FROM tournaments_activity a
    WHERE a.tournament_id = t.id AND a.match_id IS NULL) END)""",
    f"""(CASE WHEN t.hide_standings_last_rounds > 0 THEN (
    SELECT MAX(a.id) FROM tournaments_activity a
    WHERE a.tournament_id = t.id AND a.match_id IS NOT NULL AND (
        a.action IN ({", ".join(f"'{a}'" for a in SHOWN_MATCH_ACTIONS)})
        OR a.match_id NOT IN (
            SELECT m.id FROM tournaments_match m
            JOIN tournaments_round r ON r.id = m.round_id
            JOIN tournaments_tournament h ON h.id = r.tournament_id
            WHERE h.slug = %s
              AND r.number > h.preliminary_rounds - h.hide_standings_last_rounds))) END)""",
)


def visible_standings(
    tournament: Tournament, vis: Visibility | None = None
) -> dict[str, list[StandingRow]]:
    """The standings as players may see them: live, or as they stood after the last
    visible round while hidden."""
    vis = vis if vis is not None else of_event(tournament)
    return standings(tournament, through=vis.through)
