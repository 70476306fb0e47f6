"""Where a stored hand becomes JSON and a rules object, and back (issue 21's adapter).

The results file (docs/results-format.md) writes and reads every hand field through
``HAND_FIELDS`` here, so a field the export writes cannot be dropped by the import
again (``defender_alone`` once was, ``dealer_partner_ordered_up`` travelled neither way);
the tablet's hand list spells the same fields through ``hand_fields_json``.
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


# The rules' hand as a row stores it (the columns ``hand_of`` reads).
HAND_COLUMNS = (
    "outcome",
    "maker",
    "alone",
    "maker_tricks",
    "renege_by",
    "dealer_partner_ordered_up",
    "defender_alone",
)
SEAT_COLUMNS = ("maker", "renege_by", "defender_alone")  # blank: no seat


def hand_fields(entry: HandEntry) -> dict[str, Any]:
    """The rules' hand of a row, as stored (a form's initial values)."""
    return {name: getattr(entry, name) for name in HAND_COLUMNS}


def hand_fields_json(entry: HandEntry) -> dict[str, Any]:
    """The rules' hand of a row as JSON (a blank seat is null): the fields the tablet's
    hand list and the results file share."""
    return {
        name: (value or None) if name in SEAT_COLUMNS else value
        for name, value in hand_fields(entry).items()
    }


def hand_json(entry: HandEntry) -> dict[str, Any]:
    """One standing hand as the results file holds it: a hand not played has no makers,
    maker or tricks."""
    played = entry.outcome == HandEntry.Outcome.PLAYED
    fields = {
        **hand_fields_json(entry),
        "number": entry.number,
        "dealer": entry.dealer,
        "makers": Seat(entry.maker).team.value if played else None,
        "phase": entry.phase,
        "points": {"NS": entry.points_ns, "EW": entry.points_ew},
    }
    if not played:
        fields |= {"maker": None, "maker_tricks": None}
    return {name: fields[name] for name in HAND_FIELDS}


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
