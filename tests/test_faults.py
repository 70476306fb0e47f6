"""Faults: a service that fails part-way leaves nothing behind.

Every multi-row service is run once to count its writes, then again and again with an
error injected at each write in turn (the first, the second, ... the last). Each time
the database must be exactly as before: no half-recorded hand, no round without seats,
no half-imported file. The error is injected at the database driver, below the ORM, so
it models a lost connection or a full disk as much as a bug.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

import pytest
from django.apps import apps
from django.db import connection, transaction

from tournaments.core.models.event import Tournament
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round
from tournaments.core.services import corrections, play, players, rounds, standings
from tournaments.domain.hands import Hand, Outcome, Seat, Team

# Seconds per test: skipped by `pytest -m "not slow"`, always run by .ci/run.
pytestmark = pytest.mark.slow

WRITES = ("INSERT", "UPDATE", "DELETE")
MAKE = Hand(Outcome.PLAYED, maker=Seat.S, maker_tricks=3)


class InjectedFault(Exception):
    pass


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every table the app and its sessions own."""
    models = [*apps.get_app_config("tournaments").get_models()]
    return {m._meta.label: sorted(m.objects.order_by().values_list(), key=repr) for m in models}


@contextmanager
def fail_at_write(number: int | None, counter: list[int]):
    """Raise at the ``number``-th write statement (None: only count them)."""

    def wrapper(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(WRITES):
            counter[0] += 1
            if counter[0] == number:
                raise InjectedFault(f"write {number}: {sql[:60]}")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield


def count_writes(action: Callable[[], object]) -> int:
    """Run the action in a transaction rolled back afterwards; count its writes."""
    counter = [0]

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic(), fail_at_write(None, counter):
            action()
            raise Rollback
    except Rollback:
        pass
    return counter[0]


def assert_atomic(action: Callable[[], object], minimum_writes: int = 2) -> int:
    writes = count_writes(action)
    assert writes >= minimum_writes, f"expected a multi-row service, saw {writes} writes"
    before = snapshot()
    for number in range(1, writes + 1):
        with pytest.raises(InjectedFault), fail_at_write(number, [0]):
            action()
        assert snapshot() == before, f"a fault at write {number} of {writes} left rows behind"
    # And with no fault the service still goes through.
    action()
    assert snapshot() != before
    return writes


def play_out(match: Match, prefix: str = "k") -> None:
    """South makes three tricks every hand: NS reach the target of 10 in 10 hands."""
    play.set_first_dealer(match, Seat.N, by="test")
    state = play.match_state(match)
    n = len(state.hands)
    while not state.over:
        n += 1
        state = play.record_hand(
            match, MAKE, client_key=f"{prefix}-{match.pk}-{n}", by="test"
        ).state


@pytest.fixture
def running(transactional_db, make_tournament) -> Round:
    t = make_tournament(2, preliminary_rounds=2)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    return rounds.start_round(rnd, by="test")


def first_match(rnd: Round) -> Match:
    return rnd.matches.order_by("table").first()


def test_recording_a_hand_is_all_or_nothing(running):
    match = first_match(running)
    assert_atomic(
        lambda: play.record_hand(match, MAKE, client_key="first", by="tablet", first_dealer=Seat.N)
    )


def test_the_hand_that_ends_the_match_is_all_or_nothing(running):
    match = first_match(running)
    play.set_first_dealer(match, Seat.N, by="test")
    for n in range(1, 10):
        play.record_hand(match, MAKE, client_key=f"h{n}", by="test")
    # The tenth hand ends the match: it writes the hand, the match and four seats.
    writes = assert_atomic(lambda: play.record_hand(match, MAKE, client_key="h10", by="t"))
    assert writes >= 3
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == Team.NS


def test_undo_is_all_or_nothing(running):
    match = first_match(running)
    play.record_hand(match, MAKE, client_key="u1", by="test", first_dealer=Seat.E)
    play.record_hand(match, MAKE, client_key="u2", by="test")
    assert_atomic(lambda: play.undo_last_hand(match, by="tablet"))


def test_a_correction_is_all_or_nothing(running):
    match = first_match(running)
    play_out(match)
    entry = HandEntry.objects.get(match=match, number=4)
    euchred = Hand(Outcome.PLAYED, maker=Seat.S, maker_tricks=1)
    assert_atomic(
        lambda: corrections.correct_hand(
            entry, euchred, by="director", reason="misheard", client_key="fix-4"
        )
    )


def test_a_winner_override_is_all_or_nothing(running):
    match = first_match(running)
    play_out(match)
    assert_atomic(
        lambda: corrections.override_winner(
            match, Team.EW, by="director", reason="renege seen late"
        )
    )


def test_seating_the_next_round_is_all_or_nothing(running):
    for match in running.matches.all():
        play_out(match)
    rounds.finalize_round(running, by="director")
    writes = assert_atomic(lambda: rounds.seat_next_round(running.tournament, by="director"))
    # A round, its seats and its matches at least.
    assert writes >= 3
    assert Round.objects.filter(tournament=running.tournament, number=2).count() == 1


def test_seeding_the_final_is_all_or_nothing(transactional_db, make_tournament):
    t = make_tournament(2, preliminary_rounds=1)
    rnd = rounds.start_round(rounds.draw_first_round(t, by="test", seed=5), by="test")
    for match in rnd.matches.all():
        play_out(match)
    rounds.finalize_round(rnd, by="director")
    assert_atomic(lambda: standings.seed_final(t, by="director"))


def test_the_first_draw_is_all_or_nothing(transactional_db, make_tournament):
    t = make_tournament(3)
    assert_atomic(lambda: rounds.draw_first_round(t, by="director", seed=9))
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.PRELIMINARY


def test_a_player_import_is_all_or_nothing(transactional_db, make_tournament):
    t = make_tournament(1)
    csv_text = "name,division\nNew One,A\nNew Two,B\nNew Three,A\n"

    def action():
        report = players.import_players(t, csv_text, by="director")
        # A report with errors would be a refusal, not a fault; this file is valid.
        assert report.ok, report.error_text()

    assert_atomic(action)
    assert t.players.count() == 4 + 3


# --- The server dies in the middle of a burst ------------------------------------------


def test_a_server_crash_mid_burst_loses_and_doubles_nothing(
    transactional_db, tmp_path, static_root
):
    from bench import scenario
    from bench.server import for_test_database

    server = for_test_database(connection.settings_dict, tmp_path, static_root)
    t = scenario.prepare_event(20)
    with server:
        report = scenario.run_with_crash(t, server.port, restart=server.start, crash=server.kill)
    assert not report.problems, "\n".join(report.lines())
    phase = report.phase("burst with a crash")
    # The crash really happened part-way: some hands were in already, some answers lost.
    assert 0 < report.rows["acknowledged before the crash"] < report.rows["expected"]
    assert phase.no_answer > 0, phase.line()
    assert report.rows["stored"] == report.rows["expected"]
    assert phase.server_errors == 0, phase.line()
