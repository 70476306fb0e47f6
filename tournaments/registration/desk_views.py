"""Registration before the day, the director's side: the applications and the waitlist,
the settings, invitations, the signed list (export on the club site, import at the hall)
and the desk's check-in by scanning a pass."""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import iri_to_uri
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.common import csvcells
from tournaments.common.hall import absolute_url
from tournaments.common.ids import parse_id
from tournaments.core.reads import outbound
from tournaments.core.services import ServiceError
from tournaments.core.views.director.common import (
    desk_required,
    director_required,
    tournament_or_404,
    who,
)
from tournaments.registration import list_file, reads, services, transfer
from tournaments.registration.forms import (
    DecisionForm,
    InvitationsForm,
    RegistrationSettingsForm,
    ReorderForm,
    SignedListForm,
)

if TYPE_CHECKING:
    from tournaments.registration.models import Registration

# The signed list fetched from the club site: a hall's connection may be poor.
FETCH_TIMEOUT = 20


def _link(request: HttpRequest, slug: str, token: str) -> str:
    return absolute_url(request, reverse("public:registration", args=[slug, token]))


@dataclass(frozen=True)
class Row:
    """An application as the director's page lists it."""

    reg: Registration
    close: list[reads.Match]
    suggested: str
    link: str


def _page(request: HttpRequest, slug: str, **extra: Any) -> HttpResponse:
    t = tournament_or_404(request, slug)
    reg_settings = services.settings_for(t)
    regs = list(reads.registrations(t))
    live = [r for r in regs if r.status in ("pending", "change", "waitlist")]
    close = reads.close_people(t, live)
    suggested = reads.suggested_divisions(t, live)
    rows = [
        Row(
            r,
            close.get(r.pk, []),
            suggested.get(r.pk, ""),
            _link(request, t.slug, r.token) if r.token else "",  # type: ignore[attr-defined]
        )
        for r in regs
    ]
    groups = {s: [row for row in rows if row.reg.status == s] for s in services.Status.values}
    ctx = {
        "tournament": t,
        "settings": reg_settings,
        "settings_form": extra.pop(
            "settings_form",
            RegistrationSettingsForm(
                initial={
                    "open": reg_settings.open,
                    "cap_total": reg_settings.cap_total,
                    "cap_a": reg_settings.cap_a,
                    "cap_b": reg_settings.cap_b,
                }
            ),
        ),
        "groups": groups,
        "invitations_form": InvitationsForm(),
        "signed_form": SignedListForm(),
        **extra,
    }
    return render(request, "director/registrations/list.html", ctx, status=extra.get("status", 200))


@director_required
def page(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, slug)


@director_required
@require_POST
def settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    form = RegistrationSettingsForm(request.POST)
    if not form.is_valid():
        return _page(request, slug, settings_form=form, status=422)
    promoted = services.save_settings(t, **form.cleaned_data, by=who(request))
    messages.success(request, _("Registration settings saved."))
    for name in promoted:
        messages.info(request, _("%(name)s was promoted from the waitlist.") % {"name": name})
    return redirect("director:registrations", slug)


def _pk(request: HttpRequest) -> int:
    pk = parse_id(request.POST.get("registration", ""))
    if pk is None:
        raise Http404("No such application.")
    return pk


@director_required
@require_POST
def decide(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    pk = _pk(request)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose accept, ask for a change, or decline."))
        return _page(request, slug, status=422)
    d = form.cleaned_data
    try:
        reg = services.decide(
            t, pk, d["action"], by=who(request), message=d["message"], division=d["division"]
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _page(request, slug, status=exc.status)
    messages.success(
        request, _("%(name)s: %(status)s.") % {"name": reg.name, "status": reg.get_status_display()}
    )
    return redirect("director:registrations", slug)


@director_required
@require_POST
def reorder(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    pk = _pk(request)
    form = ReorderForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the new place on the waitlist and the reason."))
        return _page(request, slug, status=422)
    try:
        services.reorder(
            t,
            pk,
            form.cleaned_data["position"],
            reason=form.cleaned_data["reason"],
            by=who(request),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _page(request, slug, status=exc.status)
    messages.success(request, _("The waitlist's order was changed."))
    return redirect("director:registrations", slug)


@director_required
@require_POST
def revoke(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    try:
        services.revoke(t, _pk(request), by=who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _page(request, slug, status=exc.status)
    messages.success(request, _("The old link no longer works; send the player the new one."))
    return redirect("director:registrations", slug)


@director_required
@require_POST
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    form = InvitationsForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, slug, invitations_errors=[_("Choose a CSV file.")], status=422)
    report = services.invite(t, form.cleaned_data["file"].read(), by=who(request))
    if report.errors:
        errors = [f"{_('line')} {n}: {m}" if n else m for n, m in report.errors]
        return _page(request, slug, invitations_errors=errors, status=422)
    messages.success(request, _("Invited %(n)d players.") % {"n": len(report.invited)})
    return redirect("director:registrations", slug)


@director_required
def invitations_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Each invitee's private link, to send them: name and link, no contact."""
    t = tournament_or_404(request, slug)
    response, writer = csvcells.attachment(f"{t.slug}-invitations.csv")
    # To send the links from a spreadsheet; the invitations import reads a first line
    # "name" in either language (reads.players.read_csv_lines).
    writer.writerow([pgettext("CSV header", "name"), pgettext("CSV header", "link")])
    for reg in reads.registrations(t):
        token = getattr(reg, "token", "")
        if reg.status == services.Status.INVITED and token:
            writer.writerow([reg.name, _link(request, t.slug, token)])
    return response


@director_required
def export_signed(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    response = HttpResponse(transfer.export_signed(t), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{t.slug}.signed"'
    return response


@director_required
@require_POST
def import_signed(request: HttpRequest, slug: str) -> HttpResponse:
    """At the hall: the club site's signed list, from a file or fetched with the key."""
    t = tournament_or_404(request, slug)
    form = SignedListForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, slug, signed_form=form, status=422)
    d = form.cleaned_data
    try:
        if d["file"]:
            raw = d["file"].read(list_file.MAX_BYTES + 1)
        elif d["url"]:
            raw = _fetch(d["url"], d["key"])
        else:
            raise ServiceError(_("Choose the signed file, or give the club site's address."))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ServiceError(_("This file is not a signed registration list.")) from None
        done = transfer.import_signed(t, text, d["key"], by=who(request))
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _page(request, slug, signed_form=form, status=exc.status)
    messages.success(
        request,
        _("Imported %(added)d players; %(same)d were already here.")
        % {"added": len(done.added), "same": done.unchanged},
    )
    return redirect("director:registrations", slug)


def _fetch(url: str, key: str) -> bytes:
    if not url.startswith(("https://", "http://")):
        raise ServiceError(_("Give the list's https:// address."))
    key = key.strip()
    # A key is URL-safe text; a pasted line break or accent cannot go in a header.
    if not key.isascii() or not key.isprintable():
        raise ServiceError(_("Type the event's key, as the club site shows it."))
    # An address pasted with accents is sent percent-encoded, as a browser sends it.
    request = urllib.request.Request(iri_to_uri(url), headers={"Authorization": f"Bearer {key}"})
    try:
        with outbound.urlopen(request, timeout=FETCH_TIMEOUT) as answer:
            body: bytes = answer.read(list_file.MAX_BYTES + 1)
            return body
    except urllib.error.HTTPError as exc:
        raise ServiceError(
            _("The club site refused (%(code)s): check the key.") % {"code": exc.code}
        ) from None
    # ValueError: an address http.client refuses; HTTPException: a server not speaking HTTP.
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        raise ServiceError(
            _("The club site cannot be reached (%(why)s): bring the signed file instead.")
            % {"why": getattr(exc, "reason", exc)}
        ) from None


# --- the desk: check-in by scanning a pass ----------------------------------------------------


def _scan_json(scan: reads.Scan) -> dict[str, object]:
    player = scan.player
    at = timezone.localtime(scan.checked_in_at).strftime("%H:%M") if scan.checked_in_at else ""
    return {
        "ok": not scan.refusal,
        "refusal": scan.refusal,
        "name": player.name if player else (scan.registration.name if scan.registration else ""),
        "division": player.division if player else "",
        "checked_in_at": at,
    }


@desk_required
def scan(request: HttpRequest, slug: str) -> HttpResponse:
    """The scan page: a focused input the scanner types into (or the camera fills); the
    scanned pass shows name and division, one tap checks in."""
    t = tournament_or_404(request, slug)
    scanned = request.GET.get("pass", "")
    found = reads.read_pass(t, scanned) if scanned.strip() else None
    ctx = {
        "tournament": t,
        "scanned": scanned,
        "scan": found,
        "info": _scan_json(found) if found else None,
    }
    if found is not None and request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse(_scan_json(found), status=200 if not found.refusal else 422)
    return render(
        request,
        "director/registrations/scan.html",
        ctx,
        status=422 if found is not None and found.refusal else 200,
    )


@desk_required
@require_http_methods(["POST"])
def scan_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    scanned = request.POST.get("pass", "")
    wants_json = request.headers.get("Accept", "").startswith("application/json")
    try:
        done = services.check_in_pass(t, scanned, by=who(request))
    except ServiceError as exc:
        if wants_json:
            return JsonResponse({"ok": False, "refusal": exc.message}, status=exc.status)
        messages.error(request, exc.message)
        return redirect("director:scan", slug)
    at = timezone.localtime(done.at).strftime("%H:%M")
    if done.already:
        text = _("%(name)s was already checked in at %(at)s.")
    else:
        text = _("%(name)s checked in at %(at)s.")
    text = text % {"name": done.player.name, "at": at}
    if wants_json:
        return JsonResponse(
            {
                "ok": True,
                "already": done.already,
                "name": done.player.name,
                "division": done.player.division,
                "checked_in_at": at,
                "message": text,
            }
        )
    (messages.warning if done.already else messages.success)(request, text)
    return redirect("director:scan", slug)
