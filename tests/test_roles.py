"""Roles: "director" does everything; "desk" checks players in, finds seats and prints
seating and score sheets; a staff flag alone, or no role, opens nothing. Every director
and sheet URL is tried for every role, GET and POST as the page takes them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import URLPattern, reverse

import tournaments.core.urls.director
import tournaments.core.urls.sheets
from tournaments.clubs.services import assign
from tournaments.core.models.event import Player

LOGIN = "/accounts/login/"
# What the desk may open; every other director and sheet URL is the director's alone.
DESK_PAGES = {
    "director:home",
    "director:desk",
    "director:checkin",
    # Enter at the desk checks in the only match; a walk-in is the director's.
    "director:desk_enter",
    # Check-in by scanning a player's pass.
    "director:scan",
    "director:scan_check_in",
    # Tables calling the director: the desk sees them; only the director answers.
    "director:help",
    "director:help_banner",
    "director:seating",
    "director:seating_csv",
    "sheets:seating",
    "sheets:scoresheets",
    # Fees at the door: the desk takes and refunds them; it sees no purse.
    "money:fees",
    "money:refund",
}
CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


@pytest.fixture
def event(db):
    from django.utils import timezone

    from tournaments.core.simulate import demo_event

    # Two rounds played, round 3 running: every kind of page has something to show.
    return demo_event(2, "Roles Open", round_started=timezone.now())


def every_url(event) -> list[tuple[str, str]]:
    player = Player.objects.filter(tournament=event).first()
    values = {
        "slug": event.slug,
        "number": 3,
        "table": 1,
        "pk": player.pk,
        "division": "A",
        "action": "pause",
    }
    urls = []
    for namespace, patterns in (
        ("director", tournaments.core.urls.director.urlpatterns),
        ("sheets", tournaments.core.urls.sheets.urlpatterns),
    ):
        for pattern in patterns:
            assert isinstance(pattern, URLPattern)
            names = [m.group(2) for m in CONVERTER.finditer(str(pattern.pattern))]
            kwargs = {n: values[n] for n in names}
            if pattern.name == "hand_correct":
                kwargs["pk"] = event.rounds.get(number=3).matches.first().pk
            urls.append(
                (
                    f"{namespace}:{pattern.name}",
                    reverse(f"{namespace}:{pattern.name}", kwargs=kwargs),
                )
            )
    return urls


def user(django_user_model, name: str, role: str | None, **flags: object) -> Client:
    account = django_user_model.objects.create_user(name, password="x-long-password-1", **flags)
    if role:
        assign(account, role)
    client = Client()
    client.force_login(account)
    return client


@pytest.mark.slow  # every URL for every role
def test_every_url_answers_each_role_as_its_permissions_say(event, django_user_model):
    director = user(django_user_model, "dora", "director", is_staff=True)
    desk = user(django_user_model, "dave", "desk")
    staff_only = user(django_user_model, "stan", None, is_staff=True)
    nobody = Client()
    urls = every_url(event)
    assert len(urls) >= 35
    for name, url in urls:
        for method in ("get", "post"):
            for who, client in (("signed out", nobody), ("staff, no role", staff_only)):
                r = getattr(client, method)(url)
                assert r.status_code == 302 and r["Location"].startswith(LOGIN), (who, method, name)
            r = getattr(desk, method)(url)
            if name in DESK_PAGES:
                assert r.status_code != 403 and r.status_code < 500, (method, name, r.status_code)
            else:
                assert r.status_code == 403, (method, name, r.status_code)
            r = getattr(director, method)(url)
            assert r.status_code != 403 and r.status_code < 500, (method, name, r.status_code)
            assert not r.get("Location", "").startswith(LOGIN), (method, name)


def test_the_desk_checks_players_in_but_sees_no_results_or_table_links(event, django_user_model):
    desk = user(django_user_model, "dave", "desk")
    player = Player.objects.filter(tournament=event, checked_in=True).first()
    response = desk.post(reverse("director:checkin", args=[event.slug, player.pk]), {"value": "0"})
    assert response.status_code in (200, 302)
    home = desk.get(reverse("director:home")).content.decode()
    assert reverse("director:desk", args=[event.slug]) in home
    assert f'href="{reverse("director:tournament", args=[event.slug])}"' not in home
    seating = desk.get(reverse("director:seating", args=[event.slug, 3])).content.decode()
    assert "table-cards.pdf" not in seating
    assert f'href="{reverse("director:round", args=[event.slug, 3])}"' not in seating
    assert desk.get(reverse("sheets:table_cards", args=[event.slug])).status_code == 403
    assert desk.get(reverse("director:standings", args=[event.slug])).status_code == 403
    assert desk.get(reverse("director:settings", args=[event.slug])).status_code == 403


def test_a_view_only_staff_account_cannot_run_the_admin_check_in(event, django_user_model):
    viewer = django_user_model.objects.create_user(
        "vera", password="x-long-password-1", is_staff=True
    )
    viewer.user_permissions.add(Permission.objects.get(codename="view_player"))
    client = Client()
    client.force_login(viewer)
    player = Player.objects.filter(tournament=event).first()
    Player.objects.filter(pk=player.pk).update(checked_in=False)
    changelist = reverse("admin:tournaments_player_changelist")
    page = client.get(changelist)
    assert page.status_code == 200 and b'value="check_in"' not in page.content
    response = client.post(
        changelist, {"action": "check_in", "_selected_action": [player.pk], "index": 0}
    )
    assert response.status_code in (200, 302, 403)
    player.refresh_from_db()
    assert not player.checked_in


def test_a_director_runs_the_admin_check_in(event, django_user_model):
    director = user(django_user_model, "dora", "director", is_staff=True)
    player = Player.objects.filter(tournament=event).first()
    Player.objects.filter(pk=player.pk).update(checked_in=False)
    changelist = reverse("admin:tournaments_player_changelist")
    assert b'value="check_in"' in director.get(changelist).content
    director.post(changelist, {"action": "check_in", "_selected_action": [player.pk], "index": 0})
    player.refresh_from_db()
    assert player.checked_in


def test_create_account_makes_a_desk_sign_in_with_a_random_password(db, django_user_model):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("create_account", "frontdesk", "--role", "desk", stdout=out)
    password = out.getvalue().split(" / ")[1].split()[0]
    account = django_user_model.objects.get(username="frontdesk")
    assert account.check_password(password) and len(password) >= 16
    assert account.has_perm("tournaments.work_desk")
    assert not account.has_perm("tournaments.run_event") and not account.is_staff


@pytest.mark.parametrize(
    "username,message",
    [
        # PostgreSQL refused a name past the column's 150 characters with a traceback.
        ("d" * 151, "Ensure this value has at most 150 characters (it has 151)."),
        ("front desk", "Enter a valid username. This value may contain only letters, numbers"),
    ],
)
def test_create_account_refuses_a_name_the_sign_up_form_would_refuse(
    db, django_user_model, username, message
):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError) as err:
        call_command("create_account", username, "--role", "director")
    assert str(err.value).startswith(message)
    assert not django_user_model.objects.exists()
