"""The money's pages. The door (fees) is the desk's; everything that shows the purse,
the payout or the drawer is the director's (the desk takes fees but sees no purse).
Another club's staff get 404 from the access decorators, as on every staff page.

A refused POST shows the page again with the message: 422 for a refusal of the rules,
409 when another desk or an older page got there first (the page shows things as they
are now)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.common import bilingual, csvcells
from tournaments.common.ids import ID_MAX, parse_id
from tournaments.common.names import sort_key
from tournaments.core.phones.reads import player_of
from tournaments.core.reads import queries
from tournaments.core.services import NotFound, ServiceError
from tournaments.core.views.director.common import (
    desk_required,
    director_required,
    tournament_or_404,
    who,
)
from tournaments.core.views.sheets import paper_of, pdf_response, sheet_languages
from tournaments.domain.money import money_text
from tournaments.money import forms, pdf, reads, services
from tournaments.money.amounts import dollars
from tournaments.prizes.reads import event_prizes

if TYPE_CHECKING:  # annotations only: the views read through the reads
    from tournaments.core.models.event import Tournament
    from tournaments.money.models import PayoutLine

DESK_LIMIT = 30


def _refused(
    request: HttpRequest, exc: ServiceError, show: Callable[[int], HttpResponse]
) -> HttpResponse:
    if isinstance(exc, NotFound):
        raise Http404(exc.message)
    messages.error(request, exc.message)
    return show(exc.status)


def _act(
    request: HttpRequest,
    form: Any,
    act: Callable[[dict[str, Any]], str | None],
    show: Callable[[int], HttpResponse],
    back: str,
) -> HttpResponse:
    """Run ``act`` with a valid form's data: its message is shown after the redirect to
    ``back``; an invalid form is 422, a refusal its own status, each on ``show``."""
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return show(422)
    try:
        said = act(form.cleaned_data)
    except ServiceError as exc:
        return _refused(request, exc, show)
    if said:
        messages.success(request, said)
    return redirect(back)


def _number(text: str, *, high: int = ID_MAX) -> int:
    """A number of the query or a lone form field, read by the one id parser: anything
    else is a request no page of ours sends (400)."""
    number = parse_id(text, low=0, high=high)
    if number is None:
        raise BadRequest("Not a number.")
    return number


# ---------------------------------------------------------------- the door


def _fees_page(request: HttpRequest, t: Tournament, q: str, status: int = 200) -> HttpResponse:
    settings = reads.settings_of(t)
    rows = reads.fee_rows(t, settings)
    found = [r for r in rows if q.casefold() in r.player.name.casefold()] if q else rows
    counts = {s: sum(1 for r in rows if r.status == s) for s in reads.STATUSES}
    return render(
        request,
        "director/money/fees.html",
        {
            "tournament": t,
            "settings": settings,
            "rows": found[:DESK_LIMIT] if q else found,
            "more": len(found) - DESK_LIMIT if q and len(found) > DESK_LIMIT else 0,
            "q": q,
            "counts": counts,
            "unpaid": reads.unpaid_present(rows),
            "drawn": queries.last_preliminary(t) is not None,
            "key": forms.new_key(),
        },
        status=status,
    )


@desk_required
@require_http_methods(["GET", "POST"])
def fees(request: HttpRequest, slug: str) -> HttpResponse:
    """The door: find a player, take the fee (and check them in with the same tap)."""
    t = tournament_or_404(request, slug)
    q = request.GET.get("q", "").strip()[:80]
    if request.method == "GET":
        return _fees_page(request, t, q)

    def act(d: dict[str, Any]) -> str:
        entry = services.take_fee(
            t,
            d["player"],
            how=d["how"],
            method=d["method"] or "cash",
            client_key=d["key"],
            by=who(request),
            check_in=d["check_in"],
        )
        assert entry.player is not None
        if entry.kind == "waiver":
            return _("%(name)s: fee waived.") % {"name": entry.player.name}
        return _("%(name)s paid %(amount)s.") % {
            "name": entry.player.name,
            "amount": dollars(entry.cents),
        }

    back = reverse("money:fees", args=[slug]) + (f"?{urlencode({'q': q})}" if q else "")
    show = lambda status: _fees_page(request, t, q, status)  # noqa: E731
    return _act(request, forms.FeeForm(request.POST), act, show, back)


@desk_required
@require_POST
def refund(request: HttpRequest, slug: str) -> HttpResponseBase:
    t = tournament_or_404(request, slug)

    def act(d: dict[str, Any]) -> str:
        entry = services.refund(t, d["player"], client_key=d["key"], by=who(request))
        assert entry.player is not None
        return _("%(name)s refunded %(amount)s.") % {
            "name": entry.player.name,
            "amount": dollars(entry.cents),
        }

    return _act(
        request,
        forms.RefundForm(request.POST),
        act,
        lambda status: _fees_page(request, t, "", status),
        reverse("money:fees", args=[slug]),
    )


# ---------------------------------------------------------------- the director's pages


def _money_settings_page(
    request: HttpRequest, t: Tournament, form: forms.SettingsForm, status: int = 200
) -> HttpResponse:
    return render(
        request, "director/money/settings.html", {"tournament": t, "form": form}, status=status
    )


def _initial(t: Tournament) -> dict[str, Any]:
    s = reads.settings_of(t)
    return {name: getattr(s, name) for name in ("version", *services.SETTING_FIELDS)}


@director_required
@require_http_methods(["GET", "POST"])
def money_settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    if request.method == "GET":
        return _money_settings_page(request, t, forms.SettingsForm(initial=_initial(t)))
    form = forms.SettingsForm(request.POST)
    if not form.is_valid():
        return _money_settings_page(request, t, form, 422)
    data = dict(form.cleaned_data)
    version = data.pop("version")
    try:
        services.configure(t, version=version, by=who(request), **data)
    except ServiceError as exc:
        if exc.status == 409:
            # The settings as they are now, the refusal above them.
            messages.error(request, exc.message)
            return _money_settings_page(request, t, forms.SettingsForm(initial=_initial(t)), 409)
        form.add_error(None, exc.message)
        return _money_settings_page(request, t, form, exc.status)
    messages.success(request, _("Money settings saved."))
    return redirect("money:payout", slug)


def _prize_names(t: Tournament, now: datetime) -> list[str]:
    return [p.rule.name for p in event_prizes(t, now).prizes]


def _payout_page(
    request: HttpRequest, t: Tournament, form: forms.LineForm | None = None, status: int = 200
) -> HttpResponse:
    now = timezone.now()
    seen = reads.preview(t, now)
    return render(
        request,
        "director/money/payout.html",
        {
            "tournament": t,
            "seen": seen,
            "rows": reads.payout_rows(seen),
            "form": form or forms.LineForm(prizes=seen.prize_names),
            "key": forms.new_key(),
            "line_text": {line.pk: line_title(line) for line in seen.lines},
        },
        status=status,
    )


@director_required
@require_http_methods(["GET", "POST"])
def payout(request: HttpRequest, slug: str) -> HttpResponse:
    """The purse, the schedule, and the payout previewed from the standings."""
    t = tournament_or_404(request, slug)
    if request.method == "GET":
        return _payout_page(request, t)
    form = forms.LineForm(request.POST, prizes=_prize_names(t, timezone.now()))

    def act(d: dict[str, Any]) -> str:
        services.add_line(
            t,
            kind=d["kind"],
            division=d["division"] if d["kind"] == "place" else "",
            place=d["place"] if d["kind"] == "place" else None,
            prize=d["prize"] if d["kind"] == "prize" else "",
            percent=d["percent"],
            fixed_cents=d["fixed_cents"],
            by=who(request),
        )
        return _("Payout line added.")

    show = lambda status: _payout_page(request, t, form, status)  # noqa: E731
    return _act(request, form, act, show, reverse("money:payout", args=[slug]))


@director_required
@require_POST
def line_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponseBase:
    t = tournament_or_404(request, slug)
    try:
        services.remove_line(t, pk, by=who(request))
    except NotFound as exc:
        raise Http404(exc.message) from None
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("money:payout", slug)
    messages.success(request, _("Payout line removed."))
    return redirect("money:payout", slug)


def line_title(line: PayoutLine) -> str:
    """What a schedule's line pays, in the reader's words."""
    if line.kind == "prize":
        return line.prize
    label = "final" if line.kind == "final" else f"place {line.division} {line.place}"
    return reads.label_text(label)


def _payout_again(request: HttpRequest, slug: str, status: int) -> HttpResponse:
    return _payout_page(request, tournament_or_404(request, slug), None, status)


@director_required
@require_POST
def confirm(request: HttpRequest, slug: str) -> HttpResponseBase:
    t = tournament_or_404(request, slug)

    def act(d: dict[str, Any]) -> str:
        paid = services.confirm_payout(t, digest=d["digest"], client_key=d["key"], by=who(request))
        return _("Payout confirmed: %(count)s payments, %(amount)s.") % {
            "count": len(paid),
            "amount": dollars(sum(e.cents for e in paid)),
        }

    return _act(
        request,
        forms.ConfirmForm(request.POST),
        act,
        lambda status: _payout_again(request, slug, status),
        reverse("money:payout", args=[slug]),
    )


@director_required
@require_POST
def undo_payout(request: HttpRequest, slug: str) -> HttpResponseBase:
    t = tournament_or_404(request, slug)

    def act(d: dict[str, Any]) -> str:
        services.undo_payout(t, reason=d["reason"], by=who(request))
        return _("Payout undone.")

    return _act(
        request,
        forms.UndoForm(request.POST),
        act,
        lambda status: _payout_again(request, slug, status),
        reverse("money:payout", args=[slug]),
    )


@director_required
@require_POST
def draw_pots(request: HttpRequest, slug: str) -> HttpResponseBase:
    t = tournament_or_404(request, slug)
    version = _number(request.POST.get("version", ""))
    try:
        services.draw_pots(t, random.SystemRandom(), version=version, by=who(request))
    except ServiceError as exc:
        return _refused(request, exc, lambda status: _payout_again(request, slug, status))
    messages.success(request, _("The side pots are drawn."))
    return redirect("money:payout", slug)


# ---------------------------------------------------------------- the drawer


@director_required
@require_GET
def drawer(request: HttpRequest, slug: str) -> HttpResponse:
    return _drawer_page(request, tournament_or_404(request, slug))


def _drawer_page(request: HttpRequest, t: Tournament, status: int = 200) -> HttpResponse:
    sheet = reads.reconciliation(t)
    names = {pk: p.name for pk, p in queries.players_by_id(sheet.owed).items()}
    owed = sorted(
        ((pid, names.get(pid, ""), cents) for pid, cents in sheet.owed.items() if cents > 0),
        key=lambda row: sort_key(row[1]),
    )
    return render(
        request,
        "director/money/drawer.html",
        {
            "tournament": t,
            "sheet": sheet,
            "rec": sheet.reconciliation,
            "summary": reads.summary_lines(sheet),
            "owed": owed,
            "key": forms.new_key(),
            "sponsor": forms.SponsorForm(),
            "fifty": forms.FiftyForm(),
            "count": forms.CountForm(),
            "fifty_sold": any(e.kind == "fifty" and e.undone_at is None for e in sheet.entries),
        },
        status=status,
    )


def _drawer_action(
    request: HttpRequest, slug: str, form: Any, act: Callable[[Tournament, dict[str, Any]], str]
) -> HttpResponse:
    t = tournament_or_404(request, slug)
    return _act(
        request,
        form,
        lambda d: act(t, d),
        lambda status: _drawer_page(request, t, status),
        reverse("money:drawer", args=[slug]),
    )


@director_required
@require_POST
def sponsor(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament, d: dict[str, Any]) -> str:
        services.add_sponsor(
            t, d["name"], d["cents"], method=d["method"], client_key=d["key"], by=who(request)
        )
        return _("Sponsor recorded.")

    return _drawer_action(request, slug, forms.SponsorForm(request.POST), act)


@director_required
@require_POST
def fines(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament, d: dict[str, Any]) -> str:
        services.pay_fines(t, d["player"], d["cents"], client_key=d["key"], by=who(request))
        return _("Fines paid.")

    return _drawer_action(request, slug, forms.FinesForm(request.POST), act)


@director_required
@require_POST
def count(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament, d: dict[str, Any]) -> str:
        services.count_drawer(t, d["cents"], client_key=d["key"], by=who(request))
        return _("Drawer count recorded.")

    return _drawer_action(request, slug, forms.CountForm(request.POST), act)


@director_required
@require_POST
def fifty(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament, d: dict[str, Any]) -> str:
        services.sell_fifty(t, d["tickets"], d["cents"], client_key=d["key"], by=who(request))
        return _("50/50 sales recorded.")

    return _drawer_action(request, slug, forms.FiftyForm(request.POST), act)


@director_required
@require_POST
def fifty_draw(request: HttpRequest, slug: str) -> HttpResponse:
    def act(t: Tournament, d: dict[str, Any]) -> str:
        drawn = services.draw_fifty(
            t,
            random.Random(random.SystemRandom().getrandbits(64)),
            client_key=d["key"],
            by=who(request),
        )
        return _("Ticket %(ticket)s wins %(amount)s.") % {
            "ticket": drawn.label,
            "amount": dollars(drawn.cents),
        }

    return _drawer_action(request, slug, forms.Keyed(request.POST), act)


@director_required
@require_POST
def undo(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    # Another event's entry is not found, whatever the form says.
    if not reads.entry_exists(tournament_or_404(request, slug), pk):
        raise Http404(_("No such money entry."))

    def act(t: Tournament, d: dict[str, Any]) -> str:
        services.undo(t, pk, reason=d["reason"], by=who(request))
        return _("Undone.")

    return _drawer_action(request, slug, forms.UndoForm(request.POST), act)


# ---------------------------------------------------------------- the sheets


@director_required
@require_GET
def reconciliation_csv(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    sheet = reads.reconciliation(t)
    response, writer = csvcells.attachment(f"{slug}-money.csv")
    rec = sheet.reconciliation
    writer.writerow([_("Figure"), _("Amount")])
    for label, cents in reads.summary_lines(sheet):
        writer.writerow([label, money_text(cents) if cents is not None else ""])
    writer.writerow([])
    writer.writerow(
        [
            _("When"),
            _("What"),
            _("Player"),
            _("Label"),
            _("Amount"),
            _("Paid by"),
            _("By"),
            _("Undone"),
            _("Why"),
        ]
    )
    for e in sheet.entries:
        writer.writerow(
            [
                timezone.localtime(e.at).strftime("%Y-%m-%d %H:%M:%S"),
                e.get_kind_display(),
                e.player.name if e.player else "",
                e.label,
                money_text(e.cents),
                e.get_method_display(),
                e.by,
                "" if e.undone_at is None else f"{e.undone_by} {e.undone_at:%H:%M}",
                e.undo_reason,
            ]
        )
    writer.writerow([])
    writer.writerow([_("Cash by who took it"), _("Amount")])
    for by, cents in rec.by_taker.items():
        writer.writerow([by, money_text(cents)])
    return response


@director_required
@require_GET
def reconciliation_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    t = tournament_or_404(request, slug)
    paper = paper_of(request, t)
    with bilingual.languages(sheet_languages(request, t)):
        data = pdf.reconciliation(t, reads.reconciliation(t), paper, timezone.now())
    return pdf_response(data, f"{slug}-money-{paper}.pdf")


@director_required
@require_GET
def presenter_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    t = tournament_or_404(request, slug)
    paper = paper_of(request, t)
    now = timezone.now()
    with bilingual.languages(sheet_languages(request, t)):
        data = pdf.presenter(t, reads.preview(t, now), paper, now)
    return pdf_response(data, f"{slug}-presenter-{paper}.pdf")


@director_required
@require_GET
def certificates_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    t = tournament_or_404(request, slug)
    paper = paper_of(request, t)
    margin = _number(request.GET.get("margin", "0") or "0", high=72)
    blank = request.GET.get("blank") == "1"
    now = timezone.now()
    with bilingual.languages(sheet_languages(request, t)):
        data = pdf.certificates(t, reads.preview(t, now), paper, margin_mm=margin or 0, blank=blank)
    return pdf_response(data, f"{slug}-certificates-{paper}.pdf")


# ---------------------------------------------------------------- a player's own money


@require_GET
def own(request: HttpRequest, slug: str, player: int) -> HttpResponse:
    """A player's own money, linked from their card: what they owe or won, no one
    else's and no purse."""
    t = queries.find_tournament(slug)
    # The player as public pages name them (the short form unless they chose their full name).
    found = None if t is None else player_of(t, player)
    if t is None or found is None:
        raise Http404(_("No such player in this event."))
    return render(
        request,
        "public/money.html",
        {"tournament": t, "player": found, "own": reads.own_money(found)},
    )
