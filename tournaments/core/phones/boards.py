"""What the hall reads on the wall and the projector: the public standings, the final, the
seating between rounds, and a club's public page."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.common.names import fold, public_name, sort_key
from tournaments.core.models.event import Club, Tournament
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.models.series import Series
from tournaments.core.phones.reads import FULL_NAME, full_named, withdrawn_after
from tournaments.core.reads.standings import StandingRow, final_progress, final_skipped
from tournaments.core.reads.visibility import Visibility as Visibility
from tournaments.core.reads.visibility import (
    visible_standings,
)
from tournaments.domain.final import DIVISION_OF_TEAM
from tournaments.domain.hands import SEATS


@dataclass(frozen=True)
class PublicRow:
    rank: int  # the shared rank: players equal on every non-lot link share it (§4)
    shared: bool
    name: str
    folded: str
    total: int
    wins: int
    margin: int
    played: int
    withdrawn_after: int | None

    @property
    def shown_rank(self) -> str:
        return f"={self.rank}" if self.shared else str(self.rank)


@dataclass(frozen=True)
class FinalView:
    pair_a: str
    pair_b: str
    games: tuple[tuple[int, int, int, str], ...]  # (game, score A pair, score B pair, status)
    wins_a: int
    wins_b: int
    champions: str | None  # the champions' names
    champions_division: str | None
    # §4: a withdrawn player who ranked high enough is skipped; the room is told why.
    skipped: tuple[str, ...] = ()


def final_view(tournament: Tournament) -> FinalView | None:
    rnd = Round.objects.filter(tournament=tournament, kind=Round.Kind.FINAL).first()
    if rnd is None:
        return None
    at = {
        position: public_name(name, bool(full))
        for position, name, full in Seating.objects.filter(round=rnd).values_list(
            "position", "player__name", f"player__{FULL_NAME}"
        )
    }
    full = full_named(tournament)
    pair_a = " & ".join(at[p] for p in ("N", "S") if p in at)
    pair_b = " & ".join(at[p] for p in ("E", "W") if p in at)
    games = tuple((m.game, m.score_ns, m.score_ew, m.status) for m in rnd.matches.order_by("game"))
    wins_a = sum(1 for m in rnd.matches.all() if m.winner == "NS")
    wins_b = sum(1 for m in rnd.matches.all() if m.winner == "EW")
    progress = final_progress(tournament)
    champs = division = None
    if progress is not None and progress.champions is not None:
        division = DIVISION_OF_TEAM[progress.champions]
        champs = pair_a if division == "A" else pair_b
    # Who the seeding passed over and why, as it recorded them: the pairs shown above.
    skipped = tuple(
        _("%(name)s (division %(d)s): %(why)s")
        % {"name": public_name(s.player.name, s.player.pk in full), "d": s.division, "why": s.why}
        for s in final_skipped(tournament)
    )
    return FinalView(pair_a, pair_b, games, wins_a, wins_b, champs, division, skipped)


def public_rows(
    tournament: Tournament, vis: Visibility | None = None, *, played_only: bool = True
) -> dict[str, list[PublicRow]]:
    """The ranked players of each division as players may see them, with the withdrawn
    mark (the projector lists everyone before the first result, so the hall sees the
    field)."""
    table = visible_standings(tournament, vis)
    full = full_named(tournament)
    result: dict[str, list[PublicRow]] = {}
    for division, rows in table.items():
        shown = [
            _public_row(r, r.player.pk in full) for r in rows if r.record.rounds or not played_only
        ]
        # Players sharing a rank read by name: the lot's order among them would read as
        # a ranking it is not (it decides only the final's seeding).
        result[division] = sorted(shown, key=lambda r: (r.rank, sort_key(r.name)))
    return result


def _public_row(row: StandingRow, full: bool) -> PublicRow:
    p = row.player
    name = public_name(p.name, full)
    return PublicRow(
        rank=row.standing.shared_rank,
        shared=row.standing.shares,
        name=name,
        folded=fold(name),
        total=row.record.total,
        wins=row.record.wins,
        margin=row.record.margin,
        played=len(row.record.rounds),
        withdrawn_after=withdrawn_after(p),
    )


@dataclass(frozen=True)
class SeatingTable:
    table: int
    # (position, name, withdrawn, house) in N, E, S, W
    chairs: tuple[tuple[str, str, bool, bool], ...]


def projector_seating(rnd: Round) -> list[SeatingTable]:
    """The round's seating by table, for the projector (which pages it to its own screen)."""
    by_table = Seating.objects.filter(round=rnd).by_table(
        "player__name", "player__withdrawn", "player__house", f"player__{FULL_NAME}"
    )
    tables = [
        SeatingTable(
            t,
            tuple(
                (s.value, public_name(name, bool(full)), withdrawn, house)
                for s in SEATS
                if s.value in by_table[t]
                for name, withdrawn, house, full in [by_table[t][s.value]]
            ),
        )
        for t in sorted(by_table)
    ]
    return tables


@dataclass(frozen=True)
class ClubPage:
    club: Club
    current: list[Tournament]
    past: list[Tournament]
    series: list[Series]


def club_page(slug: str) -> ClubPage | None:
    """A club's events (registration or under way first, then finished, newest first) and
    its series: three queries. An event that took registrations here and was played at the
    hall is listed once, as its results (``Tournament.played_as``)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        return None
    # A rehearsal is listed on no public page (docs/series.md).
    events = list(
        Tournament.objects.counted()
        .filter(club=club, played_as__isnull=True)
        .order_by("-created_at")
    )
    done = Tournament.Status.FINISHED
    return ClubPage(
        club=club,
        current=[t for t in events if t.status != done],
        past=[t for t in events if t.status == done],
        series=list(Series.objects.filter(club=club).order_by("-created_at")),
    )
