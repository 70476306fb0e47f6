"""A recorded hand in words, for the director's hand logs (the one Python writing of it;
the tablet writes its own in JavaScript)."""

from __future__ import annotations

from collections.abc import Mapping

from ..domain.hands import Seat
from ..domain.rules import RuleSettings
from ..models import HandEntry
from ..replay import individual_awards


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


def individual_points(entry: HandEntry, rules: RuleSettings, *, final: bool = False) -> str:
    """``individual_awards`` as the hand log prints them, e.g. "E −2"."""
    return awards_text(individual_awards(entry, rules, final=final))
