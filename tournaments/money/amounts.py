"""Amounts of cents as the reader writes money: "$12.50" in English, "12,50 $" in
French (Canada); a percentage kept in basis points as "12.5%" or "12,5 %"."""

from __future__ import annotations

from django.utils import translation

from tournaments.domain.money import money_text


def _french() -> bool:
    return (translation.get_language() or "").startswith("fr")


def dollars(cents: int | None) -> str:
    if cents is None:
        return "–"
    text = money_text(cents)
    if _french():
        return text.replace(".", ",") + "\xa0$"
    return f"-${text[1:]}" if text.startswith("-") else f"${text}"


def percent(basis_points: int) -> str:
    text = money_text(basis_points).rstrip("0").rstrip(".")
    if _french():
        return text.replace(".", ",") + "\xa0%"
    return f"{text}%"
