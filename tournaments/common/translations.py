"""The translation catalogues: locale/<lang>/LC_MESSAGES/*.po are the source (committed);
the .mo files Django reads are compiled from them here, in pure Python (polib), at
bin/serve's start and before the tests, so no GNU gettext is needed to run Snowman.
Extracting new strings (makemessages) does need xgettext: README, Translations."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import polib
from django.conf import settings


def catalogues() -> list[Path]:
    return sorted(p for root in settings.LOCALE_PATHS for p in Path(root).rglob("*.po"))


def compile_catalogues() -> list[Path]:
    """Writes each .po's .mo beside it (always: a branch switch can leave a newer but
    stale .mo, and one catalogue compiles in milliseconds); returns those written.

    Written to a temporary file and renamed, so a test worker or a server reading the
    catalogue never sees half of one."""
    written = []
    for po_path in catalogues():
        mo_path = po_path.with_suffix(".mo")
        po = polib.pofile(str(po_path))
        fd, tmp = tempfile.mkstemp(dir=po_path.parent, suffix=".mo.tmp")
        os.close(fd)
        try:
            po.save_as_mofile(tmp)
            os.replace(tmp, mo_path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        written.append(mo_path)
    return written
