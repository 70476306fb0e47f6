"""Management commands: import_players, seed_demo."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import HandEntry, Player, Round, Tournament
from tournaments.services.tournaments import create_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return create_tournament("Spring Snowman", by="test", lot_seed=1)


def test_import_players_reports_each_bad_row_with_its_line_and_imports_nothing(
    tournament, tmp_path
):
    path = tmp_path / "players.csv"
    path.write_text("name,division\nAnn Lee,A\nBob Ray,Q\n,B\nCara Diaz,B\n")
    with pytest.raises(CommandError) as err:
        call_command("import_players", tournament.slug, str(path))
    message = str(err.value)
    assert "Nothing was imported" in message
    assert "line 3: division must be A or B, not 'Q'." in message
    assert "line 4: the name is empty." in message
    assert not Player.objects.exists()


def test_import_players_imports_a_good_file(tournament, tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes("\ufeffname,division\nAnn Lee,A\nBéa Ngô,b\n".encode())
    out = io.StringIO()
    call_command("import_players", tournament.slug, str(path), stdout=out)
    assert "Imported 2 players" in out.getvalue()
    assert sorted(Player.objects.values_list("name", "division")) == [
        ("Ann Lee", "A"),
        ("Béa Ngô", "B"),
    ]


def test_import_players_refuses_an_unknown_tournament_and_a_missing_file(tournament, tmp_path):
    with pytest.raises(CommandError, match="No tournament"):
        call_command("import_players", "nope", str(tmp_path / "x.csv"))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_players", tournament.slug, str(tmp_path / "missing.csv"))


def test_seed_demo_leaves_a_tournament_part_way_through_and_is_repeatable():
    call_command("seed_demo", tables=4, stdout=io.StringIO())
    call_command("seed_demo", tables=4, stdout=io.StringIO())
    demo = Tournament.objects.get()
    running = demo.rounds.get(status=Round.Status.RUNNING)
    assert running.number == 3
    assert demo.rounds.filter(status=Round.Status.FINISHED).count() == 2
    assert HandEntry.objects.filter(match__round=running).exists()
