"""The service layer: what it refuses, what it keeps, and that retries never double."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from tournaments.core import replay
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.play import HandEntry, Match, TableLink
from tournaments.core.models.rounds import Round
from tournaments.core.reads import handtext
from tournaments.core.services import Conflict, ServiceError, closing, corrections, play, rounds
from tournaments.core.services.players import import_players, register_player
from tournaments.domain.hands import Hand, Outcome, Seat, Team

pytestmark = pytest.mark.django_db


def made(maker: str, tricks: int, alone: bool = False) -> Hand:
    return Hand(Outcome.PLAYED, maker=Seat(maker), alone=alone, maker_tricks=tricks)


@pytest.fixture
def running(make_tournament):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    start = timezone.now() - timedelta(minutes=1)
    rounds.start_round(rnd, by="test", now=start)
    match = rnd.matches.get(table=1)
    play.set_first_dealer(match, Seat.N, by="test")
    return t, rnd, match


def record(match, hand, key, **kw):
    return play.record_hand(match, hand, client_key=key, by="table 1", **kw)


def test_a_retry_with_the_same_client_key_stores_the_hand_once(running):
    _, _, match = running
    first = record(match, made("N", 3), "k1")
    again = record(match, made("N", 3), "k1")
    assert again.duplicate and again.entry.pk == first.entry.pk
    assert match.hands.count() == 1


def test_two_tablets_entering_the_same_hand_number_keep_only_the_first(running):
    _, _, match = running
    record(match, made("N", 3), "tablet-a", number=1)
    with pytest.raises(Conflict, match="Hand 1 is already recorded"):
        record(match, made("E", 3), "tablet-b", number=1)
    assert list(match.hands.values_list("client_key", flat=True)) == ["tablet-a"]


def test_a_key_of_another_table_is_refused(running):
    _, rnd, match = running
    other = rnd.matches.get(table=2)
    play.set_first_dealer(other, Seat.E, by="test")
    record(match, made("N", 3), "shared")
    with pytest.raises(Conflict, match="another table"):
        record(other, made("N", 3), "shared")


def test_hands_are_refused_before_the_round_starts_and_after_it_closes(make_tournament):
    t = make_tournament(1)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    match = rnd.matches.get()
    with pytest.raises(ServiceError, match="has not started"):
        record(match, made("N", 3), "x", first_dealer=Seat.N)
    assert not HandEntry.objects.exists()


def test_a_hand_after_the_match_ended_is_refused(running):
    _, _, match = running
    for i, hand in enumerate([made("N", 5, True), made("S", 5, True), made("N", 5)]):
        state = record(match, hand, f"k{i}").state
    assert state.over
    with pytest.raises(ServiceError, match="match is over"):
        record(match, made("E", 3), "late")
    match.refresh_from_db()
    assert (match.status, match.score_ns, match.winner) == ("finished", 10, "NS")


def test_an_impossible_entry_is_refused_and_changes_nothing(running):
    _, _, match = running
    with pytest.raises(ServiceError, match="0 and 5"):
        record(match, Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=7), "bad")
    assert not match.hands.exists()


def test_the_first_dealer_is_needed_before_the_first_hand(make_tournament):
    t = make_tournament(1)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    with pytest.raises(ServiceError, match="first dealer"):
        record(rnd.matches.get(), made("N", 3), "k")


def test_undo_keeps_the_undone_entry_with_who_and_when(running):
    _, _, match = running
    record(match, made("N", 3), "k1")
    record(match, made("E", 5), "k2")
    undone = play.undo_last_hand(match, by="table 1", reason="wrong team")
    assert undone.state == HandEntry.State.UNDONE and undone.ended_by == "table 1"
    match.refresh_from_db()
    assert (match.score_ns, match.score_ew, match.hands_played) == (1, 0, 1)
    assert match.hands.count() == 2
    # The next hand takes the undone hand's number.
    assert record(match, made("W", 3), "k3").entry.number == 2


def test_a_correction_supersedes_the_original_and_keeps_it(running):
    _, _, match = running
    original = record(match, made("N", 3), "k1").entry
    with pytest.raises(ServiceError, match="reason"):
        corrections.correct_hand(original, made("N", 5), by="director", reason=" ")
    result = corrections.correct_hand(original, made("N", 5), by="director", reason="was a march")
    original.refresh_from_db()
    assert original.state == HandEntry.State.SUPERSEDED and original.end_reason == "was a march"
    assert result.entry.replaces_id == original.pk and result.entry.number == 1
    match.refresh_from_db()
    assert match.score_ns == 2 and match.has_correction
    assert Activity.objects.filter(action="correct", reason="was a march").exists()


def test_a_correction_that_would_end_the_match_before_later_hands_is_refused(running):
    _, _, match = running
    record(match, made("N", 5, True), "k1")
    record(match, made("N", 5, True), "k2")
    third = record(match, made("E", 3), "k3").entry
    record(match, made("E", 3), "k4")
    with pytest.raises(ServiceError, match="impossible"):
        corrections.correct_hand(third, made("N", 5), by="director", reason="typo")
    third.refresh_from_db()
    assert third.state == HandEntry.State.STANDING


def test_time_called_takes_the_next_hand_as_the_one_in_progress_then_tiebreaks(running):
    _, rnd, match = running
    record(match, made("N", 3), "k1")
    rounds.call_time(rnd, by="director")
    state = record(match, made("E", 4), "k2").state
    assert state.hands[-1].phase == "at_call" and state.in_tiebreak
    state = record(match, made("E", 0), "k3").state
    assert state.over and state.winner is Team.NS
    assert [h.phase for h in state.hands] == ["regular", "at_call", "tiebreak"]


def test_no_hand_in_progress_ends_an_untied_match(running):
    _, rnd, match = running
    record(match, made("N", 3), "k1")
    rounds.call_time(rnd, by="director")
    state = play.answer_time_call(match, False, by="table 1")
    assert state.over
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == "NS"


def test_a_confirmed_result_cannot_be_reopened_by_changing_the_time_call_answer(running):
    _, rnd, match = running
    record(match, made("N", 3), "k1")
    rounds.call_time(rnd, by="director")
    play.answer_time_call(match, False, by="table 1")
    closing.confirm_match(match, agree=True, by="Opponent")
    with pytest.raises(ServiceError, match="confirmed"):
        play.answer_time_call(match, True, by="table 1")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.hand_in_progress_at_call is False


def test_an_entry_queued_offline_before_the_call_stays_a_regular_hand(running):
    _, rnd, match = running
    rounds.call_time(rnd, by="director")
    rnd.refresh_from_db()
    before_call = rnd.called_at - timedelta(seconds=30)
    state = record(match, made("N", 3), "offline", entered_at=before_call).state
    assert state.hands[-1].phase == "regular"


def test_finalize_is_refused_naming_the_unfinished_tables(running):
    _, rnd, match = running
    for i, hand in enumerate([made("N", 5, True), made("S", 5, True), made("N", 5)]):
        record(match, hand, f"k{i}")
    with pytest.raises(ServiceError, match=r"table 2 \(0–0, not finished\)"):
        rounds.finalize_round(rnd, by="director")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RUNNING


def test_a_disputed_table_blocks_finalizing_until_the_director_closes_it(running):
    _, rnd, match = running
    for i, hand in enumerate([made("N", 5, True), made("S", 5, True), made("N", 5)]):
        record(match, hand, f"k{i}")
    closing.confirm_match(match, agree=False, by="Player B002", note="hand 2 was not alone")
    other = rnd.matches.get(table=2)
    play.set_first_dealer(other, Seat.S, by="test")
    for i, hand in enumerate([made("E", 5, True), made("W", 5, True), made("E", 5)]):
        record(other, hand, f"o{i}")
    with pytest.raises(ServiceError, match=r"table 1 \(disputed\)"):
        rounds.finalize_round(rnd, by="director")
    closing.close_match(match, by="director", note="checked with both teams")
    rounds.finalize_round(rnd, by="director")


def test_an_override_needs_a_reason_and_decides_the_rotation(running):
    t, rnd, match = running
    for i, hand in enumerate([made("N", 5, True), made("S", 5, True), made("N", 5)]):
        record(match, hand, f"k{i}")
    with pytest.raises(ServiceError, match="written reason"):
        corrections.override_winner(match, Team.EW, by="director", reason="")
    corrections.override_winner(match, Team.EW, by="director", reason="NS played with 6 cards")
    match.refresh_from_db()
    assert (match.winner, match.recorded_winner, match.has_override) == ("EW", "NS", True)
    seats = {s.position: s for s in rnd.seats.filter(table=1)}
    assert seats["E"].won and not seats["N"].won


def test_correcting_a_result_after_the_next_round_is_seated_warns_and_keeps_seating(
    make_tournament,
):
    t = make_tournament(1)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.get()
    first = record(match, made("N", 3), "a", first_dealer=Seat.N).entry
    rounds.call_time(rnd, by="director")
    play.answer_time_call(match, False, by="table 1")
    rounds.finalize_round(rnd, by="director")
    second = rounds.seat_next_round(t, by="director")
    seats_before = list(second.seats.values_list("table", "position", "player_id"))
    with pytest.raises(ServiceError, match="closed"):
        record(match, made("E", 3), "d")
    with pytest.raises(ServiceError, match="unfinished"):
        corrections.correct_hand(first, Hand(Outcome.MISDEAL), by="director", reason="no score")
    result = corrections.correct_hand(first, made("E", 3), by="director", reason="wrong side")
    assert result.state.winner is Team.EW
    assert result.warnings and "seating already made stands" in result.warnings[0]
    assert list(second.seats.values_list("table", "position", "player_id")) == seats_before


def test_swap_before_the_start_only_and_within_a_division(make_tournament):
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=5)
    a1, a2 = Player.objects.filter(tournament=t, division="A")[:2]
    b1 = Player.objects.filter(tournament=t, division="B").first()
    before = {s.player_id: (s.table, s.position) for s in rnd.seats.all()}
    rounds.swap_players(rnd, a1, a2, by="director")
    after = {s.player_id: (s.table, s.position) for s in rnd.seats.all()}
    assert after[a1.pk] == before[a2.pk] and after[a2.pk] == before[a1.pk]
    with pytest.raises(ServiceError, match="same division"):
        rounds.swap_players(rnd, a1, b1, by="director")
    rounds.start_round(rnd, by="test")
    with pytest.raises(ServiceError, match="before the round starts"):
        rounds.swap_players(rnd, a1, a2, by="director")


def test_draw_refuses_with_the_shortfall_and_creates_nothing(make_tournament):
    t = make_tournament(2)
    Player.objects.filter(tournament=t, division="B").first().delete()
    with pytest.raises(ServiceError, match="1 more B player needed"):
        rounds.draw_first_round(t, by="test")
    assert not Round.objects.exists()


def test_draw_creates_one_live_tablet_link_per_table_with_a_long_token(make_tournament):
    t = make_tournament(3)
    rounds.draw_first_round(t, by="test", seed=9)
    links = TableLink.objects.filter(tournament=t)
    assert sorted(links.values_list("table", flat=True)) == [1, 2, 3]
    assert all(len(link.token) >= 40 for link in links)  # 32 random bytes, base64url


def test_pause_and_resume_move_the_call(running):
    _, rnd, match = running
    rnd.refresh_from_db()
    now = timezone.now()
    rounds.pause_round(rnd, by="director", now=now)
    with pytest.raises(ServiceError, match="already paused"):
        rounds.pause_round(rnd, by="director", now=now)
    rounds.resume_round(rnd, by="director", now=now + timedelta(minutes=5))
    clock = play.round_clock(Round.objects.get(pk=rnd.pk))
    assert clock.call_instant(now + timedelta(minutes=6)) == rnd.started_at + timedelta(minutes=25)


def test_import_reports_every_bad_line_and_imports_nothing(make_tournament):
    t = make_tournament(1)
    before = Player.objects.count()
    report = import_players(
        t,
        "name,division\nNew One,A\n,B\nNew Two,C\nNew One,B\nPlayer A001,A\nx,y,z\n",
        by="test",
    )
    assert not report.ok
    assert report.errors == [
        (3, "the name is empty."),
        (4, "division must be A or B, not 'C'."),
        (5, "New One is also on line 2."),
        (6, "Player A001 is already registered."),
        (7, "expected 2 columns (name,division), found 3."),
    ]
    assert Player.objects.count() == before


def test_a_csv_saved_in_french_with_semicolons_imports(make_tournament):
    # Excel in French saves CSV with ';' between cells: every line was refused as one
    # column ("expected 2 columns").
    t = make_tournament(1)
    report = import_players(t, 'nom;division\r\nZoé Lee;A\r\n"Lee, Ann";b\r\n', by="test")
    assert report.errors == []
    assert [(r.name, r.division) for r in report.rows] == [("Zoé Lee", "A"), ("Lee, Ann", "B")]
    assert t.players.filter(name__in=["Zoé Lee", "Lee, Ann"]).count() == 2


def test_scoring_settings_cannot_change_once_play_has_started(make_tournament):
    from dataclasses import replace

    from tournaments.core.services.tournaments import update_tournament

    t = make_tournament(1)
    rounds.draw_first_round(t, by="test", seed=1)
    with pytest.raises(ServiceError, match="Scoring rules cannot change"):
        update_tournament(t, name=t.name, rules=replace(t.rules, target=12), by="director")
    update_tournament(t, name=t.name, rules=replace(t.rules, round_minutes=25), by="director")
    t.refresh_from_db()
    assert (t.target, t.round_minutes) == (10, 25)


def test_register_refuses_a_duplicate_name_case_insensitively(make_tournament):
    t = make_tournament(1)
    with pytest.raises(ServiceError, match="already registered"):
        register_player(t, "player a001", "A", by="test")


@pytest.fixture
def final_round(make_tournament):
    """A one-table event whose single preliminary round is over and whose final (games to
    2 points, so one march wins a game) is seeded."""
    from tournaments.core.services import standings

    t = make_tournament(1, preliminary_rounds=1, target=2, final_target=2)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.select_related("round__tournament").get()
    play.set_first_dealer(match, Seat.N, by="test")
    record(match, made("N", 5), "prelim")
    rounds.finalize_round(rnd, by="test")
    return t, standings.seed_final(t, by="test")


def win_final_game(final, game: int, maker: str):
    match = final.matches.select_related("round__tournament").get(game=game)
    play.set_first_dealer(match, Seat.N, by="test")
    return record(match, made(maker, 5), f"final-{game}")


def test_undoing_a_finished_final_game_drops_the_empty_next_game(final_round):
    from tournaments.core.reads import standings

    t, final = final_round
    won = win_final_game(final, 1, "N")
    assert list(final.matches.values_list("game", flat=True)) == [1, 2]
    play.undo_last_hand(won.entry.match, by="table 1")
    assert list(final.matches.values_list("game", "status")) == [(1, "waiting")]
    assert standings.champions(t) is None and standings.final_progress(t).next_game is None


def test_a_final_correction_that_would_orphan_a_later_game_is_refused(final_round):
    from tournaments.core.reads import standings

    t, final = final_round
    win_final_game(final, 1, "N")
    second = win_final_game(final, 2, "E")
    win_final_game(final, 3, "E")
    assert standings.champions(t) == "B"
    with pytest.raises(ServiceError, match="game 3 of the final already has hands"):
        corrections.correct_hand(second.entry, made("N", 5), by="director", reason="misread")
    assert standings.champions(t) == "B"
    assert HandEntry.objects.get(pk=second.entry.pk).state == HandEntry.State.STANDING


def test_saving_settings_from_a_stale_page_keeps_the_status_and_refuses_scoring_changes(
    make_tournament,
):
    from dataclasses import replace

    from tournaments.core.models.event import Tournament
    from tournaments.core.services.tournaments import update_tournament

    t = make_tournament(1)
    stale = Tournament.objects.get(pk=t.pk)  # the settings page, loaded before the draw
    rounds.draw_first_round(t, by="test", seed=1)
    with pytest.raises(ServiceError, match="Scoring rules cannot change"):
        update_tournament(
            stale, name="Club Night", rules=replace(stale.rules, target=12), by="director"
        )
    update_tournament(
        stale, name="Club Night II", rules=replace(stale.rules, round_minutes=25), by="director"
    )
    t.refresh_from_db()
    assert (t.name, t.round_minutes, t.target) == ("Club Night II", 25, 10)
    assert t.status == Tournament.Status.PRELIMINARY


@pytest.mark.django_db(transaction=True)
def test_recording_a_hand_locks_only_its_match_not_the_tournament(make_tournament):
    """On PostgreSQL, a hand being written must not hold the tournament or round rows,
    or every other table (and the director) would wait behind it."""
    import threading

    from django.db import connection, connections, transaction
    from django.db.utils import OperationalError

    if not connection.features.has_select_for_update_nowait:
        pytest.skip("row locks exist only on PostgreSQL here")
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=3)
    match = rnd.matches.get(table=1)
    locked, release = threading.Event(), threading.Event()

    def hold_match_lock() -> None:
        try:
            with transaction.atomic():
                play.lock(match)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    worker = threading.Thread(target=hold_match_lock)
    worker.start()
    try:
        assert locked.wait(10)
        with transaction.atomic():
            from tournaments.core.models.event import Tournament

            Tournament.objects.select_for_update(nowait=True).get(pk=t.pk)
            Round.objects.select_for_update(nowait=True).get(pk=rnd.pk)
            other = Match.objects.select_for_update(nowait=True).get(pk=rnd.matches.get(table=2).pk)
            assert other.table == 2
            with pytest.raises(OperationalError), transaction.atomic():
                Match.objects.select_for_update(nowait=True).get(pk=match.pk)
    finally:
        release.set()
        worker.join()


def test_standings_are_ranked_again_whenever_a_result_a_player_or_the_chain_changes(
    make_tournament, monkeypatch
):
    from tournaments.core.reads import standings
    from tournaments.core.services.players import edit_player, set_withdrawn
    from tournaments.domain.standings import rank

    t = make_tournament(2, preliminary_rounds=2, target=2)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    for match in rnd.matches.select_related("round__tournament"):
        play.set_first_dealer(match, Seat.N, by="test")
        record(match, made("N", 5), f"r1-{match.pk}")
    calls = []
    monkeypatch.setattr(standings, "rank", lambda *args: calls.append(1) or rank(*args))

    def table() -> dict:
        fresh = Tournament.objects.get(pk=t.pk)
        return {
            d: [(r.player.name, r.player.withdrawn, r.record.total, r.record.wins) for r in rows]
            for d, rows in standings.standings(fresh).items()
        }

    first = table()
    assert len(calls) == 2  # one ranking a division
    assert table() == first and len(calls) == 2  # nothing changed: the kept ranking

    match = rnd.matches.select_related("round__tournament").get(table=1)
    corrections.override_winner(match, Team(match.winner).other, by="director", reason="test")
    overridden = table()
    assert len(calls) == 4 and overridden != first
    assert sum(wins for rows in overridden.values() for *_, wins in rows) == 4

    player = Player.objects.filter(tournament=t).first()
    edit_player(player, name="Renamed Player", division=player.division, by="director")
    assert ("Renamed Player", False) in {row[:2] for rows in table().values() for row in rows}
    set_withdrawn(Player.objects.get(pk=player.pk), True, by="director")
    assert ("Renamed Player", True) in {row[:2] for rows in table().values() for row in rows}
    assert len(calls) == 8

    Tournament.objects.filter(pk=t.pk).update(tiebreaks="total,margin,wins,lot")
    table()
    assert len(calls) == 10


def test_the_database_refuses_a_second_player_whose_name_differs_only_in_case(make_tournament):
    from django.db import IntegrityError, transaction

    t = make_tournament(1)
    Player.objects.create(tournament=t, name="Dana Fox", division="A")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(tournament=t, name="DANA FOX", division="B")
    other = make_tournament(1, name="Another Night")
    Player.objects.create(tournament=other, name="dana fox", division="A")  # another event


def test_a_hands_individual_awards_are_numbers_and_the_log_formats_them(running):
    t, _, match = running
    alone = record(match, made("E", 5, alone=True), "k1").entry
    renege = record(match, Hand(Outcome.RENEGE, renege_by=Seat.N), "k2").entry
    rules = t.rules
    assert replay.individual_awards(alone, rules) == {Seat.E: rules.alone_march_award}
    assert replay.individual_awards(renege, rules) == {Seat.N: rules.renege_penalty}
    assert replay.individual_awards(renege, rules, final=True) == {}
    assert handtext.individual_points(renege, rules) == f"N −{-rules.renege_penalty}"


def test_standing_hands_and_live_links_have_one_query_each(running):
    t, rnd, match = running
    first = record(match, made("N", 3), "k1").entry
    record(match, made("E", 3), "k2")
    play.undo_last_hand(match, by="table 1")
    assert list(HandEntry.objects.standing().filter(match=match)) == [first]
    live = TableLink.objects.live().filter(tournament=t)
    assert sorted(live.values_list("table", flat=True)) == [1, 2]
    rounds.revoke_link(t, 1, by="test")
    assert TableLink.objects.live().filter(tournament=t, table=1).count() == 1
    assert TableLink.objects.filter(tournament=t, table=1).count() == 2


def test_the_compiled_writes_send_each_value_as_the_fields_own_conversion_does(running):
    """``tournaments.compiled`` skips a field's ``get_db_prep_save`` for a value it
    would give back unchanged; for every column of the rows the hand path writes (and a
    choice's enum member, a bool in an integer column, None), the value sent is the
    field's own conversion, of the same type."""
    from django.db import connection

    from tournaments.core.db import compiled
    from tournaments.core.models.rounds import Seating

    _, rnd, match = running
    entry = record(match, made("N", 3), "w1").entry
    match.refresh_from_db()
    match.status = Match.Status.PLAYING  # an enum member, as the services assign it
    seat = Seating.objects.filter(round=rnd).first()
    seat.won, seat.points, seat.margin = True, 3, None
    for obj in (entry, match, seat):
        fields = [f for f in obj._meta.concrete_fields if not f.primary_key]
        write = compiled._Write(connection, fields, "")
        sent = write.values(obj, connection)
        expected = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
        assert sent == expected
        assert [type(v) for v in sent] == [type(v) for v in expected]
    # A bool given to an integer column is converted, as the field converts it.
    match.score_ns = True
    score = Match._meta.get_field("score_ns")
    (sent,) = compiled._Write(connection, [score], "").values(match, connection)
    expected = score.get_db_prep_save(True, connection)
    assert sent == expected == 1
    assert type(sent) is type(expected) is not bool


def test_the_compiled_reads_build_the_instances_django_builds(running):
    """``tournaments.compiled`` builds the hand path's rows without
    ``Model.__init__`` where that is only setting attributes; the match it locks (with
    its round and tournament) and the entries it reads are the ORM's, attribute for
    attribute and state for state."""
    from tournaments.core.db import compiled

    t, _, match = running
    record(match, made("N", 3), "w1")
    record(match, made("E", 3), "w2")
    with transaction.atomic():
        (locked,) = play._LOCK(match.pk)
        orm = Match.objects.select_related("round__tournament").get(pk=match.pk)
        for ours, theirs in (
            (locked, orm),
            (locked.round, orm.round),
            (locked.round.tournament, orm.round.tournament),
        ):
            assert type(ours) is type(theirs)
            assert _attributes(ours) == _attributes(theirs)
            assert (ours._state.adding, ours._state.db) == (False, theirs._state.db)
    ours_entries = play.history(match)
    theirs_entries = list(HandEntry.objects.filter(match=match).order_by(*replay.HISTORY_ORDER))
    assert [_attributes(e) for e in ours_entries] == [_attributes(e) for e in theirs_entries]
    assert all(
        compiled._plain_instances(type(e), [f.attname for f in e._meta.concrete_fields])
        for e in ours_entries
    )
    # A model that does more on building than setting attributes is built by from_db.
    assert not compiled._plain_instances(HandEntry, ["id", "number"])


def test_the_lock_that_reads_the_entries_gives_the_rows_the_orm_gives(running):
    """The statement that locks the match and reads its entries (one LEFT JOIN)
    builds the match, its round, its tournament and every entry (undone, superseded and
    correcting ones: every kind of column set) as the ORM builds them, and a match
    without entries with none."""
    t, rnd, match = running
    with transaction.atomic():
        locked, none = play._LOCK_WITH_HISTORY(match.pk)
    assert none == []
    assert _attributes(locked) == _attributes(Match.objects.get(pk=match.pk))
    record(match, made("N", 3), "w1")
    record(match, made("E", 4), "w2")
    record(match, made("N", 3), "w3")
    play.undo_last_hand(match, by="table 1", reason="oops")
    first = HandEntry.objects.get(match=match, number=1, state=HandEntry.State.STANDING)
    corrections.correct_hand(first, made("E", 5), by="director", reason="five tricks")
    with transaction.atomic():
        locked, entries = play._LOCK_WITH_HISTORY(match.pk)
        orm = Match.objects.select_related("round__tournament").get(pk=match.pk)
    for ours, theirs in (
        (locked, orm),
        (locked.round, orm.round),
        (locked.round.tournament, orm.round.tournament),
    ):
        assert type(ours) is type(theirs)
        assert _attributes(ours) == _attributes(theirs)
        assert (ours._state.adding, ours._state.db) == (False, theirs._state.db)
    theirs_entries = list(HandEntry.objects.filter(match=match).order_by(*replay.HISTORY_ORDER))
    assert len(theirs_entries) == 4
    assert {e.state for e in theirs_entries} == set(HandEntry.State)
    ours_entries = sorted(entries, key=lambda e: [getattr(e, f) for f in replay.HISTORY_ORDER])
    assert [_attributes(e) for e in ours_entries] == [_attributes(e) for e in theirs_entries]
    assert all(type(e) is HandEntry and not e._state.adding for e in ours_entries)
    # What a write's ``history`` takes from the lock is the same list, once.
    with transaction.atomic():
        again = play.lock(match.pk, history=True)
        assert [_attributes(e) for e in play.history(again)] == [
            _attributes(e) for e in theirs_entries
        ]
        assert play._READ_WITH_LOCK not in vars(again)


def _attributes(obj):
    return {k: v for k, v in vars(obj).items() if k != "_state"}


def test_each_write_of_the_hand_path_reads_the_match_and_its_entries_once(
    running, django_assert_num_queries
):
    """A hand, an undo and a correction lock the match and read its entries in
    one statement, and write each row they change once (the savepoint and its release
    around them; an undo and a correction log an activity)."""
    _, _, match = running
    record(match, made("N", 3), "w1")
    # savepoint, lock with the entries, INSERT entry, UPDATE match, release (before the
    # entries were read with the lock: 6)
    with django_assert_num_queries(5):
        second = record(match, made("E", 3), "w2")
    # savepoint, lock with the entries, UPDATE entry, UPDATE match, INSERT activity,
    # release (7 before)
    with django_assert_num_queries(6):
        play.undo_last_hand(match, by="table 1", reason="oops")
    # savepoint, lock with the entries, UPDATE original, INSERT correction, UPDATE match,
    # INSERT activity, release: the match is named by the entry's id and the entry
    # corrected is found among the entries (at first: 11, the entry's match, the
    # entry and its fresh key read apart; 8 with the entries read apart from the lock)
    first = HandEntry.objects.get(match=match, number=1, state=HandEntry.State.STANDING)
    with django_assert_num_queries(7):
        corrections.correct_hand(first, made("N", 4), by="director", reason="four tricks")
    assert second.entry.state == HandEntry.State.STANDING


def test_a_held_match_writes_its_run_of_hands_in_one_insert_and_one_update(
    running, django_assert_num_queries
):
    """The simulation holds a match for a run of its hands (play.holding): one
    lock and one read of the entries for the run, the run's entries in one INSERT and the
    match's row written once, when the hold ends (or when the match does)."""
    _, _, match = running
    # savepoint, the lock with the entries, release
    with django_assert_num_queries(3), play.holding(match.pk):
        pass
    before = Match.objects.get(pk=match.pk).version
    with play.holding(match.pk) as held:
        record(held, made("N", 3), "h1")
        with django_assert_num_queries(0):  # its INSERT waits for the hold's end
            second = record(held, made("E", 4), "h2")
        again = record(held, made("E", 4), "h2")
        assert Match.objects.get(pk=match.pk).hands_played == 0
    assert again.duplicate and again.entry.pk == second.entry.pk
    written = Match.objects.get(pk=match.pk)
    assert (written.hands_played, written.score_ns, written.score_ew) == (2, 1, 1)
    assert written.version == before + 2
    assert list(match.hands.values_list("client_key", flat=True)) == ["h1", "h2"]
    with pytest.raises(ValueError, match="within its hold"):
        record(held, made("N", 3), "h3")


def _play_through_the_call(match, rnd, hold: bool, tag: str) -> list[tuple]:
    """Hands before the round's time runs out; after it, a hand entered before the call
    and sent late (it stays regular), the hand in progress at the call (it ties), then
    tie-break hands until one team leads: all in one held run, or each hand locking the
    match. The rows the match is left with."""
    from contextlib import nullcontext

    called = rnd.started_at + timedelta(minutes=rnd.tournament.round_minutes)
    after = called + timedelta(minutes=1)
    with play.holding(match.pk) if hold else nullcontext(match) as m:
        for i, maker in enumerate("NE"):
            record(m, made(maker, 3), f"{tag}-{i}", now=called - timedelta(minutes=9 - i))
        late = record(
            m, made("N", 3), f"{tag}-late", now=after, entered_at=called - timedelta(minutes=2)
        )
        assert late.entry.late_sync and late.entry.phase == "regular"
        state = record(m, made("E", 3), f"{tag}-call", now=after).state
        assert not state.over  # 2-2: a tie-break follows
        for i, maker in enumerate("EN"):
            if state.over:
                break
            state = record(
                m, made(maker, 5), f"{tag}-tb{i}", now=after + timedelta(minutes=i)
            ).state
        assert state.over
    fields = [
        f.attname
        for f in HandEntry._meta.concrete_fields
        if f.attname not in ("id", "match_id", "client_key")
    ]
    row = Match.objects.filter(pk=match.pk).values().get()
    row.pop("id")
    return [row, *match.hands.order_by("number", "id").values_list(*fields)]


def test_a_held_run_of_hands_stores_what_hand_by_hand_locks_store(make_tournament):
    """The state a held match carries from hand to hand (the clock unchanged) is the one
    a replay gives, and its row written at the end is the one each hand writes: the same
    rows, hand for hand, through a late hand, the call and a tie-break, as the per-hand
    path on a twin event."""
    results = []
    for twin in range(2):
        t = make_tournament(1)
        rnd = rounds.draw_first_round(t, by="test", seed=3)
        rounds.start_round(rnd, by="test", now=timezone.now() - timedelta(hours=1))
        rnd.refresh_from_db()
        match = rnd.matches.get()
        play.set_first_dealer(match, Seat.N, by="test")
        results.append(_play_through_the_call(match, rnd, twin == 1, f"twin{twin}"))
    per_hand, held = results
    strip = ("round_id", "last_entry_at", "last_contact_at", "time_called_at")

    def same(rows):
        first, *hands = rows
        return {k: v for k, v in first.items() if k not in strip}, [
            tuple(v for v in h if not hasattr(v, "tzinfo")) for h in hands
        ]

    assert len(held) == len(per_hand) == 6  # the match's row and its five hands
    assert same(held) == same(per_hand)


def test_no_other_service_locks_a_held_match(running):
    """A lock inside the hold's own transaction would not wait: it would read the row the
    hold has not written yet, and the hold's write at its end would undo its change."""
    _, _, match = running
    with play.holding(match.pk) as held:
        record(held, made("N", 3), "h1")
        with pytest.raises(RuntimeError, match="held"):
            play.answer_time_call(match, False, by="table 1")
        with pytest.raises(RuntimeError, match="held"):
            record(match, made("E", 3), "h2")
    record(match, made("E", 3), "h2")  # the hold has ended
    assert Match.objects.get(pk=match.pk).hands_played == 2


def test_a_refused_hand_in_a_hold_undoes_the_whole_run(running):
    _, _, match = running
    record(match, made("N", 3), "before")
    with play.holding(match.pk) as held:
        record(held, made("E", 3), "in-1")
        with pytest.raises(ServiceError):
            record(held, made("E", 3), "in-2", number=7)
        # The holder caught the refusal: the hold ends, and nothing of its run is kept.
        with pytest.raises(ValueError, match="within its hold"):
            record(held, made("E", 3), "in-3")
    assert list(match.hands.values_list("client_key", flat=True)) == ["before"]
    assert Match.objects.get(pk=match.pk).hands_played == 1


def _played_one_table_round(t):
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    match = rnd.matches.get()
    record(match, made("N", 3), "a", first_dealer=Seat.N)
    rounds.call_time(rnd, by="director")
    play.answer_time_call(match, False, by="table 1")
    return rnd


def test_finishing_a_round_finalizes_it_backs_up_and_seats_the_next_by_rotation(
    make_tournament, monkeypatch
):
    t = make_tournament(1)
    rnd = _played_one_table_round(t)
    backups: list[str] = []
    monkeypatch.setattr(rounds, "backup_after_finalize", backups.append)
    done = rounds.finish_round(t, rnd, by="director")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED and backups == ["round-1"]
    assert (done.last, done.refusal) == (False, None)
    assert done.seated is not None and done.seated.number == 2
    assert Round.objects.filter(tournament=t).count() == 2


def test_finishing_the_last_preliminary_round_seats_nothing_and_points_to_the_standings(
    make_tournament,
):
    t = make_tournament(1, preliminary_rounds=1)
    done = rounds.finish_round(t, _played_one_table_round(t), by="director")
    assert done.last and done.seated is None
    assert Round.objects.filter(tournament=t).count() == 1


def test_finishing_a_round_with_a_table_unfinished_is_refused_and_backs_nothing_up(
    running, monkeypatch
):
    t, rnd, _ = running
    backups: list[str] = []
    monkeypatch.setattr(rounds, "backup_after_finalize", backups.append)
    with pytest.raises(ServiceError, match="cannot be finalized yet"):
        rounds.finish_round(t, rnd, by="director")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RUNNING and backups == []
