"""Every CSV the app writes goes through here, so no cell can run as a formula.

A spreadsheet opening a CSV runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and
tab or carriage return, which some treat the same) as a formula: a player registered as
``=HYPERLINK(...)`` would run in the director's spreadsheet. Such text cells get a leading
apostrophe, which spreadsheets show as plain text (OWASP's advice). Numbers stay numbers.

Nothing else in the app may make a ``csv.writer`` or a ``text/csv`` response:
tests/test_layering.py searches the code for one.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` with every text cell passed through ``safe_cell``."""

    def __init__(self, stream: Any, **kwargs: Any) -> None:
        self._writer = csv.writer(stream, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream: Any, **kwargs: Any) -> SafeWriter:
    return SafeWriter(stream, **kwargs)


def text(rows: Iterable[Iterable[Any]]) -> str:
    """The rows as CSV text (for a caller that stores or returns the text itself)."""
    out = io.StringIO()
    writer(out).writerows(rows)
    return out.getvalue()


def attachment(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A download response and the writer that fills it."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, writer(response)
