"""``{{ cents|dollars }}``: an amount of cents as the reader writes money ("$12.50",
"12,50 $" in French)."""

from __future__ import annotations

from django import template
from django.utils import translation

from tournaments.domain.money import money_text

register = template.Library()


@register.filter
def dollars(cents: int | None) -> str:
    if cents is None:
        return "–"
    text = money_text(cents)
    if (translation.get_language() or "").startswith("fr"):
        return text.replace(".", ",") + "\xa0$"
    return f"-${text[1:]}" if text.startswith("-") else f"${text}"


@register.filter
def percent(basis_points: int) -> str:
    """2500 as "25 %" in French, "25%" in English; 1250 as "12.5%"."""
    text = money_text(basis_points).rstrip("0").rstrip(".")
    if (translation.get_language() or "").startswith("fr"):
        return text.replace(".", ",") + "\xa0%"
    return f"{text}%"
