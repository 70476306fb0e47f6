"""A rule setting's value as the reader reads it: the sit-out score's "average" and "none"
are words of the setting's own, typed in English (docs/rules.md §6), shown translated."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def sit_out_setting(value: str) -> str:
    words = {
        "average": pgettext("sit-out score setting", "average"),
        "none": pgettext("sit-out score setting", "none"),
    }
    return words.get(value, value)
