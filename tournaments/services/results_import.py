"""Importing past events from ``snowman.results/1`` files (the export is the interchange).

The file is checked whole first (``tournaments.results_file``, no database); nothing is
imported from a file it refuses. Importing is idempotent: the canonical JSON's SHA-256 is
kept with the event, and the same file (whitespace aside) imported again changes nothing.
Everything of one file is written in one transaction, which holds only the writes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.utils.translation import gettext_noop

from ..domain.hands import Team
from ..logtext import said
from ..models import (
    Club,
    EventResult,
    HandEntry,
    ImportedEvent,
    Match,
    PersonLink,
    Player,
    Round,
    Seating,
    Series,
    SitOut,
    Substitution,
    Tournament,
    WinnerOverride,
)
from ..names import name_key
from ..reads.linking import LinkPlan, plan_links
from ..replay import entry_of_json
from ..results_file import SEATS, TEAM_OF, Checked, InvalidResults, _Game, digest_of, parse

__all__ = ["digest_of"]  # publish.py reads it here
from . import ServiceError, log, now_or
from .clubs import site_club
from .linking import write_links
from .people import recompute_ratings
from .series import add_event
from .tournaments import rule_values


@dataclass(frozen=True)
class ImportOutcome:
    tournament: Tournament
    created: bool  # False: this file was imported before and nothing changed
    players: int
    matches: int
    proposals: int
    # A newer file of an event imported before replaced it in place (``update=True``).
    updated: bool = False


# --- Writing ----------------------------------------------------------------------------


def import_event(
    data: bytes | str,
    *,
    by: str,
    filename: str = "",
    series: Series | None = None,
    ratings: bool = True,
    update: bool = False,
    only_slug: str | None = None,
    club: Club | None = None,
) -> ImportOutcome:
    """A past event in: import it, add it to ``series`` (imported before or not), and when
    it is new or changed recompute the ratings (``ratings=False`` for a caller importing
    several files, who recomputes once after the last). ``update``: a newer file of an
    event imported before replaces it in place (the hall publishing again, issue 26)."""
    outcome = import_results(
        data,
        by=by,
        filename=filename,
        club=series.club if series is not None else club,
        update=update,
        only_slug=only_slug,
    )
    if series is not None:
        add_event(series, outcome.tournament)
    if (outcome.created or outcome.updated) and ratings:
        recompute_ratings()
    return outcome


def import_results(
    data: bytes | str,
    *,
    by: str,
    filename: str = "",
    now: datetime | None = None,
    link: Callable[..., int] | None = None,
    club: Club | None = None,
    update: bool = False,
    only_slug: str | None = None,
) -> ImportOutcome:
    """Check, recompute, match names, then write: the write transaction holds only the
    writes (the name matching against every person is done before it, ``plan_links``).
    The event joins ``club`` (the site's one club when None); its players are matched
    against that club's people only.

    ``update``: when the slug is an event of the club imported before from another file,
    that event is replaced in place (same row, so its series keep it) rather than refused;
    see ``_replace`` for what is kept. ``only_slug``: refuse any other event (a token
    grants one)."""
    at = now_or(now)
    club = club or site_club()
    checked, digest = parse(data)
    if only_slug is not None and checked.doc["tournament"]["slug"] != only_slug:
        raise InvalidResults(
            "tournament.slug",
            f"this token publishes the event {only_slug!r}, not "
            f"{checked.doc['tournament']['slug']!r}; nothing was imported",
        )
    done = ImportedEvent.objects.filter(digest=digest).select_related("tournament").first()
    if done is not None:
        if done.tournament.club_id != club.pk:
            # Never another club's event, nor a word about it.
            raise ServiceError("This file cannot be imported here.")
        return ImportOutcome(done.tournament, False, 0, 0, 0)
    info = checked.doc["tournament"]
    previous = (
        Tournament.objects.filter(slug=info["slug"], imported_from__isnull=False, club=club).first()
        if update
        else None
    )
    if previous is not None:
        house = {p["id"] for p in checked.doc["players"] if p.get("status") == "house"}
        plan = plan_links([n for pid, n in checked.names.items() if pid not in house], club.pk)
        filename = "".join(c for c in filename if c.isprintable())[:200]
        rows = _rows(checked, digest, by=by, filename=filename, at=at, club=club)
        try:
            with transaction.atomic():
                return _replace(previous, rows, by=by, filename=filename, at=at, plan=plan)
        except IntegrityError:
            again = ImportedEvent.objects.filter(digest=digest).select_related("tournament")
            if again.exists():
                return ImportOutcome(again[0].tournament, False, 0, 0, 0)
            raise ServiceError(_REFUSED) from None
        except DatabaseError:
            raise ServiceError(_REFUSED) from None
    if Tournament.objects.filter(slug=info["slug"]).exists():
        raise InvalidResults(
            "tournament.slug",
            f"an event {info['slug']!r} is already here, from another file or played here; "
            "nothing was imported",
        )
    house = {p["id"] for p in checked.doc["players"] if p.get("status") == "house"}
    plan = plan_links([n for pid, n in checked.names.items() if pid not in house], club.pk)
    filename = "".join(c for c in filename if c.isprintable())[:200]
    rows = _rows(checked, digest, by=by, filename=filename, at=at, club=club)
    try:
        with transaction.atomic():
            return _write(rows, by=by, filename=filename, at=at, plan=plan, link=link)
    except IntegrityError:
        # A concurrent import of the same file or slug won the race: nothing was written.
        done = ImportedEvent.objects.filter(digest=digest).select_related("tournament").first()
        if done is not None:
            return ImportOutcome(done.tournament, False, 0, 0, 0)
        if Tournament.objects.filter(slug=info["slug"]).exists():
            raise InvalidResults(
                "tournament.slug",
                f"an event {info['slug']!r} was added meanwhile; nothing was imported",
            ) from None
        raise ServiceError(_REFUSED) from None
    except DatabaseError:
        raise ServiceError(_REFUSED) from None


_REFUSED = (
    "The database refused to store this file (nothing was imported); its fields passed "
    "every check, so please report it with the file."
)


@dataclass
class _Rows:
    """Every row of one import, built (unsaved) before the write transaction opens, so
    that the transaction only inserts them; each list in the order it is inserted."""

    tournament: Tournament
    imported: ImportedEvent
    players: list[Player]
    rounds: list[Round]
    seats: list[Seating]
    sit_outs: list[SitOut]
    matches: list[Match]
    overrides: list[WinnerOverride]
    hands: list[HandEntry]
    subs: list[Substitution]
    results: list[EventResult]
    seat_rows: _Insert | None = None
    hand_rows: _Insert | None = None


def _rows(
    checked: Checked, digest: str, *, by: str, filename: str, at: datetime, club: Club
) -> _Rows:
    doc = checked.doc
    info = doc["tournament"]
    tournament = Tournament(
        club=club,
        name=info["name"].strip(),
        slug=info["slug"],
        status=Tournament.Status.FINISHED,
        lot_seed=info["lot_seed"],
        **rule_values(checked.rules),
    )
    imported = ImportedEvent(
        tournament=tournament,
        digest=digest,
        filename=filename,
        imported_at=at,
        imported_by=by,
    )
    # In the file's id order: the lot draws by id order, so the imported event ranks
    # its players exactly as the source did.
    sources = sorted(doc["players"], key=lambda p: p["id"])
    players = [
        Player(
            tournament=tournament,
            name=checked.names[p["id"]],
            division=p["division"],
            withdrawn=p.get("withdrawn", p.get("status") == "withdrawn"),
            house=p.get("status") == "house",
            withdrawn_after_round=p.get("withdrawn_after_round"),
        )
        for p in sources
    ]
    player_of = {p["id"]: row for p, row in zip(sources, players, strict=True)}
    rounds: list[tuple[Round, list[tuple[int, int, _Game]], list[int]]] = []
    for source in checked.rounds:
        row = Round(
            tournament=tournament,
            number=source.number,
            kind=Round.Kind.PRELIMINARY,
            status=source.status,
            started_at=None if source.status == "seated" else at,
            finished_at=at if source.status == "finished" else None,
        )
        held = [(table, 1, game) for table, game in source.matches]
        rounds.append((row, held, [pid for _, pid, _ in source.sit_outs]))
    if doc["final"] is not None:
        number = max((r.number for r in checked.rounds), default=0) + 1
        row = Round(
            tournament=tournament,
            number=number,
            kind=Round.Kind.FINAL,
            status=Round.Status.FINISHED,
            started_at=at,
            finished_at=at,
        )
        rounds.append((row, [(1, i + 1, g) for i, g in enumerate(checked.final)], []))
    seats: list[Seating] = []
    sit_outs: list[SitOut] = []
    matches: list[Match] = []
    overrides: list[WinnerOverride] = []
    hands: list[HandEntry] = []
    subs: list[Substitution] = []
    for stored, held, outs in rounds:
        sit_outs += [SitOut(round=stored, player=player_of[pid]) for pid in outs]
        for table, number, game in held:
            if stored.kind == Round.Kind.PRELIMINARY or number == 1:
                seats += _seats(stored, table, game, player_of)
            match = _match(stored, table, number, game)
            matches.append(match)
            if game.override is not None:
                overrides.append(
                    WinnerOverride(
                        match=match,
                        winner=game.override["winner"],
                        reason=game.override["reason"],
                        created_by=by,
                        created_at=at,
                    )
                )
            for h in game.hands:
                hands.append(
                    entry_of_json(
                        h,
                        match=match,
                        # Unique: the digest is unique to the file, the count to the hand.
                        client_key=f"import-{digest[:24]}-{len(hands) + 1}",
                        source=HandEntry.Source.IMPORTED,
                        entered_at=at,
                        entered_by=by,
                    )
                )
            subs += [
                Substitution(
                    match=match,
                    position=sub.position,
                    from_hand=sub.from_hand,
                    player_out=player_of[sub.out],
                    player_in=player_of[sub.into],
                    out_team_score=sub.out_team,
                    out_individual=sub.out_individual,
                    reason="imported",
                    created_by=by,
                    created_at=at,
                )
                for sub in game.subs
            ]
    results = [
        EventResult(
            tournament=tournament,
            player=player_of[row["player"]],
            division=division,
            rank=row["rank"],
            total=row["total"],
            wins=row["wins"],
            margin=row["margin"],
            played=row.get("played", checked.played.get(row["player"], 0)),
        )
        for division, rows in doc["standings"].items()
        for row in rows
    ]
    return _Rows(
        tournament,
        imported,
        players,
        [r for r, _, _ in rounds],
        seats,
        sit_outs,
        matches,
        overrides,
        hands,
        subs,
        results,
        seat_rows=_Insert(Seating, seats),
        hand_rows=_Insert(HandEntry, hands),
    )


class _Insert:
    """Rows of one model prepared for the database before the write transaction: every
    column's value converted once, outside the lock. Inside, only the parents' new ids
    are filled in and the rows go in with one ``executemany`` (a 3,000-player file has
    45,000 hands; ``bulk_create`` spent 15 s of the writer lock converting them)."""

    def __init__(self, model: type[models.Model], objs: Sequence[models.Model]) -> None:
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        self.objs = objs
        self.parents = [(i, f) for i, f in enumerate(fields) if f.is_relation]
        quote = connection.ops.quote_name
        columns = ", ".join(quote(cast(str, f.column)) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        table = quote(model._meta.db_table)
        self.sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
        self.rows = [
            [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields] for obj in objs
        ]

    def run(self) -> None:
        for obj, row in zip(self.objs, self.rows, strict=True):
            for i, parent in self.parents:
                # The parent was inserted first (bulk_create gave it its id).
                related = getattr(obj, parent.name)
                if related is not None:
                    row[i] = related.pk
        with connection.cursor() as cursor:
            for start in range(0, len(self.rows), 5000):
                cursor.executemany(self.sql, self.rows[start : start + 5000])


def _write(
    rows: _Rows,
    *,
    by: str,
    filename: str,
    at: datetime,
    plan: LinkPlan,
    link: Callable[..., int] | None,
) -> ImportOutcome:
    """Insert the rows, parents first (each child takes its parent's new id on insert),
    and link the players to people from the plan: nothing else."""
    rows.tournament.save()
    rows.imported.save()
    Player.objects.bulk_create(rows.players, batch_size=2000)
    Round.objects.bulk_create(rows.rounds, batch_size=2000)
    assert rows.seat_rows is not None and rows.hand_rows is not None
    rows.seat_rows.run()
    SitOut.objects.bulk_create(rows.sit_outs, batch_size=2000)
    Match.objects.bulk_create(rows.matches, batch_size=2000)
    WinnerOverride.objects.bulk_create(rows.overrides, batch_size=2000)
    rows.hand_rows.run()
    Substitution.objects.bulk_create(rows.subs, batch_size=2000)
    EventResult.objects.bulk_create(rows.results, batch_size=2000)
    players = rows.players
    if link is not None:
        proposals = link(players, by=by, now=at)
    else:
        proposals = write_links([p for p in players if not p.house], plan, by=by, now=at)
    log(
        rows.tournament,
        by,
        "import",
        said(
            gettext_noop(
                "Imported %(players)s players and %(matches)s matches from %(file)s (%(digest)s)."
            ),
            players=len(players),
            matches=len(rows.matches),
            file=filename or said(gettext_noop("a results file")),
            digest=rows.imported.digest[:12],
        ),
        at=at,
    )
    return ImportOutcome(rows.tournament, True, len(players), len(rows.matches), proposals)


def _replace(
    previous: Tournament, rows: _Rows, *, by: str, filename: str, at: datetime, plan: LinkPlan
) -> ImportOutcome:
    """A newer file of an event imported before: everything of the event is the file's
    (docs/series.md, "Publishing from the hall"), written over the same tournament row so
    its series membership stays; each player whose name folds as a player's of the
    previous version keeps that player's person (the club's merges, splits and accepted
    matches stand); other names are linked as any import links them."""
    old = Tournament.objects.select_for_update().get(pk=previous.pk)
    kept = {
        name_key(name): (person, how)
        for name, person, how in PersonLink.objects.filter(player__tournament=old).values_list(
            "player__name", "person_id", "how"
        )
    }
    hands = HandEntry.objects.filter(match__round__tournament=old)
    # Corrections point at the entries they replace (protected): unlink, then delete.
    hands.update(replaces=None)
    hands.delete()
    Substitution.objects.filter(match__round__tournament=old).delete()
    SitOut.objects.filter(round__tournament=old).delete()
    Seating.objects.filter(round__tournament=old).delete()
    Round.objects.filter(tournament=old).delete()  # matches and overrides with them
    Player.objects.filter(tournament=old).delete()  # results and people links with them
    ImportedEvent.objects.filter(tournament=old).delete()
    tournament = rows.tournament
    tournament.pk, tournament.created_at = old.pk, old.created_at
    tournament._state.adding = False  # an UPDATE of the same row

    def relink(players: Sequence[Player], *, by: str, now: datetime) -> int:
        again = []
        for p in players:
            if p.house:
                continue
            found = kept.get(name_key(p.name))
            if found is not None:
                again.append(PersonLink(player=p, person_id=found[0], how=found[1], at=now))
        PersonLink.objects.bulk_create(again)
        linked = {link.player_id for link in again}
        fresh = [p for p in players if not p.house and p.pk not in linked]
        return write_links(fresh, plan, by=by, now=now)

    outcome = _write(rows, by=by, filename=filename, at=at, plan=plan, link=relink)
    return ImportOutcome(
        outcome.tournament, False, outcome.players, outcome.matches, outcome.proposals, True
    )


def _seats(rnd: Round, table: int, game: _Game, player_of: dict[int, Player]) -> list[Seating]:
    out = []
    final = rnd.kind == Round.Kind.FINAL
    for position in SEATS:
        seat = Seating(
            round=rnd, table=table, position=position, player=player_of[game.seats[position]]
        )
        r = game.results.get(position)
        if not final and r is not None and r.points is not None:
            seat.team_score = r.team_score
            seat.bonus = r.bonus
            seat.individual = r.individual
            seat.points = r.points
            seat.won = game.winner == TEAM_OF[position]
            seat.margin = r.margin
        out.append(seat)
    return out


def _match(rnd: Round, table: int, number: int, game: _Game) -> Match:
    state = game.state
    over = state.over
    return Match(
        round=rnd,
        table=table,
        game=number,
        status=Match.Status.CONFIRMED
        if over
        else Match.Status.PLAYING
        if game.hands
        else Match.Status.WAITING,
        score_ns=state.score[Team.NS],
        score_ew=state.score[Team.EW],
        bonus_ns=state.bonuses.get(Team.NS, 0),
        bonus_ew=state.bonuses.get(Team.EW, 0),
        hands_played=len(game.hands),
        recorded_winner=game.recorded_winner,
        winner=game.winner or "",
        has_override=game.override is not None,
        has_renege=any(h["outcome"] == "renege" for h in game.hands),
        first_dealer=game.hands[0]["dealer"] if game.hands else "",
        hand_in_progress_at_call=game.hand_in_progress,
    )
