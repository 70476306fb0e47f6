"""docs/rules.md §2: the server clock with pauses, an early call and per-table extensions."""

from datetime import UTC, datetime, timedelta

import pytest

from tournaments.domain.clock import MIN_HAND_SECONDS, Pause, RoundClock, late_sync_holds
from tournaments.domain.rules import RuleSettings

pytestmark = pytest.mark.db_independent  # pure rules, no database

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
LIMIT = timedelta(minutes=20)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_time_is_called_when_the_limit_is_reached():
    clock = RoundClock(LIMIT, started_at=T0)
    assert clock.remaining(at(5)) == timedelta(minutes=15)
    assert not clock.is_called(at(19.9))
    assert clock.is_called(at(20))
    assert clock.call_instant(at(1)) == at(20)


def test_a_pause_stops_the_clock_and_resume_continues_it():
    clock = RoundClock(LIMIT, started_at=T0, pauses=(Pause(at(5), at(8)),))
    assert clock.remaining(at(10)) == timedelta(minutes=13)
    assert not clock.is_called(at(22))
    assert clock.is_called(at(23))
    open_pause = RoundClock(LIMIT, started_at=T0, pauses=(Pause(at(5)),))
    assert open_pause.paused(at(30)) and not open_pause.is_called(at(60))
    assert open_pause.call_instant(at(30)) is None


def test_an_extension_gives_one_table_more_time():
    clock = RoundClock(LIMIT, started_at=T0)
    assert clock.is_called(at(21))
    assert not clock.is_called(at(21), extension=timedelta(minutes=3))


def test_an_early_call_stops_every_table():
    clock = RoundClock(LIMIT, started_at=T0, called_at=at(12))
    assert clock.is_called(at(12), extension=timedelta(minutes=5))
    assert clock.remaining(at(13)) == timedelta(0)


def test_a_round_not_started_is_never_called():
    assert not RoundClock(LIMIT).is_called(at(100))


def test_settings_default_to_the_rule_sheet_and_refuse_nonsense():
    rules = RuleSettings()
    assert (rules.preliminary_rounds, rules.round_minutes, rules.target) == (5, 20, 10)
    assert rules.errors() == {}
    errors = RuleSettings(
        target=0, renege_penalty=2, alone_march_award=-1, tiebreaks=("wins", "total")
    ).errors()
    assert set(errors) == {"target", "renege_penalty", "alone_march_award", "tiebreaks"}


def test_a_late_synced_hand_holds_only_if_its_claim_is_possible() -> None:
    start = datetime(2026, 12, 2, 14, 0)
    call = start + timedelta(minutes=20)
    held = dict(started_at=start, called_at=call, previous_at=call - timedelta(minutes=3))
    grace = timedelta(minutes=15)
    claimed = call - timedelta(minutes=1)
    assert late_sync_holds(**held, claimed=claimed, now=call + timedelta(minutes=2), grace=grace)
    # Not after the call, not from the future, not later than the grace, not too soon
    # after the hand before, never before the round started or with no call.
    assert not late_sync_holds(**held, claimed=call, now=call, grace=grace)
    assert not late_sync_holds(**held, claimed=claimed, now=claimed - timedelta(1), grace=grace)
    assert not late_sync_holds(**held, claimed=claimed, now=call + grace * 2, grace=grace)
    soon = dict(held, previous_at=claimed - timedelta(seconds=MIN_HAND_SECONDS - 1))
    assert not late_sync_holds(**soon, claimed=claimed, now=call, grace=grace)
    first = dict(held, previous_at=None)
    assert late_sync_holds(**first, claimed=start, now=call, grace=grace)
    assert not late_sync_holds(**first, claimed=start - timedelta(1), now=call, grace=grace)
    assert not late_sync_holds(**dict(held, called_at=None), claimed=claimed, now=call, grace=grace)
