"""The director's hand logs: a hand in words (``reads.handtext``)."""

from __future__ import annotations

from django import template

from ..models import HandEntry
from ..reads.handtext import describe

register = template.Library()


@register.filter
def hand_text(entry: HandEntry) -> str:
    return describe(entry)
