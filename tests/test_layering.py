"""The layers import only downwards: the rules know nothing of Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / "tournaments" / "domain"


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_rules_modules_import_nothing_from_django_or_the_other_layers() -> None:
    offenders = {
        f"{path.name}: {name}"
        for path in sorted(DOMAIN.glob("*.py"))
        for name in imported_modules(path)
        if name.split(".")[0] == "django"
        or name.startswith(("tournaments.services", "tournaments.models", "tournaments.views"))
    }
    assert not offenders


def test_importing_the_rules_loads_no_django() -> None:
    # Imports hidden inside functions or behind importlib escape the source check above.
    code = (
        "import importlib, pkgutil, sys, tournaments.domain as d\n"
        "for m in pkgutil.iter_modules(d.__path__):\n"
        "    importlib.import_module('tournaments.domain.' + m.name)\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] == 'django'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
