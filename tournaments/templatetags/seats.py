"""A seat's one-letter name in the reader's language: West is "O" (Ouest) in French."""

from __future__ import annotations

from django import template

from tournaments.common import bilingual

register = template.Library()


@register.simple_tag
def house() -> str:
    """The word that marks a house player (§6): the sheets' and the tablet's own."""
    return str(bilingual.house())


register.filter("seat_letter", bilingual.seat_letter)


@register.filter
def team_letters(team: str) -> str:
    """A team's letters in the reader's language: EW is "EO" in French."""
    return str(bilingual.team(team))
