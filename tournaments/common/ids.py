"""The one id parser: every id (and every whole number naming a row: a round, a table, a
version) read from a URL, a form, a cookie or a JSON body goes through ``parse_id``.

Python's ``int`` takes what no client of ours sends: ``"١٢"`` (Arabic-Indic digits) is
12, ``" 12 "``, ``"+12"`` and ``"1_2"`` are numbers too, and ``str.isdigit`` passes
``"²"``, which ``int`` then refuses with a ValueError (a 500). A 20-digit id overflows
SQLite's integer and PostgreSQL's bigint. So: ASCII digits only, within the column's
range, else None, and the caller answers with a message. tests/test_layering.py fails
when a view, a form or a URL parses a number another way.

Pure Python, no Django: the URL converter below is a plain class.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# The primary keys are BigAutoField: bigint on PostgreSQL, SQLite's 64-bit integer.
ID_MAX = 2**63 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_id(value: object, *, low: int = 1, high: int = ID_MAX) -> int | None:
    """``value`` as a whole number in ``low..high`` when it is one written in ASCII
    digits (or an int, from JSON), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _DIGITS.fullmatch(value):
        number = int(value)
    else:
        return None
    return number if low <= number <= high else None


def beyond_range(value: object) -> bool:
    """A positive whole number written as an id would be, too large for any row."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value > ID_MAX
    return isinstance(value, str) and re.fullmatch(r"[0-9]{20,}", value) is not None


def parse_ids(values: Iterable[object], *, low: int = 1, high: int = ID_MAX) -> list[int] | None:
    """Every value parsed, or None when any one is not an id."""
    found = [parse_id(v, low=low, high=high) for v in values]
    return None if None in found else [n for n in found if n is not None]


class IdConverter:
    """``<id:pk>`` in a URL: ASCII digits within the column's range (Django's ``<int:>``
    takes any length; past the range a lookup overflows)."""

    regex = "[0-9]+"  # any length, so reverse() works; to_python refuses past the range

    def to_python(self, value: str) -> int:
        number = parse_id(value, low=0)
        if number is None:
            raise ValueError(value)  # Django answers 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)
