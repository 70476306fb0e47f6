"""Printed sheets that fit: a long name shrinks, never cut, and keeps its
division mark, on the seating chart, the scoresheets and the final sheet. The pages are
also rendered with pdftoppm to /tmp/screens-shots/ to be looked at."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from tests.test_sheets import pages, url
from tournaments.core.models.event import Player
from tournaments.core.models.play import TableLink
from tournaments.core.reads.tablet.link import shown
from tournaments.core.services.rounds import draw_first_round

SHOTS = Path("/tmp/screens-shots")
LONG = [
    ("Jean-François Bélanger", "A"),
    ("Marie-Ève Saint-Pierre-Desrosiers", "A"),
    ("Réjean Lévesque-Beauchemin", "B"),
    ("Anne-Sophie de la Chevrotière-Lamontagne", "B"),
]


@pytest.fixture
def long_named(make_tournament):
    t = make_tournament(3)
    players = {d: list(Player.objects.filter(tournament=t, division=d)) for d in "AB"}
    for (name, division), p in zip(LONG, [*players["A"][:2], *players["B"][:2]], strict=True):
        assert p.division == division
        p.name = name
        p.save(update_fields=["name"])
    draw_first_round(t, by="test", seed=5)
    return t


def look(data: bytes, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    pdf = SHOTS / f"{name}.pdf"
    pdf.write_bytes(data)
    subprocess.run(["pdftoppm", "-png", "-r", "80", str(pdf), str(SHOTS / name)], check=True)


@pytest.mark.parametrize("sheet", ["seating", "scoresheets"])
def test_a_long_name_is_printed_whole_with_its_division_mark(director_client, long_named, sheet):
    response = director_client.get(url(sheet, long_named.slug, 1))
    text = "\n".join(pages(response))
    for name, division in LONG:
        # Whole, once at least, with its mark; never an ellipsis in its place.
        assert f"{name} ({division})" in " ".join(text.split()), (sheet, name)
    assert "…" not in text
    look(b"".join(director_client.get(url(sheet, long_named.slug, 1)).streaming_content), sheet)


def test_the_table_tents_carry_number_qr_and_code_and_no_names(director_client, long_named):
    """Printed once for the event: nothing on them changes from round to round."""
    response = director_client.get(reverse("sheets:table_tents", args=[long_named.slug]))
    data = b"".join(response.streaming_content)
    # Poppler reads the upside-down face too (pypdf skips rotated text).
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode()
    assert text.count("TABLE") == 6  # three tables, two faces each
    links = TableLink.objects.filter(tournament=long_named, revoked_at__isnull=True)
    for link in links:
        assert text.count(shown(link.code)) == 2
    for name, _division in LONG:
        assert name not in text
    assert "Round" not in text
    look(data, "tents")
