"""The round clock (docs/rules.md §2): the server's, never a tablet's.

Vocabulary: a round is *started* at an instant, may be *paused* and *resumed* by the
director, and *time is called* when the running time reaches the limit or the director
calls it early. A table that started late may have an *extension* added to its own limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Pause:
    started_at: datetime
    ended_at: datetime | None = None


@dataclass(frozen=True)
class RoundClock:
    limit: timedelta
    started_at: datetime | None = None
    pauses: Sequence[Pause] = field(default_factory=tuple)
    called_at: datetime | None = None

    @property
    def started(self) -> bool:
        return self.started_at is not None

    def paused(self, now: datetime) -> bool:
        return any(p.ended_at is None and p.started_at <= now for p in self.pauses)

    def running_time(self, now: datetime) -> timedelta:
        """Time the clock has run by ``now``: wall time since start less the pauses."""
        if self.started_at is None:
            return timedelta(0)
        end = min(now, self.called_at) if self.called_at else now
        total = max(end - self.started_at, timedelta(0))
        for p in self.pauses:
            p_end = min(p.ended_at or end, end)
            if p_end > p.started_at:
                total -= p_end - p.started_at
        return max(total, timedelta(0))

    def remaining(self, now: datetime, extension: timedelta = timedelta(0)) -> timedelta:
        if self.called_at is not None and self.called_at <= now:
            return timedelta(0)
        return max(self.limit + extension - self.running_time(now), timedelta(0))

    def is_called(self, now: datetime, extension: timedelta = timedelta(0)) -> bool:
        if self.started_at is None:
            return False
        if self.called_at is not None and self.called_at <= now:
            return True
        return self.remaining(now, extension) <= timedelta(0)

    def limit_reached_at(self, extension: timedelta = timedelta(0)) -> datetime | None:
        """The instant the running time reaches the limit (plus ``extension``), walking
        through the pauses; None before the start or while a pause holds it back."""
        if self.started_at is None:
            return None
        at = self.started_at + self.limit + extension
        for p in sorted(self.pauses, key=lambda p: p.started_at):
            if p.started_at >= at:
                break
            if p.ended_at is None:
                return None
            at += p.ended_at - p.started_at
        return at

    def call_instant(self, now: datetime, extension: timedelta = timedelta(0)) -> datetime | None:
        """When time was (or will be, if nothing changes) called; None before the start."""
        if self.started_at is None:
            return None
        if self.called_at is not None and self.called_at <= now:
            return self.called_at
        if self.paused(now):
            return None
        return now + self.remaining(now, extension)


# The least a hand takes: a late-synced hand claimed sooner after the one before is refused.
MIN_HAND_SECONDS = 30


def late_sync_holds(
    *,
    started_at: datetime | None,
    called_at: datetime | None,
    previous_at: datetime | None,
    claimed: datetime,
    now: datetime,
    grace: timedelta,
) -> bool:
    """A hand sent after the call is taken as entered before it only if the tablet's
    claim is possible (docs/rules.md §7): before the call, not after its arrival, at least
    30 seconds after the previous hand (or after the start), and sent within the grace
    window."""
    if called_at is None or started_at is None:
        return False
    if previous_at is not None:
        earliest = previous_at + timedelta(seconds=MIN_HAND_SECONDS)
    else:
        earliest = started_at
    return earliest <= claimed < called_at and claimed <= now and now <= called_at + grace


# A tablet's contact is noted at most this often, to spare the writer: the director's
# board calls a table stale after minutes (reads.console.STALE_AFTER).
CONTACT_EVERY = timedelta(seconds=60)


def contact_due(last_contact_at: datetime | None, now: datetime) -> bool:
    return last_contact_at is None or now - last_contact_at > CONTACT_EVERY
