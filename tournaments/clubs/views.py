"""Clubs: the public club page, the owner's staff page with its one-time
invitation links, and the page such a link opens."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.core.mail import send_mail
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from tournaments.clubs import services
from tournaments.common import language
from tournaments.common.hall import absolute_url
from tournaments.common.ids import parse_id
from tournaments.core.phones import boards
from tournaments.core.reads import queries, staff
from tournaments.core.roles import DESK, DIRECTOR, OWNER
from tournaments.core.services import ServiceError
from tournaments.core.views.access import club_staff

ROLE_CHOICES = [
    (OWNER, gettext_lazy("Owner: everything, staff too")),
    (DIRECTOR, gettext_lazy("Director: runs events")),
    (DESK, gettext_lazy("Desk: check-in, seating, sheets")),
]


class InviteForm(forms.Form):
    role = forms.ChoiceField(choices=ROLE_CHOICES, label=gettext_lazy("Role"), initial=DESK)
    events = forms.MultipleChoiceField(
        required=False,
        label=gettext_lazy("Only these events (none: every event of the club)"),
        widget=forms.CheckboxSelectMultiple,
    )
    note = forms.CharField(max_length=120, required=False, label=gettext_lazy("For whom"))
    email = forms.EmailField(required=False, label=gettext_lazy("E-mail it to"))

    def __init__(self, *args: object, events: list[tuple[str, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # The choices are the club's own events: another club's id is no valid choice.
        self.fields["events"].choices = events  # type: ignore[attr-defined]


def _invite_url(request: HttpRequest, token: str) -> str:
    return absolute_url(request, reverse("join", args=[token]))


def _email_configured() -> bool:
    """An SMTP server named in the settings (or another mail backend chosen): the hall
    laptop has none, and the link is then copied by hand."""
    if settings.EMAIL_BACKEND.endswith("smtp.EmailBackend"):
        return settings.EMAIL_HOST not in ("", "localhost")
    return True


def _staff_page(request: HttpRequest, form: InviteForm, status: int = 200) -> HttpResponse:
    club = request.club  # type: ignore[attr-defined]
    invitations = staff.open_invitations(club)
    for inv in invitations:
        inv.url = _invite_url(request, inv.token)  # type: ignore[attr-defined]
    context = {
        "club": club,
        "members": staff.staff_of(club),
        "invitations": invitations,
        "form": form,
        "email": _email_configured(),
    }
    return render(request, "clubs/staff.html", context, status=status)


def _event_choices(request: HttpRequest) -> list[tuple[str, str]]:
    return [(str(t.pk), t.name) for t in staff.club_events(request.club)]  # type: ignore[attr-defined]


@club_staff(OWNER)
@require_http_methods(["GET", "POST"])
def staff_page(request: HttpRequest, club: str) -> HttpResponse:
    form = InviteForm(request.POST or None, events=_event_choices(request))
    if request.method != "POST":
        return _staff_page(request, form)
    if not form.is_valid():
        return _staff_page(request, form, status=422)
    ids = [parse_id(v) for v in form.cleaned_data["events"]]
    try:
        invitation = services.invite(
            request.club,  # type: ignore[attr-defined]
            form.cleaned_data["role"],
            [i for i in ids if i is not None],
            by=request.user.get_username(),
            note=form.cleaned_data["note"],
        )
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _staff_page(request, form, status=422)
    url = _invite_url(request, invitation.token)
    address = form.cleaned_data["email"]
    if address and _email_configured():
        send_mail(
            _("Join %(club)s on Snowman") % {"club": request.club.name},  # type: ignore[attr-defined]
            _("Open this link to join as %(role)s (it works once): %(url)s")
            % {"role": invitation.get_role_display(), "url": url},
            None,
            [address],
        )
        messages.success(request, _("Invitation sent to %(address)s.") % {"address": address})
    else:
        messages.success(request, _("Invitation made: copy its link below and send it."))
    return redirect("clubs:staff", club)


@club_staff(OWNER)
@require_POST
def revoke(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    if staff.club_invitation(request.club, pk) is None:  # type: ignore[attr-defined]
        raise Http404(_("No such invitation in this club."))
    try:
        services.revoke_invitation(request.club, pk)  # type: ignore[attr-defined]
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Invitation revoked: its link no longer works."))
    return redirect("clubs:staff", club)


@club_staff(OWNER)
@require_POST
def remove(request: HttpRequest, club: str, pk: int) -> HttpResponse:
    if staff.club_membership(request.club, pk) is None:  # type: ignore[attr-defined]
        raise Http404(_("No such staff member in this club."))
    try:
        services.remove_member(request.club, pk, by=request.user)  # type: ignore[attr-defined]
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Removed from the club's staff."))
    return redirect("clubs:staff", club)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link: signed in, take the role; else sign in, or make an account
    here and take it in the same step."""
    invitation = staff.invitation(token)
    refusal = None
    if invitation is None:
        refusal = _("This invitation link is not valid.")
    elif invitation.revoked_at is not None:
        refusal = _("This invitation was revoked; ask the club's owner for a new one.")
    elif invitation.used_at is not None:
        refusal = _("This invitation was already used; each link works once.")
    if refusal is not None:
        return render(request, "clubs/join.html", {"refusal": refusal}, status=410)
    assert invitation is not None
    signup: UserCreationForm[Any] | None = None
    if not request.user.is_authenticated:
        signup = UserCreationForm(request.POST or None)
        if request.method == "POST" and signup.is_valid():
            user = signup.save()
            login(request, user, backend="snowman.auth.RoleBackend")
        elif request.method == "POST":
            context = {"invitation": invitation, "signup": signup}
            return render(request, "clubs/join.html", context, status=422)
    if request.method == "POST":
        try:
            services.accept_invitation(token, request.user)
        except ServiceError as exc:
            return render(request, "clubs/join.html", {"refusal": exc.message}, status=410)
        messages.success(
            request, _("You are now staff of %(club)s.") % {"club": invitation.club.name}
        )
        return redirect("director:home")
    return render(request, "clubs/join.html", {"invitation": invitation, "signup": signup})


# --- public -----------------------------------------------------------------------------


@cache_control(public=True, max_age=60)
@vary_on_headers("Cookie", "Accept-Language")
def club_page(request: HttpRequest, club: str) -> HttpResponse:
    """The club's public page: its events (running and upcoming, then past) and series.

    In the reader's language like every public page: the address's ``?lang=`` (the
    page's own "English / Français" links), else the reader's choice (the cookie), else
    the browser's. A proxy still keeps it, one copy per cookie and Accept-Language
    (``Vary``), so a French reader never gets an English reader's copy."""
    page = boards.club_page(club)
    if page is None:
        raise Http404(_("No such club."))
    code = language.supported(request.GET.get("lang")) or language.of_reader(request)
    with translation.override(code):
        response = render(request, "public/club.html", {"page": page, "lang": code})
    response["Content-Language"] = code
    return response


def club_event(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """``/<club>/<event>/``: the address typed from a projector, the club's event page."""
    if queries.find_club_tournament_by_slugs(club, slug) is None:
        raise Http404(_("No such event."))
    return redirect("public:event", slug)


def club_series(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    found = queries.public_series(slug)
    if found is None or found.club.slug != club:
        raise Http404(_("No such series."))
    return redirect("series_public:series", slug)
