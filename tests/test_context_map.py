"""The house by purpose: one package per purpose inside ``tournaments/``, and a one-way map
between them (docs/architecture.md). The rules know nothing; the shared mechanisms know the
rules; the event core knows both and no context; each context knows the core and the
contexts before it; the root (URL wiring, admin, the models' registry, template tags, the
management commands) sits on top, and nothing of the app imports the project (``snowman``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.db_independent  # reads the source, no database

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "tournaments"

# Bottom to top; a package may import its own and those before it.
ORDER = [
    "domain",
    "common",
    "core",
    "clubs",
    "registration",
    "series",
    "publishing",
    "prizes",
    "devices",
    "money",
    "records",
]
ROOM_MAX_SHARE = 0.12
MAX_LOOSE_MODULES = 6


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of_module(module: str) -> str:
    """The map's name for a module: its first package under tournaments/, else "root"."""
    parts = module.split(".")
    if parts[0] != "tournaments" or len(parts) < 2 or parts[1] not in ORDER:
        return "root"
    return parts[1]


def imports(source: str, module: str, is_package: bool) -> set[str]:
    """Every module ``source`` imports, anywhere in it (functions too), relative ones
    resolved; ``from x import name`` counts as ``x.name`` when that is a module."""
    found: set[str] = set()
    base = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                start = base[: len(base) - node.level + 1]
                name = ".".join([*start, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def app_modules() -> dict[str, Path]:
    return {
        module_of(path): path
        for path in sorted(APP.rglob("*.py"))
        if "migrations" not in path.parts
    }


def map_offences(sources: dict[str, tuple[str, bool]]) -> set[str]:
    """Each import that runs against the map: upwards, into the root, or into snowman."""
    offences = set()
    for module, (source, is_package) in sources.items():
        here = package_of_module(module)
        for name in imports(source, module, is_package):
            top = name.split(".")[0]
            if top == "snowman":
                offences.add(f"{module} imports the project: {name}")
                continue
            if top != "tournaments" or name == "tournaments":
                continue
            there = package_of_module(name)
            if here == "root":
                if name == "tournaments.models" and module != "tournaments.models":
                    offences.add(f"{module} imports the models' registry, not a model's module")
                continue
            if there == "root":
                offences.add(f"{module} ({here}) imports the root: {name}")
            elif ORDER.index(there) > ORDER.index(here):
                offences.add(f"{module} ({here}) imports {there}: {name}")
    return offences


def sources() -> dict[str, tuple[str, bool]]:
    return {m: (p.read_text(), p.name == "__init__.py") for m, p in app_modules().items()}


def test_every_import_follows_the_one_way_map() -> None:
    assert map_offences(sources()) == set()


def test_the_map_check_finds_an_upward_import_a_root_import_and_the_project() -> None:
    probe = {
        "tournaments.core.services.play": (
            "from tournaments.prizes import services\n"
            "from tournaments import urls\n"
            "def late():\n"
            "    from snowman.hall import qr_code\n",
            False,
        ),
        "tournaments.series.views": ("from ..core.models.event import Tournament\n", False),
        "tournaments.admin": ("from tournaments.models import Tournament\n", False),
    }
    found = map_offences(probe)
    assert any("imports prizes" in line for line in found)
    assert any("imports the root: tournaments.urls" in line for line in found)
    assert any("imports the project" in line for line in found)
    assert any("models' registry" in line for line in found)
    assert not any(line.startswith("tournaments.series.views") for line in found)


def test_the_map_names_every_package_under_tournaments() -> None:
    packages = {
        p.name
        for p in APP.iterdir()
        if p.is_dir() and (p / "__init__.py").exists() and p.name not in {"management"}
    }
    assert packages - {"migrations", "templatetags"} == set(ORDER)


def rooms(lines: dict[str, int]) -> dict[str, int]:
    """Lines per room: a module's folder (a package's own modules, not its sub-packages)."""
    by_room: dict[str, int] = {}
    for module, count in lines.items():
        room = module.rpartition(".")[0] if "." in module else module
        by_room[room] = by_room.get(room, 0) + count
    return by_room


def house_lines() -> dict[str, int]:
    found = {}
    for folder in ("tournaments", "snowman"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            found[".".join(path.relative_to(ROOT).with_suffix("").parts)] = len(
                path.read_text().splitlines()
            )
    return found


def oversized_rooms(lines: dict[str, int]) -> list[str]:
    house = sum(lines.values())
    return [
        f"{room}: {count} of {house} lines ({count / house:.1%})"
        for room, count in sorted(rooms(lines).items())
        if count > ROOM_MAX_SHARE * house
    ]


def test_no_room_holds_more_than_an_eighth_of_the_house() -> None:
    lines = house_lines()
    assert "tournaments.core.services.play" in lines
    assert oversized_rooms(lines) == []


def test_the_room_check_finds_a_room_too_large() -> None:
    lines = {"tournaments.core.services.a": 100, "tournaments.core.reads.b": 900}
    assert oversized_rooms(lines) == ["tournaments.core.reads: 900 of 1000 lines (90.0%)"]
    assert oversized_rooms({"x.a": 12, "y.b": 88}) == ["y: 88 of 100 lines (88.0%)"]


def test_the_root_of_tournaments_keeps_few_loose_modules() -> None:
    loose = sorted(p.name for p in APP.glob("*.py"))
    assert len(loose) <= MAX_LOOSE_MODULES, loose


# A function a reader can hold in mind at once: none over 120 lines, and only a few over
# 80 (the tablet's hand path stays one straight function: splitting it costs calls).
LONG_FUNCTION = 80
LONGEST_FUNCTION = 120
MAX_LONG_FUNCTIONS = 5


def function_lengths(sources: dict[str, str]) -> dict[str, int]:
    """Lines per function, methods and nested functions too, named ``module:line name``."""
    found = {}
    for module, source in sources.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                found[f"{module}:{node.lineno} {node.name}"] = length
    return found


def long_function_offences(lengths: dict[str, int]) -> list[str]:
    """Each function over the longest allowed, and the long ones when they are too many."""
    offences = [
        f"{name}: {length} lines, over {LONGEST_FUNCTION}"
        for name, length in sorted(lengths.items())
        if length > LONGEST_FUNCTION
    ]
    long = sorted((n, length) for n, length in lengths.items() if length > LONG_FUNCTION)
    if len(long) > MAX_LONG_FUNCTIONS:
        offences.append(
            f"{len(long)} functions over {LONG_FUNCTION} lines, at most {MAX_LONG_FUNCTIONS}: "
            + ", ".join(f"{name} ({length})" for name, length in long)
        )
    return offences


def test_no_function_runs_over_120_lines_and_at_most_five_over_80() -> None:
    lengths = function_lengths({m: source for m, (source, _) in sources().items()})
    assert any(name.startswith("tournaments.core.services.play:") for name in lengths)
    offences = long_function_offences(lengths)
    assert offences == [], "\n".join(offences)


def test_the_length_check_finds_a_function_too_long_and_too_many_long_ones() -> None:
    def body(lines: int, indent: str = "") -> str:
        return f"{indent}def f():\n" + f"{indent}    x = 1\n" * (lines - 1)

    lengths = function_lengths({"m.a": body(121), "m.b": "class C:\n" + body(81, "    ")})
    assert lengths == {"m.a:1 f": 121, "m.b:2 f": 81}
    assert long_function_offences(lengths) == ["m.a:1 f: 121 lines, over 120"]
    many = {f"m.{i}:1 f": 81 for i in range(6)}
    assert long_function_offences(many) == [
        "6 functions over 80 lines, at most 5: " + ", ".join(f"m.{i}:1 f (81)" for i in range(6))
    ]
    assert long_function_offences({**many, "m.0:1 f": 80}) == []
