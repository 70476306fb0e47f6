"""The activity log's lines as a message and its arguments.

A service logs ``said("players.registered_division", name=..., division=...)``: the row
keeps the line's key (tournaments/loglines.py, where each key's English sentence is) and the
arguments (JSON), and each reader sees the line in their own language, rendered when the
page is read. So a log written from an English console reads in French, and a sentence or
a translation mended later mends the old lines too: the row holds the key, not the words.
An argument that is itself words (a round's name, a list of changes) is a ``said`` of its
own or a ``Joined`` list, rendered in the same language; names, numbers and what a person
typed stay as they were given.

Rows written before this (migration 0020) have no message: their English ``summary`` is
shown as it was.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Union

from django.utils.translation import gettext, gettext_noop, override, pgettext, pgettext_lazy

from tournaments.common.bilingual import seat, team
from tournaments.core.loglines import LINES

if TYPE_CHECKING:
    from tournaments.core.models.event import Player
    from tournaments.core.models.play import Match
    from tournaments.core.models.rounds import Round
    from tournaments.domain.hands import HandScore
    from tournaments.domain.seating import FirstRoundRemedy

Arg = Union[str, int, float, "Said", "Joined"]
SEATS = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Said:
    """One sentence to be read later: its key in ``loglines.LINES`` (or, for a choice's
    label, the label's own msgid) and its arguments."""

    key: str
    args: Mapping[str, Arg] = field(default_factory=dict)

    def stored(self) -> dict[str, Any]:
        """The arguments as the row's JSON keeps them."""
        return {key: _stored(value) for key, value in self.args.items()}

    def __str__(self) -> str:
        return render(self.key, self.stored())


@dataclass(frozen=True)
class Joined:
    """Items read one after another, each in the reader's language ("; " between the
    parts of a seating, ", " between names)."""

    items: Sequence[Arg]
    sep: str = ", "


def said(key: str, /, **args: Arg) -> Said:
    """The line ``key`` of ``loglines.LINES`` with its named arguments. An unknown key is
    refused here, when the line is written, not shown as a key when it is read."""
    if key not in LINES:
        raise KeyError(f"no line {key!r} in tournaments/loglines.py")
    return Said(key, args)


def _stored(value: Arg) -> Any:
    if isinstance(value, Said):
        return {"m": value.key, "a": value.stored()}
    if isinstance(value, Joined):
        return {"j": [_stored(v) for v in value.items], "s": value.sep}
    return value


def _shown(value: Any) -> Any:
    if isinstance(value, dict):
        if "m" in value:
            return render(str(value["m"]), value.get("a") or {})
        if "j" in value:
            return str(value.get("s", ", ")).join(str(_shown(v)) for v in value["j"])
    return value


# The arguments that hold a seat's letter ("W"), read as the reader's letter ("O").
SEAT_ARGS = frozenset({"seat", "position", "was"})


def _letters(name: str, value: Any) -> Any:
    """An argument as shown: a seat's or a team's letters in the reader's language."""
    if name in SEAT_ARGS and value in SEATS:
        return seat(value)
    if name == "team" and value in ("NS", "EW"):
        return team(value)
    return _shown(value)


def render(key: str, args: Mapping[str, Any]) -> str:
    """The line in the active language. A translation that does not fit its arguments
    (a placeholder misspelt) falls back to the English, never to an error page."""
    msgid = LINES.get(key, key)
    values = {name: _letters(name, value) for name, value in args.items()}
    for text in (gettext(msgid), msgid):
        try:
            return text % values
        except (KeyError, ValueError, TypeError):
            continue
    return msgid


# --- the words the log's lines share ---------------------------------------------------------


def of_round(rnd: Round) -> Said:
    """ "Round 3" or "Final", as ``Round.label`` says it, in the reader's language."""
    if rnd.kind == "final":
        return said("words.final")
    return said("words.round", n=rnd.number)


def of_match(match: Match) -> Said:
    """ "Round 3 table 7" or "Final game 2", as ``Match.label`` says it."""
    if match.round.kind == "final":
        return said("words.game", round=of_round(match.round), game=match.game)
    return said("words.table", round=of_round(match.round), table=match.table)


def of_choice(label: Any) -> Said:
    """A choice's label (``gettext_lazy`` in a model's choices, no context) as its msgid,
    so the reader reads it in their language."""
    with override(None):
        return Said(str(label))


def of_duration(span: timedelta) -> Said:
    """ "3 min 07 s", as the help desk shows a wait."""
    seconds = max(0, int(span.total_seconds()))
    return said("words.min", m=seconds // 60, s=f"{seconds % 60:02d}")


# The log's ``action`` keys (stored, filtered on) as the reader reads them.
ACTIONS = {
    "answer": pgettext_lazy("activity log action", "answer at the call"),
    "apply": pgettext_lazy("activity log action", "application"),
    "call time": pgettext_lazy("activity log action", "call time"),
    "change answer": pgettext_lazy("activity log action", "change answer"),
    "check-in": pgettext_lazy("activity log action", "check-in"),
    "close": pgettext_lazy("activity log action", "close match"),
    "code": pgettext_lazy("activity log action", "table code"),
    "confirm": pgettext_lazy("activity log action", "confirm"),
    "correct": pgettext_lazy("activity log action", "correct hand"),
    "create": pgettext_lazy("activity log action", "create"),
    "discard": pgettext_lazy("activity log action", "discard seating"),
    "dispute": pgettext_lazy("activity log action", "dispute"),
    "draw": pgettext_lazy("activity log action", "draw"),
    "edit player": pgettext_lazy("activity log action", "edit player"),
    "extend": pgettext_lazy("activity log action", "extend"),
    "final": pgettext_lazy("activity log action", "final"),
    "finalize": pgettext_lazy("activity log action", "finalize"),
    "finish": pgettext_lazy("activity log action", "finish"),
    "first dealer": pgettext_lazy("activity log action", "first dealer"),
    "help_called": pgettext_lazy("activity log action", "help called"),
    "help_coming": pgettext_lazy("activity log action", "help coming"),
    "help_resolved": pgettext_lazy("activity log action", "help resolved"),
    "house": pgettext_lazy("activity log action", "house player"),
    "import": pgettext_lazy("activity log action", "import"),
    "insert hand": pgettext_lazy("activity log action", "insert hand"),
    "invite": pgettext_lazy("activity log action", "invite"),
    "late sync": pgettext_lazy("activity log action", "late sync"),
    "override": pgettext_lazy("activity log action", "override winner"),
    "paper": pgettext_lazy("activity log action", "paper table"),
    "pause": pgettext_lazy("activity log action", "pause"),
    "pin_locked": pgettext_lazy("activity log action", "PIN locked"),
    "prize-add": pgettext_lazy("activity log action", "add prize"),
    "prize-remove": pgettext_lazy("activity log action", "remove prize"),
    "publish": pgettext_lazy("activity log action", "publish"),
    "register": pgettext_lazy("activity log action", "register"),
    "registration": pgettext_lazy("activity log action", "registration"),
    "rehearsal": pgettext_lazy("activity log action", "rehearsal"),
    "relink": pgettext_lazy("activity log action", "new tablet link"),
    "reopen": pgettext_lazy("activity log action", "reopen"),
    "resolve": pgettext_lazy("activity log action", "resolve dispute"),
    "resume": pgettext_lazy("activity log action", "resume"),
    "reveal": pgettext_lazy("activity log action", "reveal standings"),
    "scoresheet": pgettext_lazy("activity log action", "scoresheet keyed"),
    "seat": pgettext_lazy("activity log action", "seat"),
    "settings": pgettext_lazy("activity log action", "settings"),
    "start": pgettext_lazy("activity log action", "start"),
    "stationary": pgettext_lazy("activity log action", "stationary seat"),
    "substitute": pgettext_lazy("activity log action", "substitute"),
    "substitute-replace": pgettext_lazy("activity log action", "correct substitute"),
    "substitute-undo": pgettext_lazy("activity log action", "undo substitute"),
    "swap": pgettext_lazy("activity log action", "swap"),
    "takeover": pgettext_lazy("activity log action", "tablet takeover"),
    "tie break": pgettext_lazy("activity log action", "tie break"),
    "undo": pgettext_lazy("activity log action", "undo hand"),
    "waitlist": pgettext_lazy("activity log action", "waitlist"),
    "withdraw": pgettext_lazy("activity log action", "withdraw"),
}


def action_label(action: str) -> str:
    """An action key in the reader's language (an unknown key as it is stored)."""
    label = ACTIONS.get(action)
    return str(label) if label is not None else action


def of_player(player: Player) -> Arg:
    """A player's name, marked "(house)" for a house player in the reader's language."""
    return said("substitutions.house", name=player.name) if player.house else player.name


def of_score(score: HandScore) -> Arg:
    """What a hand is worth ("NS +2, E −2"), its letters read in the reader's language
    ("EO +2, O −2" in French)."""
    if not any(score.points.values()) and not any(score.individual.values()):
        return said("play.no_points")
    teams = [
        said("words.team_points", team=t.value, points=f"+{p}")
        for t, p in score.points.items()
        if p
    ]
    people = [
        said("words.seat_points", seat=s.value, points=f"{p:+d}".replace("-", "−"))
        for s, p in score.individual.items()
        if p
    ]
    return Joined([*teams, *people])


def of_seats(names: Mapping[str, str]) -> Joined:
    """Seats and who sits there ("N Ann, E Bob, …"), West read "O" in French."""
    return Joined([said("words.seat_player", seat=place, name=n) for place, n in names.items()])


# How a seat of the next round was filled (domain.seating.Change.kind).
_CHANGE_KINDS = {
    "waiting": said("rounds.waiting"),
    "house": said("rounds.house"),
    "closed": said("rounds.closed_table"),
    "pass-on": said("rounds.pass_on"),
}


def of_change_kind(kind: str) -> Arg:
    return _CHANGE_KINDS.get(kind, kind)


def of_remedy(remedy: FirstRoundRemedy) -> Said:
    """The remedy chosen for round 1 (the domain's ``describe`` is English)."""
    if remedy.kind == "sit-out":
        return said(
            "rounds.tables_sitting_out_round",
            tables=remedy.tables,
            a=remedy.sit_out_a,
            b=remedy.sit_out_b,
        )
    return said(
        "rounds.tables_with_house_players", tables=remedy.tables, a=remedy.house_a, b=remedy.house_b
    )


# A device's "who" is stored in one stable English form (``TableScope.actor``, the
# takeover in table_codes), the same on the rows written before this, and read in the
# reader's language; a person's account name stays as it is.
_DEVICE = re.compile(r"Table (\d{1,10}) (?:tablet|device (\d{1,10}))")


# Reasons a service stores in one English form (a person's own reason is kept as typed),
# read in the reader's language.
STORED_REASONS = frozenset({gettext_noop("Undone at the table."), gettext_noop("withdrew online")})


def reason_label(reason: str) -> str:
    """A stored reason in the reader's language (what a person typed, as typed)."""
    return gettext(reason) if reason in STORED_REASONS else reason


def actor_label(actor: str) -> str:
    """The stored actor in the reader's language (an account name as it is stored)."""
    found = _DEVICE.fullmatch(actor)
    if found is not None:
        table = int(found[1])
        if found[2] is None:
            return gettext("Table %(table)s tablet") % {"table": table}
        return gettext("Table %(table)s device %(device)s") % {
            "table": table,
            "device": int(found[2]),
        }
    if actor == "online":
        return pgettext("activity log actor", "online")
    return actor
