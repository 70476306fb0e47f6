"""The round console, the live board, the round clock and revealing hidden standings."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, cast

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.decorators.http import require_POST

from tournaments.core.forms import CallTimeForm, ReopenForm
from tournaments.core.phones.reads import round_label
from tournaments.core.reads import queries, visibility
from tournaments.core.reads.console import board_summary, clock_view, live_board
from tournaments.core.reads.rounds import Unfinished
from tournaments.core.services import ServiceError, rounds, standings
from tournaments.core.views.director.common import (
    director_required,
    round_or_404,
    sheet_links,
    tournament_or_404,
    who,
)

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.rounds import Round

BOARD_SORTS = {
    "table": gettext_lazy("Table"),
    "attention": gettext_lazy("Needs attention first"),
    "idle": gettext_lazy("Longest without an entry"),
}


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
    request: HttpRequest,
    rnd: Round,
    status: int = 200,
    reopen_form: ReopenForm | None = None,
    unfinished: list[Unfinished] | None = None,
) -> HttpResponse:
    now = timezone.now()
    context = _board_context(request, rnd, now)
    summary = cast("dict[str, int]", context["summary"])
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
        standings_hidden=facts.later is None and visibility.of_event(t, rnd).hidden,
        unfinished=unfinished or [],
        # Finalizing is the primary action only once every table is done.
        all_done=not any(summary[s] for s in ("waiting", "playing", "time_called", "disputed")),
    )
    return render(request, "director/rounds/console.html", context, status=status)


@director_required
def console(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(request, slug), number)
    if rnd.kind == queries.RoundKind.FINAL:
        return redirect("director:final", slug)
    return _console(request, rnd)


@director_required
def board(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The live board partial that the console polls."""
    rnd = round_or_404(tournament_or_404(request, slug), number)
    context = _board_context(request, rnd, timezone.now())
    return render(request, "director/rounds/_board.html", context)


def _call_time(rnd: Round, *, by: str, including_extended: bool = False) -> Round:
    return rounds.call_time(rnd, by=by, including_extended=including_extended)


# Each takes the round and ``by``; calling time also takes ``including_extended``.
CLOCK_ACTIONS: dict[str, tuple[Callable[..., object], str]] = {
    "start": (rounds.start_round, gettext_noop("%(round)s started.")),
    "pause": (rounds.pause_round, gettext_noop("%(round)s paused.")),
    "resume": (rounds.resume_round, gettext_noop("%(round)s resumed.")),
    "call": (_call_time, gettext_noop("Time called in %(round)s.")),
}


@director_required
@require_POST
def reveal(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Show the hidden standings to the players now (§5), before the final seeds them."""
    rnd = round_or_404(tournament_or_404(request, slug), number)
    try:
        standings.reveal(rnd.tournament, by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
        queries.reload(rnd)
        return _console(request, rnd, status=exc.status)
    messages.success(request, _("The standings are shown to the players again."))
    return redirect("director:round", slug, number)


@director_required
@require_POST
def clock_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(request, slug), number)
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
    messages.success(request, _(done) % {"round": round_label(rnd)})
    return redirect("director:round", slug, number)
