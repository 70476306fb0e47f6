"""The money's forms: amounts typed as dollars and cents (``domain.money.parse_money``),
ids read by the one id parser, and each action's client key."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.common.ids import ID_MAX
from tournaments.core.forms import IdField
from tournaments.domain.money import MoneyError, money_text, parse_money
from tournaments.money.models import CashUnit, LineKind, Method, PotTo, TieRule


class MoneyField(forms.CharField):
    """An amount typed as dollars and cents ("10", "7.50"), kept as cents."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The typed text's length, as the browser's field (parse_money bounds the value).
        self.widget.attrs.setdefault("maxlength", "12")
        self.widget.attrs.setdefault("inputmode", "decimal")

    def prepare_value(self, value: Any) -> Any:
        return money_text(value) if isinstance(value, int) else value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        try:
            return parse_money(text)
        except MoneyError:
            raise forms.ValidationError(
                _("An amount is dollars and cents, like 10 or 7.50."), code="invalid"
            ) from None


class PercentField(MoneyField):
    """A percentage with up to two decimals ("12.5"), kept as basis points."""

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        cents = super().to_python(value)
        if cents is not None and cents > 10_000:
            raise forms.ValidationError(_("A percentage is at most 100."), code="invalid")
        return cents


def new_key() -> str:
    return uuid.uuid4().hex


class Keyed(forms.Form):
    """A form whose action moves money: the key the page gave it, sent back as is."""

    key = forms.CharField(widget=forms.HiddenInput, max_length=64)


class SettingsForm(forms.Form):
    version = IdField(low=0, high=ID_MAX, widget=forms.HiddenInput)
    fee_cents = MoneyField(label=_("Entry fee"))
    reduced_fee_cents = MoneyField(label=_("Reduced fee (members, helpers)"), required=False)
    cash_unit = forms.TypedChoiceField(
        label=_("Prizes are paid in"), choices=CashUnit.choices, coerce=int
    )
    house_share = PercentField(label=_("The house keeps (% of the fees)"), required=False)
    draw_waits_for_fees = forms.BooleanField(
        label=_("The draw waits until everyone checked in has paid"), required=False
    )
    ties = forms.ChoiceField(label=_("A tie on the money line"), choices=TieRule.choices)
    loner_cents = MoneyField(label=_("Loner basket: each lone hand pays"), required=False)
    loner_made_only = forms.BooleanField(
        label=_("Only lone hands made (3 tricks or more) pay"), required=False
    )
    euchre_cents = MoneyField(label=_("Euchre fine: each euchred maker pays"), required=False)
    renege_cents = MoneyField(label=_("Renege fine"), required=False)
    loner_to = forms.ChoiceField(label=_("The loner basket goes to"), choices=PotTo.choices)
    fines_to = forms.ChoiceField(label=_("The fines pot goes to"), choices=PotTo.choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("reduced_fee_cents", "house_share", "loner_cents"):
            data[name] = data.get(name) or 0
        for name in ("euchre_cents", "renege_cents"):
            data[name] = data.get(name) or 0
        if (data.get("fee_cents") or 0) < data["reduced_fee_cents"]:
            self.add_error("reduced_fee_cents", _("The reduced fee cannot be more than the fee."))
        return data


class FeeForm(Keyed):
    player = IdField()
    how = forms.ChoiceField(
        choices=[("full", _("Full")), ("reduced", _("Reduced")), ("waived", _("Waived"))]
    )
    method = forms.ChoiceField(choices=Method.choices, required=False)
    check_in = forms.BooleanField(required=False)


class RefundForm(Keyed):
    player = IdField()


class SponsorForm(Keyed):
    name = forms.CharField(label=_("Sponsor"), max_length=120)
    cents = MoneyField(label=_("Amount"))
    method = forms.ChoiceField(label=_("Paid by"), choices=Method.choices)


class FinesForm(Keyed):
    player = IdField()
    cents = MoneyField(label=_("Paid"))


class CountForm(Keyed):
    cents = MoneyField(label=_("Cash counted in the drawer"))


class FiftyForm(Keyed):
    tickets = IdField(label=_("Tickets sold"), high=100_000)
    cents = MoneyField(label=_("Money taken"))


class UndoForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=300)


class LineForm(forms.Form):
    kind = forms.ChoiceField(label=_("Pays"), choices=LineKind.choices)
    division = forms.ChoiceField(
        label=_("Division"), choices=[("", "–"), ("A", "A"), ("B", "B")], required=False
    )
    place = IdField(label=_("Place"), high=1_000, required=False)
    prize = forms.ChoiceField(label=_("Prize"), required=False)
    percent = PercentField(label=_("% of the purse"), required=False)
    fixed_cents = MoneyField(label=_("or a fixed amount"), required=False)

    def __init__(self, *args: Any, prizes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["prize"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", "–"), *((p, p) for p in prizes)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("percent") is None) == (data.get("fixed_cents") is None):
            raise forms.ValidationError(_("Give a percentage or a fixed amount, not both."))
        return data


class ConfirmForm(Keyed):
    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)
