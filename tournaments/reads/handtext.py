"""A recorded hand in words, for the director's hand logs (the one Python writing of it;
the tablet writes its own in JavaScript)."""

from __future__ import annotations

from collections.abc import Mapping

from ..domain.hands import Seat
from ..models import HandEntry


def describe(entry: HandEntry) -> str:
    """'N made alone, 5 tricks', 'renege by E' or 'misdeal'."""
    if entry.outcome == HandEntry.Outcome.PLAYED:
        alone = " alone" if entry.alone else ""
        ordered = " (ordered the dealer up)" if entry.dealer_partner_ordered_up else ""
        tricks = entry.maker_tricks
        plural = "" if tricks == 1 else "s"
        defender = f", {entry.defender_alone} defended alone" if entry.defender_alone else ""
        return f"{entry.maker} made{alone}{ordered}, {tricks} trick{plural}{defender}"
    if entry.outcome == HandEntry.Outcome.RENEGE:
        return f"renege by {entry.renege_by}"
    return "misdeal"


def awards_text(awards: Mapping[Seat, int]) -> str:
    """Individual awards and penalties as the logs print them, e.g. "N +1, E −2"."""
    return ", ".join(
        f"{seat.value} {points:+d}".replace("-", "−") for seat, points in awards.items()
    )
