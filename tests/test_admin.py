"""The Django admin: every model listed, searchable, with history read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.play import HandEntry, Match, TableLink, WinnerOverride
from tournaments.core.models.rounds import Round, RoundPause, Seating
from tournaments.core.services import corrections, play, rounds
from tournaments.domain.hands import Hand, Outcome, Seat, Team

pytestmark = pytest.mark.django_db

MODELS = [
    Tournament,
    Player,
    Round,
    RoundPause,
    Seating,
    Match,
    HandEntry,
    WinnerOverride,
    TableLink,
    Activity,
]


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
        play.record_hand(
            match, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), by="t", client_key=f"a{n}"
        )
    corrections.override_winner(match, Team.EW, by="t", reason="test")
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
    for seat in Seating.objects.filter(round=match.round, table=1).select_related("player"):
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
    response = superuser_client.post(
        reverse("admin:tournaments_player_changelist"),
        {
            "action": "check_in",
            "_selected_action": chosen,
        },
    )
    assert response.status_code == 302
    assert set(Player.objects.filter(checked_in=True).values_list("pk", flat=True)) == set(chosen)
    assert Activity.objects.filter(action="check-in", actor="root").exists()


def test_rows_the_services_keep_cannot_be_edited_or_deleted_in_the_admin(superuser_client, played):
    # Deleting a round or a match would delete its hands; editing one would bypass the
    # services (a match marked confirmed without hands, a first dealer changed under them).
    request = type("R", (), {"user": None})()
    for model in (Round, RoundPause, Seating, Match, TableLink):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_change_permission(request), model
        assert not model_admin.has_delete_permission(request), model
        assert not model_admin.has_add_permission(request), model
    match = Match.objects.get(round__number=1, table=1)
    response = superuser_client.post(
        reverse("admin:tournaments_match_delete", args=[match.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert HandEntry.objects.filter(match=match).count() == 5


def test_a_tournaments_rules_and_status_are_not_edited_in_the_admin(superuser_client, played):
    t = played
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    form = {name: getattr(t, name) for name in Tournament.RULE_FIELDS}
    form = {k: ("on" if v else "") if isinstance(v, bool) else v for k, v in form.items()}
    form.update(
        name="Renamed",
        target=3,
        tiebreaks="bogus",
        status="finished",
        created_at_0="2026-01-01",
        created_at_1="09:00:00",
    )
    response = superuser_client.post(url, form)
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.target, t.tiebreaks, t.status) == (
        "Renamed",
        10,
        "total,wins,margin,lot",
        "preliminary",
    )
    assert (
        superuser_client.get(
            reverse("admin:tournaments_tournament_delete", args=[t.pk])
        ).status_code
        == 403
    )
    player = Player.objects.filter(tournament=t).order_by("name").first()
    response = superuser_client.post(
        reverse("admin:tournaments_player_change", args=[player.pk]),
        {
            "name": player.name,
            "division": "B" if player.division == "A" else "A",
            "checked_in": "on",
        },
    )
    player_after = Player.objects.get(pk=player.pk)
    assert player_after.division == player.division
