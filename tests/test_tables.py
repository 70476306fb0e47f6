"""The director's tables: LeanTable writes each table's body in Python for speed, through
django-tables2's own cells; what it writes must stay what the library's stock template
writes, so that an upgrade of django-tables2 that changes how cells render shows here."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import RequestFactory
from django.test.html import parse_html
from django_tables2 import RequestConfig

from tournaments.core.models.log import Activity
from tournaments.core.reads import queries
from tournaments.core.reads.console import find_your_seat, seating_tables
from tournaments.core.reads.standings import standings
from tournaments.core.services.players import add_house_player, set_withdrawn
from tournaments.core.simulate import simulate
from tournaments.core.tables import (
    ActivityTable,
    LeanTable,
    PlayerTable,
    SeatFinderTable,
    StandingsTable,
)

pytestmark = pytest.mark.django_db

STOCK = "django_tables2/bootstrap5.html"


def both(make: Any) -> tuple[Any, Any]:
    """The same table rendered by LeanTable's body and by the stock cell template."""
    request = RequestFactory().get("/")
    lean, stock = make(), make()
    stock.template_name = STOCK
    for table in (lean, stock):
        RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return html(lean.as_html(request)), html(stock.as_html(request))


def html(text: str) -> Any:
    # Each CSRF field carries its own masking of the one token.
    return parse_html(re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "csrf", text))


@pytest.fixture
def event() -> Any:
    t = simulate(2, seed=5)
    # A finalist cannot be withdrawn once the final is seated: one who did not play it.
    gone = (
        t.players.filter(house=False, division="A")
        .exclude(seats__round__kind="final")
        .order_by("name")
        .first()
    )
    set_withdrawn(gone, True, by="test", reason="went home")
    add_house_player(t, "Harry House", "A", by="test")
    return t


def test_every_director_table_is_a_lean_table() -> None:
    # A new table written through the stock template would be slow at 500 tables.
    for table in (PlayerTable, SeatFinderTable, StandingsTable, ActivityTable):
        assert issubclass(table, LeanTable)
        assert table._meta.template_name == "django_tables2/lean.html"


def test_the_players_table_writes_what_the_stock_template_writes(event: Any) -> None:
    last = queries.last_preliminary(event)
    lean, stock = both(
        lambda: PlayerTable(
            queries.sorted_players(queries.player_list(event, "", "", "", last)), slug=event.slug
        )
    )
    assert lean == stock


def test_the_standings_table_writes_what_the_stock_template_writes(event: Any) -> None:
    rows = standings(event)["A"]
    lean, stock = both(lambda: StandingsTable(rows, event.preliminary_rounds, prefix="a-"))
    assert lean == stock


def test_the_seat_finder_writes_what_the_stock_template_writes(event: Any) -> None:
    lines = find_your_seat(seating_tables(event.rounds.get(number=1)))
    lean, stock = both(lambda: SeatFinderTable(lines, prefix="f-"))
    assert lean == stock


def test_the_activity_table_writes_what_the_stock_template_writes(event: Any) -> None:
    assert Activity.objects.filter(tournament=event).exists()
    lean, stock = both(lambda: ActivityTable(queries.activity_entries(event, "")))
    assert lean == stock
