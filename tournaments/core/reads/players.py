"""The players as the desk and the round read them: each one's attendance state (§6),
the counts per division, a player's name and division and a players' CSV checked against
those registered (nothing written), the rounds a withdrawal counts. Registering, checking
in and withdrawing are ``services.players``."""

from __future__ import annotations

import csv
import io
import itertools
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Max, Q
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.common.errors import ServiceError
from tournaments.common.names import clean_name, name_problem, name_refusal
from tournaments.core.models.event import Division, Player, Tournament
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution


def attendance(tournament: Tournament) -> dict[int, str]:
    """Each player's attendance state now (§6), in one pass over three small queries."""
    last = Round.objects.filter(tournament=tournament, kind=Round.Kind.PRELIMINARY).newest()
    seated: set[int] = set()
    sat_out: set[int] = set()
    if last is not None:
        seated = set(Seating.objects.filter(round=last).values_list("player_id", flat=True))
        sat_out = set(SitOut.objects.filter(round=last).values_list("player_id", flat=True))
    states = {}
    for pk, checked_in, withdrawn, house in Player.objects.filter(
        tournament=tournament
    ).values_list("pk", "checked_in", "withdrawn", "house"):
        states[pk] = attendance_state(
            checked_in=checked_in,
            withdrawn=withdrawn,
            house=house,
            seated=pk in seated,
            sat_out=pk in sat_out,
            drawn=last is not None,
        )
    return states


def attendance_state(
    *, checked_in: bool, withdrawn: bool, house: bool, seated: bool, sat_out: bool, drawn: bool
) -> str:
    if withdrawn:
        return "withdrawn"
    if seated:
        return "seated"
    if house:
        return "house"
    if sat_out:
        return "sat_out"
    if not checked_in:
        return "registered"
    return "waiting" if drawn else "checked_in"


def division_counts(tournament: Tournament) -> dict[str, dict[str, int]]:
    """Registered, checked-in (and not withdrawn) players per division."""
    rows = (
        Player.objects.filter(tournament=tournament, house=False)
        .values("division")
        .annotate(
            registered=Count("id", filter=Q(withdrawn=False)),
            checked_in=Count("id", filter=Q(checked_in=True, withdrawn=False)),
        )
    )
    counts = {d: {"registered": 0, "checked_in": 0} for d in Division.values}
    for row in rows:
        counts[row["division"]] = {"registered": row["registered"], "checked_in": row["checked_in"]}
    return counts


@dataclass
class ImportRow:
    line: int
    name: str
    division: str


@dataclass
class ImportReport:
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    # The cells of every line as read, so a preview can show a bad line as written.
    cells: dict[int, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)

    def error_text(self) -> str:
        return "\n".join(
            _("line %(n)s: %(message)s") % {"n": line, "message": message} if line else message
            for line, message in self.errors
        )


def header_names(header: tuple[str, ...]) -> set[tuple[str, ...]]:
    """``header`` (an import format's English first line) and its words in every language
    the app speaks, as the downloads write them ("nom,division"): a file saved from a
    French screen imports too."""
    found = {header}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found.add(tuple(pgettext("CSV header", word).lower() for word in header))
    return found


# The largest event simulated is 2,000 tables (8,000 players); a file of more lines than
# this is not a players' list, and its rows would overflow one query's parameters.
MAX_CSV_LINES = 10_000


def read_csv_lines(
    data: bytes | str, header: tuple[str, ...] = ("name", "division")
) -> tuple[list[tuple[int, list[str]]], str]:
    """A CSV file of players as (line number, cells), blank lines and a first line that
    is ``header`` left out, or the refusal of the whole file (not UTF-8, not CSV, more
    than MAX_CSV_LINES lines). Cells are separated by commas, or by semicolons when the
    first line has semicolons and no comma. One reading for the import and the invitations."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return [], _("The file is not UTF-8 text; save it as CSV UTF-8.")
    data = data.lstrip("\ufeff")
    # A spreadsheet saved as CSV in French (Excel in fr-CA) separates cells with ';'.
    first = next((line for line in data.splitlines() if line.strip()), "")
    delimiter = ";" if ";" in first and "," not in first else ","
    try:
        reader = csv.reader(io.StringIO(data, newline=""), delimiter=delimiter)
        lines = list(itertools.islice(reader, MAX_CSV_LINES + 1))
    except csv.Error as exc:
        return [], _("The file is not valid CSV: %(error)s") % {"error": exc}
    if len(lines) > MAX_CSV_LINES:
        return [], _("The file has more than %(n)s lines; a list of players is far shorter.") % {
            "n": number_format(MAX_CSV_LINES, force_grouping=True)
        }
    out = []
    headers = header_names(header)
    for number, cells in enumerate(lines, start=1):
        if not cells or all(not c.strip() for c in cells):
            continue
        if number == 1 and tuple(c.strip().lower() for c in cells[: len(header)]) in headers:
            continue
        out.append((number, cells))
    return out, ""


def parse_players_csv(tournament: Tournament, data: bytes | str) -> ImportReport:
    """Check every line of a ``name,division`` file; nothing is written."""
    report = ImportReport()
    lines, refusal = read_csv_lines(data)
    if refusal:
        report.errors.append((0, refusal))
        return report
    existing = {
        n.casefold()
        for n in Player.objects.filter(tournament=tournament).values_list("name", flat=True)
    }
    seen: dict[str, int] = {}
    for number, cells in lines:
        report.cells[number] = cells
        if len(cells) != 2:
            report.errors.append(
                (
                    number,
                    _("expected 2 columns (name,division), found %(n)s.") % {"n": len(cells)},
                )
            )
            continue
        name, division = clean_name(cells[0]), cells[1].strip().upper()
        problems = []
        problem = name_problem(name)
        if problem:
            problems.append(problem)
        if division not in Division.values:
            problems.append(
                _("division must be A or B, not %(division)s")
                % {"division": repr(division or _("empty"))}
            )
        key = name.casefold()
        if name and key in existing:
            problems.append(_("%(name)s is already registered") % {"name": name})
        elif name and key in seen:
            problems.append(_("%(name)s is also on line %(n)s") % {"name": name, "n": seen[key]})
        if problems:
            report.errors.append((number, "; ".join(problems) + "."))
        else:
            seen[key] = number
            report.rows.append(ImportRow(number, name, division))
    if not report.rows and not report.errors:
        report.errors.append((0, _("The file has no players.")))
    return report


def check_player(
    tournament: Tournament, name: str, division: str, *, exclude: Player | None = None
) -> tuple[str, str]:
    name = clean_name(name)
    division = division.strip().upper()
    refusal = name_refusal(name)
    if refusal:
        raise ServiceError(refusal)
    if division not in Division.values:
        raise ServiceError(
            _("Division must be A or B, not %(division)s.")
            % {"division": repr(division or "empty")}
        )
    clash = Player.objects.filter(tournament=tournament, name__iexact=name)
    if exclude is not None:
        clash = clash.exclude(pk=exclude.pk)
    if clash.exists():
        raise ServiceError(_("%(name)s is already registered.") % {"name": name})
    return name, division


def last_round_played(player: Player) -> int:
    """The last preliminary round ``player`` took part in (0 before any): a seat in a
    round that has started, a seat left to a substitute (§6), whose seat row then names
    the substitute, or a sit-out of a started round, which scores in the ledger (§6). A
    withdrawal stores it: "withdrawn after round r" on every page is this round, whether
    the player left between rounds, during a match or while sitting out."""
    started = Q(round__kind=Round.Kind.PRELIMINARY) & ~Q(round__status=Round.Status.SEATED)
    seated = Seating.objects.filter(started, player=player).aggregate(n=Max("round__number"))
    sat_out = SitOut.objects.filter(started, player=player).aggregate(n=Max("round__number"))
    left = Substitution.objects.filter(
        player_out=player, match__round__kind=Round.Kind.PRELIMINARY
    ).aggregate(n=Max("match__round__number"))
    return max(seated["n"] or 0, sat_out["n"] or 0, left["n"] or 0)


def in_results(copy: Tournament, player_id: int) -> Player | None:
    """A registration copy's player as the hall's results hold her (her application's
    uid), or None (no application, or not in the results)."""
    if copy.played_as_id is None:
        return None
    uid = Player.objects.filter(tournament=copy, pk=player_id).values("registration__uid")
    return Player.objects.filter(tournament=copy.played_as_id, registration_uid__in=uid).first()
