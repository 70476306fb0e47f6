"""The publishing context's panel on the core's settings page, so the core imports no
context."""

from typing import Any

from django import template

from tournaments.core.models.event import Tournament
from tournaments.publishing import reads

register = template.Library()


@register.simple_tag
def publish_state(tournament: Tournament) -> Any:
    """Where the event's results stand with the club site (``publishing.reads.state``)."""
    return reads.state(tournament)
