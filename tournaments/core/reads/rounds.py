"""The rounds as the director's pages read them before a command: round 1's remedies and
the lot's sit-out proposal, the next round's plan (the preview, and its fingerprint the
confirm checks), the tables a finalize waits for and a round whose limit has passed (the
rule changes check it). ``services.rounds`` draws, seats and finalizes."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.utils import translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.common import domain_text
from tournaments.common.errors import ServiceError
from tournaments.common.names import sort_key
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating, SitOut
from tournaments.core.models.stationary import StationaryMark
from tournaments.core.reads import now_or
from tournaments.core.replay import round_clock
from tournaments.domain.hands import Seat, Team
from tournaments.domain.seating import (
    FirstRoundRemedy,
    NextSeating,
    PlayerId,
    SeatingError,
    TableResult,
    TableSeating,
    Waiting,
    draw_with_remedy,
    first_round_remedies,
    rotate,
    seat_with_holes,
    turn_of,
)


def seating_of(rnd: Round) -> list[TableSeating]:
    """A round's tables as the rules read them; a table turned for a stationary player
    (§3.1) is read back from where its A players sit."""
    tables = Seating.objects.filter(round=rnd).by_table("player_id", "player__division")
    result = []
    for t, rows in sorted(tables.items()):
        seats: dict[Seat, PlayerId] = {Seat(position): pid for position, (pid, _d) in rows.items()}
        division: dict[PlayerId, str] = {pid: d for pid, d in rows.values()}
        result.append(TableSeating(t, seats, turn_of(seats, division)))
    return result


def seat_division(rnd: Round, table: int, position: str) -> str:
    """The division a seat of a table holds: A at N and E, B at S and W, but turned at a
    table turned for a stationary player (§3.1)."""
    rows = Seating.objects.filter(round=rnd, table=table).values_list(
        "position", "player_id", "player__division"
    )
    seats: dict[Seat, PlayerId] = {Seat(p): pid for p, pid, _d in rows}
    division: dict[PlayerId, str] = {pid: d for _p, pid, d in rows}
    return TableSeating(table, seats, turn_of(seats, division)).division_at(Seat(position))


def stationary_marks(tournament: Tournament, number: int) -> list[StationaryMark]:
    """The marks that route the seating of round ``number``, first marked first."""
    return list(StationaryMark.objects.filter(tournament=tournament).routing(number))


@dataclass(frozen=True)
class SitOutProposal:
    """The sit-out remedy of round 1 as the draw page shows it: the lot's proposal for a
    seed, and every player the director may choose instead (of a division that has
    players over, by name)."""

    remedy: FirstRoundRemedy
    seed: int
    proposed: frozenset[int]
    candidates: dict[str, list[Player]]


def sit_out_proposal(tournament: Tournament, seed: int) -> SitOutProposal | None:
    """Who the lot has sit out of round 1 with ``seed`` (the event's stored lot, never a
    new one: ``lots``; None when no sit-out remedy applies); drawing with the same seed
    and no choice seats exactly this."""
    players = list(
        Player.objects.filter(tournament=tournament, checked_in=True, withdrawn=False, house=False)
    )
    a_ids = [p.pk for p in players if p.division == "A"]
    b_ids = [p.pk for p in players if p.division == "B"]
    remedy = next(
        (r for r in first_round_remedies(len(a_ids), len(b_ids)) if r.kind == "sit-out"), None
    )
    if remedy is None:
        return None
    placed = [(m.player_id, m.table) for m in stationary_marks(tournament, 1)]
    _, proposed = draw_with_remedy(a_ids, b_ids, random.Random(seed), remedy, stationary=placed)
    over = {"A": remedy.sit_out_a, "B": remedy.sit_out_b}
    candidates = {
        d: sorted((p for p in players if p.division == d), key=lambda p: sort_key(p.name))
        for d in "AB"
        if over[d]
    }
    return SitOutProposal(remedy, seed, frozenset(cast(int, p) for p in proposed), candidates)


@dataclass(frozen=True)
class NextRoundPlan:
    """The next round as it would be seated, for the preview and the confirm (§6)."""

    number: int
    seating: NextSeating
    proposed_close: list[int]
    names: dict[int, str]
    house: set[int]
    waiting: int
    holes: int
    # Stationary players (§3.1), first marked first, and the players the rotation routes
    # around them: (player, the table plain §3 gives, the table they go to).
    stationary: list[int] = field(default_factory=list)
    rerouted: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def plain(self) -> bool:
        """Nothing but the rotation: no hole, no waiting player, no closed table."""
        s = self.seating
        return not (s.changes or s.closed or s.sit_outs)


def _last_finished(tournament: Tournament) -> Round:
    last = tournament.rounds.newest()
    if last is None:
        raise ServiceError(_("Draw round 1 first."))
    if last.kind != Round.Kind.PRELIMINARY or last.number >= tournament.preliminary_rounds:
        raise ServiceError(_("All preliminary rounds are seated."))
    if last.status != Round.Status.FINISHED:
        raise ServiceError(_("Finalize %(round)s first.") % {"round": last.label()})
    return last


def plan_next_round(tournament: Tournament, close: Sequence[int] | None = None) -> NextRoundPlan:
    """Compute the next round's seating without writing anything."""
    last = _last_finished(tournament)
    seating = {t.table: t for t in seating_of(last)}
    winners = dict(last.matches.filter(game=1).values_list("table", "winner"))
    results = [TableResult(seating[t], Team(winners[t])) for t in sorted(seating)]
    people = list(
        Player.objects.filter(tournament=tournament).values_list(
            "pk", "name", "division", "checked_in", "withdrawn", "house", "checked_in_at"
        )
    )
    seated = {pid for t in seating.values() for pid in t.seats.values()}
    sat_out_last = set(SitOut.objects.filter(round=last).values_list("player_id", flat=True))
    counts: dict[PlayerId, int] = {}
    for pid in SitOut.objects.filter(round__tournament=tournament).values_list(
        "player_id", flat=True
    ):
        counts[pid] = counts.get(pid, 0) + 1
    withdrawn = {pk for pk, _, _, _, w, _, _ in people if w}
    house_ids = {pk for pk, _, _, _, _, h, _ in people if h}
    waiting = [
        # Last round's sit-outs are first in line; then by the time of check-in.
        Waiting(pk, d, -1.0 if pk in sat_out_last else (at.timestamp() if at else 0.0))
        for pk, _, d, checked, w, h, at in people
        if checked and not w and not h and pk not in seated
    ]
    house = sorted(pk for pk in house_ids if pk not in withdrawn and pk not in seated)
    stationary = [m.player_id for m in stationary_marks(tournament, last.number + 1)]

    def seat(close: Sequence[int] | None) -> NextSeating:
        return seat_with_holes(
            results,
            withdrawn=withdrawn,
            waiting=waiting,
            house=house,
            sit_outs_so_far=counts,
            lot_seed=tournament.lot_seed + last.number,
            close=close,
            house_seated=house_ids & seated,
            stationary=stationary,
        )

    try:
        proposal = seat(None)
        chosen = proposal if close is None else seat(close)
    except SeatingError as exc:
        raise ServiceError(domain_text.read(exc)) from exc
    holes = sum(1 for t in seating.values() for pid in t.seats.values() if pid in withdrawn)
    return NextRoundPlan(
        stationary=stationary,
        rerouted=_rerouted(results, [p for p in stationary if p not in withdrawn]),
        number=last.number + 1,
        seating=chosen,
        proposed_close=proposal.closed,
        names={pk: name for pk, name, *_ in people},
        house=house_ids,
        waiting=len(waiting),
        holes=holes,
    )


def _rerouted(results: list[TableResult], stationary: list[int]) -> list[tuple[int, int, int]]:
    """Who the stationary players send elsewhere than plain §3 would, with both tables
    (before any closure renumbers them)."""
    if not stationary:
        return []
    plain = {p: t.table for t in rotate(results) for p in t.seats.values()}
    routed = {p: t.table for t in rotate(results, stationary) for p in t.seats.values()}
    return sorted(
        (cast(int, p), plain[p], routed[p])
        for p in routed
        if routed[p] != plain[p] and p not in stationary
    )


def fingerprint(plan: NextRoundPlan) -> str:
    """A short digest of a planned seating: equal plans, equal fingerprints."""
    text = repr(
        (
            [
                (t.table, sorted((s.value, p) for s, p in t.seats.items()))
                for t in plan.seating.tables
            ],
            sorted(cast(list[int], plan.seating.sit_outs)),
            plan.seating.closed,
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def remedies(tournament: Tournament) -> list[FirstRoundRemedy]:
    """The ways to seat round 1 when the checked-in counts do not fit (§1, §6)."""
    counts = {"A": 0, "B": 0}
    for division in Player.objects.filter(
        tournament=tournament, checked_in=True, withdrawn=False, house=False
    ).values_list("division", flat=True):
        counts[division] += 1
    return first_round_remedies(counts["A"], counts["B"])


def house_name(tournament: Tournament, division: str, n: int) -> str:
    """The name a house player the draw adds gets ("House B1"), in the event's language:
    a name stays as it was written, and the players read it ("Réserviste B1")."""
    with translation.override(tournament.language):
        return pgettext("house player's name", "House %(division)s%(n)s") % {
            "division": division,
            "n": n,
        }


def remedy_text(remedy: FirstRoundRemedy) -> str:
    """What a remedy does, in the reader's language (the domain's ``describe`` is English):
    "2 tables; 2 A players and 1 B player sit out round 1."."""
    tables = ngettext("%(n)s table", "%(n)s tables", remedy.tables) % {"n": remedy.tables}
    if remedy.kind == "sit-out":
        pieces = [
            ngettext("%(n)s %(division)s player", "%(n)s %(division)s players", n)
            % {"n": n, "division": division}
            for n, division in ((remedy.sit_out_a, "A"), (remedy.sit_out_b, "B"))
            if n
        ]
        who = _both(pieces)
        return ngettext(
            "%(tables)s; %(who)s sits out round 1.",
            "%(tables)s; %(who)s sit out round 1.",
            remedy.sit_out_a + remedy.sit_out_b,
        ) % {"tables": tables, "who": who}
    house = [
        ngettext(
            "%(n)s house player in division %(division)s",
            "%(n)s house players in division %(division)s",
            n,
        )
        % {"n": n, "division": division}
        for n, division in ((remedy.house_a, "A"), (remedy.house_b, "B"))
        if n
    ]
    return _("%(tables)s with %(house)s.") % {"tables": tables, "house": _both(house)}


def _both(pieces: list[str]) -> str:
    if len(pieces) == 2:
        return _("%(first)s and %(second)s") % {"first": pieces[0], "second": pieces[1]}
    return "".join(pieces)


def limit_passed(tournament: Tournament, now: datetime | None = None) -> Round | None:
    """A running preliminary round whose limit has passed (or whose time was called), if
    any: its minutes can no longer change (docs/rules.md §7)."""
    now = now_or(now)
    for rnd in Round.objects.filter(
        tournament=tournament, kind=Round.Kind.PRELIMINARY, status=Round.Status.RUNNING
    ).select_related("tournament"):
        if rnd.called_at is not None or round_clock(rnd).is_called(now):
            return rnd
    return None


def limit_moved_into_the_past(
    tournament: Tournament, minutes: int, now: datetime | None = None
) -> tuple[Round, timedelta] | None:
    """A running preliminary round whose limit, at ``minutes``, would be at or before
    ``now`` (with the time it has run): a change that would record the call in the past,
    turning hands already entered into after-call hands (RULES.md §7 refuses it)."""
    now = now_or(now)
    for rnd in Round.objects.filter(
        tournament=tournament,
        kind=Round.Kind.PRELIMINARY,
        status=Round.Status.RUNNING,
        started_at__isnull=False,
    ).select_related("tournament"):
        clock = replace(round_clock(rnd), limit=timedelta(minutes=minutes))
        if clock.is_called(now):
            return rnd, clock.running_time(now)
    return None


@dataclass(frozen=True)
class Unfinished:
    """A table that keeps its round from being finalized, and what finishes it."""

    table: int
    disputed: bool
    score_ns: int
    score_ew: int

    @property
    def text(self) -> str:
        if self.disputed:
            return _("table %(table)s (disputed)") % {"table": self.table}
        return _("table %(table)s (%(ns)s–%(ew)s, not finished)") % {
            "table": self.table,
            "ns": self.score_ns,
            "ew": self.score_ew,
        }

    @property
    def remedy(self) -> str:
        """The action on the table's page that finishes it."""
        if self.disputed:
            return _("resolve the dispute")
        return _("enter the missing hands, or end the match with a reason")


def unfinished(rnd: Round) -> list[Unfinished]:
    return [
        Unfinished(m.table, m.status == Match.Status.DISPUTED, m.score_ns, m.score_ew)
        for m in rnd.matches.order_by("table", "game")
        if m.status == Match.Status.DISPUTED or not m.is_over
    ]


def unfinished_tables(rnd: Round) -> list[str]:
    return [u.text for u in unfinished(rnd)]


def later_round_warning(match: Match, before: str) -> list[str]:
    """The warning for a change of ``match``'s winner (it was ``before``) once a later
    round is seated: the seating made from the old winner stands."""
    if match.winner == before or match.round.kind == Round.Kind.FINAL:
        return []
    if Round.objects.filter(
        tournament_id=match.round.tournament_id, number__gt=match.round.number
    ).exists():
        return [
            _(
                "The winner of %(match)s changed after the next round was seated. "
                "The seating already made stands; reseat by hand if you must."
            )
            % {"match": match.label()}
        ]
    return []


def draw_refusal(tournament: Tournament) -> str | None:
    """Why a context asks the first draw to wait (the money: fees unpaid), or None. The
    core imports no context: each names its gate in ``settings.SNOWMAN_DRAW_GATES``."""
    for path in settings.SNOWMAN_DRAW_GATES:
        if refusal := import_string(path)(tournament):
            return str(refusal)
    return None
