"""The Django admin: every model listed, searchable, with history read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from tournaments.domain.hands import Hand, Outcome, Seat, Team
from tournaments.models import (
    Activity,
    HandEntry,
    Match,
    Player,
    Round,
    RoundPause,
    TableLink,
    Tournament,
    WinnerOverride,
)
from tournaments.models import Seat as SeatRow
from tournaments.services import play, rounds

pytestmark = pytest.mark.django_db

MODELS = [Tournament, Player, Round, RoundPause, SeatRow, Match, HandEntry, WinnerOverride,
          TableLink, Activity]


@pytest.fixture
def superuser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.com", "x"))
    return client


@pytest.fixture
def played(make_tournament) -> Tournament:
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="t", seed=3)
    rounds.start_round(rnd, by="t")
    rounds.pause_round(rnd, by="t")
    rounds.resume_round(rnd, by="t")
    match = rnd.matches.select_related("round__tournament").get(table=1)
    play.set_first_dealer(match, Seat.N, by="t")
    for n in range(5):
        play.record_hand(match, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), by="t",
                         client_key=f"a{n}")
    play.override_winner(match, Team.EW, by="t", reason="test")
    return t


def test_every_model_is_registered():
    for model in MODELS:
        assert admin.site.is_registered(model), model


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_changelist_and_change_page_renders(superuser_client, played, model):
    prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    response = superuser_client.get(reverse(f"{prefix}_changelist"), {"q": "a"})
    assert response.status_code == 200
    obj = model.objects.first()
    response = superuser_client.get(reverse(f"{prefix}_change", args=[obj.pk]))
    assert response.status_code == 200


def test_a_match_shows_its_seats_and_hands_inline(superuser_client, played):
    match = Match.objects.get(round__number=1, table=1)
    page = superuser_client.get(reverse("admin:tournaments_match_change", args=[match.pk]))
    text = page.content.decode()
    for seat in SeatRow.objects.filter(round=match.round, table=1).select_related("player"):
        assert seat.player.name in text
    assert 'id="hands-group"' in text and 'id="hands-4"' in text  # five hands inline
    assert 'id="overrides-group"' in text


def test_history_is_read_only(superuser_client, played):
    for model in (HandEntry, WinnerOverride, Activity):
        model_admin = admin.site._registry[model]
        request = type("R", (), {"user": None})()
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)
        assert not model_admin.has_add_permission(request)


def test_check_in_action_checks_in_the_selected_players(superuser_client, played):
    Player.objects.update(checked_in=False)
    chosen = list(Player.objects.order_by("name").values_list("pk", flat=True)[:3])
    response = superuser_client.post(reverse("admin:tournaments_player_changelist"), {
        "action": "check_in", "_selected_action": chosen,
    })
    assert response.status_code == 302
    assert set(Player.objects.filter(checked_in=True).values_list("pk", flat=True)) == set(
        chosen)
    assert Activity.objects.filter(action="check-in", actor="root").exists()
