"""The ``snowman.results/1`` file read and checked, before anything is written (the
import's first half, ``services.results_import`` the second; no database here).

The file is a contract (docs/results-format.md). The whole file is checked: every field of
its kind and within its column's range, every name through the register form's rule, and
every match recomputed from its hands by the rules with the file's settings, then the
standings ranked from those matches; the first field that disagrees is named by its path
(``rounds[2].matches[5].hands[3].points.NS``) or, for broken JSON, by line and column.
Keys this reader does not know are ignored, so files from newer exports with additive
fields still import.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import reduce
from typing import Any, cast

from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.common.errors import ServiceError
from tournaments.common.names import clean_name, name_problem
from tournaments.core.models.event import Tournament
from tournaments.core.replay import hand_of_json
from tournaments.domain.final import final_state
from tournaments.domain.hands import InvalidHand, Seat, Team
from tournaments.domain.match import (
    NO_CLOCK,
    InvalidMatch,
    MatchState,
    Phase,
    PhasedHand,
    TimeCall,
    dealer_for,
    replay,
    with_winner,
)
from tournaments.domain.rules import InvalidSettings, RuleSettings, sit_out_points_setting
from tournaments.domain.standings import PlayerRecord, RoundLine, rank, sit_out_lines

TOURNAMENT_NAME_MAX: int = Tournament._meta.get_field("name").max_length or 120
SCHEMA = "snowman.results/1"
SEATS = ("N", "E", "S", "W")
TEAMS = ("NS", "EW")
TEAM_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


class InvalidResults(ServiceError):
    """The file is refused; ``where`` names the line or field that is wrong."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        super().__init__(f"{where}: {problem}" if where else problem)


def _NOT_IN_PLAYERS() -> str:  # noqa: N802 (read as the message it is)
    return _("player %(id)s is not in players")


# --- Bounds ------------------------------------------------------------------------------

# Each number is bounded by the column it is stored in (or the rule it is checked
# against), so a hostile file is refused by name here, never by the database.
SMALL = 32767  # smallint and positive smallint columns
INT = 2**31 - 1  # integer columns
BIG = 2**63 - 1  # bigint columns (the lot seed)
MAX_DEPTH = 64  # the format nests 6 deep; deeper JSON is refused before it is read


# --- Checking -------------------------------------------------------------------------


def _get(
    obj: Any, key: str, path: str, kind: type | tuple[type, ...], *, null: bool = False
) -> Any:
    if not isinstance(obj, dict):
        raise InvalidResults(path, _("expected an object"))
    here = f"{path}.{key}" if path else key
    if key not in obj:
        raise InvalidResults(here, _("missing"))
    value = obj[key]
    if value is None and null:
        return None
    # bool is an int in Python; a true/false where a number belongs is an error.
    if isinstance(value, bool) and kind is not bool and bool not in _kinds(kind):
        raise InvalidResults(
            here,
            _("expected %(kind)s, found %(value)s")
            % {"kind": _name(kind), "value": json.dumps(value)},
        )
    if not isinstance(value, kind):
        raise InvalidResults(
            here,
            _("expected %(kind)s, found %(value)s") % {"kind": _name(kind), "value": _shown(value)},
        )
    return value


def _shown(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return _("a number of %(n)s digits") % {"n": len(str(abs(value)))}
    return json.dumps(value, ensure_ascii=False)[:40]


def _int(obj: Any, key: str, path: str, low: int, high: int, *, null: bool = False) -> Any:
    """A whole number from ``low`` to ``high`` (the column's range, or the rule's)."""
    value = _get(obj, key, path, int, null=null)
    if value is not None and not low <= value <= high:
        here = f"{path}.{key}" if path else key
        raise InvalidResults(
            here,
            _("%(value)s is out of range (%(low)s to %(high)s)")
            % {"value": _shown(value), "low": low, "high": high},
        )
    return value


def _text(obj: Any, key: str, path: str, *, most: int, empty: bool = False) -> str:
    """Text the database keeps: printable (no NUL, control or invisible formatting
    characters), at most ``most`` characters."""
    value: str = _get(obj, key, path, str)
    here = f"{path}.{key}" if path else key
    if not all(c.isprintable() or c in "\n\t" for c in value):
        raise InvalidResults(here, _("contains control or invisible formatting characters"))
    if not empty and not value.strip():
        raise InvalidResults(here, _("is empty"))
    if len(value) > most:
        raise InvalidResults(here, _("is longer than %(n)s characters") % {"n": most})
    return value


def _list(obj: Any, key: str, path: str, *, most: int = SMALL, optional: bool = False) -> list[Any]:
    if optional and isinstance(obj, dict) and obj.get(key) is None:
        return []
    items: list[Any] = _get(obj, key, path, list)
    if len(items) > most:
        raise InvalidResults(
            f"{path}.{key}" if path else key, _("more than %(n)s entries") % {"n": most}
        )
    return items


# Each numbered list's refusal, a sentence of its own (not the kind glued in).
NEW_NUMBER = {
    "round": gettext_noop("must be a new round number"),
    "table": gettext_noop("must be a new table number"),
    "game": gettext_noop("must be a new game number"),
}


def _numbered(
    parent: Any, key: str, path: str, number: str, what: str, high: int
) -> Iterator[tuple[str, Any]]:
    """The objects of the list ``parent[key]``, each with its path, each checked (as it
    comes) to carry a new ``number``: a whole number from 1 to ``high``."""
    here = f"{path}.{key}" if path else key
    seen: set[int] = set()
    for i, item in enumerate(_list(parent, key, path)):
        item_path = f"{here}[{i}]"
        value = _int(item, number, item_path, 1, high)
        if value in seen:
            raise InvalidResults(f"{item_path}.{number}", _(NEW_NUMBER[what]))
        seen.add(value)
        yield item_path, item


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _name(kind: type | tuple[type, ...]) -> str:
    names = {int: _("a whole number"), str: _("text"), bool: _("true or false"), list: _("a list")}
    names[dict] = _("an object")
    return reduce(
        lambda first, second: _("%(first)s or %(second)s") % {"first": first, "second": second},
        (names.get(k, k.__name__) for k in _kinds(kind)),
    )


def _choice(obj: Any, key: str, path: str, choices: tuple[str, ...], *, null: bool = False) -> Any:
    value = _get(obj, key, path, str, null=null)
    if value is not None and value not in choices:
        shown = json.dumps(value, ensure_ascii=False)[:20]
        raise InvalidResults(
            f"{path}.{key}",
            _("must be one of %(choices)s, not %(value)s")
            % {"choices": ", ".join(choices), "value": shown},
        )
    return value


def _check_hand(hand: Any, path: str, number: int) -> None:
    """The hand's fields, each of its kind and range (the rules judge the whole next)."""
    if _int(hand, "number", path, 1, SMALL) != number:
        raise InvalidResults(
            f"{path}.number",
            _("must be %(n)s: the hands are numbered 1, 2, 3 … in order") % {"n": number},
        )
    _choice(hand, "dealer", path, SEATS)
    outcome = _choice(hand, "outcome", path, ("played", "renege", "misdeal"))
    maker = _choice(hand, "maker", path, SEATS, null=True)
    _get(hand, "alone", path, bool)
    tricks = _int(hand, "maker_tricks", path, 0, 5, null=True)
    _choice(hand, "renege_by", path, SEATS, null=True)
    if hand.get("dealer_partner_ordered_up") is not None:
        _get(hand, "dealer_partner_ordered_up", path, bool)
    if hand.get("defender_alone") is not None:
        _choice(hand, "defender_alone", path, SEATS)
    _choice(hand, "phase", path, ("regular", "at_call", "tiebreak"))
    points = _get(hand, "points", path, dict)
    for team in TEAMS:
        _int(points, team, f"{path}.points", -SMALL, SMALL)
    if outcome == "played" and (maker is None or tricks is None):
        raise InvalidResults(path, _("a played hand needs its maker and maker_tricks"))
    makers = hand.get("makers")
    if makers is not None and (maker is None or makers != TEAM_OF[maker]):
        raise InvalidResults(f"{path}.makers", _("is not the maker's team"))


@dataclass
class _Sub:
    position: str
    from_hand: int
    out: int
    into: int
    out_team: int | None = None
    out_individual: int | None = None


@dataclass
class _Seat:
    """A seat's result columns as the service writes them (None while not over)."""

    team_score: int | None = None
    bonus: int | None = None
    individual: int | None = None
    points: int | None = None
    won: bool | None = None
    margin: int | None = None


@dataclass
class _Game:
    """One match (or final game) of the file, recomputed by the rules."""

    state: MatchState
    hands: list[dict[str, Any]]
    seats: dict[str, int]
    winner: str | None
    recorded_winner: str
    override: dict[str, str] | None
    hand_in_progress: bool | None
    subs: list[_Sub]
    results: dict[str, _Seat]


def _hand_path(path: str, message: str) -> str:
    found = re.match(r"Hand (\d+)", message)
    return f"{path}.hands[{int(found.group(1)) - 1}]" if found else f"{path}.hands"


def _replayed(
    game: Any, path: str, rules: RuleSettings, final: bool
) -> tuple[MatchState, bool | None]:
    """The match replayed from its hands; the clock is read from the hands' phases and
    the winner the file gives (§7: a winner below the target means time was called)."""
    hands = _list(game, "hands", path)
    for i, hand in enumerate(hands):
        _check_hand(hand, f"{path}.hands[{i}]", i + 1)
    phased = []
    first = Seat(hands[0]["dealer"]) if hands else Seat.N
    for i, h in enumerate(hands):
        here = f"{path}.hands[{i}]"
        dealer = dealer_for(first, i + 1)
        if h["dealer"] != dealer.value:
            raise InvalidResults(
                f"{here}.dealer",
                _("%(given)s, but the deal passes clockwise to %(dealer)s")
                % {"given": h["dealer"], "dealer": dealer.value},
            )
        hand = hand_of_json(h)
        try:
            hand.validate(dealer)
        except InvalidHand as exc:
            raise InvalidResults(here, str(exc)) from None
        if hand.defender_alone is not None and not rules.defend_alone_allowed:
            raise InvalidResults(
                f"{here}.defender_alone", _("defending alone is not allowed by the file's rules")
            )
        phased.append(PhasedHand(hand, Phase(h["phase"])))
    at_call = any(p.phase is Phase.AT_CALL for p in phased)
    called = not final and (
        any(p.phase is not Phase.REGULAR for p in phased) or game.get("winner") is not None
    )
    in_progress = at_call if called else None
    time = (
        TimeCall(
            called=True,
            hand_in_progress=in_progress,
            regular_through=sum(p.phase is Phase.REGULAR for p in phased),
        )
        if called
        else NO_CLOCK
    )
    try:
        state = replay(phased, first_dealer=first, rules=rules, time=time, final=final)
    except InvalidMatch as exc:
        raise InvalidResults(_hand_path(path, str(exc)), str(exc)) from None
    for i, (h, scored) in enumerate(zip(hands, state.hands, strict=True)):
        for team in (Team.NS, Team.EW):
            if h["points"][team.value] != scored.score.points[team]:
                raise InvalidResults(
                    f"{path}.hands[{i}].points.{team.value}",
                    _("%(given)s, the hand scores %(points)s")
                    % {"given": h["points"][team.value], "points": scored.score.points[team]},
                )
    return state, in_progress


def _check_game(
    game: Any,
    path: str,
    players: dict[int, str],
    rules: RuleSettings,
    *,
    final: bool = False,
) -> _Game:
    seats = _get(game, "seats", path, dict)
    seen = set()
    for seat in SEATS:
        pid = _int(seats, seat, f"{path}.seats", 0, BIG)
        if pid not in players:
            raise InvalidResults(f"{path}.seats.{seat}", _NOT_IN_PLAYERS() % {"id": pid})
        seen.add(pid)
    if len(seen) != 4:
        raise InvalidResults(f"{path}.seats", _("four different players must sit at a table"))
    state, in_progress = _replayed(game, path, rules, final)
    hands = game["hands"]
    score = _get(game, "score", path, dict)
    for team in (Team.NS, Team.EW):
        given = _int(score, team.value, f"{path}.score", -SMALL, SMALL)
        if given != state.score[team]:
            raise InvalidResults(
                f"{path}.score.{team.value}",
                _("is %(given)s but the hands add up to %(total)s")
                % {"given": given, "total": state.score[team]},
            )
    winner = _choice(game, "winner", path, TEAMS, null=True)
    override = None if final else _get(game, "override", path, dict, null=True)
    recorded = state.winner.value if state.winner else None
    if override is not None:
        opath = f"{path}.override"
        _choice(override, "winner", opath, TEAMS)
        _text(override, "reason", opath, most=2000)
        if not state.over:
            raise InvalidResults(
                opath, _("the hands do not finish this match: nothing to override")
            )
        state = with_winner(state, Team(override["winner"]), rules)
        recorded = override["winner"]
    if winner != recorded:
        raise InvalidResults(
            f"{path}.winner",
            (
                _("%(given)s, the hands make %(winner)s the winner")
                if recorded
                else _("%(given)s, the hands make no winner (the match is not over)")
            )
            % {"given": _shown(winner), "winner": recorded},
        )
    if not final:
        bonuses = _get(game, "bonuses", path, dict)
        for team in (Team.NS, Team.EW):
            given = _int(bonuses, team.value, f"{path}.bonuses", -SMALL, SMALL)
            if given != state.bonuses.get(team, 0):
                raise InvalidResults(
                    f"{path}.bonuses.{team.value}",
                    _("%(given)s, the match gives %(value)s")
                    % {"given": given, "value": state.bonuses.get(team, 0)},
                )
    subs = [] if final else _substitutions(game, path, players, len(hands))
    results = {} if final else _results(state, subs)
    if not final:
        _check_points(game, path, seats, subs, results)
    return _Game(
        state=state,
        hands=hands,
        seats={s: seats[s] for s in SEATS},
        winner=winner,
        recorded_winner=(state.winner.value if state.winner else ""),
        override=override,
        hand_in_progress=in_progress,
        subs=subs,
        results=results,
    )


def _substitutions(game: Any, path: str, players: dict[int, str], hands: int) -> list[_Sub]:
    """§6: each seat's chain of holders; the last one in is the seat's holder at the end."""
    subs: list[_Sub] = []
    for i, sub in enumerate(_list(game, "substitutions", path, optional=True)):
        here = f"{path}.substitutions[{i}]"
        position = _choice(sub, "seat", here, SEATS)
        from_hand = _int(sub, "from_hand", here, 1, min(hands + 1, SMALL))
        out = _int(sub, "out", here, 0, BIG)
        into = _int(sub, "in", here, 0, BIG)
        for key, pid in (("out", out), ("in", into)):
            if pid not in players:
                raise InvalidResults(f"{here}.{key}", _NOT_IN_PLAYERS() % {"id": pid})
        if out == into:
            raise InvalidResults(f"{here}.in", _("the player who comes in is the one who left"))
        earlier = [s for s in subs if s.position == position]
        if earlier and from_hand <= earlier[-1].from_hand:
            raise InvalidResults(
                f"{here}.from_hand", _("a seat's changes are listed in order of their hands")
            )
        if earlier and earlier[-1].into != out:
            raise InvalidResults(
                f"{here}.out",
                _("player %(id)s did not hold seat %(seat)s then") % {"id": out, "seat": position},
            )
        subs.append(_Sub(position, from_hand, out, into))
    for position in SEATS:
        chain = [s for s in subs if s.position == position]
        if chain and chain[-1].into != game["seats"][position]:
            raise InvalidResults(
                f"{path}.seats.{position}",
                _("the last player in for seat %(seat)s is %(id)s")
                % {"seat": position, "id": chain[-1].into},
            )
    people = [s.out for s in subs] + list(game["seats"].values())
    if len(set(people)) != len(people):
        raise InvalidResults(f"{path}.substitutions", _("a player holds two seats of this match"))
    return subs


def _results(state: MatchState, subs: list[_Sub]) -> dict[str, _Seat]:
    """Each seat's columns and each leaver's share (§6, as ``substitutions.attribute``
    writes them): hand points to whoever sat there, the rest to the holder at the end."""
    results: dict[str, _Seat] = {}
    for position in SEATS:
        seat = Seat(position)
        team = seat.team
        if not state.over:
            results[position] = _Seat()
            for sub in subs:
                sub.out_team = sub.out_individual = None
            continue
        given_team = given_individual = 0
        start = 1
        for sub in (s for s in subs if s.position == position):
            hands = [h for h in state.hands if start <= h.number < sub.from_hand]
            sub.out_team = sum(h.score.points[team] for h in hands)
            sub.out_individual = sum(h.score.individual.get(seat, 0) for h in hands)
            given_team += sub.out_team
            given_individual += sub.out_individual
            start = sub.from_hand
        bonus = state.bonuses.get(team, 0)
        team_score = state.score[team] - given_team
        individual = state.individual.get(seat, 0) - given_individual
        results[position] = _Seat(
            team_score=team_score,
            bonus=bonus,
            individual=individual,
            points=team_score + bonus + individual,
            won=None,  # set from the match's winner (an override's) when written
            margin=state.margin(team),
        )
    return results


def _check_points(
    game: Any, path: str, seats: dict[str, int], subs: list[_Sub], results: dict[str, _Seat]
) -> None:
    """The file's points per player equal the recomputed ones, for every player who sat."""
    expected: dict[str, int] = {}
    for sub in subs:
        if sub.out_team is not None and sub.out_individual is not None:
            expected[str(sub.out)] = sub.out_team + sub.out_individual
    for position in SEATS:
        points = results[position].points
        if points is not None:
            expected[str(seats[position])] = points
    given = _get(game, "players", path, dict)
    sat = {str(s.out) for s in subs} | {str(p) for p in seats.values()}
    for key in given:
        here = f"{path}.players.{key[:20]}"
        if key not in sat:
            raise InvalidResults(here, _("did not sit at this table"))
        value = _int(given, key, f"{path}.players", -SMALL, SMALL)
        if key not in expected:
            raise InvalidResults(
                here, _("%(given)s, but the match is not over: no points yet") % {"given": value}
            )
        if value != expected[key]:
            raise InvalidResults(
                here,
                _("%(given)s, the hands give %(value)s") % {"given": value, "value": expected[key]},
            )
    for key in expected:
        if key not in given:
            raise InvalidResults(
                f"{path}.players.{key}",
                _("missing (the hands give %(value)s)") % {"value": expected[key]},
            )


@dataclass
class _Round:
    number: int
    status: str
    matches: list[tuple[int, _Game]]
    sit_outs: list[tuple[str, int, int]]  # path, player, points as the file gives them


@dataclass
class Checked:
    """A file that passed every check, with what the rules computed from it."""

    doc: dict[str, Any]
    rules: RuleSettings
    players: dict[int, str]  # file id -> division
    names: dict[int, str]  # file id -> the name as it will be stored
    rounds: list[_Round]
    final: list[_Game]
    # Matches played (or sat in part of) per ranked player, as the standings count them.
    played: dict[int, int] = field(default_factory=dict)


def _players(doc: dict[str, Any]) -> tuple[dict[int, str], dict[int, str]]:
    players: dict[int, str] = {}
    names: dict[int, str] = {}
    seen: set[str] = set()
    uids: set[uuid.UUID] = set()
    for i, p in enumerate(_list(doc, "players", "")):
        path = f"players[{i}]"
        pid = _int(p, "id", path, 0, BIG)
        raw = _get(p, "name", path, str)
        # The one name rule of the register form and the CSV import.
        pname = clean_name(raw)
        problem = name_problem(pname)
        if problem:
            raise InvalidResults(f"{path}.name", problem)
        division = _choice(p, "division", path, ("A", "B"))
        # Newer exports may say it with a status instead; either is read.
        if "withdrawn" in p:
            _get(p, "withdrawn", path, bool)
        if p.get("status") is not None:
            _choice(p, "status", path, ("active", "withdrawn", "house"))
        if p.get("withdrawn_after_round") is not None:
            _int(p, "withdrawn_after_round", path, 0, SMALL)
        if "checked_in" in p:
            _get(p, "checked_in", path, bool)
        if p.get("registration") is not None:
            uid = _registration_uid(p, path)
            if uid in uids:
                raise InvalidResults(f"{path}.registration", _("is another player's registration"))
            uids.add(uid)
        if pid in players:
            raise InvalidResults(f"{path}.id", _("player %(id)s is listed twice") % {"id": pid})
        if pname.casefold() in seen:
            raise InvalidResults(f"{path}.name", _("%(name)s is listed twice") % {"name": pname})
        players[pid] = division
        names[pid] = pname
        seen.add(pname.casefold())
    if not players:
        raise InvalidResults("players", _("the file has no players"))
    return players, names


def _registration_uid(player: Any, path: str) -> uuid.UUID:
    """The application (its uid, as the signed registration list gives it) a player came
    from: text, a UUID."""
    value = _get(player, "registration", path, str)
    try:
        return uuid.UUID(value[:40])
    except ValueError:
        raise InvalidResults(f"{path}.registration", _("is not a registration's uid")) from None


# Where the file's event stands (``tournament.status``); a file without it (the files
# written before it was) is a past event.
STATUSES = tuple(Tournament.Status.values)


def check_document(doc: Any) -> Checked:
    """Check every field this reader uses and recompute every match and the standings
    with the rules; the first field that disagrees is named."""
    if not isinstance(doc, dict):
        raise InvalidResults("", _("The file must hold one JSON object."))
    schema = _get(doc, "schema", "", str)
    if schema != SCHEMA:
        raise InvalidResults(
            "schema",
            _("expected %(kind)s, found %(value)s")
            % {"kind": repr(SCHEMA), "value": _shown(schema)},
        )
    t = _get(doc, "tournament", "", dict)
    name = _text(t, "name", "tournament", most=TOURNAMENT_NAME_MAX).strip()
    if not name:
        raise InvalidResults(
            "tournament.name",
            _("must be 1 to %(n)s characters") % {"n": TOURNAMENT_NAME_MAX},
        )
    slug = _get(t, "slug", "tournament", str)
    if not slug or len(slug) > 140 or slugify(slug) != slug:
        raise InvalidResults(
            "tournament.slug", _("%(value)s is not a slug") % {"value": _shown(slug)}
        )
    _int(t, "lot_seed", "tournament", -BIG - 1, BIG)
    if t.get("status") is not None:
        _choice(t, "status", "tournament", STATUSES)
    if t.get("standings_revealed") is not None:
        _get(t, "standings_revealed", "tournament", bool)
    try:
        rules = _rules(_get(t, "rules", "tournament", dict)).validated()
    except InvalidSettings as exc:
        key, problem = next(iter(exc.errors.items()))
        raise InvalidResults(f"tournament.rules.{key}", problem) from None
    players, names = _players(doc)
    final_doc = _get(doc, "final", "", dict, null=True)
    rounds: list[_Round] = []
    for path, rnd in _numbered(doc, "rounds", "", "number", "round", SMALL - 1):
        _choice(rnd, "kind", path, ("preliminary",))
        status = _choice(rnd, "status", path, ("seated", "running", "finished"))
        seated: set[int] = set()
        games = []
        for mpath, match in _numbered(rnd, "matches", path, "table", "table", INT):
            game = _check_game(match, mpath, players, rules)
            for sub in game.subs:
                if sub.out in seated:
                    raise InvalidResults(
                        mpath,
                        _("player %(id)s sits twice in this round") % {"id": sub.out},
                    )
                seated.add(sub.out)
            for seat in SEATS:
                pid = match["seats"][seat]
                if pid in seated:
                    raise InvalidResults(
                        f"{mpath}.seats.{seat}", _("player %(id)s sits twice") % {"id": pid}
                    )
                seated.add(pid)
            games.append((match["table"], game))
        outs = []
        for i, out in enumerate(_list(rnd, "sit_outs", path, optional=True)):
            opath = f"{path}.sit_outs[{i}]"
            pid = _int(out, "player", opath, 0, BIG)
            if pid not in players:
                raise InvalidResults(f"{opath}.player", _NOT_IN_PLAYERS() % {"id": pid})
            if pid in seated:
                raise InvalidResults(
                    f"{opath}.player",
                    _("player %(id)s sat at a table this round") % {"id": pid},
                )
            seated.add(pid)
            outs.append((f"{opath}.points", pid, _int(out, "points", opath, -SMALL, SMALL)))
        rounds.append(_Round(rnd["number"], status, games, outs))
    final: list[_Game] = []
    champions = None
    if final_doc is not None:
        seats = _get(final_doc, "seats", "final", dict)
        for path, game in _numbered(final_doc, "games", "final", "number", "game", 9):
            final.append(_check_game({**game, "seats": seats}, path, players, rules, final=True))
        try:
            champions = final_state(
                [Team(g.winner) if g.winner else None for g in final],
                rules.final_games_to_win,
            ).champions
        except ValueError as exc:
            raise InvalidResults("final.games", str(exc)) from None
    _check_stage(t.get("status"), rounds, final_doc is not None, champions is not None)
    checked = Checked(doc, rules, players, names, rounds, final)
    _check_standings(checked)
    return checked


def _check_stage(status: str | None, rounds: list[_Round], final: bool, decided: bool) -> None:
    """Where the file says the event stands agrees with what it holds, as at the hall: no
    round in registration, no final before it is seeded, a final from then on, decided
    once finished; a seated round has not started (no hand). A file that does not say
    (written before ``status`` was) is not asked."""
    for i, rnd in enumerate(rounds):
        if rnd.status == "seated" and any(game.hands for _table, game in rnd.matches):
            raise InvalidResults(
                f"rounds[{i}].status", _("seated, but its matches have hands: it has started")
            )
    if status is None:
        return
    if status == Tournament.Status.REGISTRATION and (rounds or final):
        problem = _("registration, but the file has rounds: an event is seated after it")
    elif status == Tournament.Status.PRELIMINARY and final:
        problem = _("preliminary rounds, but the file has a final")
    elif status in (Tournament.Status.FINAL, Tournament.Status.FINISHED) and not final:
        problem = _("%(status)s, but the file has no final") % {"status": status}
    elif status == Tournament.Status.FINISHED and not decided:
        problem = _("finished, but the final has no champions yet")
    else:
        return
    raise InvalidResults("tournament.status", problem)


def _check_standings(checked: Checked) -> None:
    """Rank the recomputed matches as ``services.standings`` does (the file's ids drawing
    the lot as the source's did) and compare, row by row, with the file's standings and
    sit-out points."""
    doc = checked.doc
    house = {p["id"] for p in doc["players"] if p.get("status") == "house"}
    lines: dict[int, list[RoundLine]] = defaultdict(list)
    outs: dict[int, list[int]] = defaultdict(list)
    for rnd in checked.rounds:
        for _table, game in rnd.matches:
            for sub in game.subs:
                if sub.out_team is not None:
                    lines[sub.out].append(
                        RoundLine(rnd.number, sub.out_team, 0, sub.out_individual or 0, False, 0)
                    )
            for position, pid in game.seats.items():
                r = game.results[position]
                if r.points is None:
                    continue
                assert r.team_score is not None and r.margin is not None
                won = game.winner == TEAM_OF[position]
                lines[pid].append(
                    RoundLine(
                        rnd.number, r.team_score, r.bonus or 0, r.individual or 0, won, r.margin
                    )
                )
        for _path, pid, _points in rnd.sit_outs:
            outs[pid].append(rnd.number)
    setting = sit_out_points_setting(checked.rules.sit_out_score) or "average"
    sit_points: dict[tuple[int, int], int] = {}
    standings = _get(doc, "standings", "", dict)
    for key in standings:
        if key not in ("A", "B"):
            raise InvalidResults(f"standings.{key[:20]}", _("divisions are A and B"))
    for division in ("A", "B"):
        records = []
        for pid, div in checked.players.items():
            if div != division or pid in house or not lines[pid]:
                continue
            played = tuple(sorted(lines[pid], key=lambda r: r.round_number))
            records.append(PlayerRecord(pid, played, sit_out_lines(setting, played, outs[pid])))
        ranked = rank(records, checked.rules.tiebreaks, doc["tournament"]["lot_seed"])
        checked.played.update({cast(int, r.player): r.played for r in records})
        rows = _list(standings, division, "standings", optional=True)
        if len(rows) != len(ranked):
            raise InvalidResults(
                f"standings.{division}",
                _("%(given)s players ranked, the matches rank %(value)s")
                % {"given": len(rows), "value": len(ranked)},
            )
        for i, (row, standing) in enumerate(zip(rows, ranked, strict=True)):
            path = f"standings.{division}[{i}]"
            record = standing.record
            for line in record.sit_outs:
                sit_points[(cast(int, record.player), line.round_number)] = line.points
            pid = _int(row, "player", path, 0, BIG)
            if pid != standing.player:
                raise InvalidResults(
                    f"{path}.player",
                    _("%(given)s, the matches rank player %(id)s here")
                    % {"given": pid, "id": standing.player},
                )
            expected = {
                "rank": (standing.rank, 1, INT),
                "total": (record.total, -INT - 1, INT),
                "wins": (record.wins, 0, SMALL),
                "margin": (record.margin, -INT - 1, INT),
                "played": (record.played, 0, SMALL),
                "sit_outs": (len(record.sit_outs), 0, SMALL),
            }
            for key, (value, low, high) in expected.items():
                if key in ("played", "sit_outs") and key not in row:
                    continue  # older files
                given = _int(row, key, path, low, high)
                if given != value:
                    raise InvalidResults(
                        f"{path}.{key}",
                        _("%(given)s, the matches give %(value)s")
                        % {"given": given, "value": value},
                    )
            lot = row.get("by_lot")
            if lot is not None and _get(row, "by_lot", path, bool) != standing.decided_by_lot:
                raise InvalidResults(
                    f"{path}.by_lot",
                    _("the matches give %(value)s")
                    % {"value": str(standing.decided_by_lot).lower()},
                )
    for rnd in checked.rounds:
        for path, pid, given in rnd.sit_outs:
            # Not ranked (never played, or a house player): scored from no match played.
            scored = sit_points.get((pid, rnd.number))
            if scored is None:
                scored = sit_out_lines(setting, (), [rnd.number])[0].points
            if given != scored:
                raise InvalidResults(
                    path,
                    _("%(given)s, the sit-out scores %(value)s")
                    % {"given": given, "value": scored},
                )


def _rules(data: dict[str, Any]) -> RuleSettings:
    """The file's rule settings (a setting left out is the default); each one of its kind
    and range, named by its path when it is not."""
    known = {k: v for k, v in data.items() if k in RuleSettings.__dataclass_fields__}
    path = "tournament.rules"
    if "tiebreaks" in known:
        if not isinstance(known["tiebreaks"], list) or not all(
            isinstance(k, str) for k in known["tiebreaks"]
        ):
            raise InvalidResults(f"{path}.tiebreaks", _("expected a list of names"))
        known["tiebreaks"] = tuple(known["tiebreaks"])
    if "sit_out_score" in known:
        # §6: "average", "none" or a number of points; kept as the setting's text.
        setting = known["sit_out_score"]
        if (
            isinstance(setting, bool)
            or not isinstance(setting, (int, str))
            or (isinstance(setting, int) and not 0 <= setting <= 20)
            or sit_out_points_setting(str(setting)[:10]) is None
        ):
            raise InvalidResults(
                f"{path}.sit_out_score", _('must be "average", "none" or a number 0 to 20')
            )
        known["sit_out_score"] = str(setting)
    for key in known:
        if key in ("tiebreaks", "sit_out_score"):
            continue
        kind = bool if isinstance(RuleSettings.__dataclass_fields__[key].default, bool) else int
        _get(known, key, path, kind)
        if kind is int:
            _int(known, key, path, -SMALL, SMALL)
    return RuleSettings(**known)


def _depth(text: str) -> int:
    """How deep the JSON nests, counted outside strings, without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def parse(data: bytes | str) -> tuple[Checked, str]:
    """The checked document and its digest, or InvalidResults naming where it is wrong.
    Any file at all ends here or in InvalidResults: never a traceback."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidResults(
                _("byte %(n)s") % {"n": exc.start}, _("the file is not UTF-8 text")
            ) from None
    if _depth(data) > MAX_DEPTH:
        raise InvalidResults("", _("The file nests deeper than %(n)s levels.") % {"n": MAX_DEPTH})
    try:
        doc = json.loads(data, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InvalidResults(
            _("line %(line)s column %(column)s") % {"line": exc.lineno, "column": exc.colno},
            exc.msg,
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        # A number too long to read (Python's 4,300-digit limit), NaN, and the like.
        raise InvalidResults(
            "", _("The file is not readable JSON: %(error)s") % {"error": str(exc)[:80]}
        ) from None
    checked = check_document(doc)
    return checked, digest_of(doc)


def digest_of(doc: object) -> str:
    """The SHA-256 of the canonical JSON (sorted keys, no whitespace): one file's identity."""
    canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")
