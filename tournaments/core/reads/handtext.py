"""A recorded hand in words, for the director's hand logs (the one Python writing of it;
the tablet writes its own in JavaScript)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common.bilingual import seat
from tournaments.core.models.play import HandEntry
from tournaments.core.replay import individual_awards
from tournaments.domain.hands import Seat
from tournaments.domain.rules import RuleSettings


def describe(entry: HandEntry) -> str:
    """'N made alone, 5 tricks', 'renege by E' or 'misdeal', in the reader's language
    (seat letters too: West is "O" in French)."""
    if entry.outcome == HandEntry.Outcome.PLAYED:
        tricks = entry.maker_tricks or 0
        values = {"maker": seat(entry.maker or ""), "tricks": tricks}
        if entry.alone:
            text = ngettext(
                "%(maker)s made alone, %(tricks)s trick",
                "%(maker)s made alone, %(tricks)s tricks",
                tricks,
            )
        else:
            text = ngettext(
                "%(maker)s made, %(tricks)s trick", "%(maker)s made, %(tricks)s tricks", tricks
            )
        text %= values
        if entry.dealer_partner_ordered_up:
            text = _("%(hand)s (ordered the dealer up)") % {"hand": text}
        if entry.defender_alone:
            text = _("%(hand)s, %(seat)s defended alone") % {
                "hand": text,
                "seat": seat(entry.defender_alone),
            }
        return text
    if entry.outcome == HandEntry.Outcome.RENEGE:
        return _("renege by %(seat)s") % {"seat": seat(entry.renege_by or "")}
    return _("misdeal")


def awards_text(awards: Mapping[Seat, int]) -> str:
    """Individual awards and penalties as the logs print them, e.g. "N +1, E −2"."""
    return ", ".join(
        f"{seat(place.value)} {points:+d}".replace("-", "−") for place, points in awards.items()
    )


def individual_points(entry: HandEntry, rules: RuleSettings, *, final: bool = False) -> str:
    """``individual_awards`` as the hand log prints them, e.g. "E −2"."""
    return awards_text(individual_awards(entry, rules, final=final))
