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
from dataclasses import dataclass, field
from typing import Any, cast

from django.utils.text import slugify
from django.utils.translation import gettext as _

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
from tournaments.domain.standings import PlayerRecord, RoundLine, Standing, rank, sit_out_lines
from tournaments.series.results_fields import (
    BIG,
    INT,
    MAX_DEPTH,
    SMALL,
    InvalidResults,
    choice,
    json_depth,
    listed,
    member,
    numbered,
    rule_settings,
    shown,
    text,
    whole,
)

TOURNAMENT_NAME_MAX: int = Tournament._meta.get_field("name").max_length or 120
SCHEMA = "snowman.results/1"
SEATS = ("N", "E", "S", "W")
TEAMS = ("NS", "EW")
TEAM_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def _NOT_IN_PLAYERS() -> str:  # noqa: N802 (read as the message it is)
    return _("player %(id)s is not in players")


# --- Bounds ------------------------------------------------------------------------------


# --- Checking -------------------------------------------------------------------------


def _check_hand(hand: Any, path: str, number: int) -> None:
    """The hand's fields, each of its kind and range (the rules judge the whole next)."""
    if whole(hand, "number", path, 1, SMALL) != number:
        raise InvalidResults(
            f"{path}.number",
            _("must be %(n)s: the hands are numbered 1, 2, 3 … in order") % {"n": number},
        )
    choice(hand, "dealer", path, SEATS)
    outcome = choice(hand, "outcome", path, ("played", "renege", "misdeal"))
    maker = choice(hand, "maker", path, SEATS, null=True)
    member(hand, "alone", path, bool)
    tricks = whole(hand, "maker_tricks", path, 0, 5, null=True)
    choice(hand, "renege_by", path, SEATS, null=True)
    if hand.get("dealer_partner_ordered_up") is not None:
        member(hand, "dealer_partner_ordered_up", path, bool)
    if hand.get("defender_alone") is not None:
        choice(hand, "defender_alone", path, SEATS)
    choice(hand, "phase", path, ("regular", "at_call", "tiebreak"))
    points = member(hand, "points", path, dict)
    for team in TEAMS:
        whole(points, team, f"{path}.points", -SMALL, SMALL)
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
    hands = listed(game, "hands", path)
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
    seats = member(game, "seats", path, dict)
    seen = set()
    for seat in SEATS:
        pid = whole(seats, seat, f"{path}.seats", 0, BIG)
        if pid not in players:
            raise InvalidResults(f"{path}.seats.{seat}", _NOT_IN_PLAYERS() % {"id": pid})
        seen.add(pid)
    if len(seen) != 4:
        raise InvalidResults(f"{path}.seats", _("four different players must sit at a table"))
    state, in_progress = _replayed(game, path, rules, final)
    hands = game["hands"]
    score = member(game, "score", path, dict)
    for team in (Team.NS, Team.EW):
        given = whole(score, team.value, f"{path}.score", -SMALL, SMALL)
        if given != state.score[team]:
            raise InvalidResults(
                f"{path}.score.{team.value}",
                _("is %(given)s but the hands add up to %(total)s")
                % {"given": given, "total": state.score[team]},
            )
    winner = choice(game, "winner", path, TEAMS, null=True)
    override = None if final else member(game, "override", path, dict, null=True)
    recorded = state.winner.value if state.winner else None
    if override is not None:
        opath = f"{path}.override"
        choice(override, "winner", opath, TEAMS)
        text(override, "reason", opath, most=2000)
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
            % {"given": shown(winner), "winner": recorded},
        )
    if not final:
        bonuses = member(game, "bonuses", path, dict)
        for team in (Team.NS, Team.EW):
            given = whole(bonuses, team.value, f"{path}.bonuses", -SMALL, SMALL)
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
    for i, sub in enumerate(listed(game, "substitutions", path, optional=True)):
        here = f"{path}.substitutions[{i}]"
        position = choice(sub, "seat", here, SEATS)
        from_hand = whole(sub, "from_hand", here, 1, min(hands + 1, SMALL))
        out = whole(sub, "out", here, 0, BIG)
        into = whole(sub, "in", here, 0, BIG)
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
    given = member(game, "players", path, dict)
    sat = {str(s.out) for s in subs} | {str(p) for p in seats.values()}
    for key in given:
        here = f"{path}.players.{key[:20]}"
        if key not in sat:
            raise InvalidResults(here, _("did not sit at this table"))
        value = whole(given, key, f"{path}.players", -SMALL, SMALL)
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
    # The stationary marks (RULES.md §3.1), first marked first: player, table, the first
    # round the mark routes and the first it no longer does (None: to the end).
    stationary: list[tuple[int, int, int, int | None]] = field(default_factory=list)


def _players(doc: dict[str, Any]) -> tuple[dict[int, str], dict[int, str]]:
    players: dict[int, str] = {}
    names: dict[int, str] = {}
    seen: set[str] = set()
    uids: set[uuid.UUID] = set()
    for i, p in enumerate(listed(doc, "players", "")):
        path = f"players[{i}]"
        pid = whole(p, "id", path, 0, BIG)
        raw = member(p, "name", path, str)
        # The one name rule of the register form and the CSV import.
        pname = clean_name(raw)
        problem = name_problem(pname)
        if problem:
            raise InvalidResults(f"{path}.name", problem)
        division = choice(p, "division", path, ("A", "B"))
        # Newer exports may say it with a status instead; either is read.
        if "withdrawn" in p:
            member(p, "withdrawn", path, bool)
        if p.get("status") is not None:
            choice(p, "status", path, ("active", "withdrawn", "house"))
        if p.get("withdrawn_after_round") is not None:
            whole(p, "withdrawn_after_round", path, 0, SMALL)
        if "checked_in" in p:
            member(p, "checked_in", path, bool)
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
    value = member(player, "registration", path, str)
    try:
        return uuid.UUID(value[:40])
    except ValueError:
        raise InvalidResults(f"{path}.registration", _("is not a registration's uid")) from None


# Where the file's event stands (``tournament.status``); a file without it (the files
# written before it was) is a past event.
STATUSES = tuple(Tournament.Status.values)


def _check_tournament(doc: Any) -> tuple[dict[str, Any], RuleSettings]:
    """The schema and the event's own fields: name, slug, lot seed, status and rules."""
    if not isinstance(doc, dict):
        raise InvalidResults("", _("The file must hold one JSON object."))
    schema = member(doc, "schema", "", str)
    if schema != SCHEMA:
        raise InvalidResults(
            "schema",
            _("expected %(kind)s, found %(value)s")
            % {"kind": repr(SCHEMA), "value": shown(schema)},
        )
    t = member(doc, "tournament", "", dict)
    name = text(t, "name", "tournament", most=TOURNAMENT_NAME_MAX).strip()
    if not name:
        raise InvalidResults(
            "tournament.name",
            _("must be 1 to %(n)s characters") % {"n": TOURNAMENT_NAME_MAX},
        )
    slug = member(t, "slug", "tournament", str)
    if not slug or len(slug) > 140 or slugify(slug) != slug:
        raise InvalidResults(
            "tournament.slug", _("%(value)s is not a slug") % {"value": shown(slug)}
        )
    whole(t, "lot_seed", "tournament", -BIG - 1, BIG)
    if t.get("status") is not None:
        choice(t, "status", "tournament", STATUSES)
    if t.get("standings_revealed") is not None:
        member(t, "standings_revealed", "tournament", bool)
    try:
        rules = rule_settings(member(t, "rules", "tournament", dict)).validated()
    except InvalidSettings as exc:
        key, problem = next(iter(exc.errors.items()))
        raise InvalidResults(f"tournament.rules.{key}", problem) from None
    return t, rules


def _check_round(path: str, rnd: Any, players: dict[int, str], rules: RuleSettings) -> _Round:
    """A preliminary round: each match recomputed, each player seated or sitting out once."""
    choice(rnd, "kind", path, ("preliminary",))
    status = choice(rnd, "status", path, ("seated", "running", "finished"))
    seated: set[int] = set()
    games = []
    for mpath, match in numbered(rnd, "matches", path, "table", "table", INT):
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
    for i, out in enumerate(listed(rnd, "sit_outs", path, optional=True)):
        opath = f"{path}.sit_outs[{i}]"
        pid = whole(out, "player", opath, 0, BIG)
        if pid not in players:
            raise InvalidResults(f"{opath}.player", _NOT_IN_PLAYERS() % {"id": pid})
        if pid in seated:
            raise InvalidResults(
                f"{opath}.player",
                _("player %(id)s sat at a table this round") % {"id": pid},
            )
        seated.add(pid)
        outs.append((f"{opath}.points", pid, whole(out, "points", opath, -SMALL, SMALL)))
    return _Round(rnd["number"], status, games, outs)


def _check_final(
    final_doc: dict[str, Any], players: dict[int, str], rules: RuleSettings
) -> tuple[list[_Game], Team | None]:
    """The final's games recomputed at its one table, and the champions they give."""
    final: list[_Game] = []
    seats = member(final_doc, "seats", "final", dict)
    for path, game in numbered(final_doc, "games", "final", "number", "game", 9):
        final.append(_check_game({**game, "seats": seats}, path, players, rules, final=True))
    try:
        champions = final_state(
            [Team(g.winner) if g.winner else None for g in final],
            rules.final_games_to_win,
        ).champions
    except ValueError as exc:
        raise InvalidResults("final.games", str(exc)) from None
    return final, champions


def check_document(doc: Any) -> Checked:
    """Check every field this reader uses and recompute every match and the standings
    with the rules; the first field that disagrees is named."""
    t, rules = _check_tournament(doc)
    players, names = _players(doc)
    final_doc = member(doc, "final", "", dict, null=True)
    rounds = [
        _check_round(path, rnd, players, rules)
        for path, rnd in numbered(doc, "rounds", "", "number", "round", SMALL - 1)
    ]
    final: list[_Game] = []
    champions = None
    if final_doc is not None:
        final, champions = _check_final(final_doc, players, rules)
    _check_stage(t.get("status"), rounds, final_doc is not None, champions is not None)
    checked = Checked(doc, rules, players, names, rounds, final)
    checked.stationary = _stationary(doc, players)
    _check_standings(checked)
    return checked


def _stationary(
    doc: dict[str, Any], players: dict[int, str]
) -> list[tuple[int, int, int, int | None]]:
    """The stationary marks, each followed through the rounds it routes: the player stays
    at one table from one round to the next (unless the room closed tables between them,
    which renumbers the tables left)."""
    marks: list[tuple[int, int, int, int | None]] = []
    where: dict[int, dict[int, int]] = {}  # round -> player -> table
    for rnd in doc["rounds"]:
        where[rnd["number"]] = {
            pid: match["table"] for match in rnd["matches"] for pid in match["seats"].values()
        }
    for i, mark in enumerate(listed(doc, "stationary", "", optional=True)):
        path = f"stationary[{i}]"
        pid = whole(mark, "player", path, 0, BIG)
        if pid not in players:
            raise InvalidResults(f"{path}.player", _NOT_IN_PLAYERS() % {"id": pid})
        table = whole(mark, "table", path, 1, INT)
        first = whole(mark, "from_round", path, 1, SMALL - 1)
        until = whole(mark, "until_round", path, first, SMALL, null=True)
        for other, _t, start, end in marks:
            if other == pid and start < (until or SMALL + 1) and first < (end or SMALL + 1):
                raise InvalidResults(
                    path, _("player %(id)s is marked stationary twice at once") % {"id": pid}
                )
        for number in sorted(where):
            before = where.get(number - 1)
            if number <= first or (until is not None and number >= until) or before is None:
                continue
            now = where[number]
            if pid not in before or pid not in now or len(before) != len(now):
                continue
            if before[pid] != now[pid]:
                raise InvalidResults(
                    path,
                    _(
                        "player %(id)s is stationary but moves from table %(from)s to "
                        "table %(to)s in round %(n)s"
                    )
                    % {"id": pid, "from": before[pid], "to": now[pid], "n": number},
                )
        marks.append((pid, table, first, until))
    return marks


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


def _round_lines(checked: Checked) -> tuple[dict[int, list[RoundLine]], dict[int, list[int]]]:
    """Each player's recomputed matches as the standings count them (a substitute's
    replaced player keeps the hands they played), and the rounds each sat out."""
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
    return lines, outs


def _check_listed_once(rows: list[Any], division: str) -> None:
    # A player listed twice is named at the second row, before any count: "11 players
    # ranked, the matches rank 10" left the sender to find the repeated row.
    first_at: dict[int, int] = {}
    for i, row in enumerate(rows):
        path = f"standings.{division}[{i}]"
        pid = whole(row, "player", path, 0, BIG)
        if pid in first_at:
            raise InvalidResults(
                path,
                _("player %(id)s is listed twice (also at %(first)s)")
                % {"id": pid, "first": f"standings.{division}[{first_at[pid]}]"},
            )
        first_at[pid] = i


def _check_standing_row(row: Any, standing: Standing, path: str) -> None:
    """One row of the file's standings against the player the matches rank there."""
    record = standing.record
    pid = whole(row, "player", path, 0, BIG)
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
        given = whole(row, key, path, low, high)
        if given != value:
            raise InvalidResults(
                f"{path}.{key}",
                _("%(given)s, the matches give %(value)s") % {"given": given, "value": value},
            )
    lot = row.get("by_lot")
    if lot is not None and member(row, "by_lot", path, bool) != standing.decided_by_lot:
        raise InvalidResults(
            f"{path}.by_lot",
            _("the matches give %(value)s") % {"value": str(standing.decided_by_lot).lower()},
        )


def _check_standings(checked: Checked) -> None:
    """Rank the recomputed matches as ``services.standings`` does (the file's ids drawing
    the lot as the source's did) and compare, row by row, with the file's standings and
    sit-out points."""
    doc = checked.doc
    house = {p["id"] for p in doc["players"] if p.get("status") == "house"}
    lines, outs = _round_lines(checked)
    setting = sit_out_points_setting(checked.rules.sit_out_score) or "average"
    sit_points: dict[tuple[int, int], int] = {}
    standings = member(doc, "standings", "", dict)
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
        rows = listed(standings, division, "standings", optional=True)
        _check_listed_once(rows, division)
        if len(rows) != len(ranked):
            raise InvalidResults(
                f"standings.{division}",
                _("%(given)s players ranked, the matches rank %(value)s")
                % {"given": len(rows), "value": len(ranked)},
            )
        for i, (row, standing) in enumerate(zip(rows, ranked, strict=True)):
            record = standing.record
            for line in record.sit_outs:
                sit_points[(cast(int, record.player), line.round_number)] = line.points
            _check_standing_row(row, standing, f"standings.{division}[{i}]")
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
    if json_depth(data) > MAX_DEPTH:
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
