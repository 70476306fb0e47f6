"""The devices on the tables (issue 23): the event's device settings and re-issuing a
table's code."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.core.reads.tablet.link import shown
from tournaments.core.services import NotFound, device_health, kiosk, table_codes
from tournaments.core.views.director.common import (
    director_required,
    form_view,
    round_or_404,
    tournament_or_404,
    who,
)

MAX_TABLE = 2**31 - 1


class DeviceSettingsForm(forms.Form):
    kiosk = forms.BooleanField(
        label=_("Kiosk mode on the tablets"),
        required=False,
        help_text=_(
            "Full screen, kept awake during a round, warned before leaving with unsent "
            "entries; the director's controls behind the PIN."
        ),
    )
    director_pin = forms.CharField(
        label=_("Director PIN (4 to 8 digits)"),
        min_length=4,
        max_length=8,
        help_text=_(
            "Opens the director's controls on a tablet. Five wrong PINs lock them "
            "at that table for ten minutes."
        ),
    )
    silent_after_seconds = forms.IntegerField(
        label=_("A tablet is silent after (seconds)"),
        min_value=device_health.SILENT_MIN,
        max_value=device_health.SILENT_MAX,
        help_text=_(
            "While its round runs, a table whose tablet has not been heard from for this "
            "long is flagged on the board."
        ),
    )


@director_required
@require_http_methods(["GET", "POST"])
def settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = tournament_or_404(request, slug)
    form = DeviceSettingsForm(
        request.POST or None,
        initial={
            "silent_after_seconds": t.silent_after_seconds,
            "kiosk": t.kiosk,
            "director_pin": t.director_pin,
        },
    )

    def page(status: int = 200) -> HttpResponse:
        return render(
            request, "director/devices.html", {"tournament": t, "form": form}, status=status
        )

    if request.method == "GET":
        return page()

    def act() -> HttpResponse:
        d = form.cleaned_data
        kiosk.update_device_settings(
            t,
            kiosk=d["kiosk"],
            pin=d["director_pin"],
            silent_after_seconds=d["silent_after_seconds"],
            by=who(request),
        )
        messages.success(request, _("Device settings saved."))
        return redirect("director:devices", slug)

    return form_view(form, act, lambda: page(422))


@director_required
@require_POST
def table_code(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A new code for the table: the old one opens nothing any more, on any device."""
    rnd = round_or_404(tournament_or_404(request, slug), number)
    if not 1 <= table <= MAX_TABLE:
        raise Http404("No such table.")
    try:
        code = table_codes.reissue_code(rnd.tournament, table, by=who(request))
    except NotFound as exc:
        raise Http404(exc.message) from None
    messages.success(
        request,
        _("Table %(table)s: new table code %(code)s; the old code opens nothing.")
        % {"table": table, "code": shown(code)},
    )
    return redirect("director:table", slug, number, table)
