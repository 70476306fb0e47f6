"""Players: the registration table, adding and editing, CSV import and the check-in desk."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from tournaments.common.names import fold
from tournaments.core.forms import (
    HouseForm,
    ImportForm,
    PlayerForm,
    StationaryEndForm,
    StationaryForm,
    WalkInForm,
)
from tournaments.core.reads import queries
from tournaments.core.reads.console import readiness
from tournaments.core.reads.players import parse_players_csv
from tournaments.core.reads.rounds import remedies
from tournaments.core.services import ServiceError
from tournaments.core.services.players import (
    add_house_player,
    edit_player,
    import_players,
    register_player,
    set_checked_in,
    set_withdrawn,
)
from tournaments.core.services.stationary import end_stationary, mark_stationary
from tournaments.core.tables import PlayerTable, checkin_cell, csrf_field
from tournaments.core.views.director.common import (
    HtmxRequest,
    desk_required,
    director_required,
    tournament_or_404,
    who,
)

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.event import Player, Tournament

DESK_LIMIT = 12
DESK_RECENT = 6
T = TypeVar("T")


PER_PAGE = 50


def _player_or_404(request: HttpRequest, slug: str, pk: int) -> tuple[Tournament, Player]:
    t = tournament_or_404(request, slug)
    player = queries.find_player(t, pk)
    if player is None:
        raise Http404("No such player in this tournament.")
    return t, player


def _players_page(
    request: HttpRequest, t: Tournament, form: PlayerForm, status: int = 200
) -> HttpResponse:
    q = request.GET.get("q", "").strip()
    division = request.GET.get("division", "")
    show = request.GET.get("show", "")
    last = queries.last_preliminary(t)
    table = PlayerTable(
        queries.sorted_players(queries.player_list(t, q, division, show, last)), slug=t.slug
    )
    # A page at a time: 2,000 players at 500 tables were 3.2 MB in one page.
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(
        request,
        "director/players/list.html",
        {
            "tournament": t,
            "table": table,
            "form": form,
            "ready": readiness(t),
            "q": q,
            "division": division,
            "show": show,
            "drawn": last is not None,
            "house_form": HouseForm(prefix="house"),
            "remedy": last is None and bool(remedies(t)),
            "stationary": queries.stationary_players(t),
        },
        status=status,
    )


@director_required
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    if request.method == "POST":
        form = PlayerForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            try:
                player = register_player(
                    t, d["name"], d["division"], by=who(request), checked_in=d["checked_in"]
                )
            except ServiceError as exc:
                form.add_error("name", exc.message)
            else:
                messages.success(request, _("Registered %(player)s.") % {"player": player})
                return redirect("director:players", t.slug)
        return _players_page(request, t, form, status=422)
    return _players_page(request, t, PlayerForm())


@director_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, player = _player_or_404(request, slug, pk)
    form = PlayerForm(
        request.POST or None, initial={"name": player.name, "division": player.division}
    )
    form.fields.pop("checked_in")
    if request.method == "POST":
        if form.is_valid():
            try:
                edit_player(
                    player,
                    name=form.cleaned_data["name"],
                    division=form.cleaned_data["division"],
                    by=who(request),
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Saved %(player)s.") % {"player": player})
                return redirect("director:players", t.slug)
        status = 422
    else:
        status = 200
    return _edit_page(request, t, player, form, status=status)


def _edit_page(
    request: HttpRequest,
    t: Tournament,
    player: Player,
    form: PlayerForm,
    *,
    stationary: StationaryForm | None = None,
    ending: StationaryEndForm | None = None,
    status: int = 200,
) -> HttpResponse:
    mark = queries.open_stationary_mark(player)
    return render(
        request,
        "director/players/edit.html",
        {
            "tournament": t,
            "player": player,
            "form": form,
            "mark": mark,
            "drawn": queries.last_preliminary(t) is not None,
            "stationary_form": stationary or StationaryForm(prefix="stationary"),
            "ending_form": ending or StationaryEndForm(prefix="ending"),
        },
        status=status,
    )


@director_required
@require_POST
def player_stationary(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Mark a player stationary, or end the mark (RULES.md §3.1), each with a reason."""
    t, player = _player_or_404(request, slug, pk)
    details = PlayerForm(initial={"name": player.name, "division": player.division})
    details.fields.pop("checked_in")
    if request.POST.get("action") == "end":
        ending = StationaryEndForm(request.POST, prefix="ending")
        if ending.is_valid():
            try:
                mark = end_stationary(
                    t, player, reason=ending.cleaned_data["reason"], by=who(request)
                )
            except ServiceError as exc:
                ending.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    _("%(name)s is no longer stationary from round %(n)s.")
                    % {"name": player.name, "n": mark.until_round},
                )
                return redirect("director:player_edit", t.slug, player.pk)
        return _edit_page(request, t, player, details, ending=ending, status=422)
    form = StationaryForm(request.POST, prefix="stationary")
    if form.is_valid():
        try:
            mark = mark_stationary(
                t,
                player,
                reason=form.cleaned_data["reason"],
                table=form.cleaned_data["table"],
                by=who(request),
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                _("%(name)s is stationary at table %(table)s from round %(n)s.")
                % {"name": player.name, "table": mark.table, "n": mark.from_round},
            )
            return redirect("director:player_edit", t.slug, player.pk)
    return _edit_page(request, t, player, details, stationary=form, status=422)


def _attempt(request: HttpRequest, action: Callable[[], T]) -> T | None:
    """A service call whose refusal becomes the page's error message (None: nothing
    was changed)."""
    try:
        return action()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return None


def _back(request: HttpRequest, fallback: str, slug: str) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        # Not redirect(): it would take a bare word for a view name and fail to reverse it.
        return HttpResponseRedirect(target)
    return redirect(fallback, slug)


@director_required
@require_POST
def player_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t, player = _player_or_404(request, slug, pk)
    value = request.POST.get("withdrawn") == "1"
    # A raw field, not a form's: drop NUL, which PostgreSQL cannot store.
    reason = request.POST.get("reason", "").replace("\x00", "")
    done = _attempt(request, lambda: set_withdrawn(player, value, by=who(request), reason=reason))
    if done is None:
        return _back(request, "director:players", t.slug)
    messages.success(
        request,
        (_("Withdrew %(name)s.") if value else _("Reinstated %(name)s.")) % {"name": player.name},
    )
    for note in done.notes:
        messages.warning(request, note)
    if value:
        # §6: a withdrawal during a match is a substitution or an override.
        seat = queries.playing_seat(player)
        if seat is not None:
            messages.warning(
                request,
                _(
                    "%(name)s was playing at table %(table)s: name a substitute "
                    "for the seat, or end the match with an override."
                )
                % {"name": player.name, "table": seat.table},
            )
            return redirect("director:table", t.slug, seat.round.number, seat.table)
    return _back(request, "director:players", t.slug)


@director_required
@require_POST
def house_add(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    form = HouseForm(request.POST, prefix="house")
    if not form.is_valid():
        messages.error(request, _("Give the house player a name and a division."))
    else:
        d = form.cleaned_data
        player = _attempt(
            request,
            lambda: add_house_player(t, d["name"], d["division"], by=who(request)),
        )
        if player is not None:
            messages.success(request, _("Added house player %(name)s.") % {"name": player.name})
            return redirect("director:players", t.slug)
    return _players_page(request, t, PlayerForm(), status=422)


@desk_required
@require_POST
def checkin(request: HtmxRequest, slug: str, pk: int) -> HttpResponse:
    """One tap: check a player in (or undo). htmx gets the new row and the counts back."""
    t, player = _player_or_404(request, slug, pk)
    value = request.POST.get("checked_in") == "1"
    set_checked_in(t, [player.pk], value, by=who(request))
    player.checked_in = value
    desk_mode = request.POST.get("mode") == "desk"
    if request.htmx and desk_mode:
        return _desk_done(request, t, player, "")
    if request.htmx:
        drawn = queries.last_preliminary(t) is not None
        return render(
            request,
            "director/players/_checkin_response.html",
            {
                "tournament": t,
                "record": player,
                "cell": checkin_cell(player, request.path, csrf_field(request)),
                "ready": readiness(t),
                "desk_mode": False,
                "drawn": drawn,
                "remedy": not drawn and bool(remedies(t)),
            },
        )
    messages.success(
        request,
        (_("%(name)s checked in.") if value else _("%(name)s not checked in."))
        % {"name": player.name},
    )
    return _back(request, "director:players", t.slug)


def _desk_context(t: Tournament, q: str, **more: object) -> dict[str, object]:
    found = queries.desk_search(t, q, DESK_LIMIT) if q else []
    return {
        "tournament": t,
        "q": q,
        "found": found,
        "ready": readiness(t),
        "limit": DESK_LIMIT,
        "recent": queries.recent_check_ins(t, DESK_RECENT),
        "walk_in": WalkInForm(initial={"name": q}) if q and not found else None,
        **more,
    }


@desk_required
def desk(request: HtmxRequest, slug: str) -> HttpResponse:
    """The check-in desk: type a few letters, Enter (or tap the name)."""
    t = tournament_or_404(request, slug)
    context = _desk_context(t, request.GET.get("q", "").strip())
    if request.htmx:
        return render(request, "director/players/_desk_results.html", context)
    return render(request, "director/players/desk.html", context)


def _desk_done(request: HtmxRequest, t: Tournament, player: Player, said: str) -> HttpResponse:
    """What the desk shows once a player is checked in (or undone): the player's row with
    its undo, the last check-ins and the counts; the box clears for the next in line."""
    if not request.htmx:
        if said:
            messages.success(request, said)
        return redirect("director:desk", t.slug)
    response = render(
        request,
        "director/players/_desk_done.html",
        {
            "tournament": t,
            "record": player,
            "said": said,
            "ready": readiness(t),
            "recent": queries.recent_check_ins(t, DESK_RECENT),
        },
    )
    response["HX-Trigger"] = "deskDone"
    return response


def _desk_template(request: HtmxRequest) -> str:
    """The results alone for htmx; the whole desk for a browser without script."""
    return "director/players/_desk_results.html" if request.htmx else "director/players/desk.html"


def the_one(found: list[Player], q: str) -> Player | None:
    """The player Enter means: the only match, or among several the only one whose whole
    name is what was typed (accents and case aside). Otherwise none: the desk never
    guesses between two people."""
    if len(found) == 1:
        return found[0]
    typed = " ".join(fold(q).split())
    exact = [p for p in found if " ".join(fold(p.name).split()) == typed]
    return exact[0] if len(exact) == 1 else None


@desk_required
@require_POST
def desk_enter(request: HtmxRequest, slug: str) -> HttpResponse:
    """Enter in the desk's box: the single player the letters find is checked in at once;
    several, or none, are listed to choose from (or to add as a walk-in)."""
    t = tournament_or_404(request, slug)
    q = request.POST.get("q", "").strip()
    context = _desk_context(t, q)
    chosen = the_one(cast("list[Player]", context["found"]), q)
    if chosen is None:
        return render(request, _desk_template(request), {**context, "entered": True})
    if chosen.checked_in:
        return _desk_done(
            request, t, chosen, _("%(name)s was already checked in.") % {"name": chosen.name}
        )
    set_checked_in(t, [chosen.pk], True, by=who(request))
    chosen.checked_in = True
    return _desk_done(request, t, chosen, _("%(name)s checked in.") % {"name": chosen.name})


@director_required
@require_POST
def desk_walk_in(request: HtmxRequest, slug: str) -> HttpResponse:
    """A walk-in at the desk: registered under the name typed, in the division chosen, and
    checked in at once."""
    t = tournament_or_404(request, slug)
    form = WalkInForm(request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            player = register_player(t, d["name"], d["division"], by=who(request), checked_in=True)
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return _desk_done(
                request,
                t,
                player,
                _("%(name)s added to division %(division)s and checked in.")
                % {"name": player.name, "division": player.division},
            )
    q = str(request.POST.get("name", "")).strip()
    context = {**_desk_context(t, q), "walk_in": form}
    return render(request, _desk_template(request), context, status=422)


@director_required
@require_http_methods(["GET", "POST"])
def import_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload, preview every line with its errors, then import all or nothing."""
    t = tournament_or_404(request, slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {"tournament": t, "form": form}
    if request.method == "GET":
        return render(request, "director/players/import.html", context)
    if not form.is_valid():
        return render(request, "director/players/import.html", context, status=422)
    text = form.cleaned_data["text"]
    checked = form.cleaned_data["checked_in"]
    if request.POST.get("confirm") == "1":
        report = import_players(t, text, by=who(request), checked_in=checked)
        if report.ok and not report.errors:
            messages.success(
                request, _("Imported %(count)s players.") % {"count": len(report.rows)}
            )
            return redirect("director:players", t.slug)
    else:
        report = parse_players_csv(t, text)
    # One list in file order: the good lines and, in place, what is wrong with the others.
    lines = sorted(
        [(r.line, r.name, r.division, "") for r in report.rows]
        + [
            (line, *_as_written(report.cells.get(line, [])), message)
            for line, message in report.errors
        ]
    )
    context.update(report=report, text=text, checked_in=checked, lines=lines)
    return render(
        request, "director/players/import.html", context, status=200 if report.ok else 422
    )


def _as_written(cells: list[str]) -> tuple[str, str]:
    """A bad line's name and division cells as the file had them (extra cells joined)."""
    name = cells[0] if cells else ""
    rest = ",".join(cells[1:]) if len(cells) > 1 else ""
    return name, rest
