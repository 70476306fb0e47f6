"""A seat's one-letter name in the reader's language: West is "O" (Ouest) in French."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext

from tournaments import bilingual

register = template.Library()


@register.simple_tag
def house() -> str:
    """The word that marks a house player (§6): the sheets' and the tablet's own."""
    return str(bilingual.house())


@register.filter
def seat_letter(position: str) -> str:
    # One msgid each with a context, so the seat's "W" is not the standings' "W" (wins).
    letters = {
        "N": pgettext("seat North", "N"),
        "E": pgettext("seat East", "E"),
        "S": pgettext("seat South", "S"),
        "W": pgettext("seat West", "W"),
    }
    return letters.get(position, position)


@register.filter
def team_letters(team: str) -> str:
    """A team's letters in the reader's language: EW is "EO" in French."""
    return str(bilingual.team(team))
