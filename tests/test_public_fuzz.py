"""Bad input on the public endpoints (issue 15): an unknown event, odd or huge search
strings, a forged player, nonsense divisions and ETags get a clear 4xx, never a 5xx, and
change nothing."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.core.models.event import Player
from tournaments.core.models.log import Activity
from tournaments.core.services import rounds

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

pytestmark = pytest.mark.django_db

texts = st.one_of(
    st.text(max_size=200),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=80),
    st.sampled_from(
        ["", "a", "zo", "ZOË", "%", "%%", "_", "' OR 1=1 --", "\x00", "\u202e", "a" * 5000, "Ａ"]
    ),
)
slugs = st.one_of(
    st.sampled_from(["club-night", "no-such-event", "CLUB-NIGHT", "a" * 300, "-", "_"]),
    st.from_regex(r"[-a-zA-Z0-9_]{1,60}", fullmatch=True),
)
ids = st.one_of(
    st.integers(min_value=0, max_value=10**30),
    st.sampled_from([1, 2, 3, 2**31 - 1, 2**31, 2**63, 2**64]),
)
etags = st.one_of(st.text(max_size=100), st.sampled_from(['"x"', "*", "W/", ",,,", '""']))


@pytest.fixture
def event(make_tournament):
    t = make_tournament(2)
    rounds.draw_first_round(t, by="test", seed=5)
    return t


def ok(response) -> None:
    assert response.status_code < 500, (response.status_code, response.content[:300])


@FUZZ
@given(slug=slugs, q=texts, division=texts, etag=etags)
def test_event_search_and_standings_never_fail(client, event, slug, q, division, etag):
    before = (Player.objects.count(), Activity.objects.count())
    for path, params in (
        (f"/e/{slug}/", {"q": q}),
        (f"/e/{slug}/find.json", {"q": q}),
        (f"/e/{slug}/standings/", {"q": q, "division": division}),
        (f"/e/{event.slug}/", {"q": q}),
        (f"/e/{event.slug}/find.json", {"q": q}),
        (f"/e/{event.slug}/standings/", {"q": q, "division": division}),
        (f"/e/{slug}/qr.svg", {}),
        (f"/p/{slug}/standings/", {}),
    ):
        ok(client.get(path, params, HTTP_IF_NONE_MATCH=etag))
    assert (Player.objects.count(), Activity.objects.count()) == before


@FUZZ
@given(player=ids, etag=etags)
def test_a_forged_player_is_a_404_never_a_5xx(client, event, player, etag):
    known = set(Player.objects.filter(tournament=event).values_list("pk", flat=True))
    for suffix in ("", "card/", "ledger/"):
        response = client.get(f"/e/{event.slug}/me/{player}/{suffix}", HTTP_IF_NONE_MATCH=etag)
        ok(response)
        assert (
            response.status_code in (200, 304) if player in known else response.status_code == 404
        )


@FUZZ
@given(raw=st.text(max_size=60))
def test_any_path_under_the_event_is_a_4xx_or_a_page(client, event, raw):
    ok(client.get(f"/e/{event.slug}/" + quote(raw, safe="/")))
    ok(client.get(f"/e/{event.slug}/me/" + quote(raw, safe="/")))


def test_writes_are_refused_on_the_public_pages(client, event):
    p = Player.objects.filter(tournament=event).first()
    for path in (
        f"/e/{event.slug}/",
        f"/e/{event.slug}/me/{p.pk}/card/",
        f"/e/{event.slug}/find.json",
    ):
        assert client.post(path, {"q": "x"}).status_code in (403, 405)
