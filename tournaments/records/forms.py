"""The record's forms: the filter, the public-name choices, the owner's erasure."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.core.forms import IdField


class FilterForm(forms.Form):
    season = IdField(required=False, label=_("Season"))
    since = forms.DateField(required=False, label=_("From"))
    until = forms.DateField(required=False, label=_("To"))
    # The person to compare with: one of those met (the read refuses any other).
    with_person = IdField(required=False, label=_("Head-to-head with"))

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError(_("The first day comes after the last."))
        return data


class ChoiceForm(forms.Form):
    full_name = forms.BooleanField(required=False, label=_("Show my full name on public pages"))
    listed = forms.BooleanField(
        required=False, label=_("List me on public series standings and rating lists")
    )


class EraseForm(forms.Form):
    confirm = forms.BooleanField(
        required=True,
        label=_("The person asked to be forgotten: remove their name and contact"),
        error_messages={"required": _("Tick the box to confirm the person's request.")},
    )
