"""The devices on the tables (issue 23): the event's device settings and re-issuing a
table's code."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from ...services import NotFound, device_health, table_codes
from .common import director_required, form_view, round_or_404, tournament_or_404, who

MAX_TABLE = 2**31 - 1


class DeviceSettingsForm(forms.Form):
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
    t = tournament_or_404(slug)
    form = DeviceSettingsForm(
        request.POST or None, initial={"silent_after_seconds": t.silent_after_seconds}
    )

    def page(status: int = 200) -> HttpResponse:
        return render(
            request, "director/devices.html", {"tournament": t, "form": form}, status=status
        )

    if request.method == "GET":
        return page()

    def act() -> HttpResponse:
        device_health.set_silent_after(
            t, form.cleaned_data["silent_after_seconds"], by=who(request)
        )
        messages.success(request, _("Device settings saved."))
        return redirect("director:devices", slug)

    return form_view(form, act, lambda: page(422))


@director_required
@require_POST
def table_code(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A new code for the table: the old one opens nothing any more, on any device."""
    rnd = round_or_404(tournament_or_404(slug), number)
    if not 1 <= table <= MAX_TABLE:
        raise Http404("No such table.")
    try:
        code = table_codes.reissue_code(rnd.tournament, table, by=who(request))
    except NotFound as exc:
        raise Http404(exc.message) from None
    messages.success(
        request,
        f"Table {table}: new table code {table_codes.shown(code)}; the old code opens nothing.",
    )
    return redirect("director:table", slug, number, table)
