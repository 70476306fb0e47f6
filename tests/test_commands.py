"""Management commands: import_players, seed_demo."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import HandEntry
from tournaments.core.models.rounds import Round
from tournaments.core.services.tournaments import create_tournament

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


def test_import_players_refuses_a_file_far_longer_than_any_event_whole(tournament, tmp_path):
    # 40,000 rows once overflowed one query's parameters (SQLite: "too many SQL variables")
    # and printed a traceback; the command and the upload now refuse such a file whole.
    path = tmp_path / "players.csv"
    path.write_text("name,division\n" + "".join(f"Player {i:05d},A\n" for i in range(40_000)))
    with pytest.raises(CommandError) as err:
        call_command("import_players", tournament.slug, str(path))
    assert str(err.value) == (
        "Nothing was imported:\nThe file has more than 10,000 lines; a list of players is far "
        "shorter."
    )
    assert not Player.objects.exists()


def test_the_players_upload_refuses_a_file_far_longer_than_any_event(director_client, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    body = "".join(f"Player {i:05d},B\n" for i in range(10_001)).encode()
    for confirm in ("", "1"):
        response = director_client.post(
            f"/director/{tournament.slug}/players/import/",
            {"file": SimpleUploadedFile("players.csv", body, "text/csv"), "confirm": confirm},
        )
        assert response.status_code == 422
        assert b"more than 10,000 lines" in response.content
    assert not Player.objects.exists()


@pytest.mark.parametrize("name", ["n" * 121, "   "])
def test_simulate_refuses_a_name_no_tournament_can_have_and_makes_nothing(name):
    # 121 characters was a PostgreSQL traceback (the column holds 120).
    with pytest.raises(CommandError) as err:
        call_command("simulate", tables=1, name=name, stdout=io.StringIO())
    assert str(err.value) == "Give the tournament a name of at most 120 characters."
    assert not Tournament.objects.exists()


def test_seed_demo_leaves_a_tournament_part_way_through_and_is_repeatable():
    call_command("seed_demo", tables=4, stdout=io.StringIO())
    call_command("seed_demo", tables=4, stdout=io.StringIO())
    demo = Tournament.objects.get()
    running = demo.rounds.get(status=Round.Status.RUNNING)
    assert running.number == 3
    assert demo.rounds.filter(status=Round.Status.FINISHED).count() == 2
    assert HandEntry.objects.filter(match__round=running).exists()


# --- the director's language (issue 24) ----------------------------------------------------


def test_a_command_speaks_the_language_chosen_by_option_or_environment(
    tournament, tmp_path, monkeypatch
):
    path = tmp_path / "joueurs.csv"
    # The header as a French download writes it is read as a header, not as a player.
    path.write_text("nom,division\nAnn Lee,A\n")
    out = io.StringIO()
    call_command("import_players", tournament.slug, str(path), language="fr", stdout=out)
    assert out.getvalue() == "1 joueur importé dans Spring Snowman.\n"
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann Lee"]
    path.write_text("nom,division\nBob Ray,Q\n")
    with pytest.raises(CommandError) as err:
        call_command("import_players", tournament.slug, str(path), language="fr")
    assert str(err.value) == (
        "Rien n’a été importé\u00a0:\nligne 2\u00a0: la division doit être A ou B, pas 'Q'."
    )
    monkeypatch.setenv("SNOWMAN_LANGUAGE", "fr")
    with pytest.raises(CommandError) as err:
        call_command("export_results", "nowhere")
    assert str(err.value) == "Aucun tournoi n’a le slug 'nowhere'."
    # The option wins over the environment; without either, the site's LANGUAGE_CODE.
    with pytest.raises(CommandError) as err:
        call_command("export_results", "nowhere", language="en")
    assert str(err.value) == "No tournament with slug 'nowhere'."
    monkeypatch.delenv("SNOWMAN_LANGUAGE")
    with pytest.raises(CommandError, match="^No tournament with slug 'nowhere'.$"):
        call_command("export_results", "nowhere")


def test_every_snowman_command_takes_the_language_option():
    from django.core.management import get_commands, load_command_class

    from tournaments.management.base import TranslatedCommand

    ours = [name for name, app in get_commands().items() if app == "tournaments"]
    # Translation tooling itself needs no language; every command the director runs does.
    tools = {"update_translations", "compile_translations"}
    assert len(ours) > 10
    untranslated = [
        name
        for name in ours
        if name not in tools
        and not isinstance(load_command_class("tournaments", name), TranslatedCommand)
    ]
    assert untranslated == []
