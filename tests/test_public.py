"""The projector and its clock: open to anyone in the hall, no login."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments.core.services import rounds

pytestmark = pytest.mark.django_db


def played_round_one(make_tournament, tables: int):
    """§4 ranks only players who played: one march ends each match of round 1."""
    from tournaments.core.services import play
    from tournaments.domain.hands import Hand, Outcome, Seat

    t = make_tournament(tables, target=2)
    rnd = rounds.start_round(rounds.draw_first_round(t, by="t", seed=1), by="t")
    for m in rnd.matches.select_related("round__tournament"):
        play.set_first_dealer(m, Seat.W, by="t")
        play.record_hand(
            m, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5), client_key=f"p{m.pk}", by="t"
        )
    return t


def test_projector_needs_no_login_and_shows_both_divisions(client, make_tournament):
    t = played_round_one(make_tournament, 2)
    response = client.get(reverse("public:projector", args=[t.slug]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Division A" in page and "Division B" in page and "Player A001" in page
    assert 'hx-trigger="every 15s"' in page and "data-countdown" in page
    assert "<script>" not in page  # the CSP allows no inline script: the countdown is static


def test_the_projector_during_round_one_says_nobody_has_played_not_that_there_are_no_players(
    client, make_tournament
):
    """Walked at the hall in French: 12 players at their tables, and the projector said
    "Aucun joueur pour l'instant" (no players yet) under each division."""
    from tournaments.core.services import rounds

    t = make_tournament(2)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=1), by="test")
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("public:projector", args=[t.slug])).content.decode()
    assert page.count("Personne n’a encore joué de match.") == 2
    assert "Aucun joueur" not in page


def test_projector_shows_only_the_top_of_each_division(client, make_tournament):
    t = played_round_one(make_tournament, 6)  # 12 ranked a division, 8 shown
    page = client.get(reverse("public:projector_standings", args=[t.slug])).content.decode()
    assert page.count("Player A0") == 8 and page.count("Player B0") == 8


def test_clock_before_the_draw_has_no_round(client, make_tournament):
    t = make_tournament(1)
    data = client.get(reverse("public:clock", args=[t.slug])).json()
    assert data["round"] is None and "server_now" in data


def test_clock_counts_down_from_the_server_time(client, make_tournament):
    t = make_tournament(1, round_minutes=20)
    rnd = rounds.draw_first_round(t, by="t", seed=1)
    data = client.get(reverse("public:clock", args=[t.slug])).json()
    assert (data["started"], data["remaining_seconds"], data["limit_seconds"]) == (
        False,
        1200,
        1200,
    )
    rounds.start_round(rnd, by="t", now=timezone.now() - timedelta(minutes=5))
    data = client.get(reverse("public:clock", args=[t.slug])).json()
    assert data["started"] and not data["paused"] and not data["called"]
    assert 895 <= data["remaining_seconds"] <= 900
    assert data["call_at"] is not None and data["round"] == "Round 1"


def test_the_clock_of_the_final_says_it_is_the_final_and_never_called(client, make_tournament):
    from tests.test_director import finished_prelims
    from tournaments.core.services import standings

    t = finished_prelims(make_tournament)
    standings.seed_final(t, by="test")
    data = client.get(reverse("public:clock", args=[t.slug])).json()
    assert data["final"] and not data["called"] and data["call_at"] is None


def test_clock_stops_while_paused_and_reads_zero_once_called(client, make_tournament):
    t = make_tournament(1)
    rnd = rounds.draw_first_round(t, by="t", seed=1)
    rounds.start_round(rnd, by="t", now=timezone.now() - timedelta(minutes=5))
    rounds.pause_round(rnd, by="t")
    data = client.get(reverse("public:clock", args=[t.slug])).json()
    assert data["paused"] and data["call_at"] is None
    rounds.call_time(rnd, by="t")
    data = client.get(reverse("public:clock", args=[t.slug])).json()
    assert data["called"] and data["remaining_seconds"] == 0


def test_public_index_lists_running_tournaments(client, make_tournament):
    t = make_tournament(1, name="Winter Cup")
    page = client.get("/").content.decode()
    assert "Winter Cup" in page and reverse("public:projector", args=[t.slug]) in page


def test_production_error_pages_are_friendly(client, settings, db):
    settings.DEBUG = False
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
