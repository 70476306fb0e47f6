"""What a table's device says about itself: the tablet's
``X-Snowman-Health`` header, read without Django (``services.device_health`` writes it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

# How often a tablet reports while nothing changes; the silence threshold (the event's
# ``silent_after_seconds``, at least 30 s, 60 by default) must be above it plus
# one poll (3 s).
HEALTH_EVERY = timedelta(seconds=20)


@dataclass(frozen=True)
class Health:
    unsent: int | None
    battery: int | None
    charging: bool | None


def parse_health(header: str) -> Health | None:
    """The header's figures; None for a header no tablet of ours sends (ignored)."""
    if not header or len(header) > 100:
        return None
    values: dict[str, str] = {}
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        values[key.strip()] = value.strip()
    try:
        unsent = int(values["unsent"]) if values.get("unsent", "") != "" else None
        battery = int(values["battery"]) if values.get("battery", "") != "" else None
    except ValueError:
        return None
    charging = {"1": True, "0": False}.get(values.get("charging", ""))
    if unsent is not None and not 0 <= unsent <= 10_000:
        return None
    if battery is not None and not 0 <= battery <= 100:
        return None
    return Health(unsent, battery, charging)
