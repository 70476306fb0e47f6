"""Where a stored row becomes a rules object or JSON, and back (issue 21's adapter).

Hands: the results file (docs/results-format.md) writes and reads every hand field through
``HAND_FIELDS`` here, so a field the export writes cannot be dropped by the import
again (``defender_alone`` once was, ``dealer_partner_ordered_up`` travelled neither way);
the tablet's hand list spells the same fields through ``hand_fields_json``.

Matches and the clock: a match's history replayed through the rules (``match_state``),
the round's clock and a table's time call (docs/rules.md §7), a hand's awards and the
final's game winners, read alike by the services that write and the readers that show.
The one write here is ``observe_call``'s: the first sight of a table's call is stored as
the table's fact, so the call never moves once seen.

Seats and rules: a seating of the rules becomes its seat rows (``seat_rows``), a
``RuleSettings`` its tournament's columns (``rule_values``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from operator import attrgetter
from typing import Any, cast

from django.utils import timezone

from tournaments.core.db import compiled
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.domain.clock import Pause, RoundClock
from tournaments.domain.hands import Hand, Outcome, Seat, Team, score_hand
from tournaments.domain.match import (
    NO_CLOCK,
    InvalidMatch,
    MatchState,
    Phase,
    PhasedHand,
    TimeCall,
    replay,
    with_winner,
)
from tournaments.domain.rules import RuleSettings
from tournaments.domain.seating import PlayerId, TableSeating

# Every hand field of snowman.results/1, in the order the export writes them.
HAND_FIELDS = (
    "number",
    "dealer",
    "outcome",
    "makers",
    "maker",
    "alone",
    "maker_tricks",
    "renege_by",
    "dealer_partner_ordered_up",
    "defender_alone",
    "phase",
    "points",
)


# The rules' hand as a row stores it (the columns ``hand_of`` reads).
HAND_COLUMNS = (
    "outcome",
    "maker",
    "alone",
    "maker_tricks",
    "renege_by",
    "dealer_partner_ordered_up",
    "defender_alone",
)
SEAT_COLUMNS = ("maker", "renege_by", "defender_alone")  # blank: no seat


def hand_fields(entry: HandEntry) -> dict[str, Any]:
    """The rules' hand of a row, as stored (a form's initial values)."""
    return {name: getattr(entry, name) for name in HAND_COLUMNS}


def hand_fields_json(entry: HandEntry) -> dict[str, Any]:
    """The rules' hand of a row as JSON (a blank seat is null): the fields the tablet's
    hand list and the results file share."""
    return {
        name: (value or None) if name in SEAT_COLUMNS else value
        for name, value in hand_fields(entry).items()
    }


def hand_json(entry: HandEntry) -> dict[str, Any]:
    """One standing hand as the results file holds it: a hand not played has no makers,
    maker or tricks."""
    played = entry.outcome == HandEntry.Outcome.PLAYED
    fields = {
        **hand_fields_json(entry),
        "number": entry.number,
        "dealer": entry.dealer,
        "makers": Seat(entry.maker).team.value if played else None,
        "phase": entry.phase,
        "points": {"NS": entry.points_ns, "EW": entry.points_ew},
    }
    if not played:
        fields |= {"maker": None, "maker_tricks": None}
    return {name: fields[name] for name in HAND_FIELDS}


def hand_of_json(h: dict[str, Any]) -> Hand:
    """The rules' hand of a checked file hand. The two fields newer exports added are
    optional: a file written before them reads as neither."""
    return Hand(
        outcome=Outcome(h["outcome"]),
        maker=Seat(h["maker"]) if h["maker"] else None,
        alone=h["alone"],
        maker_tricks=h["maker_tricks"],
        renege_by=Seat(h["renege_by"]) if h["renege_by"] else None,
        dealer_partner_ordered_up=bool(h.get("dealer_partner_ordered_up", False)),
        defender_alone=Seat(h["defender_alone"]) if h.get("defender_alone") else None,
    )


def hand_of(entry: HandEntry) -> Hand:
    return Hand(
        outcome=Outcome(entry.outcome),
        maker=Seat(entry.maker) if entry.maker else None,
        alone=entry.alone,
        maker_tricks=entry.maker_tricks,
        renege_by=Seat(entry.renege_by) if entry.renege_by else None,
        dealer_partner_ordered_up=entry.dealer_partner_ordered_up,
        defender_alone=Seat(entry.defender_alone) if entry.defender_alone else None,
    )


def entry_of(
    hand: Hand, match: Match | None, number: int, *, dealer: str, **fields: Any
) -> HandEntry:
    """An unsaved entry for ``hand`` (the inverse of ``hand_of``); ``fields`` are the
    entry's own: phase, source, who and when, and so on."""
    return HandEntry(
        match=match,
        number=number,
        outcome=hand.outcome.value,
        maker=hand.maker.value if hand.maker else "",
        alone=hand.alone,
        maker_tricks=hand.maker_tricks,
        renege_by=hand.renege_by.value if hand.renege_by else "",
        dealer_partner_ordered_up=hand.dealer_partner_ordered_up,
        defender_alone=hand.defender_alone.value if hand.defender_alone else "",
        dealer=dealer,
        **fields,
    )


def entry_of_json(h: dict[str, Any], **fields: Any) -> HandEntry:
    """An unsaved entry for a checked file hand; ``fields`` are the entry's own (its
    match, key, source, who and when)."""
    return entry_of(
        hand_of_json(h),
        fields.pop("match", None),
        h["number"],
        dealer=h["dealer"],
        phase=h["phase"],
        points_ns=h["points"]["NS"],
        points_ew=h["points"]["EW"],
        **fields,
    )


def round_clock(rnd: Round, pauses: Sequence[Pause] | None = None) -> RoundClock:
    if pauses is None:
        pauses = (
            [Pause(p.started_at, p.ended_at) for p in rnd.pauses.all()] if rnd.has_pauses else []
        )
    return RoundClock(
        limit=timedelta(minutes=rnd.tournament.round_minutes),
        started_at=rnd.started_at,
        pauses=tuple(pauses),
        called_at=rnd.called_at,
    )


def table_call(match: Match, now: datetime, clock: RoundClock | None = None) -> datetime | None:
    """When time was called for the match's table (docs/rules.md §7), or None while it is not.

    The stored fact wins. Without one: the room's call (the director's) reached every
    table but those it left their extension (their fact stays unwritten), and otherwise
    the table's own limit, as reached by the running clock.
    """
    rnd = match.round
    if rnd.kind == Round.Kind.FINAL or rnd.started_at is None:
        return None
    if match.time_called_at is not None:
        return match.time_called_at
    if rnd.called_at is not None and rnd.called_at <= now and not match.extension_seconds:
        return rnd.called_at
    clock = clock or round_clock(rnd)
    if rnd.called_at is not None:
        # The room's call left this table its extension: its own limit counts.
        clock = replace(clock, called_at=None)
    at = clock.limit_reached_at(timedelta(seconds=match.extension_seconds))
    return at if at is not None and at <= now else None


def coming_call(match: Match, now: datetime, clock: RoundClock | None = None) -> datetime | None:
    """When ``table_call`` will name an instant if nothing else changes: None once time is
    called, before the start, while paused and in the final. The only moment a table's
    state changes with time alone (the tablet's conditional read checks it)."""
    rnd = match.round
    if table_call(match, now, clock) is not None or rnd.kind == Round.Kind.FINAL:
        return None
    if rnd.started_at is None:
        return None
    clock = clock or round_clock(rnd)
    due = []
    if rnd.called_at is not None:
        if not match.extension_seconds:
            due.append(rnd.called_at)
        clock = replace(clock, called_at=None)
    at = clock.limit_reached_at(timedelta(seconds=match.extension_seconds))
    if at is not None:
        due.append(at)
    return min(due, default=None)


def observe_call(match: Match, now: datetime, clock: RoundClock | None = None) -> datetime | None:
    """``table_call``, written as the table's fact the first time it is seen."""
    at = table_call(match, now, clock)
    if at is not None and match.time_called_at is None:
        match.time_called_at = at
        compiled.update_if_null(match, "time_called_at")  # the ORM's UPDATE, compiled once
    return at


def table_remaining(match: Match, now: datetime, clock: RoundClock | None = None) -> timedelta:
    """The table's own countdown: its limit with its extension, zero once called."""
    if table_call(match, now, clock) is not None:
        return timedelta(0)
    clock = clock or round_clock(match.round)
    if match.round.called_at is not None:
        clock = replace(clock, called_at=None)
    return clock.remaining(now, timedelta(seconds=match.extension_seconds))


def regular_through(entries: Sequence[HandEntry], called_at: datetime | None) -> int:
    """K of docs/rules.md §7: the highest hand number entered before the call. An entry undone
    before the call does not count (its number was then still to be played); one undone
    after it does, so its number stays regular when entered again."""
    if called_at is None:
        return 0
    return max(
        (
            e.number
            for e in entries
            if e.phase == HandEntry.Phase.REGULAR
            and not (
                e.state == HandEntry.State.UNDONE
                and e.ended_at is not None
                and e.ended_at <= called_at
            )
        ),
        default=0,
    )


def match_time(
    match: Match,
    now: datetime,
    clock: RoundClock | None = None,
    entries: Sequence[HandEntry] | None = None,
) -> TimeCall:
    """What the table knows of the clock; ``entries`` is the match's whole history (read
    here when time is called and it is not given)."""
    if match.round.kind == Round.Kind.FINAL:
        return NO_CLOCK
    at = observe_call(match, now, clock)
    if at is None:
        return TimeCall(called=False, hand_in_progress=match.hand_in_progress_at_call)
    if entries is None:
        entries = history(match)
    return TimeCall(
        called=True,
        hand_in_progress=match.hand_in_progress_at_call,
        regular_through=regular_through(entries, at),
    )


def individual_awards(
    entry: HandEntry, rules: RuleSettings, *, final: bool = False
) -> dict[Seat, int]:
    """A hand's individual awards and penalties by seat (none in the final, none for an
    entry that no longer reads as a hand)."""
    try:
        hand = hand_of(entry)
    except ValueError:
        return {}
    return score_hand(hand, rules, individual=not final).individual


# A match's entries in the order they happened: by hand number, then, for a number
# entered again after an undo or a correction, by when.
HISTORY_ORDER = ("number", "entered_at", "pk")


_HISTORY = compiled.CompiledSelect(
    lambda match_id: HandEntry.objects.filter(match_id=match_id).order_by()
)


# Where ``_lock(..., history=True)`` leaves the entries it read with the match, for the
# first ``history`` of that match to take.
_READ_WITH_LOCK = "_history_read_with_lock"


def history(match: Match) -> list[HandEntry]:
    """Every entry of the match in order, undone and superseded ones too."""
    # Sorted here rather than by the query: a match's few dozen entries sort in no time,
    # and the statement stays one compiled once (tournaments.compiled).
    read = match.__dict__.pop(_READ_WITH_LOCK, None)
    entries = sorted(_HISTORY(match.pk) if read is None else read, key=attrgetter(*HISTORY_ORDER))
    cache = HandEntry.match.field  # each entry's match is this one, as match.hands gives
    for e in entries:
        cache.set_cached_value(e, match)
    return entries


def standing_of(entries: Sequence[HandEntry]) -> list[HandEntry]:
    return [e for e in entries if e.state == HandEntry.State.STANDING]


def replay_entries(match: Match, entries: Sequence[HandEntry], time: TimeCall) -> MatchState:
    if not match.first_dealer:
        if entries:
            raise InvalidMatch("The first dealer is not recorded.")
        return replay(
            [],
            first_dealer=Seat.N,
            rules=match.round.tournament.rules,
            time=time,
            final=match.round.kind == Round.Kind.FINAL,
        )
    return replay(
        [PhasedHand(hand_of(e), Phase(e.phase)) for e in entries],
        first_dealer=Seat(match.first_dealer),
        rules=match.round.tournament.rules,
        time=time,
        final=match.round.kind == Round.Kind.FINAL,
    )


def match_state(match: Match, now: datetime | None = None) -> MatchState:
    entries = history(match)
    return replay_entries(
        match,
        standing_of(entries),
        match_time(match, now if now is not None else timezone.now(), None, entries),
    )


def as_decided(match: Match, state: MatchState) -> MatchState:
    """The replayed state with the match's winner as decided: under a director's override
    the bonuses, and so the seats' points, follow the overriding winner (docs/rules.md
    §2.2). Every reader of a replay that shows bonuses or points goes through this, as
    the write that stores them does (``services.play.refresh_results``)."""
    if not (state.over and match.has_override and match.winner):
        return state
    return with_winner(state, Team(match.winner), match.round.tournament.rules)


def game_winners(games: Sequence[Match]) -> list[Team | None]:
    """Each final game's winner in order, None for a game still in play."""
    return [Team(g.winner) if g.is_over and g.winner else None for g in games]


def rule_values(rules: RuleSettings) -> dict[str, object]:
    values = {name: getattr(rules, name) for name in Tournament.RULE_FIELDS}
    values["tiebreaks"] = ",".join(rules.tiebreaks)
    values["sit_out_score"] = str(rules.sit_out_score).strip().lower()
    return values


def seat_rows(
    rnd: Round,
    seating: Iterable[TableSeating],
    *,
    only: Iterable[PlayerId] | None = None,
    changed_at: datetime | None = None,
) -> list[Seating]:
    """The seat rows of a seating (the one place they are built): all of them, or only
    the seats of the players in ``only``."""
    keep = None if only is None else set(only)
    return [
        Seating(
            round=rnd,
            table=t.table,
            position=seat.value,
            player_id=cast(int, pid),
            changed_at=changed_at,
        )
        for t in seating
        for seat, pid in t.seats.items()
        if keep is None or pid in keep
    ]
