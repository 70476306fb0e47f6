"""Standings, the final, the champions and the activity log."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from tournaments.common import csvcells
from tournaments.common.ids import parse_id
from tournaments.core.forms import FirstDealerForm, HandForm
from tournaments.core.logtext import action_label
from tournaments.core.reads import queries
from tournaments.core.reads.standings import never_played, standings
from tournaments.core.reads.visibility import of_event
from tournaments.core.services import ServiceError, play
from tournaments.core.services.standings import break_tie, finish_event, seed_final
from tournaments.core.tables import ActivityTable, StandingsTable
from tournaments.core.views.director.common import (
    director_required,
    form_view,
    paper_name,
    tiebreak_words,
    tournament_or_404,
    url_with_query,
    who,
)

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.event import Tournament
    from tournaments.core.models.play import Match

# A page of a division at a time: a 500-table event has 1,000 players a division, and
# rendering them all makes the page slow to build and to read (the CSV and PDF have all).
STANDINGS_PER_PAGE = 50


def _standings_tables(request: HttpRequest, t: Tournament) -> dict[str, StandingsTable]:
    rows = standings(t)
    tables = {}
    for d in ("A", "B"):
        table = StandingsTable(rows[d], t.preliminary_rounds, prefix=f"{d.lower()}-")
        RequestConfig(request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
        tables[d] = table
    return tables


@director_required
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    tables = _standings_tables(request, t)
    # §5: while hidden, the PDF is the wall's copy; the director's own is offered apart.
    vis = of_event(t)
    return render(
        request,
        "director/standings.html",
        {
            "tournament": t,
            "tables": tables,
            "hidden_through": vis.through,
            "director_pdf": {
                d: [
                    (
                        paper_name(p),
                        url_with_query(
                            "sheets:standings", t.slug, d, query=f"paper={p}&copy=director"
                        ),
                    )
                    for p in (t.paper,)
                ]
                for d in tables
            }
            if vis.hidden
            else {},
            # Both divisions in one print job, with the same copies as each division's.
            "both_pdf": [
                (paper_name(p), url_with_query("sheets:standings_both", t.slug, query=f"paper={p}"))
                for p in (t.paper,)
            ],
            "both_director_pdf": [
                (
                    paper_name(p),
                    url_with_query(
                        "sheets:standings_both", t.slug, query=f"paper={p}&copy=director"
                    ),
                )
                for p in (t.paper,)
            ]
            if vis.hidden
            else [],
            "chain": tiebreak_words(t.tiebreaks.split(","), " → "),
            "never_played": never_played(t),
            "pdf": {
                d: [
                    (
                        paper_name(p),
                        url_with_query("sheets:standings", t.slug, d, query=f"paper={p}"),
                    )
                    for p in (t.paper,)
                ]
                for d in tables
            },
        },
    )


@director_required
def standings_csv(request: HttpRequest, slug: str, division: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    if division not in ("A", "B"):
        raise Http404("No such division.")
    rows = standings(t)[division]
    response, writer = csvcells.attachment(f"{t.slug}-standings-{division}.csv")
    rounds = range(1, t.preliminary_rounds + 1)
    # Read in a spreadsheet, imported by nothing: the headers are in the reader's language.
    writer.writerow(
        [
            pgettext("CSV header", "rank"),
            pgettext("CSV header", "player"),
            *[pgettext("CSV header", "round %(n)s") % {"n": n} for n in rounds],
            pgettext("CSV header", "bonuses"),
            pgettext("CSV header", "awards and penalties"),
            pgettext("CSV header", "total"),
            pgettext("CSV header", "wins"),
            pgettext("CSV header", "margin"),
            pgettext("CSV header", "tie broken by lot"),
            pgettext("CSV header", "withdrawn"),
            pgettext("CSV header", "played"),
            pgettext("CSV header", "sit-outs"),
            pgettext("CSV header", "withdrawn after round"),
        ]
    )
    yes = pgettext("CSV cell", "yes")
    for row in rows:
        r = row.record
        writer.writerow(
            [
                row.rank,
                row.player.name,
                *[row.by_round.get(n, "") for n in rounds],
                r.bonuses,
                r.individual,
                r.total,
                r.wins,
                r.margin,
                yes if row.standing.decided_by_lot else "",
                yes if row.player.withdrawn else "",
                row.played,
                row.sit_outs,
                row.player.withdrawn_after_round if row.player.withdrawn else "",
            ]
        )
    return response


# --- the final --------------------------------------------------------------------------


def _final_page(
    request: HttpRequest,
    t: Tournament,
    status: int = 200,
    hand_form: HandForm | None = None,
    dealer_form: FirstDealerForm | None = None,
) -> HttpResponse:
    view = queries.final_view(t)
    return render(
        request,
        "director/final.html",
        {
            "tournament": t,
            "final": view.final,
            "games": view.games,
            "current": view.current,
            "seats": view.seats,
            "finalists": view.finalists,
            "entries": view.entries,
            "progress": view.progress,
            "champions": view.champions,
            "champion_names": view.champion_names,
            "hands": view.hands,
            "games_line": view.games_line,
            "ready": view.ready,
            "done": view.done,
            "hand_form": hand_form or HandForm(),
            "dealer_form": dealer_form or FirstDealerForm(),
            "final_pdf": [
                (paper_name(p), url_with_query("sheets:final", t.slug, query=f"paper={p}"))
                for p in (t.paper,)
            ],
        },
        status=status,
    )


@director_required
def final(request: HttpRequest, slug: str) -> HttpResponse:
    return _final_page(request, tournament_or_404(request, slug))


@director_required
@require_POST
def final_tiebreak(request: HttpRequest, slug: str) -> HttpResponse:
    """The director orders players sharing the rank that decides the final (§4)."""
    t = tournament_or_404(request, slug)
    division = request.POST.get("division", "")
    places = {}
    for key in request.POST:
        player = parse_id(key.removeprefix("place-")) if key.startswith("place-") else None
        if player is not None:
            places[player] = parse_id(request.POST.get(key, "").strip()) or 0
    order = sorted(places, key=places.__getitem__)

    def act() -> None:
        if division not in ("A", "B"):
            raise ServiceError(_("Choose a division."))
        if sorted(places.values()) != list(range(1, len(places) + 1)):
            raise ServiceError(_("Give each tied player a different place: 1, 2, 3…"))
        break_tie(t, division, order, reason=request.POST.get("reason", ""), by=who(request))

    return _final_step(
        request, t, act, _("Division %(division)s: tie broken.") % {"division": division}
    )


@director_required
@require_POST
def final_seed(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    return _final_step(
        request,
        t,
        lambda: seed_final(t, by=who(request)),
        _("The final is seeded."),
    )


def _final_step(
    request: HttpRequest, t: Tournament, act: Callable[[], object], done: str
) -> HttpResponse:
    """A button on the final page: ``act`` runs the service; a refusal shows the page
    again with its message (422), success goes back to it with ``done``."""
    try:
        act()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _final_page(request, t, status=422)
    messages.success(request, done)
    return redirect("director:final", t.slug)


def _current_game(t: Tournament) -> Match:
    game = queries.current_final_game(t)
    if game is None:
        raise Http404("The final is not seeded.")
    return game


@director_required
@require_POST
def final_dealer(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    game = _current_game(t)
    form = FirstDealerForm(request.POST)

    def act() -> HttpResponse:
        play.set_first_dealer(game, form.first_dealer, by=who(request))
        return redirect("director:final", slug)

    return form_view(form, act, lambda: _final_page(request, t, status=422, dealer_form=form))


@director_required
@require_POST
def final_hand(request: HttpRequest, slug: str) -> HttpResponse:
    """Record a hand of the final from the director's form (idempotent by client key)."""
    t = tournament_or_404(request, slug)
    game = _current_game(t)
    form = HandForm(request.POST)

    def act() -> HttpResponse:
        result = play.record_hand(
            game,
            form.hand,
            client_key=form.cleaned_data["client_key"],
            by=who(request),
            source=queries.HandSource.DIRECTOR,
        )
        if not result.duplicate:
            messages.success(
                request,
                _("Game %(game)s, hand %(hand)s: %(ns)s–%(ew)s.")
                % {
                    "game": game.game,
                    "hand": result.entry.number,
                    "ns": result.state.score[queries.Side.NS],
                    "ew": result.state.score[queries.Side.EW],
                },
            )
        return redirect("director:final", slug)

    return form_view(form, act, lambda: _final_page(request, t, status=422, hand_form=form))


@director_required
@require_POST
def finish(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)

    def act() -> None:
        finish_event(t, by=who(request))

    return _final_step(request, t, act, _("The tournament is finished."))


# --- the activity log -------------------------------------------------------------------


@director_required
def activity(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    action = request.GET.get("action", "")
    table = ActivityTable(queries.activity_entries(t, action))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "director/activity.html",
        {
            "tournament": t,
            "table": table,
            "actions": [(a, action_label(a)) for a in queries.activity_actions(t)],
            "action": action,
        },
    )
