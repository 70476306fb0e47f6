"""Registration before the day, the players' side (no login): the application form on
the event's page, the player's private link (status, withdraw, the check-in pass) and
the signed registration list answered to a bearer of the event's key (the hall)."""

from __future__ import annotations

import io
import uuid
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.common.hall import absolute_url, client_ip, qr_code
from tournaments.core.phones.views import card
from tournaments.core.reads import queries
from tournaments.core.services import ServiceError
from tournaments.registration import reads, services, transfer
from tournaments.registration.forms import (
    ChangeApplicationForm,
    InvitationAnswerForm,
    RegistrationForm,
)

if TYPE_CHECKING:
    from tournaments.core.models.event import Tournament
    from tournaments.registration.models import Registration, RegistrationPass


def _tournament_or_404(slug: str) -> Tournament:
    found = queries.find_tournament(slug)
    if found is None:
        raise Http404(_("No such event."))
    return found


def _form_page(
    request: HttpRequest, t: Tournament, form: RegistrationForm, status: int = 200
) -> HttpResponse:
    ctx = {"tournament": t, "form": form, "open": queries.registration_open(t)}
    return render(request, "public/register.html", ctx, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament_or_404(slug)
    if request.method == "GET":
        return _form_page(request, t, RegistrationForm(initial={"client_key": uuid.uuid4().hex}))
    form = RegistrationForm(request.POST)
    if request.POST.get("website"):
        # The honeypot: a person never sees the field. Answered as if received, nothing kept.
        return render(request, "public/register_received.html", {"tournament": t})
    try:
        services.throttle(t, client_ip(request))
    except ServiceError as exc:
        form.is_valid()
        form.add_error(None, exc.message)
        return _form_page(request, t, form, status=exc.status)
    if not form.is_valid():
        return _form_page(request, t, form, status=422)
    d = form.cleaned_data
    try:
        applied = services.apply(
            t,
            name=d["name"],
            division=d["division"],
            contact=d["contact"],
            consent=d["consent"],
            client_key=d["client_key"],
        )
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _form_page(request, t, form, status=exc.status)
    return redirect("public:registration", t.slug, applied.token)


class LinkGone(Exception):
    """A private link that is not (or no longer) one: answered 404 with the reason."""


def _pass_or_404(slug: str, token: str) -> RegistrationPass:
    try:
        found = reads.pass_of(token)
    except ServiceError as exc:
        raise LinkGone(exc.message) from None
    if found.registration.tournament.slug != slug:
        raise LinkGone(_("No such registration link."))
    return found


def _gone(request: HttpRequest, slug: str, reason: str) -> HttpResponse:
    t = queries.find_tournament(slug)
    if t is None:
        raise Http404(_("No such event."))
    return render(
        request, "public/registration_gone.html", {"tournament": t, "reason": reason}, status=404
    )


def _private(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view of the private link: a forged, revoked or other event's link is a 404 that
    says which."""

    @wraps(view)
    def checked(request: HttpRequest, slug: str, token: str) -> HttpResponse:
        try:
            return view(request, slug, token)
        except LinkGone as gone:
            return _gone(request, slug, str(gone))

    return checked


def _status_page(
    request: HttpRequest,
    token: str,
    reg: Registration,
    form: object = None,
    status: int = 200,
    error: str = "",
) -> HttpResponse:
    t = reg.tournament
    played = reads.played(reg)
    ctx = {
        "tournament": t,
        "reg": reg,
        "token": token,
        "standing": reads.standing(reg),
        "form": form,
        "error": error,
        "started": t.status != queries.TournamentStatus.REGISTRATION,
        # Played at the hall: the results arrived here as another event (docs/series.md).
        "played": played,
        "played_out": played is not None
        and played.results.status == queries.TournamentStatus.FINISHED,
        # One tap withdraws before the day; afterwards the desk or the director does it.
        "can_withdraw": t.status == queries.TournamentStatus.REGISTRATION
        and reg.status in ("pending", "change", "waitlist", "accepted"),
        "pass_url": absolute_url(request, reverse("public:registration", args=[t.slug, token])),
    }
    # Nothing is left to answer once the event was played.
    asking = form is None and played is None
    if asking and reg.status == services.Status.INVITED:
        ctx["form"] = InvitationAnswerForm()
    elif asking and reg.status == services.Status.CHANGE:
        ctx["form"] = ChangeApplicationForm(initial={"name": reg.name, "division": reg.division})
    response = render(request, "public/registration.html", ctx, status=status)
    # The link is the player's key: never sent on to another site.
    response["Referrer-Policy"] = "same-origin"
    return response


@_private
@never_cache
@require_GET
def registration(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's own link: where the application stands; once the event has started,
    their card (the phones' card view itself), the pass a tap away. An event played at the
    hall: that it was (or is under way), with a link to her card in its results."""
    found = _pass_or_404(slug, token)
    reg = found.registration
    started = reg.tournament.status != queries.TournamentStatus.REGISTRATION
    here = reg.tournament.played_as_id is None
    if here and started and reg.player_id is not None and "pass" not in request.GET:
        return card(request, slug, reg.player_id)
    return _status_page(request, token, reg)


@_private
@require_POST
def withdraw(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    found = _pass_or_404(slug, token)
    try:
        services.withdraw(token)
    except ServiceError as exc:
        reg = found.registration
        reg.refresh_from_db()
        return _status_page(request, token, reg, status=exc.status, error=exc.message)
    return redirect("public:registration", slug, token)


@_private
@require_POST
def answer(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """An invitee's answer, or a player's change when the director asked for one."""
    found = _pass_or_404(slug, token)
    reg = found.registration
    form: InvitationAnswerForm | ChangeApplicationForm
    try:
        if reg.status == services.Status.CHANGE:
            form = ChangeApplicationForm(request.POST)
            if not form.is_valid():
                return _status_page(request, token, reg, form, status=422)
            services.change_application(
                token, name=form.cleaned_data["name"], division=form.cleaned_data["division"]
            )
        else:
            form = InvitationAnswerForm(request.POST)
            if not form.is_valid():
                return _status_page(request, token, reg, form, status=422)
            d = form.cleaned_data
            services.answer_invitation(
                token, division=d["division"], contact=d["contact"], consent=d["consent"]
            )
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _status_page(request, token, reg, form, status=exc.status)
    return redirect("public:registration", slug, token)


@_private
@require_GET
def pass_qr(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The private link as a QR code: the check-in pass the desk scans."""
    _pass_or_404(slug, token)
    url = absolute_url(request, reverse("public:registration", args=[slug, token]))
    out = io.BytesIO()
    qr_code(url).save(out, kind="svg", scale=8, border=2, light="#fff")
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


@never_cache
@require_GET
def signed_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The accepted list, signed, for the hall's server: only to a bearer of the event's
    key (``Authorization: Bearer <key>``)."""
    t = _tournament_or_404(slug)
    scheme, _sep, key = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not key or not reads.key_matches(t, key.strip()):
        return HttpResponse(
            _("Give the event's key as a bearer token."), status=403, content_type="text/plain"
        )
    response = HttpResponse(transfer.export_signed(t), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{t.slug}.signed"'
    return response
