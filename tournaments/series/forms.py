"""tournaments.series.forms"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.core.forms import IdChoiceField
from tournaments.core.models.event import Tournament
from tournaments.core.models.series import Series


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    points_table = forms.ChoiceField(
        choices=Series.Table.choices, initial=Series.Table.PLACE, label=_("Points")
    )
    place_points = forms.CharField(
        max_length=200,
        initial="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1",
        label=_("Place points"),
        help_text=_("For 1st, 2nd, … in the division; later places score the last number."),
    )
    participation_points = forms.IntegerField(
        min_value=0, max_value=1000, initial=10, label=_("Participation points")
    )
    best_of = forms.IntegerField(
        label=_("Best of"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_("Empty counts every event."),
    )


class AddEventForm(forms.Form):
    tournament = IdChoiceField(queryset=Tournament.objects.none(), label=_("Event"))

    def __init__(self, *args: Any, tournaments: QuerySet[Tournament], **kwargs: Any) -> None:
        # The view chooses the events offered: those not yet in the series on GET, any on POST.
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = tournaments
