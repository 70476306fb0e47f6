"""The money's pages and sheets: who may open what, a repeated POST answered
as the first, a stale one 409, bad input 422 with nothing changed, the sheets rendered,
and the pages in French."""

from __future__ import annotations

import io
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.clubs.services import assign, create_club
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.rounds import Round
from tournaments.core.simulate import Simulation
from tournaments.money import reads, services
from tournaments.money.models import EntryKind, MoneyEntry

DESK_PAGES = ("fees",)
DIRECTOR_PAGES = ("payout", "drawer", "settings", "csv", "pdf", "presenter", "certificates")


@pytest.fixture
def event(make_tournament) -> Tournament:
    t = make_tournament(tables=2)
    services.configure(t, version=0, by="dir", fee_cents=1_000, reduced_fee_cents=500)
    return t


def client_for(django_user_model, name: str, role: str, club=None) -> Client:
    user = django_user_model.objects.create_user(name, f"{name}@example.com", "a-long-password-1")
    assign(user, role, club)
    c = Client()
    c.force_login(user)
    return c


def url(name: str, t: Tournament) -> str:
    return reverse(f"money:{name}", args=[t.slug])


def test_the_desk_takes_fees_but_sees_no_purse(event, django_user_model) -> None:
    desk = client_for(django_user_model, "desk", "desk")
    for name in DESK_PAGES:
        assert desk.get(url(name, event)).status_code == 200
    for name in DIRECTOR_PAGES:
        assert desk.get(url(name, event)).status_code == 403, name
    assert "purse" not in desk.get(url("fees", event)).content.decode().casefold()


def test_another_clubs_staff_and_the_players_get_nothing(event, django_user_model) -> None:
    beta = create_club("Beta club", "beta")
    other = client_for(django_user_model, "bea", "director", beta)
    for name in (*DESK_PAGES, *DIRECTOR_PAGES):
        assert other.get(url(name, event)).status_code == 404, name
    p = Player.objects.filter(tournament=event).first()
    answer = other.post(url("fees", event), {"key": "k", "player": p.pk, "how": "full"})
    assert answer.status_code == 404
    assert not MoneyEntry.objects.exists()
    anonymous = Client()
    for name in (*DESK_PAGES, *DIRECTOR_PAGES):
        assert anonymous.get(url(name, event)).status_code == 302, name


def test_a_fee_posted_twice_is_charged_once(event, director_client) -> None:
    p = Player.objects.filter(tournament=event).order_by("pk").first()
    form = {"key": "abc-1", "player": p.pk, "how": "full", "method": "cash"}
    first = director_client.post(url("fees", event), form)
    again = director_client.post(url("fees", event), form)
    assert first.status_code == again.status_code == 302
    assert MoneyEntry.objects.filter(player=p).count() == 1
    # Another desk's form (another key) for the same player: 409, the page as it is now.
    other = director_client.post(url("fees", event), {**form, "key": "abc-2"})
    assert other.status_code == 409
    assert "already taken by director" in other.content.decode()
    assert MoneyEntry.objects.filter(player=p).count() == 1


def test_bad_input_is_refused_with_a_message_and_changes_nothing(event, director_client) -> None:
    p = Player.objects.filter(tournament=event).first()
    for bad in (
        {"key": "k1", "player": "١٢", "how": "full"},
        {"key": "k2", "player": p.pk, "how": "half"},
        {"key": "", "player": p.pk, "how": "full"},
        {"key": "k3", "player": "99999999999999999999999", "how": "full"},
    ):
        assert director_client.post(url("fees", event), bad).status_code == 422, bad
    answer = director_client.post(
        url("sponsor", event), {"key": "s", "name": "Bakery", "cents": "ten", "method": "cash"}
    )
    assert answer.status_code == 422
    assert "dollars and cents" in answer.content.decode()
    missing = director_client.post(
        url("fees", event), {"key": "k4", "player": 999_999, "how": "full"}
    )
    assert missing.status_code == 404
    assert not MoneyEntry.objects.exists()


def test_stale_settings_answer_409_with_the_settings_as_they_are(event, director_client) -> None:
    form = {
        "version": "0",  # read before the fixture's change
        "fee_cents": "12",
        "cash_unit": "100",
        "ties": "share",
        "loner_to": "draw",
        "fines_to": "lone_marches",
    }
    answer = director_client.post(url("settings", event), form)
    assert answer.status_code == 409
    assert reads.settings_of(event).fee_cents == 1_000
    fresh = director_client.post(url("settings", event), {**form, "version": "1"})
    assert fresh.status_code == 302
    assert reads.settings_of(event).fee_cents == 1_200


def test_an_undo_needs_a_reason_and_stays_in_the_ledger(event, director_client) -> None:
    p = Player.objects.filter(tournament=event).first()
    entry = services.take_fee(event, p.pk, how="full", client_key="k", by="desk1")
    undo = reverse("money:undo", args=[event.slug, entry.pk])
    assert director_client.post(undo, {"reason": ""}).status_code == 422
    assert director_client.post(undo, {"reason": "wrong player"}).status_code == 302
    assert director_client.post(undo, {"reason": "again"}).status_code == 409
    page = director_client.get(url("drawer", event)).content.decode()
    assert "undone by director: wrong player" in page


@pytest.fixture
def night(db) -> Tournament:
    sim = Simulation(2, seed=3)

    def door(t: Tournament) -> None:
        services.configure(
            t, version=0, by="dir", fee_cents=1_000, loner_cents=100, euchre_cents=25
        )
        for p in Player.objects.filter(tournament=t):
            services.take_fee(t, p.pk, how="full", client_key=f"f{p.pk}", by="desk1")

    sim.before_draw = door
    t = sim.run()
    services.add_line(t, kind="place", division="A", place=1, percent=5_000, by="dir")
    services.add_line(t, kind="final", fixed_cents=1_000, by="dir")
    return t


def test_the_director_previews_confirms_and_a_stale_preview_is_409(night, director_client) -> None:
    page = director_client.get(url("payout", night))
    assert page.status_code == 200
    html = page.content.decode()
    assert "$40.00" in html  # 8 fees of $10: half of the $80 purse to A's first
    seen = reads.preview(night, night.created_at)
    stale = director_client.post(url("confirm", night), {"key": "c1", "digest": "0" * 16})
    assert stale.status_code == 409
    ok = director_client.post(url("confirm", night), {"key": "c2", "digest": seen.digest})
    assert ok.status_code == 302
    again = director_client.post(url("confirm", night), {"key": "c2", "digest": seen.digest})
    assert again.status_code == 302
    assert MoneyEntry.objects.filter(kind=EntryKind.PAYOUT).count() == len(
        [a for a in seen.awards if a.cents]
    )


def test_the_sheets_render_in_english_french_and_both(night, director_client) -> None:
    from pypdf import PdfReader

    services.sell_fifty(night, 10, 1_000, client_key="s", by="desk1")
    services.draw_fifty(night, random.Random(1), client_key="d", by="dir")
    for name in ("pdf", "presenter", "certificates"):
        for lang in ("en", "fr", "both"):
            answer = director_client.get(url(name, night) + f"?lang={lang}&paper=a4")
            assert answer.status_code == 200, (name, lang)
            text = "".join(
                page.extract_text() for page in PdfReader(io.BytesIO(answer.getvalue())).pages
            )
            assert night.name in text or name == "certificates"
            if lang != "en" and name == "presenter":
                assert "Feuille de la remise des prix" in text
            if lang == "en" and name == "presenter":
                # In the order prizes are handed out: the final, then the divisions.
                assert text.index("Champions (the final)") < text.index("Place 1, division A")
                assert "50/50: ticket" in text
    blank = director_client.get(url("certificates", night) + "?blank=1&margin=10")
    assert blank.status_code == 200
    assert director_client.get(url("certificates", night) + "?margin=x").status_code == 400
    csv = director_client.get(url("csv", night)).content.decode()
    assert "Entry fees taken" in csv and "80.00" in csv


def test_the_pages_read_in_french(night, director_client) -> None:
    director_client.cookies["django_language"] = "fr"
    with translation.override("fr"):
        for name in ("fees", "payout", "drawer", "settings"):
            html = director_client.get(url(name, night), HTTP_ACCEPT_LANGUAGE="fr").content
            assert b"Purse and payout" not in html, name
            assert b"Bourse" in html or b"bourse" in html, name


# The door's page, the payout and the drawer read in a fixed number of queries: none is
# made per player, hand or ledger entry. The payout reads the standings, the hands and the
# prizes (which read the standings and hands again through the prizes' own reader).
PAGE_QUERIES = {"fees": 8, "payout": 31, "drawer": 11}


@pytest.mark.parametrize("name", PAGE_QUERIES)
def test_the_money_pages_read_in_a_fixed_number_of_queries(
    night, director_client, django_assert_num_queries, name
) -> None:
    director_client.get(url(name, night))  # the session and the caches warm
    with django_assert_num_queries(PAGE_QUERIES[name]):
        assert director_client.get(url(name, night)).status_code == 200


def test_a_player_sees_only_their_own_money_and_no_prize_while_hidden(night, client) -> None:
    seen = reads.preview(night, night.created_at)
    services.confirm_payout(night, digest=seen.digest, client_key="c", by="dir")
    winner = next(a for a in seen.awards if a.what == "place")
    loser = (
        Player.objects.filter(tournament=night)
        .exclude(pk__in=[a.player for a in seen.awards])
        .first()
    )
    own = reverse("money_public:own", args=[night.slug, winner.player])
    page = client.get(own).content.decode()
    assert "Place 1, division A" in page and "$40.00" in page
    assert "purse" not in page.casefold()
    other = client.get(reverse("money_public:own", args=[night.slug, loser.pk])).content.decode()
    assert "$40.00" not in other and winner.name not in other
    assert client.get(reverse("money_public:own", args=["no-such-event", 1])).status_code == 404
    # Hidden standings hide the payout until revealed (hidden only before the final:
    # the event put back there, as a reopened last round would).
    Round.objects.filter(tournament=night, kind=Round.Kind.FINAL).delete()
    Tournament.objects.filter(pk=night.pk).update(
        hide_standings_last_rounds=2, status=Tournament.Status.PRELIMINARY
    )
    hidden = client.get(own).content.decode()
    assert "$40.00" not in hidden
    assert "show when the standings are revealed" in hidden
