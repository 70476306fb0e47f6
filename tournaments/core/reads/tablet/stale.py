"""Why a tablet's change no longer fits its match: the messages of the 409s a stale hand
or undo is answered with (docs/tablet-api.md), worked out from the entries the write
read under its lock. Each says what happened, so the scorekeeper knows what to check."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from tournaments.core.models.play import HandEntry


def hand_taken(standing: Sequence[HandEntry], number: int) -> str:
    """A new hand numbered ``number`` arrived when the match's ``standing`` hands already
    reach that number: the director changed the hands (entered, corrected or inserted one
    there or before), or another tablet at the table recorded it."""
    values = {"number": number, "next_number": len(standing) + 1}
    if any(e.source == HandEntry.Source.DIRECTOR for e in standing[number - 1 :]):
        return (
            _(
                "Hand %(number)s is already recorded: the director changed this match's "
                "hands. The next hand is %(next_number)s; check the hands shown."
            )
            % values
        )
    return (
        _(
            "Hand %(number)s is already recorded (by another tablet?); the next hand "
            "is %(next_number)s."
        )
        % values
    )


def hand_ahead(standing: Sequence[HandEntry], number: int) -> str:
    """A new hand numbered ``number`` arrived beyond the match's next hand: the tablet
    counted hands the match no longer has (the director undid or voided one, or a hand
    queued before this one was refused), so it answers with the state as it is now."""
    return _(
        "The next hand is hand %(next_number)s, not %(number)s: this match's hands "
        "changed since this tablet's screen. Check the hands shown."
    ) % {"number": number, "next_number": len(standing) + 1}


def undo_refusal(entries: Sequence[HandEntry], number: int, client_key: str) -> str | None:
    """Why a tablet's undo of hand ``number``, the entry ``client_key`` it showed as the
    last hand, cannot be done on the match's history ``entries`` (every entry, in order);
    None when that entry is still the last standing hand.

    A number alone cannot tell the hand the tablet saw from one that took its number since
    (the director corrected it, or undid it and a new one was entered): an undo without
    the key, from a tablet screen older than the key, is refused too."""
    standing = [e for e in entries if e.state == HandEntry.State.STANDING]
    last = standing[-1] if standing else None
    if not client_key:
        return _(
            "This undo does not say which hand it undoes (the tablet's screen is out of "
            "date): nothing was undone. Check the hands shown and undo again if needed."
        )
    if last is not None and last.client_key == client_key:
        if last.number == number:
            return None
        # The key is the last hand's but the number is not: a screen that does not
        # agree with itself undoes nothing (docs/tablet-api.md: "must be that entry").
        return _("Hand %(expected_number)s is not the last hand: the last hand is %(number)s.") % {
            "expected_number": number,
            "number": last.number,
        }
    seen = next((e for e in entries if e.client_key == client_key), None)
    if seen is None:
        return _(
            "Hand %(number)s as this tablet showed it was never recorded: nothing was "
            "undone. Check the hands shown."
        ) % {"number": number}
    if seen.state == HandEntry.State.SUPERSEDED:
        return _(
            "The director changed this match's hands after this tablet showed hand "
            "%(number)s: nothing was undone. Check the hands shown and undo again if "
            "needed."
        ) % {"number": seen.number}
    if seen.state == HandEntry.State.UNDONE:
        return _(
            "Hand %(number)s was already undone (by the director or another tablet): "
            "nothing more was undone. Check the hands shown."
        ) % {"number": seen.number}
    assert last is not None  # ``seen`` stands
    return _("Hand %(expected_number)s is not the last hand: the last hand is %(number)s.") % {
        "expected_number": seen.number,
        "number": last.number,
    }
