"""Static files as production serves them: hashed, and the ES modules import hashed names."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import override_settings

pytestmark = [pytest.mark.slow, pytest.mark.db_independent]  # files, no database


def test_production_modules_import_their_siblings_by_hashed_name(tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "snowman.storage.StaticStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    [tablet] = [p for p in (tmp_path / "tablet").glob("tablet.*.js") if p.suffix == ".js"]
    imports = re.findall(r'from "([^"]+)"', tablet.read_text())
    assert imports and all(re.search(r"\.[0-9a-f]{12}\.js$", i) for i in imports), imports
    [phone] = [p for p in (tmp_path / "public").glob("phone.*.js") if p.suffix == ".js"]
    assert re.search(r'from "\.\./shared/time\.[0-9a-f]{12}\.js"', phone.read_text())
