"""The PostgreSQL backend: the statements every hand and every poll runs are prepared
once per connection; every other statement is bound on the client, as Django binds it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.test_tablet import hand, post, tablet
from tournaments.core.models.event import Player, Tournament
from tournaments.core.phones import reads
from tournaments.core.services import rounds

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the PostgreSQL backend only"
)


@pytest.fixture
def event(make_tournament):
    t = make_tournament(tables=2)
    rounds.start_round(rounds.draw_first_round(t, by="test", seed=11), by="test")
    return t


def prepared(starting: str) -> int:
    """How many statements this connection holds prepared whose text starts so."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            [starting.replace("%", r"\%") + "%"],
        )
        return int(cursor.fetchone()[0])


def test_a_phones_poll_is_planned_once_per_connection_not_on_every_poll(event):
    player = Player.objects.filter(tournament=event).first()
    assert player is not None
    reads.version(event.slug, ("activity",), player.pk)
    first = prepared("SELECT t.id, t.language")
    assert first >= 1
    for _ in range(5):
        reads.version(event.slug, ("activity",), player.pk)
    assert prepared("SELECT t.id, t.language") == first


def test_a_hand_and_a_tablets_poll_run_prepared_statements(event):
    client = tablet(event, 1)
    status, _ = post(client, "hands", hand(1))
    assert status == 201
    assert prepared('INSERT INTO "tournaments_handentry"') >= 1
    assert client.get("/t/table/state.json").status_code == 200
    assert prepared("SELECT EXISTS (SELECT 1 FROM") >= 1


def test_the_orms_own_statements_are_not_prepared(event):
    for _ in range(8):
        assert Tournament.objects.filter(name=event.name).count() == 1
    assert prepared("SELECT COUNT(*)") == 0


def test_the_query_log_shows_a_prepared_statement_with_its_parameters(event):
    with CaptureQueriesContext(connection) as queries:
        reads.version(event.slug, ("activity",))
    assert len(queries.captured_queries) == 1
    assert f"t.slug = '{event.slug}'" in queries.captured_queries[0]["sql"]
