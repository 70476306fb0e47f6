"""Device health (issue 23, part 5): what each table's device says about itself, and
when it was last heard from.

The tablet adds ``X-Snowman-Health: unsent=3;battery=45;charging=0`` to a poll every
``domain.health.HEALTH_EVERY`` (and at once when a figure changes); the state view reads
it (``domain.health.parse_health``) and hands it here, and one UPDATE writes it on the table's
link, only for the device that holds the table (a replaced device's word is not taken).
The board reads it with its matches (``reads.console.live_board``), in the same query.
"""

from __future__ import annotations

from datetime import datetime

from tournaments.core.models.event import Tournament
from tournaments.core.models.play import TableLink
from tournaments.core.services.kiosk import SILENT_MAX as SILENT_MAX
from tournaments.core.services.kiosk import SILENT_MIN as SILENT_MIN
from tournaments.core.services.kiosk import update_device_settings
from tournaments.domain.health import Health


def report(link_id: int, device: int, health: Health, now: datetime) -> None:
    """Note what the table's current device said (one UPDATE; nothing for a device that
    was replaced or a link that was revoked)."""
    TableLink.objects.filter(pk=link_id, device=device, revoked_at__isnull=True).update(
        seen_at=now,
        unsent=min(health.unsent, 32767) if health.unsent is not None else None,
        battery=health.battery,
        charging=health.charging,
    )


def set_silent_after(tournament: Tournament, seconds: int, *, by: str) -> None:
    """The event's silence threshold (``Tournament.silent_after_seconds``) alone."""
    update_device_settings(
        tournament,
        kiosk=tournament.kiosk,
        pin=tournament.director_pin,
        silent_after_seconds=seconds,
        by=by,
    )
