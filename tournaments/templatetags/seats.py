"""A seat's one-letter name in the reader's language: West is "O" (Ouest) in French."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext

register = template.Library()


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
