"""The devices context's words on the core's tablet screen, so the core imports no context."""

import json

from django import template

from tournaments.devices.reads import tablet_words

register = template.Library()


@register.simple_tag
def help_words() -> str:
    """The tablet's call-the-director words as JSON, for its ``data-help-words``."""
    return json.dumps(tablet_words())
