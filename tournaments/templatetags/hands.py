"""The director's hand logs: a hand in words (``reads.handtext``)."""

from __future__ import annotations

from django import template

from tournaments.core.logtext import actor_label, reason_label
from tournaments.core.models.play import HandEntry
from tournaments.core.reads.handtext import describe

register = template.Library()


@register.filter
def hand_text(entry: HandEntry) -> str:
    return describe(entry)


@register.filter
def actor(value: str) -> str:
    """Who entered or ended a hand, in the reader's language ("Tablette de la table 1")."""
    return actor_label(value)


@register.filter
def reason(value: str) -> str:
    """A stored reason in the reader's language ("Undone at the table.")."""
    return reason_label(value)
