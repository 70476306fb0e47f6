"""Importing past events from ``snowman.results/1`` files (the export is the interchange).

The whole file is checked before anything is written; the first wrong field is named by
its path (``rounds[2].matches[5].seats.N``) or, for broken JSON, by line and column, and
nothing is imported. Keys this reader does not know are ignored, so files from newer
exports with additive fields still import. Importing is idempotent: the canonical JSON's
SHA-256 is kept with the event, and the same file (whitespace aside) imported again
changes nothing. Everything of one file is written in one transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from ..domain.rules import RuleSettings, sit_out_points_setting
from ..models import (
    EventResult,
    HandEntry,
    ImportedEvent,
    Match,
    Player,
    Round,
    Seating,
    Tournament,
    WinnerOverride,
)
from . import ServiceError, log, now_or
from .people import link_players
from .tournaments import rule_values

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


@dataclass(frozen=True)
class ImportOutcome:
    tournament: Tournament
    created: bool  # False: this file was imported before and nothing changed
    players: int
    matches: int
    proposals: int


# --- Checking -------------------------------------------------------------------------


def _get(
    obj: Any, key: str, path: str, kind: type | tuple[type, ...], *, null: bool = False
) -> Any:
    if not isinstance(obj, dict):
        raise InvalidResults(path, "expected an object")
    here = f"{path}.{key}" if path else key
    if key not in obj:
        raise InvalidResults(here, "missing")
    value = obj[key]
    if value is None and null:
        return None
    # bool is an int in Python; a true/false where a number belongs is an error.
    if isinstance(value, bool) and kind is not bool and bool not in _kinds(kind):
        raise InvalidResults(here, f"expected {_name(kind)}, found {json.dumps(value)}")
    if not isinstance(value, kind):
        raise InvalidResults(here, f"expected {_name(kind)}, found {json.dumps(value)[:40]}")
    return value


def _numbered(
    parent: Any, key: str, path: str, number: str, what: str
) -> Iterator[tuple[str, Any]]:
    """The objects of the list ``parent[key]``, each with its path, each checked (as it
    comes) to carry a new ``number``: a whole number of at least 1."""
    here = f"{path}.{key}" if path else key
    seen: set[int] = set()
    for i, item in enumerate(_get(parent, key, path, list)):
        item_path = f"{here}[{i}]"
        value = _get(item, number, item_path, int)
        if value < 1 or value in seen:
            raise InvalidResults(
                f"{item_path}.{number}", f"must be a new {what} number of at least 1"
            )
        seen.add(value)
        yield item_path, item


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _name(kind: type | tuple[type, ...]) -> str:
    names = {int: "a whole number", str: "text", bool: "true or false", list: "a list"}
    names[dict] = "an object"
    return " or ".join(names.get(k, k.__name__) for k in _kinds(kind))


def _choice(obj: Any, key: str, path: str, choices: tuple[str, ...], *, null: bool = False) -> Any:
    value = _get(obj, key, path, str, null=null)
    if value is not None and value not in choices:
        raise InvalidResults(f"{path}.{key}", f"must be one of {', '.join(choices)}, not {value!r}")
    return value


def _check_hand(hand: Any, path: str) -> None:
    _get(hand, "number", path, int)
    if hand["number"] < 1:
        raise InvalidResults(f"{path}.number", "must be at least 1")
    _choice(hand, "dealer", path, SEATS)
    outcome = _choice(hand, "outcome", path, ("played", "renege", "misdeal"))
    maker = _choice(hand, "maker", path, SEATS, null=True)
    alone = _get(hand, "alone", path, bool)
    tricks = _get(hand, "maker_tricks", path, int, null=True)
    renege = _choice(hand, "renege_by", path, SEATS, null=True)
    _choice(hand, "phase", path, ("regular", "at_call", "tiebreak"))
    points = _get(hand, "points", path, dict)
    for team in TEAMS:
        _get(points, team, f"{path}.points", int)
    if outcome == "played":
        if maker is None or tricks is None:
            raise InvalidResults(path, "a played hand needs its maker and maker_tricks")
        if not 0 <= tricks <= 5:
            raise InvalidResults(f"{path}.maker_tricks", "must be 0 to 5")
        if renege is not None:
            raise InvalidResults(f"{path}.renege_by", "only a renege has a reneging player")
    elif outcome == "renege":
        if renege is None:
            raise InvalidResults(f"{path}.renege_by", "a renege needs the reneging seat")
        if tricks is not None or alone:
            raise InvalidResults(path, "a renege has no tricks and is not alone")
    elif maker is not None or renege is not None or tricks is not None or alone:
        raise InvalidResults(path, "a misdeal has no maker, tricks, renege or lone hand")


def _check_game(game: Any, path: str, players: dict[int, str]) -> None:
    seats = _get(game, "seats", path, dict)
    seen = set()
    for seat in SEATS:
        pid = _get(seats, seat, f"{path}.seats", int)
        if pid not in players:
            raise InvalidResults(f"{path}.seats.{seat}", f"player {pid} is not in players")
        seen.add(pid)
    if len(seen) != 4:
        raise InvalidResults(f"{path}.seats", "four different players must sit at a table")
    hands = _get(game, "hands", path, list)
    numbers = set()
    for i, hand in enumerate(hands):
        _check_hand(hand, f"{path}.hands[{i}]")
        if hand["number"] in numbers:
            raise InvalidResults(f"{path}.hands[{i}].number", "this hand number is repeated")
        numbers.add(hand["number"])
    score = _get(game, "score", path, dict)
    for team in TEAMS:
        total = sum(h["points"][team] for h in hands)
        if _get(score, team, f"{path}.score", int) != total:
            raise InvalidResults(
                f"{path}.score.{team}", f"is {score[team]} but the hands add up to {total}"
            )
    _choice(game, "winner", path, TEAMS, null=True)


def check_document(doc: Any) -> dict[int, str]:
    """Check every field this reader uses; returns player id -> division."""
    if not isinstance(doc, dict):
        raise InvalidResults("", "The file must hold one JSON object.")
    schema = _get(doc, "schema", "", str)
    if schema != SCHEMA:
        raise InvalidResults("schema", f"expected {SCHEMA!r}, found {schema!r}")
    t = _get(doc, "tournament", "", dict)
    name = _get(t, "name", "tournament", str).strip()
    if not name or len(name) > TOURNAMENT_NAME_MAX:
        raise InvalidResults("tournament.name", "must be 1 to 120 characters")
    slug = _get(t, "slug", "tournament", str)
    if slugify(slug) != slug or not slug or len(slug) > 140:
        raise InvalidResults("tournament.slug", f"{slug!r} is not a slug")
    _get(t, "lot_seed", "tournament", int)
    rules = _get(t, "rules", "tournament", dict)
    try:
        _rules(rules).validated()
    except (TypeError, ValueError) as exc:
        raise InvalidResults("tournament.rules", str(exc)) from None
    players: dict[int, str] = {}
    names: set[str] = set()
    for i, p in enumerate(_get(doc, "players", "", list)):
        path = f"players[{i}]"
        pid = _get(p, "id", path, int)
        pname = " ".join(_get(p, "name", path, str).split())
        division = _choice(p, "division", path, ("A", "B"))
        # Newer exports may say it with a status instead; either is read.
        if "withdrawn" in p:
            _get(p, "withdrawn", path, bool)
        elif p.get("status") is not None and not isinstance(p["status"], str):
            raise InvalidResults(f"{path}.status", "expected text")
        if p.get("status") is not None and p["status"] not in ("active", "withdrawn", "house"):
            raise InvalidResults(f"{path}.status", "must be active, withdrawn or house")
        after = p.get("withdrawn_after_round")
        if after is not None and (isinstance(after, bool) or not isinstance(after, int)):
            raise InvalidResults(f"{path}.withdrawn_after_round", "expected a round number")
        if not pname or len(pname) > 80:
            raise InvalidResults(f"{path}.name", "must be 1 to 80 characters")
        if pid in players:
            raise InvalidResults(f"{path}.id", f"player {pid} is listed twice")
        if pname.casefold() in names:
            raise InvalidResults(f"{path}.name", f"{pname} is listed twice")
        players[pid] = division
        names.add(pname.casefold())
    if not players:
        raise InvalidResults("players", "the file has no players")
    for path, rnd in _numbered(doc, "rounds", "", "number", "round"):
        _choice(rnd, "kind", path, ("preliminary",))
        _choice(rnd, "status", path, ("seated", "running", "finished"))
        seated = set()
        for mpath, match in _numbered(rnd, "matches", path, "table", "table"):
            _check_game(match, mpath, players)
            for seat in SEATS:
                pid = match["seats"][seat]
                if pid in seated:
                    raise InvalidResults(f"{mpath}.seats.{seat}", f"player {pid} sits twice")
                seated.add(pid)
            override = _get(match, "override", mpath, dict, null=True)
            if override is not None:
                _choice(override, "winner", f"{mpath}.override", TEAMS)
                if not _get(override, "reason", f"{mpath}.override", str).strip():
                    raise InvalidResults(f"{mpath}.override.reason", "an override needs a reason")
            bonuses = _get(match, "bonuses", mpath, dict)
            for team in TEAMS:
                _get(bonuses, team, f"{mpath}.bonuses", int)
            points = _get(match, "players", mpath, dict)
            at_table = {str(match["seats"][s]) for s in SEATS}
            for key in points:
                if key not in at_table:
                    raise InvalidResults(f"{mpath}.players.{key}", "not seated at this table")
                _get(points, key, f"{mpath}.players", int)
    standings = _get(doc, "standings", "", dict)
    for division, rows in standings.items():
        if division not in ("A", "B"):
            raise InvalidResults(f"standings.{division}", "divisions are A and B")
        if not isinstance(rows, list):
            raise InvalidResults(f"standings.{division}", "expected a list")
        for i, row in enumerate(rows):
            path = f"standings.{division}[{i}]"
            if _get(row, "rank", path, int) < 1:
                raise InvalidResults(f"{path}.rank", "must be at least 1")
            pid = _get(row, "player", path, int)
            if players.get(pid) != division:
                raise InvalidResults(
                    f"{path}.player", f"player {pid} is not in division {division}"
                )
            for key in ("total", "wins", "margin"):
                _get(row, key, path, int)
    final = _get(doc, "final", "", dict, null=True)
    if final is not None:
        seats = _get(final, "seats", "final", dict)
        for seat in SEATS:
            if _get(seats, seat, "final.seats", int) not in players:
                raise InvalidResults(f"final.seats.{seat}", "not in players")
        for path, game in _numbered(final, "games", "final", "number", "game"):
            _check_game({**game, "seats": seats}, path, players)
    return players


def _rules(data: dict[str, Any]) -> RuleSettings:
    known = {k: v for k, v in data.items() if k in RuleSettings.__dataclass_fields__}
    if "tiebreaks" in known:
        if not isinstance(known["tiebreaks"], list):
            raise ValueError("tiebreaks must be a list")
        known["tiebreaks"] = tuple(known["tiebreaks"])
    if "sit_out_score" in known:
        # §6: "average", "none" or a number of points; kept as the setting's text.
        setting = known["sit_out_score"]
        if isinstance(setting, bool) or sit_out_points_setting(setting) is None:
            raise ValueError('sit_out_score must be "average", "none" or a number 0 to 20')
        known["sit_out_score"] = str(setting)
    for key, value in known.items():
        if key not in ("tiebreaks", "sit_out_score") and not isinstance(value, int):
            raise ValueError(f"{key} must be a number or true/false")
    return RuleSettings(**known)


def parse(data: bytes | str) -> tuple[dict[str, Any], str]:
    """The document and its digest, or InvalidResults naming where it is wrong."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidResults(f"byte {exc.start}", "the file is not UTF-8 text") from None
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as exc:
        raise InvalidResults(f"line {exc.lineno} column {exc.colno}", exc.msg) from None
    check_document(doc)
    canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return doc, hashlib.sha256(canonical.encode()).hexdigest()


# --- Writing ----------------------------------------------------------------------------


def import_results(
    data: bytes | str,
    *,
    by: str,
    filename: str = "",
    now: datetime | None = None,
    link: Callable[..., int] = link_players,
) -> ImportOutcome:
    at = now_or(now)
    doc, digest = parse(data)
    done = ImportedEvent.objects.filter(digest=digest).select_related("tournament").first()
    if done is not None:
        return ImportOutcome(done.tournament, False, 0, 0, 0)
    info = doc["tournament"]
    if Tournament.objects.filter(slug=info["slug"]).exists():
        raise InvalidResults(
            "tournament.slug",
            f"an event {info['slug']!r} is already here, from another file or played here; "
            "nothing was imported",
        )
    try:
        with transaction.atomic():
            return _write(doc, digest, by=by, filename=filename, at=at, link=link)
    except IntegrityError as exc:
        # A concurrent import of the same file or slug won the race: nothing was written.
        done = ImportedEvent.objects.filter(digest=digest).select_related("tournament").first()
        if done is not None:
            return ImportOutcome(done.tournament, False, 0, 0, 0)
        raise ServiceError(f"The import was refused by the database: {exc}") from exc


def _write(
    doc: dict[str, Any],
    digest: str,
    *,
    by: str,
    filename: str,
    at: datetime,
    link: Callable[..., Any],
) -> ImportOutcome:
    info = doc["tournament"]
    rules = _rules(info["rules"])
    tournament = Tournament.objects.create(
        name=info["name"].strip(),
        slug=info["slug"],
        status=Tournament.Status.FINISHED,
        lot_seed=info["lot_seed"],
        **rule_values(rules),
    )
    ImportedEvent.objects.create(
        tournament=tournament,
        digest=digest,
        filename=filename[:200],
        imported_at=at,
        imported_by=by,
    )
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            name=" ".join(p["name"].split()),
            division=p["division"],
            withdrawn=p.get("withdrawn", p.get("status") == "withdrawn"),
            house=p.get("status") == "house",
            withdrawn_after_round=p.get("withdrawn_after_round"),
        )
        for p in doc["players"]
    )
    player_of = {p["id"]: row for p, row in zip(doc["players"], players, strict=True)}
    games: list[tuple[Round, int, int, dict[str, Any]]] = []
    rounds = []
    for rnd in doc["rounds"]:
        rounds.append(
            (
                Round(
                    tournament=tournament,
                    number=rnd["number"],
                    kind=Round.Kind.PRELIMINARY,
                    status=rnd["status"],
                    started_at=None if rnd["status"] == "seated" else at,
                    finished_at=at if rnd["status"] == "finished" else None,
                ),
                rnd,
            )
        )
    final = doc["final"]
    if final is not None:
        number = max((r["number"] for r in doc["rounds"]), default=0) + 1
        rounds.append(
            (
                Round(
                    tournament=tournament,
                    number=number,
                    kind=Round.Kind.FINAL,
                    status=Round.Status.FINISHED,
                    started_at=at,
                    finished_at=at,
                ),
                {"matches": [{**g, "table": 1, "seats": final["seats"]} for g in final["games"]]},
            )
        )
    Round.objects.bulk_create([r for r, _ in rounds])
    seats = []
    for rnd, data in rounds:
        is_final = rnd.kind == Round.Kind.FINAL
        for match in data["matches"]:
            games.append((rnd, match["table"], match.get("number", 1) if is_final else 1, match))
        for match in data["matches"][:1] if is_final else data["matches"]:
            seats += _seats(rnd, match, player_of, is_final)
    Seating.objects.bulk_create(seats)
    matches = Match.objects.bulk_create(
        _match(rnd, table, game, m) for rnd, table, game, m in games
    )
    overrides, hands = [], []
    for row, (_, _, _, m) in zip(matches, games, strict=True):
        if m.get("override"):
            overrides.append(
                WinnerOverride(
                    match=row,
                    winner=m["override"]["winner"],
                    reason=m["override"]["reason"],
                    created_by=by,
                    created_at=at,
                )
            )
        for h in m["hands"]:
            hands.append(_hand(row, h, digest, by, at))
    WinnerOverride.objects.bulk_create(overrides)
    HandEntry.objects.bulk_create(hands, batch_size=2000)
    played: dict[int, int] = {}
    for seat in seats:
        if seat.points is not None and seat.round.kind == Round.Kind.PRELIMINARY:
            played[seat.player_id] = played.get(seat.player_id, 0) + 1
    EventResult.objects.bulk_create(
        EventResult(
            tournament=tournament,
            player=player_of[row["player"]],
            division=division,
            rank=row["rank"],
            total=row["total"],
            wins=row["wins"],
            margin=row["margin"],
            played=played.get(player_of[row["player"]].pk, 0),
        )
        for division, rows in doc["standings"].items()
        for row in rows
    )
    proposals = link(players, by=by, now=at)
    log(
        tournament,
        by,
        "import",
        f"Imported {len(players)} players and {len(matches)} matches from "
        f"{filename or 'a results file'} ({digest[:12]}).",
        at=at,
    )
    return ImportOutcome(tournament, True, len(players), len(matches), proposals)


def _seats(
    rnd: Round, match: dict[str, Any], player_of: dict[int, Player], is_final: bool
) -> list[Seating]:
    out = []
    score, bonuses, winner = match["score"], match.get("bonuses") or {}, match["winner"]
    for position in SEATS:
        source_id = match["seats"][position]
        player = player_of[source_id]
        team = TEAM_OF[position]
        other = "EW" if team == "NS" else "NS"
        points = None if is_final else match.get("players", {}).get(str(source_id))
        seat = Seating(round=rnd, table=match["table"], position=position, player=player)
        if points is not None and winner:
            bonus = bonuses.get(team, 0)
            seat.team_score = score[team]
            seat.bonus = bonus
            seat.points = points
            seat.individual = points - score[team] - bonus
            seat.won = winner == team
            seat.margin = score[team] - score[other]
        out.append(seat)
    return out


def _match(rnd: Round, table: int, game: int, m: dict[str, Any]) -> Match:
    override = m.get("override")
    winner = m["winner"] or ""
    over = bool(winner) or rnd.status == Round.Status.FINISHED
    return Match(
        round=rnd,
        table=table,
        game=game,
        status=Match.Status.CONFIRMED if over else Match.Status.PLAYING,
        score_ns=m["score"]["NS"],
        score_ew=m["score"]["EW"],
        bonus_ns=(m.get("bonuses") or {}).get("NS", 0),
        bonus_ew=(m.get("bonuses") or {}).get("EW", 0),
        hands_played=len(m["hands"]),
        recorded_winner=winner if override is None else "",
        winner=winner if over else "",
        has_override=override is not None,
        has_renege=any(h["outcome"] == "renege" for h in m["hands"]),
        first_dealer=m["hands"][0]["dealer"] if m["hands"] else "",
    )


def _hand(match: Match, h: dict[str, Any], digest: str, by: str, at: datetime) -> HandEntry:
    return HandEntry(
        match=match,
        number=h["number"],
        client_key=f"import-{digest[:24]}-{match.pk}-{h['number']}",
        outcome=h["outcome"],
        maker=h["maker"] or "",
        alone=h["alone"],
        maker_tricks=h["maker_tricks"],
        renege_by=h["renege_by"] or "",
        dealer=h["dealer"],
        phase=h["phase"],
        points_ns=h["points"]["NS"],
        points_ew=h["points"]["EW"],
        source=HandEntry.Source.IMPORTED,
        entered_at=at,
        entered_by=by,
    )
