"""Where a stored hand becomes JSON and a rules object, and back (issue 21's adapter).

The results file (docs/results-format.md) writes and reads every hand field through
``HAND_FIELDS`` here, so a field the export writes cannot be dropped by the import
again (``defender_alone`` once was, ``dealer_partner_ordered_up`` travelled neither way).
"""

from __future__ import annotations

from typing import Any

from .domain.hands import Hand, Outcome, Seat
from .models import HandEntry, Match

# Every hand field of snowman.results/1, in the order the export writes them.
HAND_FIELDS = (
    "number",
    "dealer",
    "outcome",
    "makers",
    "maker",
    "alone",
    "maker_tricks",
    "renege_by",
    "dealer_partner_ordered_up",
    "defender_alone",
    "phase",
    "points",
)


def hand_json(entry: HandEntry) -> dict[str, Any]:
    """One standing hand as the results file holds it."""
    played = entry.outcome == HandEntry.Outcome.PLAYED
    out = {
        "number": entry.number,
        "dealer": entry.dealer,
        "outcome": entry.outcome,
        "makers": Seat(entry.maker).team.value if played else None,
        "maker": entry.maker if played else None,
        "alone": entry.alone,
        "maker_tricks": entry.maker_tricks if played else None,
        "renege_by": entry.renege_by or None,
        "dealer_partner_ordered_up": entry.dealer_partner_ordered_up,
        # The lone defender's seat, or null.
        "defender_alone": entry.defender_alone or None,
        "phase": entry.phase,
        "points": {"NS": entry.points_ns, "EW": entry.points_ew},
    }
    assert tuple(out) == HAND_FIELDS
    return out


def hand_of_json(h: dict[str, Any]) -> Hand:
    """The rules' hand of a checked file hand. The two fields newer exports added are
    optional: a file written before them reads as neither."""
    return Hand(
        outcome=Outcome(h["outcome"]),
        maker=Seat(h["maker"]) if h["maker"] else None,
        alone=h["alone"],
        maker_tricks=h["maker_tricks"],
        renege_by=Seat(h["renege_by"]) if h["renege_by"] else None,
        dealer_partner_ordered_up=bool(h.get("dealer_partner_ordered_up", False)),
        defender_alone=Seat(h["defender_alone"]) if h.get("defender_alone") else None,
    )


def hand_of(entry: HandEntry) -> Hand:
    return Hand(
        outcome=Outcome(entry.outcome),
        maker=Seat(entry.maker) if entry.maker else None,
        alone=entry.alone,
        maker_tricks=entry.maker_tricks,
        renege_by=Seat(entry.renege_by) if entry.renege_by else None,
        dealer_partner_ordered_up=entry.dealer_partner_ordered_up,
        defender_alone=Seat(entry.defender_alone) if entry.defender_alone else None,
    )


def entry_of(
    hand: Hand, match: Match | None, number: int, *, dealer: str, **fields: Any
) -> HandEntry:
    """An unsaved entry for ``hand`` (the inverse of ``hand_of``); ``fields`` are the
    entry's own: phase, source, who and when, and so on."""
    return HandEntry(
        match=match,
        number=number,
        outcome=hand.outcome.value,
        maker=hand.maker.value if hand.maker else "",
        alone=hand.alone,
        maker_tricks=hand.maker_tricks,
        renege_by=hand.renege_by.value if hand.renege_by else "",
        dealer_partner_ordered_up=hand.dealer_partner_ordered_up,
        defender_alone=hand.defender_alone.value if hand.defender_alone else "",
        dealer=dealer,
        **fields,
    )


def entry_of_json(h: dict[str, Any], **fields: Any) -> HandEntry:
    """An unsaved entry for a checked file hand; ``fields`` are the entry's own (its
    match, key, source, who and when)."""
    return entry_of(
        hand_of_json(h),
        fields.pop("match", None),
        h["number"],
        dealer=h["dealer"],
        phase=h["phase"],
        points_ns=h["points"]["NS"],
        points_ew=h["points"]["EW"],
        **fields,
    )
