"""What players' phones and the projector read: the event, a player's card and ledger,
the standings as the public may see them, and the version that says whether any of it
changed.

Vocabulary: the *version* of a public answer is a short string computed by one query
from rows the services already keep (the activity log's newest entry, the results of
the latest rounds, one player's seat and match); a phone that sends it back in
If-None-Match gets 304 without any other work. Nothing per phone is stored. Standings
are *hidden* during the last N preliminary rounds (docs/rules.md §5): from the moment round
``P - N + 1`` is seated until they are revealed, every public answer shows the totals and
ranks as they stood after round ``P - N``, marked, and no figure of a hidden round, nor does
its version move with one. Every reader here asks ``reads.visibility``.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.common import bilingual
from tournaments.common.names import fold, public_name, sort_key
from tournaments.core.db.compiled import prepared_cursor
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round
from tournaments.core.reads import current_round, instant_of
from tournaments.core.reads.visibility import (
    SEEN_ACTIVITY,
    VERSION_COLUMNS,
    of_event,
    of_version_columns,
)
from tournaments.core.reads.visibility import Visibility as Visibility
from tournaments.core.replay import coming_call, round_clock, table_call
from tournaments.domain.hands import SEATS, Seat

OVER = ("finished", "confirmed", "disputed")
SEARCH_MAX_LENGTH = 60
SEARCH_MIN_LETTERS = 2
SEARCH_LIMIT = 25

# --- names -------------------------------------------------------------------------------

# Every name here is as public pages show it (``names.public_name``): the short form unless
# the player's person chose the full name. The choice, as a column of a query on
# ``tournaments_player p`` (NULL for a player of no person: shown short), and for the ORM.
_FULL_NAME = (
    "(SELECT pe.public_full_name FROM tournaments_personlink l "
    "JOIN tournaments_person pe ON pe.id = l.person_id WHERE l.player_id = p.id)"
)
FULL_NAME = "person_link__person__public_full_name"


def full_named(tournament: Tournament) -> frozenset[int]:
    """The players of the event whose person chose the full name on public pages."""
    return frozenset(
        Player.objects.filter(tournament=tournament, **{FULL_NAME: True}).values_list(
            "pk", flat=True
        )
    )


# --- the version ------------------------------------------------------------------------

# Each part is a scalar subquery on the tournament row ``t``; an answer names the parts
# it depends on, so a hand at table 7 does not wake the phones of table 8. While the
# standings are hidden (§5), nothing a hidden round's score does enters a version: a
# phone cannot tell even when a hidden score changed, let alone recover it from the ETag.
_ACTIVITY = "(SELECT MAX(a.id) FROM tournaments_activity a WHERE a.tournament_id = t.id)"


# The results of the two latest rounds, one round each (earlier rounds change only
# through logged corrections): "number:kind:matches over:weighted sum"; the sum is
# weighted by the match id so that two changes cannot cancel.
def _results_of(newest: int) -> str:
    return f"""(SELECT r.number || ':' || r.kind || ':' || (
        SELECT COUNT(*) || ':' || COALESCE(SUM(m.id * (
            m.score_ns * 7 + m.score_ew * 13 + m.bonus_ns * 17 + m.bonus_ew * 19
            + m.hands_played * 23)), 0)
        FROM tournaments_match m
        WHERE m.round_id = r.id AND m.status IN ({", ".join(f"'{s}'" for s in OVER)}))
    FROM tournaments_round r WHERE r.tournament_id = t.id
    ORDER BY r.number DESC LIMIT 1 OFFSET {newest})"""


# The final's games, hand by hand (the final has no clock and is shown live).
_FINAL = """(SELECT COUNT(*) || ':' || COALESCE(SUM(m.id * (
        m.score_ns * 7 + m.score_ew * 13 + m.hands_played * 23)), 0)
    FROM tournaments_match m JOIN tournaments_round r ON r.id = m.round_id
    WHERE r.tournament_id = t.id AND r.kind = 'final')"""
# The player (a forged id answers NULL) and their latest seat and match:
# "seat:match:round number:round kind:table:position|the match's score". The player's name,
# division and house mark ("h" for a house player) come with it: the seat-first card
# (``seat_card``) is built from this query alone.
_PLAYER = f"""(SELECT p.id || ':' || p.division || ':' || (CASE WHEN p.house THEN 'h' ELSE '' END)
    || ':' || (CASE WHEN {_FULL_NAME} THEN 'f' ELSE '' END)
    || ':' || p.name FROM tournaments_player p WHERE p.id = %s AND p.tournament_id = t.id)"""
_CARD = """(SELECT s.id || ':' || COALESCE(m.id, 0) || ':' || r.number || ':' || r.kind
        || ':' || s."table" || ':' || s.position
        || '|' || COALESCE(m.hands_played, 0)
        || ':' || COALESCE(m.score_ns, 0) || ':' || COALESCE(m.score_ew, 0)
        || ':' || COALESCE(m.status, '') || ':' || COALESCE(m.winner, '')
    FROM tournaments_seating s
    JOIN tournaments_round r ON r.id = s.round_id
    LEFT JOIN tournaments_match m ON m.round_id = s.round_id AND m."table" = s."table"
    WHERE s.player_id = %s AND r.tournament_id = t.id
    ORDER BY r.number DESC, m.game DESC LIMIT 1)"""

# Each part's columns, and what of their values players may see.
PARTS: dict[str, tuple[str, ...]] = {
    "activity": (_ACTIVITY, *SEEN_ACTIVITY),
    "results": (_results_of(0), _results_of(1)),
    "final": (_FINAL,),
}


def _round_shown(number: str, kind: str, vis: Visibility) -> bool:
    return vis.shows_round(int(number), final=kind == Round.Kind.FINAL)


def _results_shown(raw: str | None, vis: Visibility) -> str | None:
    """A round's results ("number:kind:over:sum") as players may see them: of a hidden
    round, how many matches are over, not their scores."""
    if raw is None:
        return None
    number, kind, over, _ = raw.split(":")
    return raw if _round_shown(number, kind, vis) else f"{number}:{kind}:{over}"


def _seat_shown(raw: str | None, vis: Visibility) -> str | None:
    """A player's latest seat and match ("seat:match:number:kind:table:position|score")
    as players may see it: in a hidden round, the seat alone."""
    if raw is None:
        return None
    seat, _, _ = raw.partition("|")
    _, _, number, kind, _, _ = seat.split(":")
    return raw if _round_shown(number, kind, vis) else seat


def _part_values(part: str, values: Sequence[Any], vis: Visibility) -> list[Any]:
    if part == "activity":
        everything, *seen = values
        return [seen if vis.hidden else everything]
    if part == "results":
        return [_results_shown(v, vis) for v in values]
    return list(values)


@dataclass(frozen=True)
class Version:
    tournament_id: int
    etag: str
    player_known: bool
    # Read in the same query: a page's language costs no query of its own.
    language: str = "en"
    # With a player: who they are and their latest seat, read in the same query
    # (``seat_card``).
    player: tuple[int, str, bool, str] | None = None  # id, division, house, name
    seat: LatestSeat | None = None


@dataclass(frozen=True)
class LatestSeat:
    """A player's latest seat, as the phone's card names it."""

    round: int
    final: bool
    table: int
    position: str
    # In the event's latest round: the card shows this seat (else the round the player
    # sits out, or is not seated in).
    latest: bool

    @property
    def key(self) -> str:
        """What the card says of it in ``data-round`` and ``data-seat`` ("3:12N"), and
        what the phone sends back in its ``X-Snowman-Seat`` header."""
        return f"{self.round}:{self.table}{self.position}"


def _player_of(raw: str | None) -> tuple[int, str, bool, str] | None:
    if raw is None:
        return None
    pk, division, house, full, name = raw.split(":", 4)
    return int(pk), division, house == "h", public_name(name, full == "f")


def _seat_of(raw: str | None, newest: str | None) -> LatestSeat | None:
    """The player's latest seat from ``_CARD``; ``newest`` is the event's newest round
    ("number:kind"), which ``VERSION_COLUMNS`` reads in the same row."""
    if raw is None:
        return None
    _, _, number, kind, table, position = raw.partition("|")[0].split(":")
    latest = number == (newest or "").partition(":")[0]
    return LatestSeat(int(number), kind == Round.Kind.FINAL, int(table), position, latest)


def version(slug: str, parts: tuple[str, ...], player_id: int | None = None) -> Version | None:
    """One query: None for an unknown event, else the version of the named parts as
    players may see them."""
    columns = [*VERSION_COLUMNS]
    for p in parts:
        columns += PARTS[p]
    # A part's "%s" is the event's slug.
    params: list[Any] = [slug for c in columns for _ in range(c.count("%s"))]
    if player_id is not None:
        columns += [_PLAYER, _CARD]
        params += [player_id, player_id]
    sql = (
        f"SELECT {', '.join(['t.id', 't.language', *columns])} "
        "FROM tournaments_tournament t WHERE t.slug = %s"
    )
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*params, slug])
        row = cursor.fetchone()
    if row is None:
        return None
    language = row[1]
    row = (row[0], *row[2:])
    at = 1 + len(VERSION_COLUMNS)
    vis = of_version_columns(row[1:at])
    shown: list[Any] = [row[0], vis.through]
    for p in parts:
        width = len(PARTS[p])
        shown += _part_values(p, row[at : at + width], vis)
        at += width
    who = seat = None
    if player_id is not None:
        shown += [row[at], _seat_shown(row[at + 1], vis)]
        # The newest round is the last of VERSION_COLUMNS.
        who, seat = _player_of(row[at]), _seat_of(row[at + 1], row[len(VERSION_COLUMNS)])
    raw = "|".join(str(v) for v in shown)
    digest = hashlib.blake2b(raw.encode(), digest_size=9).hexdigest()
    known = player_id is None or who is not None
    return Version(row[0], f'"{digest}"', known, language, player=who, seat=seat)


# --- hiding -----------------------------------------------------------------------------


# The name the public views call.
latest_round = current_round


def visibility(tournament: Tournament, latest: Round | None) -> Visibility:
    """What players may see now (docs/rules.md §5), for the views."""
    return of_event(tournament, latest)


def standings_hidden(tournament: Tournament, latest: Round | None) -> bool:
    """True while no public answer may show a total or a rank (docs/rules.md §5)."""
    return of_event(tournament, latest).hidden


# --- finding yourself -------------------------------------------------------------------


class BadSearch(ValueError):
    """A search string the page refuses, with the message to show."""


def clean_query(query: str) -> str:
    if len(query) > SEARCH_MAX_LENGTH:
        raise BadSearch(_("Type at most %(n)d letters of your name.") % {"n": SEARCH_MAX_LENGTH})
    if any(unicodedata.category(c).startswith("C") for c in query):
        raise BadSearch(_("Type letters of your name only."))
    return " ".join(fold(query).split())


@dataclass(frozen=True)
class Found:
    pk: int
    name: str
    division: str
    withdrawn: bool
    house: bool = False  # marked "house" in place of a division (§6)


def search_players(tournament: Tournament, query: str) -> list[Found]:
    """Players whose name holds every word typed, in any order, as the start of a word
    or anywhere when the word is long enough to be telling."""
    words = clean_query(query).split()
    if sum(len(w) for w in words) < SEARCH_MIN_LETTERS:
        return []
    found = []
    rows = Player.objects.filter(tournament=tournament).values_list(
        "pk", "name", "division", "withdrawn", "house", FULL_NAME
    )
    for pk, full_name, division, withdrawn, house, full in rows:
        # Matched on the name as shown: a shortened surname ("T.") is met by any word
        # typed with its initial, so "marie tremblay" finds Marie T. and tells no more.
        name = public_name(full_name, bool(full))
        starts = fold(name).split()
        initials = {s[0] for s in starts if len(s) == 2 and s.endswith(".")}
        # "jeanluc" finds Jean-Luc: a telling word may run across the name's word breaks.
        joined = "".join(starts)
        if all(
            any(s.startswith(w) for s in starts)
            or (len(w) >= 3 and w in joined)
            or w[0] in initials
            for w in words
        ):
            found.append(Found(pk, name, division, withdrawn, house))
    return sorted(found, key=lambda f: sort_key(f.name))[:SEARCH_LIMIT]


# --- the card ---------------------------------------------------------------------------

SEAT_NAMES = {
    "N": gettext_lazy("North"),
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
}


def round_label(rnd: Round) -> str:
    """ "Round 3" or "Final" in the reader's language (the ledger's lines, the projector)."""
    if rnd.kind == Round.Kind.FINAL:
        return _("Final")
    return _("Round %(n)s") % {"n": rnd.number}


def house_named(name: str, house: bool) -> str:
    """A name as the card and the ledger list it: a house player marked so (§6)."""
    return f"{name} ({bilingual.house()})" if house else name


@dataclass(frozen=True)
class Chair:
    position: str
    name: str
    role: str  # "you", "partner" or "opponent"
    team: str  # "NS" or "EW"
    withdrawn: bool = False
    house: bool = False  # §6: a stand-in, marked "house"

    # The card's words for the chair, in the reader's language: worded here rather than
    # by a chain of template tags, since every phone asks for its card at once when a
    # round is seated (a third of the card's rendering).
    @property
    def position_name(self) -> str:
        return str(SEAT_NAMES[self.position])

    @property
    def who(self) -> str:
        return _("You") if self.role == "you" else self.name

    @property
    def label(self) -> str:
        return house_named(self.name, self.house)

    @property
    def role_text(self) -> str:
        said = {"partner": _("partner"), "opponent": _("opponent")}.get(self.role, "")
        marks = [str(bilingual.house())] if self.house else []
        marks += [_("withdrawn")] if self.withdrawn else []
        return " · ".join([said, *marks]) if said else " · ".join(marks)


CLOCK_STATES = {
    "called": gettext_lazy("Time is called"),
    "paused": gettext_lazy("Paused"),
    "not_started": gettext_lazy("Not started"),
    "finished": gettext_lazy("Round over"),
}


@dataclass(frozen=True)
class Clock:
    """The phone's clock: absolute instants, so the answer stays the same until the
    director changes something (the phone counts down from ``call_at`` itself)."""

    kind: str  # "none", "not_started", "running", "paused", "called", "finished", "final"
    limit_seconds: int = 0
    remaining_seconds: int = 0
    call_at: datetime | None = None

    @property
    def state_text(self) -> str:
        return str(CLOCK_STATES.get(self.kind, _("Time left")))


@dataclass(frozen=True)
class Card:
    tournament: Tournament
    player: Player
    round: Round | None
    table: int | None = None
    position: str | None = None
    chairs: tuple[Chair, ...] = ()
    changed: bool = False
    us: int | None = None
    them: int | None = None
    hands: int = 0
    match_status: str = ""
    won: bool | None = None
    clock: Clock = field(default_factory=lambda: Clock("none"))
    # Why a player has no seat in the round: "sat_out" (a sit-out of §6, scored),
    # "not_checked_in" (registered, never came to the desk), "waiting" (checked in after
    # the round was seated), "left" (a substitute took the seat at ``left_table`` from
    # hand ``left_from``), or "" (withdrawn, house, the final).
    absent: str = ""
    withdrawn_after: int | None = None
    left_table: int | None = None
    left_from: int | None = None
    # The round's scores are hidden from players (§5): the card shows none.
    score_hidden: bool = False
    # The new seat alone (``seat_card``): the phone asks for the whole card next.
    partial: bool = False

    @property
    def sitting_out(self) -> bool:
        return self.absent == "sat_out"

    @property
    def match_over(self) -> bool:
        """The player's match is over (the phone then asks at the fast pace)."""
        return self.match_status in ("finished", "confirmed", "disputed")

    @property
    def position_name(self) -> str:
        return str(SEAT_NAMES.get(self.position or "", ""))

    @property
    def team(self) -> str:
        return "NS" if self.position in ("N", "S") else "EW"

    @property
    def partner(self) -> Chair | None:
        return next((c for c in self.chairs if c.role == "partner"), None)

    @property
    def opponents(self) -> list[Chair]:
        return [c for c in self.chairs if c.role == "opponent"]


def player_of(tournament: Tournament, player_id: int) -> Player | None:
    """The player as public pages show them: their public name (``names.public_name``)."""
    row = _one(
        "SELECT id, name, division, withdrawn, checked_in, house, withdrawn_after_round, "
        f"{_FULL_NAME} FROM tournaments_player p WHERE id = %s AND tournament_id = %s",
        [player_id, tournament.pk],
    )
    if row is None:
        return None
    pk, name, division, withdrawn, checked_in, house, after, full = row
    return Player(
        pk=pk,
        tournament=tournament,
        name=public_name(name, bool(full)),
        division=division,
        withdrawn=bool(withdrawn),
        checked_in=bool(checked_in),
        house=bool(house),
        withdrawn_after_round=after,
    )


# The card is what 2,000 phones fetch at once when a round is seated, so it is read with
# plain SQL (compiling the ORM's queries cost more than running them), through the
# prepared cursor (prepared once per connection on PostgreSQL).
def _one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


def _all(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def running_at_hall(tournament: Tournament) -> bool:
    """A running event this site holds as the hall publishes it (``imported_from``): its
    clock runs at the hall, with pauses and calls this copy never hears of, and its round
    "started" when the last file came. No page here shows a clock for it."""
    return tournament.status != Tournament.Status.FINISHED and hasattr(tournament, "imported_from")


def _clock(rnd: Round, now: datetime, table: Match | None = None) -> Clock:
    """The clock a phone shows: its table's (``table``: the player's match, with its
    extension and its call as the tablet reads them, ``replay.table_call``), else the
    room's; none for an event whose clock runs at a hall (``running_at_hall``)."""
    if running_at_hall(rnd.tournament):
        return Clock("none")
    if rnd.kind == Round.Kind.FINAL:
        return Clock("final")
    rnd_clock = round_clock(rnd)
    limit = int(rnd_clock.limit.total_seconds())
    if rnd.status == Round.Status.FINISHED:
        return Clock("finished", limit)
    if not rnd_clock.started:
        return Clock("not_started", limit, limit)
    if table is None:
        if rnd.called_at is not None and rnd.called_at <= now:
            return Clock("called", limit, 0, rnd.called_at)
        if rnd_clock.paused(now):
            return Clock("paused", limit, int(rnd_clock.remaining(now).total_seconds()))
        return Clock("running", limit, 0, rnd_clock.call_instant(now))
    # A room's call leaves an extended table its extension (docs/rules.md §7): that
    # table plays on, and its phones count down with its tablet.
    called = table_call(table, now, rnd_clock)
    if called is not None:
        return Clock("called", limit, 0, called)
    own = replace(rnd_clock, called_at=None)
    extension = timedelta(seconds=table.extension_seconds)
    if own.paused(now):
        return Clock("paused", limit, int(own.remaining(now, extension).total_seconds()))
    # Running: the call instant does not move while nothing changes, and the phone
    # shows "time is called" by itself when it passes.
    return Clock("running", limit, 0, coming_call(table, now, rnd_clock))


def withdrawn_after(player: Player) -> int | None:
    """The round a withdrawn player is marked "withdrawn after" (0: before any), as the
    withdrawal stored it (``reads.players.last_round_played``): the director's pages,
    the sheets and the final read the same field, so no page contradicts another."""
    return (player.withdrawn_after_round or 0) if player.withdrawn else None


# The round's columns the card reads, in its query's order.
_ROUND_COLUMNS = ("pk", "number", "kind", "status", "started_at", "called_at", "has_pauses")


def _round_of(tournament: Tournament, values: Sequence[Any]) -> Round:
    """A round from its columns as a raw cursor reads them."""
    fields = dict(zip(_ROUND_COLUMNS, values, strict=True))
    for moment in ("started_at", "called_at"):
        fields[moment] = instant_of(fields[moment])
    return Round(tournament=tournament, **{**fields, "has_pauses": bool(fields["has_pauses"])})


def seat_card(tournament_id: int, ver: Version, shown: str) -> Card | None:
    """The card of a phone that shows another seat than the player's seat in the event's
    latest round (``shown`` is its ``LatestSeat.key``): that seat alone, from the version
    query, no query more. None when the phone shows that seat, or the player has none in
    the latest round (the whole card says why).

    At a round's turnover every phone asks at once (docs/history/performance.md §9.10): the new
    seat first, at the cost of a 304, and the whole card a few seconds later."""
    seat, who = ver.seat, ver.player
    if seat is None or who is None or not seat.latest or seat.key == shown:
        return None
    shown_round = shown.partition(":")[0]
    if shown_round.isascii() and shown_round.isdigit() and int(shown_round[:9]) > seat.round:
        return None  # the phone is ahead (a round seated again after a withdrawal)
    pk, division, house, name = who
    tournament = Tournament(pk=tournament_id)
    rnd = Round(
        tournament=tournament,
        number=seat.round,
        kind=Round.Kind.FINAL if seat.final else Round.Kind.PRELIMINARY,
    )
    player = Player(pk=pk, tournament=tournament, name=name, division=division, house=house)
    return Card(tournament, player, rnd, table=seat.table, position=seat.position, partial=True)


def _left_card(
    tournament: Tournament,
    player: Player,
    rnd: Round,
    now: datetime,
    sat_out: bool,
    out: int | None,
) -> Card:
    """The card of a player with no seat row in the latest round: a substitute holds the
    seat of a player who left during the match (§6), or the player is not seated."""
    left = _one(
        'SELECT m."table", x.from_hand FROM tournaments_substitution x '
        "JOIN tournaments_match m ON m.id = x.match_id "
        "WHERE m.round_id = %s AND x.player_out_id = %s ORDER BY x.from_hand LIMIT 1",
        [rnd.pk, player.pk],
    )
    left_table, left_from = left if left is not None else (None, None)
    return Card(
        tournament,
        player,
        rnd,
        clock=_clock(rnd, now),
        absent="left" if left is not None else _absence(player, rnd, sat_out),
        withdrawn_after=out,
        left_table=left_table,
        left_from=left_from,
    )


def _chairs(round_id: int, table: int, mine: Seat) -> tuple[Chair, ...]:
    """The four chairs of the player's table in seat order, each named as players see it."""
    chairs = []
    for pos_value, name, withdrawn, house, full in _all(
        f"SELECT s.position, p.name, p.withdrawn, p.house, {_FULL_NAME} "
        "FROM tournaments_seating s JOIN tournaments_player p ON p.id = s.player_id "
        'WHERE s.round_id = %s AND s."table" = %s',
        [round_id, table],
    ):
        pos = Seat(pos_value)
        role = "you" if pos is mine else ("partner" if pos.team is mine.team else "opponent")
        shown = public_name(name, bool(full))
        chairs.append(Chair(pos.value, shown, role, pos.team.value, bool(withdrawn), bool(house)))
    order = {s.value: i for i, s in enumerate(SEATS)}
    chairs.sort(key=lambda c: order[c.position])
    return tuple(chairs)


def card(tournament: Tournament, player: Player, now: datetime) -> Card:
    """This round's seat (or the newly seated round's), partner, opponents, score, clock."""
    out = withdrawn_after(player)
    latest_row = _one(
        "SELECT r.id, r.number, r.kind, r.status, r.started_at, r.called_at, r.has_pauses, "
        's."table", s.position, s.changed_at, '
        "(SELECT COUNT(*) FROM tournaments_sitout o WHERE o.round_id = r.id "
        "AND o.player_id = %s) "
        "FROM tournaments_round r LEFT JOIN tournaments_seating s "
        "ON s.round_id = r.id AND s.player_id = %s "
        "WHERE r.tournament_id = %s ORDER BY r.number DESC LIMIT 1",
        [player.pk, player.pk, tournament.pk],
    )
    if latest_row is None:
        absent = "" if player.checked_in or player.withdrawn or player.house else "not_checked_in"
        return Card(tournament, player, None, absent=absent, withdrawn_after=out)
    rnd = _round_of(tournament, latest_row[:7])
    rid, kind, status = rnd.pk, rnd.kind, rnd.status
    table, position, changed, sat_out = latest_row[7:]
    if table is None:
        return _left_card(tournament, player, rnd, now, bool(sat_out), out)
    mine = Seat(position)
    chairs = _chairs(rid, table, mine)
    match_row = _one(
        "SELECT score_ns, score_ew, hands_played, status, winner, extension_seconds, "
        'time_called_at FROM tournaments_match WHERE round_id = %s AND "table" = %s '
        "ORDER BY game DESC LIMIT 1",
        [rid, table],
    )
    us = them = won = None
    hands, match_status, extension, called_at = 0, "", 0, None
    # §5: a hidden round's score, live or finished, is for the table's tablet only.
    score_hidden = not of_event(tournament, rnd).shows_round(
        rnd.number, final=kind == Round.Kind.FINAL
    )
    if match_row is not None:
        ns, ew, hands, match_status, winner, extension, called_at = match_row
        if hands and not score_hidden:
            us, them = (ns, ew) if mine.team.value == "NS" else (ew, ns)
        if winner and not score_hidden:
            won = winner == mine.team.value
        if score_hidden:
            hands, match_status = 0, ""
    return Card(
        tournament,
        player,
        rnd,
        table=table,
        position=position,
        chairs=chairs,
        changed=changed is not None and status == Round.Status.SEATED,
        us=us,
        them=them,
        hands=hands,
        match_status=match_status,
        won=won,
        clock=_clock(
            rnd,
            now,
            Match(
                round=rnd,
                table=table,
                extension_seconds=extension,
                time_called_at=instant_of(called_at),
            ),
        ),
        withdrawn_after=out,
        score_hidden=score_hidden,
    )


def _absence(player: Player, rnd: Round, sat_out: bool) -> str:
    """Why the player has no seat in ``rnd`` (see ``Card.absent``)."""
    if sat_out:
        return "sat_out"
    if player.withdrawn or player.house or rnd.kind != Round.Kind.PRELIMINARY:
        return ""
    if not player.checked_in:
        return "not_checked_in"
    t = rnd.tournament
    return "" if seating_alone(t, of_event(t, rnd), rnd.number) else "waiting"


def seating_alone(tournament: Tournament, vis: Visibility, number: int) -> bool:
    """Whether this site holds round ``number`` as seating alone: the copy of an event the
    hall runs, of a round players may not see, which the hall sends without its sit-outs
    and substitutions. A checked-in player without a seat there may have come late, sat
    out or left her match: no page says which."""
    # The visibility first: it reads no row, where the copy's link may.
    return not vis.shows_round(number) and running_at_hall(tournament)


# --- the ledger -------------------------------------------------------------------------


# --- standings and the final ------------------------------------------------------------


# --- the projector ----------------------------------------------------------------------


# --- the club's public page ---
