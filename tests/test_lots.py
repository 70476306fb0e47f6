"""A lot is drawn once (RULES.md §4): the remedies page's sit-out lot is fixed when the
page is first shown and stored with its seed; reloads show the same proposal; a redraw is
the director's explicit act, with a reason, logged; once round 1 is drawn the page says
so and offers nothing live. Before this, three loads drew three seeds and three different
sit-outs, so a director could reload until a friend was spared."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tournaments.core.models.log import Activity
from tournaments.core.models.lots import DrawnLot
from tournaments.core.models.rounds import SitOut
from tournaments.core.services import lots
from tournaments.core.services.players import register_player

pytestmark = pytest.mark.django_db

SIT_OUT = DrawnLot.Purpose.ROUND1_SIT_OUT


def url(name: str, *args: object) -> str:
    return reverse(f"director:{name}", args=args)


@pytest.fixture
def uneven(make_tournament):
    t = make_tournament(2)
    for n in (1, 2):
        register_player(t, f"Extra {n}", "A", by="desk", checked_in=True)
    return t


def shown(page: str) -> tuple[str, list[str]]:
    """The seed the page's forms carry and the players it ticks (the lot's proposal)."""
    seeds = set(re.findall(r'name="seed" value="(\d+)"', page))
    assert len(seeds) == 1, seeds
    ticked = re.findall(r'name="sit_out" value="(\d+)" checked', page)
    assert len(ticked) == 2
    return seeds.pop(), ticked


def test_reloading_the_remedies_page_shows_the_same_lot_with_the_same_seed(director_client, uneven):
    first = shown(director_client.get(url("draw_remedy", uneven.slug)).content.decode())
    for _ in range(3):
        again = shown(director_client.get(url("draw_remedy", uneven.slug)).content.decode())
        assert again == first
    lot = DrawnLot.objects.get(tournament=uneven)
    assert str(lot.seed) == first[0] and lot.redraws == 0


def test_two_loads_at_once_store_one_lot(uneven):
    one = lots.drawn(uneven, SIT_OUT, by="a", draw=lambda: 11)
    two = lots.drawn(uneven, SIT_OUT, by="b", draw=lambda: 22)
    assert (one.pk, two.seed) == (two.pk, 11)
    with pytest.raises(IntegrityError), transaction.atomic():
        DrawnLot.objects.create(
            tournament=uneven, purpose=SIT_OUT, seed=33, drawn_at=one.drawn_at, drawn_by="c"
        )
    assert DrawnLot.objects.filter(tournament=uneven).count() == 1


def test_a_load_that_loses_the_race_reads_the_winners_seed(uneven, monkeypatch):
    """The row is stored by another load between this load's look and its insert."""

    def other_load_first() -> int:
        with transaction.atomic():
            DrawnLot.objects.create(
                tournament=uneven,
                purpose=SIT_OUT,
                seed=77,
                drawn_at=lots.now_or(None),
                drawn_by="x",
            )
        return 88

    lot = lots.drawn(uneven, SIT_OUT, by="me", draw=other_load_first)
    assert lot.seed == 77 and DrawnLot.objects.filter(tournament=uneven).count() == 1


def test_a_redraw_is_an_explicit_logged_act_with_a_reason(director_client, uneven):
    seed, _ = shown(director_client.get(url("draw_remedy", uneven.slug)).content.decode())
    refused = director_client.post(url("draw_remedy_redraw", uneven.slug), {"seed": seed})
    assert refused.status_code == 422 and "reason" in refused.content.decode()
    assert str(DrawnLot.objects.get(tournament=uneven).seed) == seed
    done = director_client.post(
        url("draw_remedy_redraw", uneven.slug),
        {"seed": seed, "redraw_reason": "Otto's name was missing from the list"},
    )
    assert done.status_code == 302
    lot = DrawnLot.objects.get(tournament=uneven)
    assert str(lot.seed) != seed and lot.redraws == 1
    line = Activity.objects.get(tournament=uneven, action="lot redrawn")
    assert line.args["was"] == int(seed) and line.args["seed"] == lot.seed
    assert line.reason == "Otto's name was missing from the list"
    page = director_client.get(url("draw_remedy", uneven.slug)).content.decode()
    assert shown(page)[0] == str(lot.seed)


def test_a_redraw_or_a_draw_from_a_stale_page_is_refused_with_the_page_as_it_stands(
    director_client, uneven
):
    old, _ = shown(director_client.get(url("draw_remedy", uneven.slug)).content.decode())
    lots.redraw(uneven, SIT_OUT, seen=int(old), by="other director", reason="list fixed")
    new = str(DrawnLot.objects.get(tournament=uneven).seed)
    stale = director_client.post(
        url("draw_remedy_redraw", uneven.slug), {"seed": old, "redraw_reason": "again"}
    )
    assert stale.status_code == 409 and shown(stale.content.decode())[0] == new
    draw = director_client.post(url("draw_remedy", uneven.slug), {"remedy": "sit-out", "seed": old})
    assert draw.status_code == 409 and shown(draw.content.decode())[0] == new
    assert not uneven.rounds.exists()
    assert Activity.objects.filter(tournament=uneven, action="lot redrawn").count() == 1


def test_once_round_one_is_drawn_the_page_says_so_and_offers_nothing(director_client, uneven):
    seed, ticked = shown(director_client.get(url("draw_remedy", uneven.slug)).content.decode())
    assert (
        director_client.post(
            url("draw_remedy", uneven.slug), {"remedy": "sit-out", "seed": seed}
        ).status_code
        == 302
    )
    assert {str(p) for p in SitOut.objects.values_list("player_id", flat=True)} == set(ticked)
    page = director_client.get(url("draw_remedy", uneven.slug)).content.decode()
    assert "this proposal was applied" in page and f"seed {seed}" in page
    assert 'name="remedy"' not in page and 'name="redraw_reason"' not in page
    again = director_client.post(
        url("draw_remedy_redraw", uneven.slug), {"seed": seed, "redraw_reason": "x"}
    )
    assert again.status_code == 409
    assert DrawnLot.objects.get(tournament=uneven).redraws == 0


def test_a_house_player_counts_at_once_and_draw_round_one_becomes_live(
    director_client, make_tournament
):
    """After a house player was added the panel still said "Not seatable yet" and "Draw
    round 1" stayed grey, with nothing pointing to the remedy."""
    from tournaments.core.models.event import Player
    from tournaments.core.services.players import add_house_player

    t = make_tournament(2)
    register_player(t, "Odd Otto", "A", by="desk", checked_in=True)
    register_player(t, "Bea Beaulieu", "B", by="desk", checked_in=True)
    add_house_player(t, "Hal House", "A", by="director")  # one of the two seats to fill
    players = url("players", t.slug)
    page = director_client.get(players).content.decode()
    assert "Not seatable yet." in page
    assert 'aria-describedby="draw-first-why"' in page
    assert f'href="{url("draw_remedy", t.slug)}">Choose a remedy' in page
    add_house_player(t, "Hilda House", "B", by="director")
    page = director_client.get(players).content.decode()
    assert "Not seatable yet." not in page and 'id="draw-first-why"' not in page
    assert "every seat filled, house players included" in page
    assert director_client.post(url("draw", t.slug)).status_code == 302
    seated = set(t.rounds.get(number=1).seats.values_list("player__name", flat=True))
    assert {"Odd Otto", "Bea Beaulieu", "Hal House", "Hilda House"} <= seated
    assert len(seated) == 12
    assert Player.objects.filter(tournament=t, house=True).count() == 2  # none added
