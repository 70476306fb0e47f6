"""The draw, seating, the round clock, the live board, tables and finalizing a round."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.paginator import Paginator
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from snowman.hall import absolute_url, qr_code

from ... import csvcells
from ...forms import (
    AnswerForm,
    CallTimeForm,
    CorrectionForm,
    DirectorFirstDealerForm,
    ExtensionForm,
    InsertHandForm,
    LateSyncForm,
    OverrideForm,
    ReasonForm,
    ReopenForm,
    SwapForm,
)
from ...ids import parse_id
from ...reads import queries
from ...reads.console import (
    board_summary,
    clock_view,
    find_your_seat,
    live_board,
    seating_tables,
)
from ...roles import RUN
from ...services import ServiceError, table_codes
from ...services import play as play_service
from ...services import rounds as round_service
from ...services import visibility as visibility_service
from ...services.names import sort_key
from ...services.players import division_counts
from ...services.rounds import fingerprint
from ...tables import SeatFinderTable
from ..sheets import MAX_TABLE
from .common import (
    can,
    desk_required,
    director_required,
    form_view,
    round_or_404,
    sheet_links,
    tournament_or_404,
    who,
)

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from ...models import HandEntry, Match, Round, Tournament

BOARD_SORTS = {
    "table": "Table",
    "attention": "Needs attention first",
    "idle": "Longest without an entry",
}


# --- draw and seating -------------------------------------------------------------------


@director_required
@require_POST
def draw(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(slug)
    try:
        rnd = round_service.draw_first_round(
            t, by=who(request), redraw=request.POST.get("redraw") == "1"
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        if round_service.remedies(t) and not queries.has_rounds(t):
            # Uneven counts: the remedies page proposes what the director may choose.
            return redirect("director:draw_remedy", t.slug)
        return redirect("director:players", t.slug)
    messages.success(request, f"Round 1 drawn (seed {rnd.seed}).")
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
            "sheets": sheet_links(t, rnd, desk=not can(request.user, RUN)),
            "sit_outs": queries.sit_out_names(rnd),
        },
        status=status,
    )


def _swap_choices(tables: list) -> list[tuple[int, str]]:
    people = [
        (p.pk, f"{p.name} ({p.division}, table {row.table} {seat})")
        for row in tables
        for seat, p in row.seats.items()
    ]
    return sorted(people, key=lambda c: sort_key(c[1]))


@desk_required
def seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
    return _seating_page(request, rnd)


@director_required
@require_POST
def swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
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
                round_service.swap_players(
                    rnd, first, second, by=who(request), reason=form.cleaned_data["reason"]
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, f"Swapped {first.name} and {second.name}.")
                return redirect("director:seating", rnd.tournament.slug, rnd.number)
    return _seating_page(request, rnd, form, status=422)


@desk_required
def seating_csv(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
    response, writer = csvcells.attachment(f"{rnd.tournament.slug}-round-{rnd.number}-seats.csv")
    writer.writerow(["name", "division", "table", "seat", "partner", "opponents"])
    # §6: house players are marked "house"; sit-outs are listed with no table.
    house = queries.house_names(rnd.tournament)
    for line in find_your_seat(seating_tables(rnd)):
        division = "house" if line.name in house else line.division
        writer.writerow([line.name, division, line.table, line.seat, line.partner, line.opponents])
    for name, division in queries.sit_outs(rnd):
        writer.writerow([name, division, "", "sits out", "", ""])
    return response


# --- the round console ------------------------------------------------------------------


def _board_context(request: HttpRequest, rnd: Round, now: datetime) -> dict[str, object]:
    sort = request.GET.get("sort", "table")
    sort = sort if sort in BOARD_SORTS else "table"
    attention = request.GET.get("only") == "attention"
    rows = live_board(rnd, now, attention_only=attention, sort=sort)
    everything = rows if not attention else live_board(rnd, now)
    return {
        "round": rnd,
        "tournament": rnd.tournament,
        "rows": rows,
        "now": now,
        "summary": board_summary(everything),
        "sort": sort,
        "only_attention": attention,
        "sorts": BOARD_SORTS,
        "query": request.GET.urlencode(),
    }


def _console(
    request: HttpRequest, rnd: Round, status: int = 200, reopen_form: ReopenForm | None = None
) -> HttpResponse:
    now = timezone.now()
    context = _board_context(request, rnd, now)
    t = rnd.tournament
    facts = queries.console_facts(rnd)
    context.update(
        clock=clock_view(rnd, now),
        is_last=rnd.number >= t.preliminary_rounds,
        sheets=sheet_links(t, rnd),
        later=facts.later,
        call_form=CallTimeForm(),
        extended=facts.extended,
        reopen_form=(reopen_form or ReopenForm(expected=str(rnd))) if facts.reopenable else None,
        # The newest round's console offers to reveal hidden standings (§5).
        standings_hidden=facts.later is None and visibility_service.of_event(t, rnd).hidden,
    )
    return render(request, "director/rounds/console.html", context, status=status)


@director_required
def console(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
    if rnd.kind == queries.RoundKind.FINAL:
        return redirect("director:final", slug)
    return _console(request, rnd)


@director_required
def board(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The live board partial that the console polls."""
    rnd = round_or_404(tournament_or_404(slug), number)
    context = _board_context(request, rnd, timezone.now())
    return render(request, "director/rounds/_board.html", context)


def _call_time(rnd: Round, *, by: str, including_extended: bool = False) -> Round:
    return round_service.call_time(rnd, by=by, including_extended=including_extended)


# Each takes the round and ``by``; calling time also takes ``including_extended``.
CLOCK_ACTIONS: dict[str, tuple[Callable[..., object], str]] = {
    "start": (round_service.start_round, "{} started."),
    "pause": (round_service.pause_round, "{} paused."),
    "resume": (round_service.resume_round, "{} resumed."),
    "call": (_call_time, "Time called in {}."),
}


@director_required
@require_POST
def reveal(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Show the hidden standings to the players now (§5), before the final seeds them."""
    rnd = round_or_404(tournament_or_404(slug), number)
    try:
        visibility_service.reveal(rnd.tournament, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
        queries.reload(rnd)
        return _console(request, rnd, status=exc.status)
    messages.success(request, "The standings are shown to the players again.")
    return redirect("director:round", slug, number)


@director_required
@require_POST
def clock_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
    if action not in CLOCK_ACTIONS:
        raise Http404("No such action.")
    service, done = CLOCK_ACTIONS[action]
    extra: dict[str, bool] = {}
    if action == "call":
        form = CallTimeForm(request.POST)
        form.is_valid()  # a lone optional checkbox: always valid
        extra["including_extended"] = bool(form.cleaned_data.get("including_extended"))
    try:
        service(rnd, by=who(request), **extra)
    except ServiceError as exc:
        messages.error(request, exc.message)
        queries.reload(rnd)
        return _console(request, rnd, status=422)
    messages.success(request, done.format(rnd))
    return redirect("director:round", slug, number)


@director_required
@require_POST
def finalize(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Finalize the round (refused, with the tables, while any is unfinished), then seat
    the next one by rotation and show it."""
    t = tournament_or_404(slug)
    rnd = round_or_404(t, number)
    try:
        done = round_service.finish_round(t, rnd, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
        queries.reload(rnd)
        return _console(request, rnd, status=422)
    messages.success(request, f"{rnd} finalized.")
    if done.last:
        return redirect("director:standings", slug)
    return _seated(request, t, done.seated, done.refusal)


def _seat_next(request: HttpRequest, t: Tournament) -> HttpResponse:
    """Seat by the rotation at once when nothing else changes; any hole, waiting player
    or closed table goes through the preview first (§6: nothing is seated silently)."""
    try:
        nxt = round_service.seat_by_rotation(t, by=who(request))
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
    messages.success(request, f"{nxt} seated by rotation.")
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
    rnd = round_or_404(tournament_or_404(slug), number)
    form = ReopenForm(request.POST, expected=str(rnd))
    if form.is_valid():
        try:
            round_service.reopen_round(rnd, by=who(request), reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"{rnd} reopened; its results can be repaired.")
            return redirect("director:round", slug, number)
    queries.reload(rnd)
    return _console(request, rnd, status=422, reopen_form=form)


@director_required
@require_http_methods(["GET", "POST"])
def seat_next(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(slug)
    if request.method == "POST" and "confirm" not in request.POST:
        return _seat_next(request, t)
    source = request.POST if request.method == "POST" else request.GET
    close = _close_list(source.get("close", "")) if "close" in source else None
    status = 200
    if request.method == "POST":
        try:
            nxt = round_service.seat_next_round(
                t, by=who(request), close=close, expect=source.get("fingerprint", "")
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 422
        else:
            messages.success(request, f"{nxt} seated.")
            return redirect("director:seating", t.slug, nxt.number)
    try:
        plan = round_service.plan_next_round(t, close)
        error = None
    except ServiceError as exc:
        plan, error, status = None, exc.message, 422
        if close is not None:
            try:
                plan = round_service.plan_next_round(t)
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
    plan: round_service.NextRoundPlan | None,
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
    rows = []
    for tbl in plan.seating.tables:
        seats = {}
        for seat, pid in tbl.seats.items():
            c = changed.get((tbl.table, seat.value))
            seats[seat.value] = {
                "name": name(pid),
                "house": pid in plan.house,
                "change": c.kind if c else "",
            }
        rows.append(
            {
                "table": tbl.table,
                "was": was[tbl.table],
                "cells": [dict(seats[k], side="ns" if k in "NS" else "ew") for k in "NSEW"],
                "changed": any((tbl.table, k) in changed for k in "NESW"),
            }
        )
    only_changed = request.GET.get("all") != "1"
    shown = [r for r in rows if r["changed"] or r["table"] != r["was"]] if only_changed else rows
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
    sit-outs, the lot proposes who and the director may choose others."""
    t = tournament_or_404(slug)
    status, seed, chosen = 200, _posted_int(request.POST.get("seed")), None
    if request.method == "POST":
        if request.POST.get("choose") == "1":
            chosen = {n for n in map(_posted_int, request.POST.getlist("sit_out")) if n}
        try:
            rnd = round_service.draw_first_round(
                t,
                by=who(request),
                seed=seed,
                remedy=request.POST.get("remedy", ""),
                sit_out=chosen,
                reason=request.POST.get("reason", "").replace("\x00", "")[:500],
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 422
        else:
            messages.success(request, f"Round 1 drawn (seed {rnd.seed}).")
            return redirect("director:seating", t.slug, rnd.number)
    counts = division_counts(t)
    proposal = round_service.sit_out_proposal(t, seed)
    return render(
        request,
        "director/rounds/remedy.html",
        {
            "tournament": t,
            "remedies": round_service.remedies(t),
            "counts": counts,
            "problem": queries.draw_problem(counts),
            "proposal": proposal,
            "checked": chosen if chosen is not None else (proposal and proposal.proposed),
        },
        status=status,
    )


def _posted_int(text: str | None) -> int | None:
    return parse_id(text, low=0)


# --- one table --------------------------------------------------------------------------


def _table_context(
    request: HttpRequest,
    rnd: Round,
    table: int,
    *,
    correction: tuple[int, CorrectionForm] | None = None,
    late_sync_error: tuple[int, LateSyncForm] | None = None,
) -> dict[str, object]:
    """The table page; a refused correction or late-sync review is shown bound, with its
    errors, in place of the blank form of that hand."""
    game = request.GET.get("game") or request.POST.get("game")
    view = queries.table_view(rnd, table, game, timezone.now())
    if view is None:
        raise Http404("No such table in this round.")
    match, hands, link = view.match, view.hands, view.link
    url = absolute_url(request, reverse("tablet:link", args=[link.token])) if link else None
    corrections = {
        h.pk: CorrectionForm(initial=_hand_initial(h), prefix=f"h{h.pk}")
        for h in hands
        if h.state == queries.HandState.STANDING
    }
    late_sync = [
        (h, LateSyncForm(prefix=f"ls{h.pk}"))
        for h in hands
        if h.late_sync and h.state == queries.HandState.STANDING and match.has_late_sync
    ]
    refused: dict[str, object] = {}
    if correction is not None:
        pk, bound_correction = correction
        corrections[pk] = bound_correction
        refused["open_correction"] = pk
    if late_sync_error is not None:
        pk, bound_review = late_sync_error
        late_sync = [(h, bound_review if h.pk == pk else f) for h, f in late_sync]
    return {
        "tournament": rnd.tournament,
        "round": rnd,
        "table": table,
        "match": match,
        "matches": view.matches,
        "hands": hands,
        "hand_log": view.hand_log,
        "state": view.state,
        "state_error": view.state_error,
        "seats": view.seats,
        "link": link,
        "link_url": url,
        "code": table_codes.shown(link.code) if link else "",
        "code_url": absolute_url(request, reverse("tablet:code")) if link else "",
        "qr": qr_code(url).svg_inline(scale=4) if url else None,
        "overrides": view.overrides,
        "extension_form": ExtensionForm(initial={"minutes": match.extension_seconds // 60}),
        "override_form": OverrideForm(),
        "close_form": ReasonForm(),
        "corrections": corrections,
        "is_final": rnd.kind == queries.RoundKind.FINAL,
        "first_dealer_form": DirectorFirstDealerForm(
            initial={"seat": match.first_dealer}, prefix="fd"
        ),
        "answer_form": AnswerForm(prefix="ans"),
        "insert_form": InsertHandForm(prefix="ins", initial={"position": match.hands_played + 1}),
        "late_sync": late_sync,
        "timeline": view.timeline,
        "time_called_at": view.time_called_at,
        "round_open": rnd.status == queries.RoundStatus.RUNNING,
        **refused,
    }


def _hand_initial(h: HandEntry) -> dict[str, object]:
    return {
        "outcome": h.outcome,
        "maker": h.maker,
        "alone": h.alone,
        "maker_tricks": h.maker_tricks,
        "renege_by": h.renege_by,
        "dealer_partner_ordered_up": h.dealer_partner_ordered_up,
        "defender_alone": h.defender_alone,
    }


def _table_page(
    request: HttpRequest,
    rnd: Round,
    table: int,
    status: int = 200,
    *,
    correction: tuple[int, CorrectionForm] | None = None,
    late_sync_error: tuple[int, LateSyncForm] | None = None,
    bound: dict[str, Form] | None = None,
) -> HttpResponse:
    """``bound``: a refused form, by its name in the context, in place of the blank one."""
    context = _table_context(
        request, rnd, table, correction=correction, late_sync_error=late_sync_error
    )
    context.update(bound or {})
    return render(request, "director/rounds/table.html", context, status=status)


@director_required
def table_detail(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
    return _table_page(request, rnd, table)


def _match_of(rnd: Round, table: int, request: HttpRequest) -> Match:
    game = parse_id(request.POST.get("game") or "1")
    if game is None:
        raise Http404("No such game.")
    match = queries.game_at(rnd, table, game)
    if match is None:
        raise Http404("No such game at this table.")
    return match


def _table_url(rnd: Round, table: int, match: Match) -> str:
    url = reverse("director:table", args=[rnd.tournament.slug, rnd.number, table])
    return f"{url}?game={match.game}" if match.game > 1 else url


def _table_action(
    request: HttpRequest,
    slug: str,
    number: int,
    table: int,
    form: Form,
    context_name: str,
    act: Callable[[Match], list[str]],
) -> HttpResponse:
    """One repair or decision at a table: ``act`` runs the service and returns what to tell
    the director (what was done, then any warnings); a refusal re-renders the page, 422."""
    rnd = round_or_404(tournament_or_404(slug), number)
    match = _match_of(rnd, table, request)

    def done() -> HttpResponse:
        said, *warnings = act(match)
        messages.success(request, f"Table {table}: {said}")
        for warning in warnings:
            messages.warning(request, warning)
        return redirect(_table_url(rnd, table, match))

    return form_view(
        form, done, lambda: _table_page(request, rnd, table, status=422, bound={context_name: form})
    )


@director_required
@require_POST
def table_extend(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    form = ExtensionForm(request.POST)

    def act(match: Match) -> list[str]:
        minutes = form.cleaned_data["minutes"]
        round_service.extend_table(
            match, minutes, by=who(request), reason=form.cleaned_data["reason"]
        )
        return [f"extension set to {minutes} min."]

    return _table_action(request, slug, number, table, form, "extension_form", act)


@director_required
@require_POST
def hand_correct(request: HttpRequest, slug: str, number: int, table: int, pk: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
    entry = queries.hand_at(rnd, table, pk)
    if entry is None:
        raise Http404("No such hand at this table.")
    form = CorrectionForm(request.POST, prefix=f"h{pk}")

    def act() -> HttpResponse:
        result = play_service.correct_hand(
            entry,
            form.hand,
            by=who(request),
            reason=form.cleaned_data["reason"],
            client_key=form.cleaned_data["client_key"],
            confirm=form.cleaned_data["confirm"],
        )
        messages.success(request, f"Hand {entry.number} corrected.")
        for warning in result.warnings:
            messages.warning(request, warning)
        return redirect(_table_url(rnd, table, entry.match))

    return form_view(
        form, act, lambda: _table_page(request, rnd, table, status=422, correction=(pk, form))
    )


@director_required
@require_POST
def table_override(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    form = OverrideForm(request.POST)

    def act(match: Match) -> list[str]:
        warnings = play_service.override_winner(
            match, form.team, by=who(request), reason=form.cleaned_data["reason"]
        )
        return [f"winner set to {form.team.value}.", *warnings]

    return _table_action(request, slug, number, table, form, "override_form", act)


@director_required
@require_POST
def table_close(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Accept a finished or disputed result as final."""
    form = ReasonForm(request.POST)

    def act(match: Match) -> list[str]:
        play_service.close_match(match, by=who(request), note=form.cleaned_data["reason"])
        return ["result accepted."]

    return _table_action(request, slug, number, table, form, "close_form", act)


@director_required
@require_POST
def table_relink(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(slug), number)
    # Only a table this round seats gets a link (never a live link for table 99 of 12).
    if not 1 <= table <= MAX_TABLE or not queries.table_exists(rnd, table):
        raise Http404(f"There is no table {table} in {rnd}.")
    round_service.revoke_link(rnd.tournament, table, by=who(request))
    messages.success(
        request, f"Table {table}: the old tablet link is revoked; a new one is shown below."
    )
    return redirect("director:table", slug, number, table)


@director_required
@require_POST
def table_first_dealer(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Set or change the first dealer; the dealers of the recorded hands follow."""
    form = DirectorFirstDealerForm(request.POST, prefix="fd")

    def act(match: Match) -> list[str]:
        play_service.set_first_dealer(
            match,
            form.first_dealer,
            by=who(request),
            director=True,
            reason=form.cleaned_data["reason"],
        )
        return ["first dealer set."]

    return _table_action(request, slug, number, table, form, "first_dealer_form", act)


@director_required
@require_POST
def table_answer(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Set or change the table's answer to "was a hand being played at the call?"."""
    form = AnswerForm(request.POST, prefix="ans")

    def act(match: Match) -> list[str]:
        play_service.answer_time_call(
            match,
            form.cleaned_data["in_progress"],
            by=who(request),
            director=True,
            reason=form.cleaned_data["reason"],
        )
        return ["the answer is recorded."]

    return _table_action(request, slug, number, table, form, "answer_form", act)


@director_required
@require_POST
def table_insert(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Insert a missing hand at a position; later hands move one up."""
    form = InsertHandForm(request.POST, prefix="ins")

    def act(match: Match) -> list[str]:
        result = play_service.insert_hand(
            match,
            form.cleaned_data["position"],
            form.hand,
            by=who(request),
            reason=form.cleaned_data["reason"],
            client_key=form.cleaned_data["client_key"],
        )
        return [f"hand {result.entry.number} inserted.", *result.warnings]

    return _table_action(request, slug, number, table, form, "insert_form", act)


@director_required
@require_POST
def hand_late_sync(
    request: HttpRequest, slug: str, number: int, table: int, pk: int
) -> HttpResponse:
    """Accept a late-synced hand or take it as entered at its arrival."""
    rnd = round_or_404(tournament_or_404(slug), number)
    entry = queries.hand_at(rnd, table, pk)
    if entry is None:
        raise Http404("No such hand at this table.")
    form = LateSyncForm(request.POST, prefix=f"ls{pk}")

    def act() -> HttpResponse:
        play_service.review_late_sync(
            entry,
            accept=form.cleaned_data["decision"] == "accept",
            by=who(request),
            reason=form.cleaned_data["reason"],
        )
        messages.success(request, f"Table {table}: late-synced hand {entry.number} reviewed.")
        return redirect(_table_url(rnd, table, entry.match))

    return form_view(
        form, act, lambda: _table_page(request, rnd, table, status=422, late_sync_error=(pk, form))
    )
