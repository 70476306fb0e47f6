"""import_results: snowman.results/1 files in, whole or not at all, and only once."""

from __future__ import annotations

import contextlib
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.people import EventResult, ImportedEvent, Person, PersonLink
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Seating, Substitution
from tournaments.core.reads.standings import standings
from tournaments.core.simulate import simulate
from tournaments.series import results_import
from tournaments.series.export import export_results
from tournaments.series.results_import import InvalidResults, import_results
from tournaments.series.services import create_series

pytestmark = pytest.mark.django_db


def exported(tables: int = 2, seed: int = 3, slug: str = "spring-open") -> dict:
    t = simulate(tables, seed=seed, name=f"Source {seed}")
    doc = export_results(t)
    doc["tournament"]["slug"] = slug
    doc["tournament"]["name"] = slug.replace("-", " ").title()
    return doc


# Each file of the tests below is refused while it is checked, before anything is
# written: it is simulated once per test process (in a savepoint rolled back, so that no
# test sees its source event) and each test spoils a copy of its own.
_REFUSED_SOURCES: dict[tuple[int, int], str] = {}


def a_file_to_spoil(tables: int = 2, seed: int = 3) -> dict:
    from django.db import transaction

    if (tables, seed) not in _REFUSED_SOURCES:
        with transaction.atomic():
            _REFUSED_SOURCES[tables, seed] = json.dumps(exported(tables, seed))
            transaction.set_rollback(True)
    return json.loads(_REFUSED_SOURCES[tables, seed])


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
    doc = a_file_to_spoil()
    doc["rounds"][-1]["matches"][0]["seats"]["W"] = 9999
    before = counts()
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    last = len(doc["rounds"]) - 1
    assert err.value.where == f"rounds[{last}].matches[0].seats.W"
    assert "9999 is not in players" in err.value.message
    assert counts() == before


def test_a_score_that_disagrees_with_its_hands_is_refused():
    doc = a_file_to_spoil()
    doc["rounds"][0]["matches"][1]["score"]["NS"] += 1
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == "rounds[0].matches[1].score.NS"
    assert "hands add up to" in err.value.message


def test_broken_json_is_refused_with_its_line_and_column():
    text = json.dumps(a_file_to_spoil(), indent=1)
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
    doc = a_file_to_spoil(tables=1)
    change(doc)
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == where
    assert not Tournament.objects.filter(slug="spring-open").exists()


def test_a_player_listed_twice_in_a_divisions_standings_is_named_at_the_repeated_row():
    """Refused as "11 players ranked, the matches rank 10" before: no row named."""
    doc = a_file_to_spoil(tables=1)
    rows = doc["standings"]["A"]
    rows.append(dict(rows[1]))
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == f"standings.A[{len(rows) - 1}]"
    assert "listed twice (also at standings.A[1])" in str(err.value)
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


def test_an_event_where_a_player_left_mid_match_exports_and_imports_with_one_match_for_him(
    make_tournament,
):
    from tournaments.core.services import ServiceError, closing, play, rounds
    from tournaments.core.services.players import register_player
    from tournaments.core.services.substitutions import Signed, substitute
    from tournaments.domain.hands import Hand, Outcome, Seat

    t = make_tournament(2, target=4, preliminary_rounds=1)
    r1 = rounds.draw_first_round(t, by="test", seed=2)
    rounds.start_round(r1, by="test")
    m1, m2 = r1.matches.select_related("round__tournament").order_by("table")
    for m in (m1, m2):
        play.set_first_dealer(m, Seat.W, by="test")
    dan = r1.seats.get(table=1, position="N").player
    play.record_hand(m1, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=3), client_key="a", by="t")
    wes = register_player(t, "Wes Waiting", "A", by="desk", checked_in=True)
    substitute(m1, "N", 2, wes, Signed("director", "a phone call"))
    # The director tries to bring Dan back at the other table: refused, the file stays whole.
    with contextlib.suppress(ServiceError):
        substitute(m2, "N", 1, dan, Signed("director", "he is back"))
    march = Hand(Outcome.PLAYED, maker=Seat.N, alone=True, maker_tricks=5)
    for m in (m1, m2):
        play.record_hand(m, march, client_key=f"end-{m.table}", by="t")
        m.refresh_from_db()
        closing.confirm_match(m, agree=True, by="t")
    rounds.finalize_round(r1, by="test")
    doc = export_results(t)
    (only,) = doc["rounds"]
    sat = [pid for m in only["matches"] for pid in m["seats"].values()]
    sat += [s["out"] for m in only["matches"] for s in m["substitutions"]]
    assert sat.count(dan.pk) == 1 and sat.count(wes.pk) == 1
    doc["tournament"]["slug"] = "left-mid-match"
    out = import_results(json.dumps(doc), by="director")
    assert out.created
    again = {
        d: [(row.player.name, row.played, row.record.total) for row in rows]
        for d, rows in standings(out.tournament).items()
    }
    assert again == {
        d: [(row.player.name, row.played, row.record.total) for row in rows]
        for d, rows in standings(t).items()
    }


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


# --- The results file as a contract -----------------------


def _names(doc: dict) -> dict[int, str]:
    return {p["id"]: p["name"] for p in doc["players"]}


def by_name(doc: dict) -> dict:
    """The document with every player id replaced by the player's name (the ids of an
    imported event are its own), and the event's name and slug left out."""
    name = _names(doc)
    out = json.loads(json.dumps(doc))
    del out["tournament"]["name"], out["tournament"]["slug"]
    out["players"] = [{**p, "id": name[p["id"]]} for p in doc["players"]]
    for rnd in out["rounds"]:
        for m in rnd["matches"]:
            m["seats"] = {s: name[p] for s, p in m["seats"].items()}
            m["players"] = {name[int(k)]: v for k, v in m["players"].items()}
            for sub in m["substitutions"]:
                sub["out"], sub["in"] = name[sub["out"]], name[sub["in"]]
        for s in rnd["sit_outs"]:
            s["player"] = name[s["player"]]
    for rows in out["standings"].values():
        for row in rows:
            row["player"] = name[row["player"]]
    if out["final"] is not None:
        out["final"]["seats"] = {s: name[p] for s, p in out["final"]["seats"].items()}
    for mark in out.get("stationary", []):
        mark["player"] = name[mark["player"]]
    return out


def round_trip(source: Tournament, slug: str) -> tuple[dict, dict]:
    """export -> import -> export: both exports, the second of the imported event."""
    doc = export_results(source)
    doc["tournament"]["slug"] = slug
    out = import_results(json.dumps(doc), by="director")
    assert out.created
    return doc, export_results(out.tournament)


def assert_same_event(first: dict, second: dict) -> None:
    a, b = by_name(first), by_name(second)
    # Field by field, so that a failure names the part that differs.
    assert a["tournament"] == b["tournament"]
    assert a["players"] == b["players"]
    assert len(a["rounds"]) == len(b["rounds"])
    for ra, rb in zip(a["rounds"], b["rounds"], strict=True):
        assert {k: v for k, v in ra.items() if k != "matches"} == {
            k: v for k, v in rb.items() if k != "matches"
        }
        assert len(ra["matches"]) == len(rb["matches"])
        for ma, mb in zip(ra["matches"], rb["matches"], strict=True):
            assert ma["hands"] == mb["hands"]
            assert ma == mb
    assert a["standings"] == b["standings"]
    assert a["final"] == b["final"]
    assert a.get("stationary") == b.get("stationary")
    assert a == b


@pytest.fixture
def special_hands(monkeypatch):
    """Simulated tables that also defend alone and have the dealer ordered up by the
    partner (the simulator's random hands do neither)."""
    import random

    from tournaments.core.services import play
    from tournaments.domain.hands import Hand, Outcome

    rng = random.Random(7)
    record = play.record_hand

    def varied(match, hand, **kw):
        named = match.match if isinstance(match, play.Held) else match
        fresh = Match.objects.select_related("round__tournament").get(
            pk=named if isinstance(named, int) else named.pk
        )
        # At the hand's own time (the wall clock's would mark the simulated match called).
        # A held run's entries go in when the hold ends: its own last state says who deals.
        running = match.running if isinstance(match, play.Held) else None
        dealer = (
            running[1].next_dealer
            if running is not None
            else play.match_state(fresh, kw.get("now")).next_dealer
            if fresh.first_dealer
            else kw.get("first_dealer")
        )
        roll = rng.random()
        if dealer is not None and hand.outcome is Outcome.PLAYED and roll < 0.15:
            hand = Hand(
                Outcome.PLAYED,
                maker=dealer.partner,
                alone=True,
                maker_tricks=hand.maker_tricks,
                dealer_partner_ordered_up=True,
            )
        elif (
            hand.outcome is Outcome.PLAYED
            and roll < 0.4
            and fresh.round.tournament.rules.defend_alone_allowed
        ):
            defender = hand.maker.clockwise(1)
            hand = Hand(
                Outcome.PLAYED,
                maker=hand.maker,
                alone=hand.alone,
                maker_tricks=hand.maker_tricks,
                defender_alone=defender,
            )
        return record(match, hand, **kw)

    monkeypatch.setattr(play, "record_hand", varied)


def with_rules(monkeypatch, **rules):
    import tournaments.core.simulate
    from tournaments.domain.rules import RuleSettings

    create = tournaments.core.simulate.create_tournament

    def create_with_rules(name, **kw):
        return create(name, rules=RuleSettings(**rules), **kw)

    monkeypatch.setattr(tournaments.core.simulate, "create_tournament", create_with_rules)


def test_a_plain_event_exports_imports_and_exports_again_field_by_field():
    first, second = round_trip(simulate(3, seed=5, name="Plain"), "plain-copy")
    assert_same_event(first, second)


def test_a_messy_event_with_substitutions_exports_imports_and_exports_again_field_by_field():
    source = simulate(4, seed=1, name="Messy", withdraw=3, late=2, house=1, uneven=True)
    first, second = round_trip(source, "messy-copy")
    assert any(m["substitutions"] for r in first["rounds"] for m in r["matches"])
    assert any(r["sit_outs"] for r in first["rounds"])
    assert_same_event(first, second)


def test_a_defend_alone_event_keeps_every_hand_field_through_export_and_import(
    monkeypatch, special_hands
):
    with_rules(monkeypatch, defend_alone_allowed=True, points_alone_euchre=5)
    first, second = round_trip(simulate(2, seed=6, name="Alone"), "alone-copy")
    hands = [h for r in first["rounds"] for m in r["matches"] for h in m["hands"]]
    assert any(h["defender_alone"] for h in hands)
    assert any(h["dealer_partner_ordered_up"] for h in hands)
    assert_same_event(first, second)
    imported = HandEntry.objects.filter(match__round__tournament__slug="alone-copy")
    assert imported.exclude(defender_alone="").exists()
    assert imported.filter(dealer_partner_ordered_up=True).exists()


def test_an_event_under_other_rules_exports_imports_and_exports_again_field_by_field(
    monkeypatch,
):
    with_rules(
        monkeypatch,
        target=11,
        points_march=3,
        reach_bonus=2,
        skunk_bonus=3,
        skunk_includes_reach=True,
        cap_at_target=True,
        renege_penalty=-3,
        tiebreaks=("wins", "total", "margin", "lot"),
        sit_out_score="4",
        final_games_to_win=1,
    )
    source = simulate(3, seed=8, name="Other", withdraw=1, late=1)
    first, second = round_trip(source, "other-copy")
    assert first["tournament"]["rules"]["target"] == 11
    assert_same_event(first, second)


def test_an_event_with_a_mid_match_substitution_imports_and_the_player_who_left_keeps_her_points():
    source = simulate(4, seed=1, name="Messy", withdraw=3, late=2, house=1, uneven=True)
    doc = export_results(source)
    doc["tournament"]["slug"] = "left-mid-match"
    match = next(m for r in doc["rounds"] for m in r["matches"] if m["substitutions"])
    left = match["substitutions"][0]["out"]
    name = _names(doc)[left]
    out = import_results(json.dumps(doc), by="director")
    theirs = {row["player"]: row["total"] for rows in doc["standings"].values() for row in rows}
    mine = {
        row.player.name: row.record.total
        for rows in standings(out.tournament).values()
        for row in rows
    }
    assert mine[name] == theirs[left]
    assert Substitution.objects.filter(match__round__tournament=out.tournament).count() == sum(
        len(m["substitutions"]) for r in doc["rounds"] for m in r["matches"]
    )


def _first_match(doc: dict) -> dict:
    return doc["rounds"][0]["matches"][0]


def _misdeal_scoring_two(doc: dict) -> str:
    match = _first_match(doc)
    for i, h in enumerate(match["hands"]):
        if h["outcome"] == "misdeal":
            h["points"]["NS"] = 2
            return f"rounds[0].matches[0].hands[{i}].points.NS"
    h = match["hands"][0]
    h.update(outcome="misdeal", makers=None, maker=None, alone=False, maker_tricks=None)
    h.update(dealer_partner_ordered_up=False, defender_alone=None)
    h["points"] = {"NS": 2, "EW": 0}
    return "rounds[0].matches[0].hands[0].points.NS"


def _hand_points_off(doc: dict) -> str:
    h = _first_match(doc)["hands"][0]
    team = "NS" if h["points"]["NS"] else "EW"
    h["points"][team] += 1
    _first_match(doc)["score"][team] += 1  # the score agrees with the (wrong) hands
    return f"rounds[0].matches[0].hands[0].points.{team}"


def _winner_against_the_score(doc: dict) -> str:
    m = _first_match(doc)
    m["winner"] = "EW" if m["winner"] == "NS" else "NS"
    return "rounds[0].matches[0].winner"


def _points_minus_forty(doc: dict) -> str:
    m = _first_match(doc)
    pid = m["seats"]["N"]
    m["players"][str(pid)] = -40
    return f"rounds[0].matches[0].players.{pid}"


def _standings_sixty_above(doc: dict) -> str:
    doc["standings"]["A"][0]["total"] += 60
    return "standings.A[0].total"


def _ranks_against_totals(doc: dict) -> str:
    rows = doc["standings"]["A"]
    rows[0]["player"], rows[-1]["player"] = rows[-1]["player"], rows[0]["player"]
    return "standings.A[0].player"


def _hand_number_70000(doc: dict) -> str:
    _first_match(doc)["hands"][-1]["number"] = 70000
    last = len(_first_match(doc)["hands"]) - 1
    return f"rounds[0].matches[0].hands[{last}].number"


def _bonus_not_earned(doc: dict) -> str:
    m = _first_match(doc)
    m["bonuses"]["NS"] += 5
    return "rounds[0].matches[0].bonuses.NS"


def _registration_with_rounds(doc: dict) -> str:
    doc["tournament"]["status"] = "registration"  # the club would list it as upcoming
    return "tournament.status"


def _preliminary_with_a_final(doc: dict) -> str:
    doc["tournament"]["status"] = "preliminary"
    return "tournament.status"


def _final_without_a_final(doc: dict) -> str:
    doc["tournament"]["status"] = "final"
    doc["final"] = None
    return "tournament.status"


def _finished_with_no_champions(doc: dict) -> str:
    doc["final"]["games"] = doc["final"]["games"][:1]  # one game of a best of three
    return "tournament.status"


def _seated_round_with_hands(doc: dict) -> str:
    doc["rounds"][0]["status"] = "seated"  # not started, yet its matches were played
    return "rounds[0].status"


@pytest.mark.parametrize(
    "spoil",
    [
        _registration_with_rounds,
        _preliminary_with_a_final,
        _final_without_a_final,
        _finished_with_no_champions,
        _seated_round_with_hands,
        _hand_points_off,
        _misdeal_scoring_two,
        _winner_against_the_score,
        _points_minus_forty,
        _standings_sixty_above,
        _ranks_against_totals,
        _hand_number_70000,
        _bonus_not_earned,
    ],
)
def test_an_impossible_file_is_refused_naming_the_first_field_the_rules_disagree_with(spoil):
    doc = a_file_to_spoil(tables=2)
    where = spoil(doc)
    before = counts()
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == where, err.value.message
    assert counts() == before


def test_a_score_that_disagrees_with_its_hands_is_refused_naming_the_hand_that_is_wrong():
    doc = a_file_to_spoil()
    hand = doc["rounds"][0]["matches"][1]["hands"][2]
    hand["points"] = {"NS": 2, "EW": 0} if hand["points"]["EW"] else {"NS": 0, "EW": 2}
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where.startswith("rounds[0].matches[1].hands[2].points.")
    assert "the hand scores" in err.value.message


def _set(path: list, value) -> callable:
    def change(doc):
        obj = doc
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
        return json.dumps(doc)

    return change


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: "[" * 5000 + "]" * 5000, ""),
        (lambda d: '{"schema": ' + "[" * 900 + "]" * 900 + "}", ""),
        (
            lambda d: json.dumps(d).replace(
                f'"lot_seed": {d["tournament"]["lot_seed"]}', '"lot_seed": ' + "9" * 5000
            ),
            "",
        ),
        (
            lambda d: json.dumps(d).replace(
                f'"lot_seed": {d["tournament"]["lot_seed"]}', '"lot_seed": ' + "9" * 4000
            ),
            "tournament.lot_seed",
        ),
        (
            lambda d: json.dumps(d).replace(
                f'"lot_seed": {d["tournament"]["lot_seed"]}', '"lot_seed": NaN'
            ),
            "",
        ),
        (
            _set(["rounds", 0, "matches", 0, "hands", 0, "points", "NS"], 40000),
            "rounds[0].matches[0].hands[0].points.NS",
        ),
        (_set(["rounds", 0, "matches", 0, "table"], 2**40), "rounds[0].matches[0].table"),
        (_set(["rounds", 0, "number"], 40000), "rounds[0].number"),
        (_set(["players", 0, "id"], 2**70), "players[0].id"),
        (_set(["players", 0, "withdrawn_after_round"], 40000), "players[0].withdrawn_after_round"),
        (_set(["players", 0, "checked_in"], "yes"), "players[0].checked_in"),
        (_set(["standings", "A", 0, "rank"], 2**40), "standings.A[0].rank"),
        (_set(["tournament", "rules", "target"], 40000), "tournament.rules.target"),
        (_set(["tournament", "rules", "points_make"], 10**30), "tournament.rules.points_make"),
        (_set(["tournament", "name"], "Spring\x00Open"), "tournament.name"),
        (_set(["rounds", 0, "matches", 0, "seats", "N"], "1\x00"), "rounds[0].matches[0].seats.N"),
    ],
)
def test_a_hostile_file_is_refused_naming_the_field_never_by_the_database(change, where):
    doc = a_file_to_spoil(tables=1)
    before = counts()
    with pytest.raises(InvalidResults) as err:
        import_results(change(doc), by="director")
    assert err.value.where == where, err.value.message
    assert "constraint" not in err.value.message.lower()
    assert counts() == before


def test_a_hostile_file_on_the_series_page_answers_422_not_500(director_client):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from tournaments.series.services import create_series

    series = create_series("League")
    for body in (b"[" * 5000 + b"]" * 5000, b'{"schema": ' + b"9" * 5000 + b"}"):
        upload = SimpleUploadedFile("x.json", body)
        response = director_client.post(
            reverse("league:series_import", args=[series.slug]), {"file": upload}
        )
        assert response.status_code == 422
        assert "Nothing was imported." in response.content.decode()


def test_a_database_refusal_is_reported_without_quoting_the_database():
    from django.db import IntegrityError

    def clash(players, **kw):
        raise IntegrityError("UNIQUE constraint failed: tournaments_personlink.player_id")

    with pytest.raises(InvalidResults.__mro__[1]) as err:
        import_results(json.dumps(exported(tables=1)), by="director", link=clash)
    assert "UNIQUE" not in err.value.message and "constraint" not in err.value.message
    assert "nothing was imported" in err.value.message


@pytest.mark.parametrize(
    "name",
    ["Ann\x00Lee", "Ann\x07Lee", "\u202eeeL nnA", "\u200b", "Ann\u200bLee", "   "],
)
def test_a_name_the_register_form_refuses_is_refused_in_a_results_file(name):
    doc = a_file_to_spoil(tables=1)
    doc["players"][2]["name"] = name
    before = counts()
    with pytest.raises(InvalidResults) as err:
        import_results(json.dumps(doc), by="director")
    assert err.value.where == "players[2].name"
    assert counts() == before


@pytest.mark.django_db(transaction=True)
def test_name_matching_runs_before_the_write_transaction(monkeypatch):
    from django.db import connection
    from rapidfuzz import process

    import_results(json.dumps(exported(tables=1, seed=3, slug="first")), by="director")
    second = json.dumps(exported(tables=1, seed=4, slug="second"))
    calls = []
    extract = process.extract

    def watched(*args, **kw):
        calls.append(connection.in_atomic_block)
        return extract(*args, **kw)

    monkeypatch.setattr(process, "extract", watched)
    out = import_results(second, by="director")
    assert out.created
    assert calls and not any(calls)


@pytest.mark.parametrize(
    "hand",
    [
        {"outcome": "played", "maker": "E", "alone": True, "maker_tricks": 5},
        {
            "outcome": "played",
            "maker": "S",
            "alone": False,
            "maker_tricks": 1,
            "defender_alone": "W",
        },
        {
            "outcome": "played",
            "maker": "S",
            "alone": True,
            "maker_tricks": 4,
            "dealer_partner_ordered_up": True,
        },
        {"outcome": "renege", "renege_by": "W"},
        {"outcome": "misdeal"},
    ],
)
def test_every_hand_field_of_the_results_file_travels_both_ways(hand):
    from tournaments.core.replay import HAND_FIELDS, entry_of_json, hand_json

    played = hand["outcome"] == "played"
    full = {
        "number": 3,
        "dealer": "N",
        "outcome": hand["outcome"],
        "makers": {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}[hand["maker"]] if played else None,
        "maker": hand.get("maker"),
        "alone": hand.get("alone", False),
        "maker_tricks": hand.get("maker_tricks"),
        "renege_by": hand.get("renege_by"),
        "dealer_partner_ordered_up": hand.get("dealer_partner_ordered_up", False),
        "defender_alone": hand.get("defender_alone"),
        "phase": "at_call",
        "points": {"NS": 0, "EW": 4},
    }
    assert tuple(full) == HAND_FIELDS
    assert hand_json(entry_of_json(full)) == full


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, (*path, i))
    yield path


def test_any_one_field_of_a_file_changed_to_anything_is_imported_or_refused_never_a_crash():
    import random

    from tournaments.core.services import ServiceError

    doc = exported(tables=1)
    paths = [p for p in _leaves(doc) if p]
    rng = random.Random(20)
    odd = [
        None,
        True,
        False,
        0,
        -1,
        1,
        7,
        40000,
        2**31,
        2**63,
        -(2**70),
        1.5,
        "",
        "x",
        "N",
        "NS",
        "\x00",
        "\u202e",
        [],
        [1],
        {},
        {"NS": 1},
    ]
    for _ in range(400):
        changed = json.loads(json.dumps(doc))
        path = rng.choice(paths)
        obj = changed
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = rng.choice(odd)
        with contextlib.suppress(ServiceError):
            import_results(json.dumps(changed), by="director")


def hand_mappings(source: str) -> list[str]:
    """Where a module spells a hand's fields itself: a ``HandEntry(...)`` call, or a dict
    literal with a hand's keys."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "HandEntry":
            found.append(f"line {node.lineno}: HandEntry(...)")
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if {"maker_tricks", "renege_by"} <= keys:
                found.append(f"line {node.lineno}: a hand's dict")
    return found


def test_the_export_and_the_import_map_hands_only_through_tournaments_replay():
    from pathlib import Path

    tournaments = Path(__file__).resolve().parent.parent / "tournaments"
    for name in ("series/export.py", "series/results_file.py", "series/results_import.py"):
        assert hand_mappings((tournaments / name).read_text()) == [], name
    # The check finds what it forbids.
    probe = "HandEntry(number=1)\nx = {'maker_tricks': 3, 'renege_by': None}\n"
    assert len(hand_mappings(probe)) == 2


def test_importing_an_event_adds_it_to_the_series_and_rates_it_once(db, monkeypatch):
    series = create_series("Winter")
    data = json.dumps(exported(tables=1, seed=3, slug="first"))
    replays: list[int] = []
    recompute = results_import.recompute_ratings
    monkeypatch.setattr(
        results_import, "recompute_ratings", lambda: replays.append(1) or recompute()
    )
    first = results_import.import_event(data, by="director", series=series)
    again = results_import.import_event(data, by="director", series=series)
    assert first.created and not again.created
    assert again.tournament == first.tournament
    assert list(series.events.values_list("tournament", flat=True)) == [first.tournament.pk]
    assert replays == [1]  # the file imported before changes no rating
    assert Person.objects.filter(rating_mu__isnull=False).exists()
