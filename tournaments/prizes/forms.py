"""tournaments.prizes.forms"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.core.models.event import Division
from tournaments.prizes.models import PrizeFigure


class PrizeForm(forms.Form):
    """A prize the director defines: a figure from the fixed list, highest or lowest."""

    name = forms.CharField(label=_("Prize"), max_length=80)
    figure = forms.ChoiceField(label=_("Figure"), choices=PrizeFigure.choices)
    highest = forms.TypedChoiceField(
        label=_("Wins"),
        choices=[("1", _("the highest")), ("0", _("the lowest"))],
        coerce=lambda v: v == "1",
    )
    division = forms.ChoiceField(
        label=_("Among"),
        choices=[("", _("everyone")), *Division.choices],
        required=False,
    )

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip()
        if not name:
            raise forms.ValidationError(_("Name the prize."))
        return name
