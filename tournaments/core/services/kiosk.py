"""Kiosk mode's director PIN (issue 23, part 1).

A tablet in kiosk mode keeps the director's controls behind the event's PIN, checked
here, per table: five wrong PINs in a row lock that table's PIN for ``LOCK_FOR`` (the
director is told on the tablet how long); the right PIN clears the count. The PIN only
opens controls on the tablet's screen; what those controls send is checked as any
table's request is.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import Arg, Joined, said
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import TableLink
from tournaments.core.services import ServiceError, log, now_or

TRIES = 5
LOCK_FOR = timedelta(minutes=10)
PIN_DIGITS = (4, 8)
# The silence threshold's bounds: above a report's interval plus a poll, below an hour.
SILENT_MIN = 30
SILENT_MAX = 3600


def new_pin() -> str:
    return f"{secrets.randbelow(10_000):04d}"


class WrongPin(ServiceError):
    def __init__(self, left: int) -> None:
        self.left = left
        super().__init__(
            _("Wrong PIN. %(n)s more tries before the PIN locks.") % {"n": left}
            if left
            else _("Wrong PIN.")
        )


class PinLocked(ServiceError):
    """Too many wrong PINs at this table (HTTP 429)."""

    status = 429

    def __init__(self, until: datetime, now: datetime) -> None:
        self.until = until
        self.retry_after = max(1, int((until - now).total_seconds()))
        minutes = (self.retry_after + 59) // 60
        super().__init__(
            _("Too many wrong PINs: the director's controls are locked for %(m)s min.")
            % {"m": minutes}
        )


@dataclass(frozen=True)
class Opened:
    until: datetime


# How long the director's controls stay open after the PIN.
OPEN_FOR = timedelta(minutes=5)


def check_pin(
    link_id: int, device: int, tournament: Tournament, typed: str, *, now: datetime | None = None
) -> Opened:
    """The right PIN opens the director's controls (and clears the count); a wrong one
    counts, and the fifth locks the table's PIN for ``LOCK_FOR``. Raises LookupError when
    the link is not the session's live one (the caller answers 403)."""
    now = now_or(now)
    with transaction.atomic():
        link = (
            TableLink.objects.live().select_for_update().filter(pk=link_id, device=device).first()
        )
        if link is None:
            raise LookupError("not the table's device")
        if link.pin_locked_until is not None and link.pin_locked_until > now:
            raise PinLocked(link.pin_locked_until, now)
        pin = tournament.director_pin
        if pin and secrets.compare_digest(typed.strip(), pin):
            if link.pin_failures or link.pin_locked_until:
                link.pin_failures, link.pin_locked_until = 0, None
                link.save(update_fields=["pin_failures", "pin_locked_until"])
            return Opened(now + OPEN_FOR)
        failures = link.pin_failures + 1
        if failures >= TRIES:
            link.pin_failures, link.pin_locked_until = 0, now + LOCK_FOR
            link.save(update_fields=["pin_failures", "pin_locked_until"])
            log(
                tournament,
                f"Table {link.table} tablet",
                "pin_locked",
                said(
                    "kiosk.table_wrong_director_pins",
                    table=link.table,
                    tries=TRIES,
                    minutes=int(LOCK_FOR.total_seconds() // 60),
                ),
                at=now,
            )
            raise_after = PinLocked(link.pin_locked_until, now)
        else:
            link.pin_failures = failures
            link.save(update_fields=["pin_failures"])
            raise_after = None
    # Outside the transaction: the count is stored whatever the answer.
    if raise_after is not None:
        raise raise_after
    raise WrongPin(TRIES - failures)


def update_device_settings(
    tournament: Tournament,
    *,
    kiosk: bool,
    pin: str,
    silent_after_seconds: int,
    by: str,
) -> None:
    """The event's device settings: kiosk mode, the director's PIN, the silence threshold."""
    pin = pin.strip()
    if not (pin.isdigit() and PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]):
        raise ServiceError(_("The PIN must be 4 to 8 digits."))
    if not SILENT_MIN <= silent_after_seconds <= SILENT_MAX:
        raise ServiceError(
            _("The silence threshold must be between %(lo)s and %(hi)s seconds.")
            % {"lo": SILENT_MIN, "hi": SILENT_MAX}
        )
    with transaction.atomic():
        old = Tournament.objects.select_for_update().get(pk=tournament.pk)
        changed: list[Arg] = []
        if old.kiosk != kiosk:
            changed.append(said("kiosk.kiosk_mode_on") if kiosk else said("kiosk.kiosk_mode_off"))
        if old.director_pin != pin:
            changed.append(said("kiosk.director_pin_changed"))
        if old.silent_after_seconds != silent_after_seconds:
            changed.append(
                said(
                    "kiosk.tablet_silent_after",
                    old=old.silent_after_seconds,
                    new=silent_after_seconds,
                )
            )
        Tournament.objects.filter(pk=tournament.pk).update(
            kiosk=kiosk, director_pin=pin, silent_after_seconds=silent_after_seconds
        )
        tournament.kiosk, tournament.director_pin = kiosk, pin
        tournament.silent_after_seconds = silent_after_seconds
        if changed:
            line = said("kiosk.device_settings_changed", changes=Joined(changed))
            log(tournament, by, "settings", line)
