"""The director's guide inside the product: "Running your first event",
linked from the event's home, kept true by following every link it gives, before and
after the draw, in English and in French."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.core.services import rounds

SECTIONS = (
    "guide-before",
    "guide-door",
    "guide-round",
    "guide-tablet",
    "guide-leaves",
    "guide-final",
)


def links(page: str) -> list[str]:
    body = page.split('class="guide"')[1]
    return re.findall(r'href="([^"]+)"', body)


def follow(client, page: str) -> list[str]:
    hrefs = links(page)
    assert hrefs
    for href in hrefs:
        response = client.get(href.replace("&amp;", "&"))
        assert response.status_code == 200, (href, response.status_code)
    return hrefs


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_link_of_the_guide_leads_somewhere_before_and_after_the_draw(
    director_client, make_tournament, lang
):
    t = make_tournament(2)
    director_client.cookies["django_language"] = lang
    home = director_client.get(reverse("director:tournament", args=[t.slug])).content.decode()
    guide_url = reverse("director:guide", args=[t.slug])
    assert f'href="{guide_url}"' in home
    page = director_client.get(guide_url).content.decode()
    assert all(f'id="{s}"' in page for s in SECTIONS)
    before = follow(director_client, page)
    rounds.draw_first_round(t, by="test", seed=3)
    after = follow(director_client, director_client.get(guide_url).content.decode())
    # Once drawn, the round's sheets, the tents and the scoresheet grid join the links.
    assert len(after) >= len(before) + 5
    assert any("table-tents.pdf" in h for h in after)
    assert any("/scoresheet/" in h for h in after)


def test_the_guide_reads_in_french(director_client, make_tournament):
    t = make_tournament(1)
    director_client.cookies["django_language"] = "fr"
    page = director_client.get(reverse("director:guide", args=[t.slug])).content.decode()
    assert "Diriger votre premier tournoi" in page and "Quand une tablette meurt" in page
