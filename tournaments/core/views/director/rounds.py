"""The draw, seating, finalizing a round, reopening it and seating the next."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from tournaments.common import bilingual, csvcells
from tournaments.common.ids import parse_id
from tournaments.common.names import sort_key
from tournaments.core.forms import ReopenForm, SwapForm
from tournaments.core.phones.reads import round_label
from tournaments.core.reads import queries
from tournaments.core.reads.console import find_your_seat, seating_tables
from tournaments.core.reads.players import division_counts
from tournaments.core.reads.rounds import (
    NextRoundPlan,
    fingerprint,
    house_name,
    plan_next_round,
    remedies,
    remedy_text,
    sit_out_proposal,
    unfinished,
)
from tournaments.core.services import ServiceError, lots
from tournaments.core.services.rounds import (
    draw_first_round,
    finish_round,
    reopen_round,
    seat_by_rotation,
    seat_next_round,
    swap_players,
)
from tournaments.core.tables import SeatFinderTable
from tournaments.core.views.director.board import _console
from tournaments.core.views.director.common import (
    desk_required,
    director_required,
    is_director,
    round_or_404,
    sheet_links,
    tournament_or_404,
    who,
)

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.event import Tournament
    from tournaments.core.models.lots import DrawnLot
    from tournaments.core.models.rounds import Round


# --- draw and seating -------------------------------------------------------------------


@director_required
@require_POST
def draw(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    try:
        rnd = draw_first_round(t, by=who(request), redraw=request.POST.get("redraw") == "1")
    except ServiceError as exc:
        messages.error(request, exc.message)
        if remedies(t) and not queries.has_rounds(t):
            # Uneven counts: the remedies page proposes what the director may choose.
            return redirect("director:draw_remedy", t.slug)
        return redirect("director:players", t.slug)
    messages.success(request, _("Round 1 drawn (seed %(seed)s).") % {"seed": rnd.seed})
    return redirect("director:seating", t.slug, rnd.number)


SEATING_PER_PAGE = 100


def _seating_page(
    request: HttpRequest, rnd: Round, swap_form: SwapForm | None = None, status: int = 200
) -> HttpResponse:
    t = rnd.tournament
    # A page at a time (500 tables were 1.3 MB and 0.56 s in one page): this page's
    # tables, and a page of the alphabetical finder, which searches first as the desk
    # does; only their seats are read. The PDF and the CSV keep everything.
    q = request.GET.get("q", "").strip()
    table_count = queries.table_count(rnd)
    table_page = Paginator(range(1, table_count + 1), SEATING_PER_PAGE).get_page(
        request.GET.get("tables")
    )
    name_page = Paginator(queries.seated_names(rnd, q), SEATING_PER_PAGE).get_page(
        request.GET.get("f-page")
    )
    wanted = set(table_page.object_list) | {table for table, _ in name_page.object_list}
    rows = {row.table: row for row in queries.seating_rows(rnd, wanted)}
    tables = [rows[n] for n in table_page.object_list if n in rows]
    listed = {name for _, name in name_page.object_list}
    by_name = sorted({table for table, _ in name_page.object_list})
    lines = [
        line
        for line in find_your_seat([rows[n] for n in by_name if n in rows])
        if line.name in listed
    ]
    finder = SeatFinderTable(lines, prefix="f-")
    RequestConfig(request, paginate=False).configure(finder)
    if swap_form is not None and rnd.status != queries.RoundStatus.SEATED:
        # The form is gone once the round starts; its refusal still has to be read.
        for error in swap_form.non_field_errors():
            messages.error(request, str(error))
    if swap_form is None and rnd.status == queries.RoundStatus.SEATED:
        # The lists offer the players of this page's tables and those the search found
        # (every player twice over is 2 x 2,000 options at 500 tables); the swap itself
        # accepts any two seated players.
        on_page = set(table_page.object_list)
        found = {table for table, _ in name_page.object_list} if q else set()
        offered = [rows[n] for n in sorted(rows) if n in on_page or n in found]
        swap_form = SwapForm(players=_swap_choices(offered))
    return render(
        request,
        "director/rounds/seating.html",
        {
            "tournament": t,
            "round": rnd,
            "tables": tables,
            "table_page": table_page,
            "name_page": name_page,
            "table_count": table_count,
            "q": q,
            "finder": finder,
            "swap_form": swap_form if rnd.status == queries.RoundStatus.SEATED else None,
            "sheets": sheet_links(t, rnd, desk=not is_director(request)),
            "sit_outs": queries.sit_out_names(rnd),
        },
        status=status,
    )


def _swap_choices(tables: list) -> list[tuple[int, str]]:
    people = [
        (
            p.pk,
            _("%(name)s (%(division)s, table %(table)s %(seat)s)")
            % {
                "name": p.name,
                "division": p.division,
                "table": row.table,
                "seat": bilingual.seat(seat),
            },
        )
        for row in tables
        for seat, p in row.seats.items()
    ]
    return sorted(people, key=lambda c: sort_key(c[1]))


@desk_required
def seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(request, slug), number)
    return _seating_page(request, rnd)


@director_required
@require_POST
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(request, slug), number)
    form = SwapForm(request.POST, players=_swap_choices(seating_tables(rnd)))
    if form.is_valid():
        players = queries.players_by_id([form.cleaned_data["first"], form.cleaned_data["second"]])
        first, second = (
            players.get(form.cleaned_data["first"]),
            players.get(form.cleaned_data["second"]),
        )
        if first is None or second is None:
            form.add_error(None, "Choose two seated players.")
        else:
            try:
                swap_players(
                    rnd, first, second, by=who(request), reason=form.cleaned_data["reason"]
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    _("Swapped %(first)s and %(second)s.")
                    % {"first": first.name, "second": second.name},
                )
                return redirect("director:seating", rnd.tournament.slug, rnd.number)
    return _seating_page(request, rnd, form, status=422)


@desk_required
def seating_csv(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(request, slug), number)
    response, writer = csvcells.attachment(f"{rnd.tournament.slug}-round-{rnd.number}-seats.csv")
    # For the desk's spreadsheet, imported by nothing (the players import reads two
    # columns): headers and words in the reader's language.
    writer.writerow(
        [
            pgettext("CSV header", "name"),
            pgettext("CSV header", "division"),
            pgettext("CSV header", "table"),
            pgettext("CSV header", "seat"),
            pgettext("CSV header", "partner"),
            pgettext("CSV header", "opponents"),
        ]
    )
    # §6: house players are marked "house"; sit-outs are listed with no table.
    house = queries.house_names(rnd.tournament)
    house_mark, sits_out = pgettext("CSV cell", "house"), pgettext("CSV cell", "sits out")
    for line in find_your_seat(seating_tables(rnd)):
        division = house_mark if line.name in house else line.division
        seat = bilingual.seat(line.seat)
        writer.writerow([line.name, division, line.table, seat, line.partner, line.opponents])
    for name, division in queries.sit_outs(rnd):
        writer.writerow([name, division, "", sits_out, "", ""])
    return response


@director_required
@require_POST
def finalize(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Finalize the round (refused, with the tables, while any is unfinished), then seat
    the next one by rotation and show it."""
    t = tournament_or_404(request, slug)
    rnd = round_or_404(t, number)
    try:
        done = finish_round(t, rnd, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
        queries.reload(rnd)
        # Each unfinished table, linked to the page whose action finishes it.
        return _console(request, rnd, status=422, unfinished=unfinished(rnd))
    messages.success(request, _("%(round)s finalized.") % {"round": round_label(rnd)})
    if done.last:
        return redirect("director:standings", slug)
    return _seated(request, t, done.seated, done.refusal)


def _seat_next(request: HttpRequest, t: Tournament) -> HttpResponse:
    """Seat by the rotation at once when nothing else changes; any hole, waiting player
    or closed table goes through the preview first (§6: nothing is seated silently)."""
    try:
        nxt = seat_by_rotation(t, by=who(request))
    except ServiceError as exc:
        return _seated(request, t, None, exc.message)
    return _seated(request, t, nxt, None)


def _seated(
    request: HttpRequest, t: Tournament, nxt: Round | None, refusal: str | None
) -> HttpResponse:
    """The page after seating by rotation: the refusal, the preview or the new seating."""
    if refusal is not None:
        messages.error(request, refusal)
        return redirect("director:tournament", t.slug)
    if nxt is None:
        return redirect("director:seat_next", t.slug)
    messages.success(request, _("%(round)s seated by rotation.") % {"round": round_label(nxt)})
    return redirect("director:seating", t.slug, nxt.number)


PREVIEW_PAGE = 100


def _close_list(text: str) -> list[int] | None:
    """The tables the director chose to close, or None for the default proposal."""
    if text is None:
        return None
    found = (parse_id(x) for x in text.replace(",", " ").split())
    return sorted({n for n in found if n is not None})


@director_required
@require_POST
def reopen(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Reopen the last finalized round, after the director types its name."""
    rnd = round_or_404(tournament_or_404(request, slug), number)
    form = ReopenForm(request.POST, expected=str(rnd))
    if form.is_valid():
        try:
            reopen_round(rnd, by=who(request), reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                _("%(round)s reopened; its results can be repaired.") % {"round": round_label(rnd)},
            )
            return redirect("director:round", slug, number)
    queries.reload(rnd)
    return _console(request, rnd, status=422, reopen_form=form)


@director_required
@require_http_methods(["GET", "POST"])
def seat_next(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    if request.method == "POST" and "confirm" not in request.POST:
        return _seat_next(request, t)
    source = request.POST if request.method == "POST" else request.GET
    close = _close_list(source.get("close", "")) if "close" in source else None
    status = 200
    if request.method == "POST":
        try:
            nxt = seat_next_round(
                t, by=who(request), close=close, expect=source.get("fingerprint", "")
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 422
        else:
            messages.success(request, _("%(round)s seated.") % {"round": round_label(nxt)})
            return redirect("director:seating", t.slug, nxt.number)
    try:
        plan = plan_next_round(t, close)
        error = None
    except ServiceError as exc:
        plan, error, status = None, exc.message, 422
        if close is not None:
            try:
                plan = plan_next_round(t)
            except ServiceError:
                plan = None
    return render(
        request,
        "director/rounds/next.html",
        _preview_context(request, t, plan, error, close),
        status=status,
    )


def _preview_context(
    request: HttpRequest,
    t: Tournament,
    plan: NextRoundPlan | None,
    error: str | None,
    close: list[int] | None,
) -> dict[str, object]:
    ctx: dict[str, object] = {"tournament": t, "plan": plan, "error": error}
    if plan is None:
        return ctx

    def name(pid: Hashable) -> str | None:
        # The seating rules take any hashable id; the services seat players by pk.
        return plan.names.get(pid) if isinstance(pid, int) else None

    changed = {(c.table, c.seat.value): c for c in plan.seating.changes}
    was = {new: old for old, new in plan.seating.renumbered.items()}
    stationary = set(plan.stationary)
    routed = {p for p, _plain, _to in plan.rerouted}
    rows = []
    for tbl in plan.seating.tables:
        seats = {}
        for seat, pid in tbl.seats.items():
            c = changed.get((tbl.table, seat.value))
            seats[seat.value] = {
                "name": name(pid),
                "house": pid in plan.house,
                "stationary": pid in stationary,
                "change": c.kind if c else ("routed" if pid in routed else ""),
            }
        rows.append(
            {
                "table": tbl.table,
                "was": was[tbl.table],
                "cells": [dict(seats[k], side="ns" if k in "NS" else "ew") for k in "NSEW"],
                "changed": any((tbl.table, k) in changed for k in "NESW"),
                # The letters turned so a stationary player keeps their chair (§3.1).
                "turned": tbl.turn != 0,
                "routed": any(p in stationary or p in routed for p in tbl.seats.values()),
            }
        )
    only_changed = request.GET.get("all") != "1"
    shown = (
        [r for r in rows if r["changed"] or r["routed"] or r["table"] != r["was"]]
        if only_changed
        else rows
    )
    paginator = Paginator(shown, PREVIEW_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    ctx.update(
        {
            "changes": [
                {
                    "table": c.table,
                    "seat": c.seat.value,
                    "out": name(c.out) if c.out is not None else "",
                    "into": name(c.into),
                    "house": c.into in plan.house,
                    "kind": c.kind,
                }
                for c in plan.seating.changes
            ],
            "sit_outs": [name(p) for p in plan.seating.sit_outs],
            "stationary": [name(p) for p in plan.stationary],
            "rerouted": [
                {"name": name(p), "plain": plain, "table": to} for p, plain, to in plan.rerouted
            ],
            "unused_house": [name(p) for p in plan.seating.unused_house],
            "page": page,
            "only_changed": only_changed,
            "close_text": " ".join(map(str, plan.seating.closed)),
            "proposed_text": " ".join(map(str, plan.proposed_close)),
            "fingerprint": fingerprint(plan),
            "table_count": len(plan.seating.tables),
        }
    )
    return ctx


@director_required
@require_http_methods(["GET", "POST"])
def draw_remedy(request: HttpRequest, slug: str) -> HttpResponse:
    """Round 1 with uneven counts: the remedies of §6, one picked by the director; with
    sit-outs, the lot proposes who and the director may choose others. The lot is drawn
    when the page is first shown and stored: a reload shows the same proposal; a draw
    sent from a page whose lot was drawn again since is refused (409) with the page as it
    stands. Once round 1 is drawn the page says so and offers nothing."""
    t = tournament_or_404(request, slug)
    drawn = queries.first_round(t)
    if drawn is not None:
        return _remedy_page(request, t, drawn=drawn)
    lot = lots.drawn(t, lots.ROUND1_SIT_OUT, by=who(request))
    if request.method == "GET":
        return _remedy_page(request, t, lot=lot)
    chosen = None
    if request.POST.get("choose") == "1":
        chosen = {n for n in map(_posted_int, request.POST.getlist("sit_out")) if n}
    if _posted_int(request.POST.get("seed")) != lot.seed:
        messages.error(
            request,
            _("The lot was drawn again meanwhile; here is the proposal as it stands now."),
        )
        return _remedy_page(request, t, lot=lot, status=409)
    try:
        rnd = draw_first_round(
            t,
            by=who(request),
            seed=lot.seed,
            remedy=request.POST.get("remedy", ""),
            sit_out=chosen,
            reason=request.POST.get("reason", "").replace("\x00", "")[:500],
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _remedy_page(request, t, lot=lot, chosen=chosen, status=exc.status)
    messages.success(request, _("Round 1 drawn (seed %(seed)s).") % {"seed": rnd.seed})
    return redirect("director:seating", t.slug, rnd.number)


@director_required
@require_POST
def draw_remedy_redraw(request: HttpRequest, slug: str) -> HttpResponse:
    """The director draws the sit-out lot again: explicit, with a reason, logged."""
    t = tournament_or_404(request, slug)
    drawn = queries.first_round(t)
    if drawn is not None:
        return _remedy_page(request, t, drawn=drawn, status=409)
    try:
        lot = lots.redraw(
            t,
            lots.ROUND1_SIT_OUT,
            seen=_posted_int(request.POST.get("seed")),
            by=who(request),
            reason=request.POST.get("redraw_reason", "").replace("\x00", "")[:500],
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        current = lots.drawn(t, lots.ROUND1_SIT_OUT, by=who(request))
        return _remedy_page(request, t, lot=current, status=exc.status)
    messages.success(request, _("The lot was drawn again (seed %(seed)s).") % {"seed": lot.seed})
    return redirect("director:draw_remedy", t.slug)


def _remedy_page(
    request: HttpRequest,
    t: Tournament,
    *,
    lot: DrawnLot | None = None,
    drawn: Round | None = None,
    chosen: set[int] | None = None,
    status: int = 200,
) -> HttpResponse:
    counts = division_counts(t)
    proposal = sit_out_proposal(t, lot.seed) if lot is not None else None
    return render(
        request,
        "director/rounds/remedy.html",
        {
            "tournament": t,
            "drawn": drawn,
            "lot": lot,
            "remedies": [] if drawn else [(r, remedy_text(r)) for r in remedies(t)],
            "house_a1": house_name(t, "A", 1),
            "house_b1": house_name(t, "B", 1),
            "counts": counts,
            "problem": queries.draw_problem(counts),
            "proposal": proposal,
            "checked": chosen if chosen is not None else (proposal and proposal.proposed),
        },
        status=status,
    )


def _posted_int(text: str | None) -> int | None:
    return parse_id(text, low=0)
