"""The forms players fill in on the public pages (issue 26): the application, an
invitee's answer and a change the director asked for. Apart from the director's forms so
that the public pages import nothing of the rule settings."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

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
