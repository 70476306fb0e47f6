"""Pages anyone in the hall may open, no login: the event page on players' phones (find
yourself, my card, my ledger, standings), the projector and the clock.

Every answer that 2,000 phones poll carries an ETag from one version query
(``reads.public.version``); a phone that already holds it gets 304 before any other
query. Nothing is stored per phone: the phone's choice of player lives in its own
storage and in the URL.
"""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.common import language
from tournaments.common.hall import absolute_url, qr_code
from tournaments.core.phones import boards, reads
from tournaments.core.phones.ledger import ledger
from tournaments.core.reads import players, queries
from tournaments.core.reads.console import clock_view, current_round

if TYPE_CHECKING:  # annotations only: the views read through reads.queries
    from tournaments.core.models.event import Tournament
    from tournaments.core.models.rounds import Round

PROJECTOR_TOP = 8
STANDINGS_TOP = 100
POLL_SECONDS = 15
# From the call, or the player's match's end, until the next round is seated: the moment
# players wait for a new seat, which must show within 5 s of the seating. A 304
# is one query (about a millisecond of a worker), so 2,000 phones at this pace are about
# 650 answers a second while a round ends (docs/history/performance.md §9.7).
FAST_POLL_SECONDS = 3
# Database ids are positive and fit 32 bits here; a longer number in the URL is forged
# (and would overflow the database's integer on the way in).
MAX_ID = 2**31 - 1


def index(request: HttpRequest) -> HttpResponse:
    tournaments = queries.open_tournaments(20)
    return render(request, "public/index.html", {"tournaments": tournaments})


# --- conditional answers ----------------------------------------------------------------


def _versioned(
    request: HttpRequest,
    slug: str,
    parts: tuple[str, ...],
    build: Callable[[Tournament], HttpResponse],
    player_id: int | None = None,
    salt: str = "",
    director_chose: str | None = None,
    first: Callable[[reads.Version], HttpResponse | None] | None = None,
) -> HttpResponse:
    """304 when the phone holds the current version (one query), else ``build``.

    ``first`` may answer from the version alone instead, with part of the page: that
    answer carries no ETag and is not stored, so the phone's next ask gets it whole.

    In the reader's language (the cookie), else the event's (read in the same query);
    the projector passes the director's ``?lang=``, which comes first."""
    if player_id is not None and not 1 <= player_id <= MAX_ID:
        raise Http404(_("No such player in this event."))
    ver = reads.version(slug, parts, player_id)
    if ver is None:
        raise Http404(_("No such event."))
    if not ver.player_known:
        raise Http404(_("No such player in this event."))
    code = director_chose or language.for_event(request, ver.language)
    with translation.override(code):
        # The answer also depends on the query string and the language it is written in.
        salt = f"{salt}-{get_language() or ''}"
        etag = f'{ver.etag[:-1]}-{salt}"'
        held = request.headers.get("If-None-Match", "")
        part = None
        if etag in (t.strip().removeprefix("W/") for t in held.split(",")):
            response: HttpResponse = HttpResponseNotModified()
        elif first is not None and (part := first(ver)) is not None:
            response = part
        else:
            response = build(queries.tournament_by_id(ver.tournament_id))
    # LocaleMiddleware keeps a header the view set: the page's own language.
    response["Content-Language"] = code
    if part is not None:
        response["Cache-Control"] = "no-store"
    elif response.status_code in (200, 304):
        response["ETag"] = etag
        # Cacheable, but only after asking: the phone revalidates on every poll.
        response["Cache-Control"] = "no-cache"
    return response


def _event_url(request: HttpRequest, slug: str) -> str:
    """The players' event page at the hall address: what the projector prints and encodes."""
    return absolute_url(request, reverse("public:event", args=[slug]))


def _tournament_or_404(slug: str) -> Tournament:
    found = queries.find_tournament(slug)
    if found is None:
        raise Http404(_("No such event."))
    return found


def _hidden_context(t: Tournament) -> dict[str, object]:
    latest = reads.latest_round(t)
    vis = reads.visibility(t, latest)
    return {
        "tournament": t,
        "latest": latest,
        "visibility": vis,
        "hidden": vis.hidden,
        "hide_n": vis.hide_last,
        # While hidden, what players see is as it stood after this round (§5).
        "through": vis.through,
    }


# --- the event page: find yourself ------------------------------------------------------


def _typed(request: HttpRequest) -> tuple[str, str | None]:
    """What was typed in the search (``q``), and the message refusing it if it is refused."""
    query = request.GET.get("q", "")
    try:
        reads.clean_query(query)
    except reads.BadSearch as exc:
        return query, exc.args[0]
    return query, None


@require_GET
def event(request: HttpRequest, slug: str) -> HttpResponse:
    query, refused = _typed(request)
    if refused is not None:
        t = _tournament_or_404(slug)
        with translation.override(language.for_event(request, t.language)):
            # The refusal was worded before the event's language was known.
            _query, refused = _typed(request)
            ctx = {"tournament": t, "query": query[: reads.SEARCH_MAX_LENGTH], "error": refused}
            return render(request, "public/event.html", ctx, status=400)

    def build(t: Tournament) -> HttpResponse:
        if t.played_as_id is not None and t.played_as is not None:
            # Registration was taken here and the event played at the hall: its results
            # arrived as another event, which is this event's page now (docs/series.md).
            return redirect("public:event", t.played_as.slug)
        found = reads.search_players(t, query) if query.strip() else []
        ctx = {
            **_hidden_context(t),
            "query": query,
            "found": found,
            "too_short": bool(query.strip()) and not found and len(query.strip()) < 2,
            "event_url": _event_url(request, t.slug),
            "registers_at": queries.registers_at(t),
        }
        return render(request, "public/event.html", ctx)

    return _versioned(request, slug, ("activity",), build, salt=_salt(query))


def _salt(query: str) -> str:
    return hashlib.blake2b(query.encode(), digest_size=6).hexdigest() if query else ""


@require_GET
def find(request: HttpRequest, slug: str) -> HttpResponse:
    """The names matching what was typed, for the live search box."""
    query, refused = _typed(request)
    if refused is not None:
        return JsonResponse({"error": refused}, status=400)

    def build(t: Tournament) -> HttpResponse:
        found = reads.search_players(t, query)
        return JsonResponse(
            {
                "players": [
                    {
                        "id": f.pk,
                        "name": f.name,
                        "division": f.division,
                        "house": f.house,
                        "withdrawn": f.withdrawn,
                        "url": reverse("public:card", args=[t.slug, f.pk]),
                    }
                    for f in found
                ]
            }
        )

    return _versioned(request, slug, ("activity",), build, salt=_salt(query))


# --- my card and my ledger ----------------------------------------------------------------


def _card_context(t: Tournament, player_id: int) -> dict[str, object]:
    player = reads.player_of(t, player_id)
    if player is None:  # the version query already checked; a race with a deletion
        raise Http404(_("No such player in this event."))
    card = reads.card(t, player, timezone.now())
    return {
        "tournament": t,
        "card": card,
        "player": player,
        "poll_seconds": POLL_SECONDS,
        "fast_poll_seconds": FAST_POLL_SECONDS,
        "call_at_ms": int(card.clock.call_at.timestamp() * 1000) if card.clock.call_at else "",
        # What a phone without script shows; the script counts down from call_at.
        "clock_text": _minutes(card.clock.remaining_seconds)
        if card.clock.kind != "running"
        else "",
    }


def _minutes(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _copy_to_results(t: Tournament, player: int, view: str) -> HttpResponse:
    """A registration copy's player, once the event was played at the hall: her page in
    its results (docs/series.md), else the results' event page."""
    assert t.played_as is not None
    found = players.in_results(t, player)
    if found is None:
        return redirect("public:event", t.played_as.slug)
    return redirect(view, t.played_as.slug, found.pk)


@require_GET
def card(request: HttpRequest, slug: str, player: int) -> HttpResponse:
    def build(t: Tournament) -> HttpResponse:
        if t.played_as_id is not None:
            return _copy_to_results(t, player, "public:card")
        return render(request, "public/card.html", _card_context(t, player))

    return _versioned(request, slug, ("activity",), build, player_id=player)


# The seat the phone's card shows (its ``data-round`` and ``data-seat``, "3:12N"), sent
# with every poll: a phone that shows another seat than the player's latest is answered
# with the new seat alone, from the version query, and asks for the whole card a few
# seconds later (static/public/phone.js). At a round's turnover every phone asks at once,
# and the whole card costs three times the seat (docs/history/performance.md §9.10).
SEAT_HEADER = "X-Snowman-Seat"


@require_GET
def card_part(request: HttpRequest, slug: str, player: int) -> HttpResponse:
    """The card alone: what the phone polls."""
    shown = request.headers.get(SEAT_HEADER)

    def build(t: Tournament) -> HttpResponse:
        if t.played_as_id is not None:
            return _copy_to_results(t, player, "public:card_part")
        return render(request, "public/_card.html", _card_context(t, player))

    def seat_first(ver: reads.Version) -> HttpResponse | None:
        found = None if shown is None else reads.seat_card(ver.tournament_id, ver, shown)
        if found is None:
            return None
        context = {"card": found, "player": found.player}
        return render(request, "public/_card.html", context)

    return _versioned(request, slug, ("activity",), build, player_id=player, first=seat_first)


@require_GET
def ledger_page(request: HttpRequest, slug: str, player: int) -> HttpResponse:
    def build(t: Tournament) -> HttpResponse:
        if t.played_as_id is not None:
            return _copy_to_results(t, player, "public:ledger")
        p = reads.player_of(t, player)
        if p is None:
            raise Http404(_("No such player in this event."))
        return render(
            request,
            "public/ledger.html",
            {"tournament": t, "player": p, "ledger": ledger(t, p), "poll_seconds": 30},
        )

    return _versioned(request, slug, ("activity", "results"), build, player_id=player)


# --- standings ----------------------------------------------------------------------------


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    division = request.GET.get("division", "A")
    if division not in ("A", "B"):
        return HttpResponseBadRequest(_("Choose division A or B."))
    query = request.GET.get("q", "")
    try:
        folded = reads.clean_query(query)
    except reads.BadSearch as exc:
        return HttpResponseBadRequest(exc.args[0])

    def build(t: Tournament) -> HttpResponse:
        ctx = _hidden_context(t)
        vis = cast("reads.Visibility", ctx["visibility"])
        rows = boards.public_rows(t, vis)[division]
        if folded:
            rows = [r for r in rows if all(w in r.folded for w in folded.split())]
        ranked = len(rows)
        # A phone gets the top of the table; the search reaches everyone else.
        rows = rows if folded else rows[:STANDINGS_TOP]
        ctx.update(
            {
                "division": division,
                "query": query,
                "rows": rows,
                "ranked": ranked,
                "cut": ranked > len(rows),
                "any_shared": any(r.shared for r in rows),
                "final": boards.final_view(t),
                "poll_seconds": 30,
            }
        )
        return render(request, "public/standings.html", ctx)

    return _versioned(
        request, slug, ("activity", "results", "final"), build, salt=_salt(division + query)
    )


# --- time and the QR code -------------------------------------------------------------------


@never_cache
@require_GET
def server_now(request: HttpRequest, slug: str) -> JsonResponse:
    """The server's time, for the phone's clock offset. One indexed lookup so that an
    unknown event is a 404 here as on every other address under /e/; it runs before the
    clock is read, so it does not skew the offset the phone measures."""
    if not queries.tournament_exists(slug):
        raise Http404(_("No such event."))
    return JsonResponse({"now_ms": int(time.time() * 1000)})


@require_GET
def qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The event page's address as a QR code (SVG), for the projector and the sheets."""
    # The version is salted with the very address the picture encodes: a new hall address
    # (a restart on another DHCP lease, HALL_ADDRESS, HTTPS) is a new picture, not a 304
    # that leaves the projector showing phones an address that reaches nothing.
    url = _event_url(request, slug)

    def build(t: Tournament) -> HttpResponse:
        out = io.BytesIO()
        qr_code(url).save(out, kind="svg", scale=8, border=2, light="#fff")
        return HttpResponse(out.getvalue(), content_type="image/svg+xml")

    return _versioned(request, slug, (), build, salt=_salt(url))


# --- the projector ------------------------------------------------------------------------


def _projector_context(request: HttpRequest, t: Tournament) -> dict[str, object]:
    ctx = _hidden_context(t)
    rnd = cast("Round | None", ctx["latest"])
    between = (
        rnd is not None
        and rnd.kind == queries.RoundKind.PRELIMINARY
        and rnd.status == queries.RoundStatus.SEATED
    )
    top: dict[str, list[boards.PublicRow]] = {"A": [], "B": []}
    vis = cast("reads.Visibility", ctx["visibility"])
    # Hiding every round leaves nothing to show (as it stood before round 1).
    if vis.through != 0:
        top = {
            d: rows[:PROJECTOR_TOP]
            for d, rows in boards.public_rows(t, vis, played_only=False).items()
        }
    ctx.update(
        {
            "round": rnd,
            "between": between,
            "tables": boards.projector_seating(rnd) if rnd and between else [],
            "top": top,
            "any_shared": any(r.shared for rows in top.values() for r in rows),
            "final": boards.final_view(t),
            "event_url": _event_url(request, t.slug),
        }
    )
    return ctx


def _projector_choice(request: HttpRequest) -> str | None:
    return language.supported(request.GET.get("lang"))


def _projector_language(request: HttpRequest, t: Tournament) -> str:
    """The director chooses the projector's language in its address (``?lang=fr``): the
    hall's screen follows the event, not the browser it happens to run in. Without one,
    the browser's choice (its cookie), else the event's language."""
    return _projector_choice(request) or language.for_event(request, t.language)


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament_or_404(slug)
    with translation.override(_projector_language(request, t)):
        ctx = _projector_context(request, t)
        # The refreshes and the clock keep the director's choice.
        chosen = language.supported(request.GET.get("lang"))
        ctx["lang_query"] = f"?lang={chosen}" if chosen else ""
        return render(request, "public/projector.html", ctx)


@require_GET
def projector_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The part of the projector that htmx refreshes."""

    def build(t: Tournament) -> HttpResponse:
        return render(request, "public/_projector_body.html", _projector_context(request, t))

    return _versioned(
        request,
        slug,
        ("activity", "results", "final"),
        build,
        director_chose=_projector_choice(request),
    )


@never_cache
def clock(request: HttpRequest, slug: str) -> JsonResponse:
    """The current round's clock; the countdown script ticks locally between reads."""
    t = _tournament_or_404(slug)
    now = timezone.now()
    rnd = current_round(t)
    if rnd is None or reads.running_at_hall(t):
        return JsonResponse({"server_now": now.isoformat(), "round": None})
    data = clock_view(rnd, now).as_json(now)
    with translation.override(_projector_language(request, t)):
        data["round"] = reads.round_label(rnd)
    data["status"] = rnd.status
    return JsonResponse(data)
