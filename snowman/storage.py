"""Static files for production: hashed names, compressed, and ES module imports rewritten."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from re import Match
from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage

# The project's own static folders: a reference in them to a missing file is an error.
OWN = tuple(f"{p.name}/" for p in (Path(__file__).resolve().parent.parent / "static").iterdir())


class StaticStorage(CompressedManifestStaticFilesStorage):
    # The tablet and the phones load native ES modules: without this, a hashed module would
    # import its siblings by their plain names, so a browser could mix a new module with an
    # old cached sibling after an upgrade.
    support_js_module_import_aggregation = True

    def url_converter(
        self, name: str, hashed_files: dict[str, Any], template: str | None = None
    ) -> Callable[[Match[str]], str]:
        convert = super().url_converter(name, hashed_files, template)
        if name.startswith(OWN):
            return convert

        # Some libraries' optional extensions import bare module names that are not
        # files (django-htmx's hx-sse-2.js imports "htmx"); leave those imports as they are.
        def lenient(match: Match[str]) -> str:
            try:
                return convert(match)
            except ValueError:
                return match["matched"]

        return lenient
