"""The forms players fill in on the public pages (issue 26): the application, an
invitee's answer and a change the director asked for. Apart from the director's forms so
that the public pages import nothing of the rule settings."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.core.forms import IdField
from tournaments.core.models.event import Division

ASKED_DIVISIONS = [
    ("", _("The director decides")),
    ("A", _("Division A")),
    ("B", _("Division B")),
]


class RegistrationForm(forms.Form):
    """The public application. ``website`` is the honeypot: hidden from people, filled by
    bots; ``client_key`` makes a double submit one application."""

    name = forms.CharField(max_length=80, label=_("Your full name"))
    division = forms.ChoiceField(
        choices=ASKED_DIVISIONS,
        required=False,
        initial="",
        widget=forms.RadioSelect,
        label=_("Division you ask for"),
    )
    contact = forms.CharField(
        max_length=120,
        required=False,
        label=_("E-mail or phone (optional)"),
        help_text=_("Only the director sees it."),
    )
    consent = forms.BooleanField(
        label=_("I agree that my name and results are published with the event's results.")
    )
    website = forms.CharField(required=False, label=_("Leave this empty"))
    client_key = forms.CharField(widget=forms.HiddenInput, max_length=64)


class InvitationAnswerForm(forms.Form):
    division = forms.ChoiceField(
        choices=ASKED_DIVISIONS,
        required=False,
        initial="",
        widget=forms.RadioSelect,
        label=_("Division you ask for"),
    )
    contact = forms.CharField(max_length=120, required=False, label=_("E-mail or phone (optional)"))
    consent = forms.BooleanField(
        label=_("I agree that my name and results are published with the event's results.")
    )


class ChangeApplicationForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Your full name"))
    division = forms.ChoiceField(
        choices=ASKED_DIVISIONS,
        required=False,
        initial="",
        widget=forms.RadioSelect,
        label=_("Division you ask for"),
    )


class RegistrationSettingsForm(forms.Form):
    open = forms.BooleanField(required=False, label=_("Registration open"))
    cap_total = IdField(required=False, high=100_000, label=_("Places in all"))
    cap_a = IdField(required=False, high=100_000, label=_("Places in division A"))
    cap_b = IdField(required=False, high=100_000, label=_("Places in division B"))


class DecisionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[
            ("accept", _("Accept")),
            ("change", _("Ask for a change")),
            ("decline", _("Decline")),
        ]
    )
    division = forms.ChoiceField(choices=[("", "—"), *Division.choices], required=False)
    message = forms.CharField(max_length=500, required=False)


class ReorderForm(forms.Form):
    position = IdField(high=100_000)
    reason = forms.CharField(max_length=200)


class InvitationsForm(forms.Form):
    file = forms.FileField(label=_("CSV of regulars (name, optional division)"))


class SignedListForm(forms.Form):
    file = forms.FileField(required=False, label=_("The signed list (a .signed file)"))
    url = forms.URLField(
        required=False, assume_scheme="https", label=_("Or the club site's address of the list")
    )
    key = forms.CharField(max_length=64, label=_("The event's key, as the club site shows it"))
