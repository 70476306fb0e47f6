"""import_results: snowman.results/1 files in, whole or not at all, and only once."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import (
    EventResult,
    HandEntry,
    ImportedEvent,
    Match,
    Person,
    PersonLink,
    Player,
    Seating,
    Tournament,
)
from tournaments.services.export import export_results
from tournaments.services.results_import import InvalidResults, import_results
from tournaments.services.simulate import simulate
from tournaments.services.standings import standings

pytestmark = pytest.mark.django_db


def exported(tables: int = 2, seed: int = 3, slug: str = "spring-open") -> dict:
    t = simulate(tables, seed=seed, name=f"Source {seed}")
    doc = export_results(t)
    doc["tournament"]["slug"] = slug
    doc["tournament"]["name"] = slug.replace("-", " ").title()
    return doc


def counts() -> tuple[int, ...]:
    return tuple(
        m.objects.count()
        for m in (Tournament, Player, Seating, Match, HandEntry, Person, PersonLink, EventResult)
    )


def test_an_imported_event_keeps_every_match_hand_and_standing_of_the_file():
    doc = exported()
    out = import_results(json.dumps(doc), by="director")
    t = out.tournament
    assert out.created and t.status == Tournament.Status.FINISHED
    assert out.players == len(doc["players"])
    prelim = sum(len(r["matches"]) for r in doc["rounds"])
    assert out.matches == prelim + len(doc["final"]["games"])
    hands = sum(len(m["hands"]) for r in doc["rounds"] for m in r["matches"])
    hands += sum(len(g["hands"]) for g in doc["final"]["games"])
    assert HandEntry.objects.filter(match__round__tournament=t).count() == hands
    # The standings recomputed from the imported seats agree with the file's.
    mine = {
        d: [(row.rank, row.player.name, row.record.total) for row in rows]
        for d, rows in standings(t).items()
    }
    names = {p["id"]: p["name"] for p in doc["players"]}
    theirs = {
        d: [(row["rank"], names[row["player"]], row["total"]) for row in rows]
        for d, rows in doc["standings"].items()
    }
    assert mine == theirs
    # And the export of the imported event is the file again (ids aside).
    again = export_results(t)
    assert [len(r["matches"]) for r in again["rounds"]] == [
        len(r["matches"]) for r in doc["rounds"]
    ]
    assert again["final"]["champions"] is not None


def test_importing_the_same_file_twice_changes_nothing():
    doc = exported()
    import_results(json.dumps(doc), by="director")
    before = counts()
    out = import_results(json.dumps(doc, indent=4), by="someone else")
    assert not out.created
    assert counts() == before
    assert ImportedEvent.objects.count() == 1


def test_a_wrong_field_deep_in_the_file_names_it_and_imports_nothing():
    doc = exported()
    doc["rounds"][-1]["matches"][0]["seats"]["W"] = 9999
    before = counts()
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    last = len(doc["rounds"]) - 1
    assert err.value.where == f"rounds[{last}].matches[0].seats.W"
    assert "9999 is not in players" in err.value.message
    assert counts() == before


def test_a_score_that_disagrees_with_its_hands_is_refused():
    doc = exported()
    doc["rounds"][0]["matches"][1]["score"]["NS"] += 1
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == "rounds[0].matches[1].score.NS"
    assert "hands add up to" in err.value.message


def test_broken_json_is_refused_with_its_line_and_column():
    text = json.dumps(exported(), indent=1)
    lines = text.splitlines()
    lines[5] = lines[5] + ","  # a trailing comma
    with pytest.raises(InvalidResults) as err:
        import_results("\n".join(lines), by="director")
    assert err.value.where.startswith("line ")
    assert Tournament.objects.filter(slug="spring-open").count() == 0


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(schema="snowman.results/2"), "schema"),
        (lambda d: d["players"][0].update(division="C"), "players[0].division"),
        (lambda d: d["players"][1].update(id=d["players"][0]["id"]), "players[1].id"),
        (
            lambda d: d["rounds"][0]["matches"][0]["hands"][0].update(maker_tricks=7),
            "rounds[0].matches[0].hands[0].maker_tricks",
        ),
        (
            lambda d: d["rounds"][0]["matches"][0]["hands"][0].update(outcome="lost"),
            "rounds[0].matches[0].hands[0].outcome",
        ),
        (lambda d: d["rounds"][0].update(number=True), "rounds[0].number"),
        (lambda d: d["tournament"].update(slug="Not a slug"), "tournament.slug"),
        (lambda d: d["standings"]["A"][0].pop("total"), "standings.A[0].total"),
    ],
)
def test_each_malformed_field_is_named(change, where):
    doc = exported(tables=1)
    change(doc)
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == where
    assert not Tournament.objects.filter(slug="spring-open").exists()


def test_unknown_additive_keys_from_newer_exports_are_ignored():
    doc = exported(tables=1)
    doc["players"][0]["status"] = "withdrawn"
    doc["players"][0]["sit_outs"] = [3]
    doc["rounds"][0]["substitutions"] = [{"seat": "N", "from_hand": 4}]
    doc["rounds"][0]["matches"][0]["extension_seconds"] = 60
    doc["tournament"]["rules"]["sit_out_score"] = "average"
    doc["generator"] = {"name": "snowman", "version": "9"}
    del doc["players"][1]["withdrawn"]
    doc["players"][1]["status"] = "withdrawn"
    out = import_results(json.dumps(doc), by="director")
    assert out.created
    withdrawn = dict(out.tournament.players.values_list("name", "withdrawn"))
    assert withdrawn[doc["players"][1]["name"]] is True


def test_an_event_already_here_under_that_slug_is_refused_not_overwritten():
    doc = exported(tables=1)
    first = import_results(json.dumps(doc), by="director")
    doc["tournament"]["name"] = "Renamed"
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == "tournament.slug"
    first.tournament.refresh_from_db()
    assert first.tournament.name == "Spring Open"


def test_the_command_imports_files_and_reports_a_bad_one_without_importing_it(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(exported(tables=1, seed=4, slug="good-event")))
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "snowman.results/1", "tournament": 5}')
    out = StringIO()
    with pytest.raises(CommandError) as err:
        call_command("import_results", str(good), str(bad), stdout=out)
    assert "bad.json: tournament: expected an object" in str(err.value)
    assert "imported Good Event" in out.getvalue()
    assert "Ratings recomputed" in out.getvalue()
    out = StringIO()
    call_command("import_results", str(good), stdout=out)
    assert "already imported as good-event; nothing changed" in out.getvalue()
    assert Tournament.objects.filter(slug="good-event").count() == 1


def test_a_failure_while_writing_rolls_the_whole_file_back():
    doc = exported(tables=1)
    before = counts()

    def failing_link(players, **kw):
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        import_results(json.dumps(doc), by="director", link=failing_link)
    assert counts() == before
    assert not ImportedEvent.objects.exists()
    assert import_results(json.dumps(doc), by="director").created


def test_a_messy_event_imports_house_players_apart_from_people_and_keeps_withdrawals():
    source = simulate(6, seed=4, name="Messy Source", house=2, withdraw=2)
    doc = export_results(source)
    doc["tournament"]["slug"] = "messy-import"
    house = {p["name"] for p in doc["players"] if p["status"] == "house"}
    gone = {p["name"]: p["withdrawn_after_round"] for p in doc["players"] if p["withdrawn"]}
    assert house and gone
    out = import_results(json.dumps(doc), by="director")
    imported = list(Player.objects.filter(tournament=out.tournament))
    assert {p.name for p in imported if p.house} == house
    assert {p.name: p.withdrawn_after_round for p in imported if p.withdrawn} == gone
    # A house player is a stand-in for one event: never a person, so never rated.
    linked = set(
        PersonLink.objects.filter(player__tournament=out.tournament).values_list(
            "player__name", flat=True
        )
    )
    assert not linked & house
    assert len(linked) == len(imported) - len(house)
