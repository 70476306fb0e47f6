"""``{{ cents|dollars }}`` and ``{{ basis_points|percent }}``: the money's amounts as the
reader writes them (tournaments/money/amounts.py)."""

from __future__ import annotations

from django import template

from tournaments.money import amounts

register = template.Library()
register.filter("dollars", amounts.dollars)
register.filter("percent", amounts.percent)
