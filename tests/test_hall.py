"""The hall address: every address a person or a QR code follows is one the hall can reach.

A page opened on the laptop itself (at 127.0.0.1) still prints and encodes the hall
address (``HALL_URL``): the tablets' links, the players' event page on the projector, the
seating sheet and the table cards. One helper makes those addresses
(``tournaments.common.hall.absolute_url``) and one makes every QR code
(``tournaments.common.hall.qr_code``); the code searches below fail when a new place makes its own.
"""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import segno
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from pypdf import PdfReader

from tournaments.common.hall import is_loopback
from tournaments.core.models.event import Player
from tournaments.core.models.play import TableLink
from tournaments.core.services import rounds
from tournaments.core.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
HALL = "http://192.168.7.20:8000"
LAPTOP = "127.0.0.1:8000"
URL = re.compile(r"https?://[^\s\"'<>)]+")


def source_files() -> list[Path]:
    return [
        path
        for folder in ("snowman", "tournaments", "templates", "static", "bench")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".html", ".js", ".txt") and "migrations" not in path.parts
    ]


def test_only_the_hall_helper_builds_an_absolute_url_from_the_request() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in source_files()
        if "build_absolute_uri" in path.read_text()
        and path.relative_to(ROOT).as_posix() != "tournaments/common/hall.py"
    ]
    assert offenders == []


def test_only_the_hall_helper_makes_a_qr_code() -> None:
    makers = re.compile(r"segno\.make|QrCodeWidget|import qrcode|from qrcode")
    offenders = [
        str(path.relative_to(ROOT))
        for path in source_files()
        if makers.search(path.read_text())
        and path.relative_to(ROOT).as_posix() != "tournaments/common/hall.py"
    ]
    assert offenders == []


# --- every page and sheet, opened at the laptop's loopback address ---------------------------


def patterns(resolver: URLResolver, prefix: str = "") -> list[tuple[str, URLPattern]]:
    """Every URL pattern of the site with its namespaced name, from the URL conf itself."""
    found: list[tuple[str, URLPattern]] = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            space = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            found.extend(patterns(entry, space))
        elif entry.name:
            found.append((prefix + entry.name, entry))
    return found


def loopback_urls(text: str) -> list[str]:
    return [u for u in URL.findall(text) if is_loopback(urlsplit(u).hostname or "")]


def readable(response) -> str:
    """What a person reads in the answer: the HTML, the SVG, or the PDF's text."""
    if response.get("Content-Type") == "application/pdf":
        data = b"".join(response.streaming_content)
        # A long address may break across lines on paper: read the text joined up again.
        return " ".join(
            "".join(page.extract_text().split()) for page in PdfReader(BytesIO(data)).pages
        )
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode(errors="replace")
    return response.content.decode(errors="replace")


@pytest.fixture
def at_the_laptop(settings, director_client, monkeypatch):
    """The director's browser on the laptop itself, with the hall address known, and a
    record of everything any QR code was made from."""
    settings.ALLOWED_HOSTS = ["*"]
    settings.HALL_URL = HALL
    encoded: list[str] = []
    make = segno.make

    def recording(content, *args, **kw):
        encoded.append(str(content))
        return make(content, *args, **kw)

    monkeypatch.setattr(segno, "make", recording)
    director_client.defaults["HTTP_HOST"] = LAPTOP
    return director_client, encoded


@pytest.mark.slow  # a walk over every URL of two events
def test_no_printed_or_encoded_address_is_a_loopback_one_when_a_hall_address_is_set(
    at_the_laptop, make_tournament
):
    client, encoded = at_the_laptop
    finished = simulate(2, seed=11, name="Finished Snowman")
    live = make_tournament(3, name="Live Snowman")
    rounds.start_round(rounds.draw_first_round(live, by="test", seed=5), by="test")
    checked: dict[str, str] = {}
    skipped: list[str] = []
    for t in (live, finished):
        player = Player.objects.filter(tournament=t).first()
        assert player is not None
        values = {
            "slug": t.slug,
            "number": 1,
            "table": 1,
            "player": player.pk,
            "pk": player.pk,
            "division": "A",
        }
        for name, pattern in patterns(get_resolver()):
            wanted = set(pattern.pattern.regex.groupindex)
            if not wanted <= values.keys():
                skipped.append(name)
                continue
            path = reverse(name, kwargs={k: values[k] for k in wanted})
            response = client.get(path)
            if response.status_code != 200:
                continue
            text = readable(response)
            checked[f"{t.slug} {name}"] = text
            assert loopback_urls(text) == [], (name, path)
    # The walk reached the pages that print or encode an address, and they print the hall's.
    event_page = f"{HALL}/e/{live.slug}/"
    token = TableLink.objects.get(tournament=live, table=1, revoked_at__isnull=True).token
    for name in ("public:projector", "sheets:seating"):
        assert event_page in checked[f"{live.slug} {name}"], name
    assert f"{HALL}/t/" in checked[f"{live.slug} sheets:table_cards"]
    assert f"{HALL}/t/{token}/" in checked[f"{live.slug} director:table"]
    assert f"{live.slug} sheets:final" in checked or f"{finished.slug} sheets:final" in checked
    # Every QR code made on the way (projector, sheets, cards, the table page) is the hall's.
    assert encoded and all(not loopback_urls(u) and u.startswith(HALL) for u in encoded)
    assert event_page in encoded and f"{HALL}/t/{token}/" in encoded


def test_the_projector_shows_phones_the_hall_address_not_the_laptops(
    at_the_laptop, make_tournament
):
    client, encoded = at_the_laptop
    t = make_tournament(2)
    page = client.get(reverse("public:projector", args=[t.slug])).content.decode()
    assert f"<strong>{HALL}/e/{t.slug}/</strong>" in page
    assert client.get(reverse("public:qr", args=[t.slug])).status_code == 200
    assert encoded == [f"{HALL}/e/{t.slug}/"]


def test_the_seating_sheet_and_table_cards_print_the_hall_address_for_players(
    at_the_laptop, make_tournament
):
    client, encoded = at_the_laptop
    t = make_tournament(2)
    rounds.draw_first_round(t, by="test", seed=5)
    seating = readable(client.get(reverse("sheets:seating", args=[t.slug, 1])))
    assert f"{HALL}/e/{t.slug}/" in seating and LAPTOP not in seating
    assert set(encoded) == {f"{HALL}/e/{t.slug}/"}
    encoded.clear()
    cards = readable(client.get(reverse("sheets:table_cards", args=[t.slug])))
    assert LAPTOP not in cards
    # Each card: its tablet's link, then the players' event page in the corner.
    assert len(encoded) == 2 * 2 and all(u.startswith(HALL) for u in encoded)
    assert encoded.count(f"{HALL}/e/{t.slug}/") == 2


def test_the_qr_code_is_drawn_anew_when_the_hall_address_changes(
    at_the_laptop, make_tournament, settings
):
    """The laptop restarts on another address, or HTTPS is switched on: the projector's
    browser asks with the old picture's ETag and must get the new picture, not a 304."""
    client, encoded = at_the_laptop
    t = make_tournament(2)
    path = reverse("public:qr", args=[t.slug])
    first = client.get(path)
    assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    moved = "https://192.168.7.31:8000"
    settings.HALL_URL = moved
    again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again.content != first.content and again["ETag"] != first["ETag"]
    assert encoded == [f"{HALL}/e/{t.slug}/", f"{moved}/e/{t.slug}/"]


def test_without_a_hall_address_the_qr_code_follows_the_scheme_it_was_asked_with(
    at_the_laptop, make_tournament, settings
):
    client, encoded = at_the_laptop
    settings.HALL_URL = ""
    t = make_tournament(2)
    path = reverse("public:qr", args=[t.slug])
    plain = client.get(path)
    secure = client.get(path, HTTP_IF_NONE_MATCH=plain["ETag"], secure=True)
    assert secure.status_code == 200 and secure.content != plain.content
    assert encoded == [f"http://{LAPTOP}/e/{t.slug}/", f"https://{LAPTOP}/e/{t.slug}/"]
