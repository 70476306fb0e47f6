"""One table's page and the director's actions on it: extend, override, close, relink,
the first dealer, the time call's answer, a missing hand, corrections, late syncs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib import messages
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.common.hall import absolute_url, qr_code
from tournaments.common.ids import parse_id
from tournaments.core.forms import (
    SHEET_PLAYS,
    AnswerForm,
    CorrectionForm,
    DirectorFirstDealerForm,
    ExtensionForm,
    InsertHandForm,
    LateSyncForm,
    OverrideForm,
    ReasonForm,
    ScoresheetForm,
)
from tournaments.core.reads import queries
from tournaments.core.reads.tablet.link import shown
from tournaments.core.reads.tablet.state import tablet_rules
from tournaments.core.replay import hand_fields
from tournaments.core.services import (
    Conflict,
    ServiceError,
    closing,
    corrections,
    paper,
    play,
    rounds,
)
from tournaments.core.views.director.common import (
    director_required,
    form_view,
    round_or_404,
    tournament_or_404,
    who,
)
from tournaments.core.views.sheets import MAX_TABLE

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.play import HandEntry, Match
    from tournaments.core.models.rounds import Round


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
        "code": shown(link.code) if link else "",
        "code_url": absolute_url(request, reverse("tablet:code")) if link else "",
        "qr": qr_code(url).svg_inline(scale=4) if url else None,
        "overrides": view.overrides,
        "extension_form": ExtensionForm(initial={"minutes": match.extension_seconds // 60}),
        "override_form": OverrideForm(),
        "close_form": ReasonForm(),
        "corrections": corrections,
        "is_final": rnd.kind == queries.RoundKind.FINAL,
        "first_dealer_form": DirectorFirstDealerForm(
            initial={"seat": match.first_dealer}, prefix="fd", changing=bool(match.first_dealer)
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
    return hand_fields(h)


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
    rnd = round_or_404(tournament_or_404(request, slug), number)
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
    rnd = round_or_404(tournament_or_404(request, slug), number)
    match = _match_of(rnd, table, request)

    def done() -> HttpResponse:
        said, *warnings = act(match)
        messages.success(request, _("Table %(table)s: %(done)s") % {"table": table, "done": said})
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
        rounds.extend_table(match, minutes, by=who(request), reason=form.cleaned_data["reason"])
        return [_("extension set to %(minutes)s min.") % {"minutes": minutes}]

    return _table_action(request, slug, number, table, form, "extension_form", act)


@director_required
@require_POST
def hand_correct(request: HttpRequest, slug: str, number: int, table: int, pk: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(request, slug), number)
    entry = queries.hand_at(rnd, table, pk)
    if entry is None:
        raise Http404("No such hand at this table.")
    form = CorrectionForm(request.POST, prefix=f"h{pk}")

    def act() -> HttpResponse:
        result = corrections.correct_hand(
            entry,
            form.hand,
            by=who(request),
            reason=form.cleaned_data["reason"],
            client_key=form.cleaned_data["client_key"],
            confirm=form.cleaned_data["confirm"],
        )
        messages.success(request, _("Hand %(number)s corrected.") % {"number": entry.number})
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
        warnings = corrections.override_winner(
            match, form.team, by=who(request), reason=form.cleaned_data["reason"]
        )
        return [_("winner set to %(team)s.") % {"team": form.team.value}, *warnings]

    return _table_action(request, slug, number, table, form, "override_form", act)


@director_required
@require_POST
def table_close(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Accept a finished or disputed result as final."""
    form = ReasonForm(request.POST)

    def act(match: Match) -> list[str]:
        closing.close_match(match, by=who(request), note=form.cleaned_data["reason"])
        return [_("result accepted.")]

    return _table_action(request, slug, number, table, form, "close_form", act)


@director_required
@require_POST
def table_relink(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    rnd = round_or_404(tournament_or_404(request, slug), number)
    # Only a table this round seats gets a link (never a live link for table 99 of 12).
    if not 1 <= table <= MAX_TABLE or not queries.table_exists(rnd, table):
        raise Http404(f"There is no table {table} in {rnd}.")
    rounds.revoke_link(rnd.tournament, table, by=who(request))
    messages.success(
        request,
        _("Table %(table)s: the old tablet link is revoked; a new one is shown below.")
        % {"table": table},
    )
    return redirect("director:table", slug, number, table)


@director_required
@require_POST
def table_first_dealer(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Set or change the first dealer; the dealers of the recorded hands follow."""
    form = DirectorFirstDealerForm(request.POST, prefix="fd")

    def act(match: Match) -> list[str]:
        play.set_first_dealer(
            match,
            form.first_dealer,
            by=who(request),
            director=True,
            reason=form.cleaned_data["reason"],
        )
        return [_("first dealer set.")]

    return _table_action(request, slug, number, table, form, "first_dealer_form", act)


@director_required
@require_POST
def table_answer(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Set or change the table's answer to "was a hand being played at the call?"."""
    form = AnswerForm(request.POST, prefix="ans")

    def act(match: Match) -> list[str]:
        play.answer_time_call(
            match,
            form.cleaned_data["in_progress"],
            by=who(request),
            director=True,
            reason=form.cleaned_data["reason"],
        )
        return [_("the answer is recorded.")]

    return _table_action(request, slug, number, table, form, "answer_form", act)


@director_required
@require_POST
def table_insert(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Insert a missing hand at a position; later hands move one up."""
    form = InsertHandForm(request.POST, prefix="ins")

    def act(match: Match) -> list[str]:
        result = corrections.insert_hand(
            match,
            form.cleaned_data["position"],
            form.hand,
            by=who(request),
            reason=form.cleaned_data["reason"],
            client_key=form.cleaned_data["client_key"],
        )
        return [_("hand %(number)s inserted.") % {"number": result.entry.number}, *result.warnings]

    return _table_action(request, slug, number, table, form, "insert_form", act)


@director_required
@require_POST
def hand_late_sync(
    request: HttpRequest, slug: str, number: int, table: int, pk: int
) -> HttpResponse:
    """Accept a late-synced hand or take it as entered at its arrival."""
    rnd = round_or_404(tournament_or_404(request, slug), number)
    entry = queries.hand_at(rnd, table, pk)
    if entry is None:
        raise Http404("No such hand at this table.")
    form = LateSyncForm(request.POST, prefix=f"ls{pk}")

    def act() -> HttpResponse:
        corrections.review_late_sync(
            entry,
            accept=form.cleaned_data["decision"] == "accept",
            by=who(request),
            reason=form.cleaned_data["reason"],
        )
        messages.success(
            request,
            _("Table %(table)s: late-synced hand %(number)s reviewed.")
            % {"table": table, "number": entry.number},
        )
        return redirect(_table_url(rnd, table, entry.match))

    return form_view(
        form, act, lambda: _table_page(request, rnd, table, status=422, late_sync_error=(pk, form))
    )


# --- a paper table ------------------------------------------------------------------------


def _scoresheet_page(
    request: HttpRequest, rnd: Round, table: int, form: ScoresheetForm, status: int = 200
) -> HttpResponse:
    game = request.GET.get("game") or request.POST.get("game")
    view = queries.table_view(rnd, table, game, timezone.now())
    if view is None:
        raise Http404("No such table in this round.")
    match = view.match
    if not form.is_bound:
        form = ScoresheetForm(initial={"version": match.version})
    state = view.state
    return render(
        request,
        "director/rounds/scoresheet.html",
        {
            "tournament": rnd.tournament,
            "round": rnd,
            "table": table,
            "match": match,
            "hands": view.hands,
            "seats": view.seats,
            "form": form,
            "rows": form.row_values(),
            "plays": SHEET_PLAYS,
            "rules": tablet_rules(rnd.tournament.rules, rnd.kind == queries.RoundKind.FINAL),
            "start": {
                "score": {"NS": match.score_ns, "EW": match.score_ew},
                "phase": state.next_phase.value if state and state.next_phase else "regular",
                "dealer": state.next_dealer.value if state and state.next_dealer else None,
                "first": match.first_dealer or None,
                "hands": match.hands_played,
            },
            "on_paper": queries.is_paper_table(rnd.tournament, table),
        },
        status=status,
    )


@director_required
@require_http_methods(["GET", "POST"])
def table_scoresheet(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Enter from the scoresheet: every hand of a paper table in one grid, all or nothing,
    under the tablet's rules and version (a stale grid is a 409 with the table as it is)."""
    rnd = round_or_404(tournament_or_404(request, slug), number)
    if request.method == "GET":
        return _scoresheet_page(request, rnd, table, ScoresheetForm())
    match = _match_of(rnd, table, request)
    form = ScoresheetForm(request.POST)
    if not form.is_valid():
        return _scoresheet_page(request, rnd, table, form, status=422)
    try:
        keyed = paper.enter_scoresheet(
            match,
            form.hands,
            first_dealer=form.first,
            version=form.cleaned_data["version"],
            client_key=form.cleaned_data["client_key"],
            by=who(request),
            reason=form.cleaned_data["reason"],
            confirm=form.cleaned_data["confirm"],
        )
    except Conflict as exc:
        messages.error(request, exc.message)
        return _scoresheet_page(request, rnd, table, ScoresheetForm(), status=409)
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _scoresheet_page(request, rnd, table, form, status=422)
    messages.success(
        request,
        _("Table %(table)s: %(n)s hands keyed from the scoresheet; %(ns)s–%(ew)s.")
        % {
            "table": table,
            "n": keyed.hands,
            "ns": keyed.match.score_ns,
            "ew": keyed.match.score_ew,
        },
    )
    return redirect(_table_url(rnd, table, keyed.match))


@director_required
@require_POST
def table_paper(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """Mark the table as scored on paper (or on a tablet again)."""
    rnd = round_or_404(tournament_or_404(request, slug), number)
    _match_of(rnd, table, request)  # a table of the round, else 404
    on = request.POST.get("on") == "1"
    paper.mark_paper(rnd.tournament, table, on, by=who(request))
    messages.success(
        request,
        _("Table %(table)s is scored on paper.") % {"table": table}
        if on
        else _("Table %(table)s is scored on a tablet again.") % {"table": table},
    )
    return redirect(reverse("director:table", args=[rnd.tournament.slug, rnd.number, table]))
