"""The layers import only downwards: the rules know nothing of Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.db_independent  # reads the source, no database

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
        or name.startswith(
            ("tournaments.core.services", "tournaments.models", "tournaments.core.views")
        )
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


VIEWS = ROOT / "tournaments" / "core" / "views"
# Empty since views/tablet.py joined the rule; kept so a future exception is named here.
VIEWS_NOT_YET_LAYERED: set[str] = set()


def runtime_imports(source: str, package: str) -> set[str]:
    """Absolute names of the modules a module of ``package`` imports when it runs: relative
    imports are resolved, and imports under ``if TYPE_CHECKING:`` (annotations only) are
    left out."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            # ``from .. import models`` names the module in the alias.
            names.update(f"{module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return names


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])


def test_the_views_import_neither_models_nor_the_rules() -> None:
    offenders = {
        f"{path.relative_to(VIEWS)}: {name}"
        for path in sorted(VIEWS.rglob("*.py"))
        if path.relative_to(VIEWS).as_posix() not in VIEWS_NOT_YET_LAYERED
        for name in runtime_imports(path.read_text(), package_of(path))
        if is_model_or_rule(name)
    }
    assert not offenders


def is_model_or_rule(name: str) -> bool:
    """A models module (the registry, the core's by subject, a context's) or the rules."""
    parts = name.split(".")
    return name.startswith("tournaments.domain") or "models" in parts[:4]


def test_the_import_check_sees_relative_imports_and_skips_annotations() -> None:
    # The check above must fail on the imports it forbids (a test that cannot fail is none).
    probe = (
        "from typing import TYPE_CHECKING\n"
        "from ...models import Round\n"
        "from ... import domain\n"
        "def late():\n"
        "    from ...domain.hands import Seat\n"
        "if TYPE_CHECKING:\n"
        "    from ...models import Match\n"
    )
    found = runtime_imports(probe, "tournaments.core.views.director")
    assert package_of(VIEWS / "director" / "rounds.py") == "tournaments.core.views.director"
    assert "tournaments.core.models" in found
    assert "tournaments.core.domain" in found
    assert "tournaments.core.domain.hands" in found
    assert "tournaments.core.models.Match" not in found
    assert is_model_or_rule("tournaments.core.models.play")
    assert is_model_or_rule("tournaments.prizes.models")
    assert is_model_or_rule("tournaments.domain.hands")
    assert not is_model_or_rule("tournaments.core.reads.console")


def test_each_rule_default_is_written_once_in_the_rules() -> None:
    # models.py takes each rule column's default from RuleSettings; a literal there would be
    # a second copy that drifts (the skunk bonus's default once lived in five files).
    from tournaments.core.models.event import Tournament
    from tournaments.domain.rules import RuleSettings

    rule_columns = {*Tournament.RULE_FIELDS, "tiebreaks", "sit_out_score"}
    literal_defaults = []
    tree = ast.parse((ROOT / "tournaments" / "core" / "models" / "event.py").read_text())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id in rule_columns):
            continue
        default = next((k.value for k in node.value.keywords if k.arg == "default"), None)
        if default is None or "_DEFAULTS" not in ast.unparse(default):
            literal_defaults.append(target.id)
    assert literal_defaults == []
    domain = RuleSettings()
    for name in rule_columns:
        column = Tournament._meta.get_field(name).default
        expected = getattr(domain, name)
        assert column == (",".join(expected) if name == "tiebreaks" else expected), name


def test_every_setting_that_scores_a_hand_reaches_the_tablet_and_its_scorer() -> None:
    # The tablet's rules are every setting but those that shape the event: a new award is
    # sent to the tablet with no list to extend, and its scorer must read it (a rule the
    # JS scorer ignored would score the tablet's hands differently from the server's).
    import dataclasses

    from tournaments.core.models.event import Tournament
    from tournaments.core.reads.tablet.state import TABLET_RULES
    from tournaments.domain.rules import EVENT_SETTINGS, RuleSettings

    names = [f.name for f in dataclasses.fields(RuleSettings)]
    assert EVENT_SETTINGS.issubset(names)
    assert list(TABLET_RULES) == [n for n in names if n not in EVENT_SETTINGS]
    assert set(Tournament.RULE_FIELDS) == set(names) - {"tiebreaks", "sit_out_score"}
    scorer = (ROOT / "static" / "tablet" / "rules.js").read_text()
    assert [n for n in TABLET_RULES if n not in scorer] == []


# One CSV writer: every CSV the app produces goes through tournaments/common/csvcells.py, so no
# cell a person typed can run as a formula in the director's spreadsheet.
CSV_BYPASSES = ("csv.writer", "csv.DictWriter", "text/csv", "from csv import")
CSV_HOME = ROOT / "tournaments" / "common" / "csvcells.py"


def csv_bypasses(paths: list[Path]) -> set[str]:
    return {
        f"{path.name}:{number}: {pattern}"
        for path in paths
        if path != CSV_HOME
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for pattern in CSV_BYPASSES
        if pattern in line
    }


def app_sources() -> list[Path]:
    return sorted(
        path
        for folder in ("tournaments", "snowman", "bench")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_every_csv_the_app_writes_goes_through_csvcells() -> None:
    assert not csv_bypasses(app_sources())


def test_the_csv_check_finds_a_writer_made_elsewhere(tmp_path: Path) -> None:
    probe = ROOT / "tournaments" / "series" / "services.py"
    sources = app_sources()
    assert probe in sources and CSV_HOME in sources
    fake = tmp_path / "probe.py"
    fake.write_text('w = csv.writer(out)\nHttpResponse(content_type="text/csv")\n')
    found = {line.split(": ", 1)[1] for line in csv_bypasses([fake])}
    assert found == {"csv.writer", "text/csv"}


# One id parser: every number read from a URL, a form, a cookie or a JSON body goes
# through tournaments.ids.parse_id (ASCII digits, within the column's range). Python's
# int() takes "١٢" as 12, str.isdigit() passes "²" (then int() raises: a 500), and
# Django's <int:> and ModelChoiceField take both or any length.
ID_READERS = [
    ROOT / "tournaments" / "core" / "forms.py",
    ROOT / "tournaments" / "core" / "forms_tablet.py",
    ROOT / "tournaments" / "registration" / "forms.py",
    *sorted(p for p in (ROOT / "tournaments").glob("*/*views.py")),
    *sorted(p for p in (ROOT / "tournaments").glob("*/*urls.py")),
    ROOT / "tournaments" / "urls.py",
    *sorted((ROOT / "tournaments" / "views").rglob("*.py")),
    *sorted((ROOT / "tournaments" / "core" / "urls").rglob("*.py")),
    *sorted((ROOT / "tournaments" / "core" / "services" / "tablet").rglob("*.py")),
    *sorted((ROOT / "tournaments" / "core" / "reads" / "tablet").rglob("*.py")),
]
NUMBER_READING_METHODS = {"isdigit", "isdecimal", "isnumeric"}
CHOICE_FIELDS = {"ModelChoiceField", "ModelMultipleChoiceField"}


def id_parsing_bypasses(source: str, name: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        # int() of arithmetic (a timestamp in ms) parses nothing; of anything else it may.
        if called == "int" and not all(isinstance(a, ast.BinOp) for a in node.args):
            found.add(f"{name}:{node.lineno}: int({ast.unparse(node.args[0])})")
        if called in NUMBER_READING_METHODS:
            found.add(f"{name}:{node.lineno}: .{called}()")
        if called in CHOICE_FIELDS:
            found.add(f"{name}:{node.lineno}: {called}")
        for kw in node.keywords:
            if kw.arg == "coerce" and isinstance(kw.value, ast.Name) and kw.value.id == "int":
                found.add(f"{name}:{node.lineno}: coerce=int")
    for number, line in enumerate(source.splitlines(), 1):
        if "<int:" in line:
            found.add(f"{name}:{number}: <int:")
    return found


def test_every_id_read_from_a_request_goes_through_the_one_id_parser() -> None:
    offenders = set()
    for path in ID_READERS:
        offenders |= id_parsing_bypasses(path.read_text(), path.name)
    assert not offenders


def test_the_id_check_finds_int_isdigit_coerce_and_int_converters() -> None:
    probe = (
        "pk = int(request.POST['pk'])\n"
        "ok = raw.isdigit()\n"
        "f = forms.TypedChoiceField(coerce=int)\n"
        "g = forms.ModelChoiceField(queryset=q)\n"
        'path("people/<int:pk>/", view)\n'
        "ms = int(time.time() * 1000)\n"
    )
    found = {line.split(": ", 1)[1] for line in id_parsing_bypasses(probe, "views.py")}
    assert found == {
        "int(request.POST['pk'])",
        ".isdigit()",
        "coerce=int",
        "ModelChoiceField",
        "<int:",
    }


# --- The read wing and the commands -----------------------------------------------
# tournaments/reads/ answers what pages, phones, sheets and the export show; services/ holds
# the commands. Reads import no services or views and write nothing; neither wing hides an
# import inside a function (the old way round a cycle), and services/ and reads/ have no
# import cycle.
READS = ROOT / "tournaments" / "core" / "reads"
SERVICES = ROOT / "tournaments" / "core" / "services"

WRITES = ("atomic", ".save(", ".create(", ".update(", "select_for_update", "bulk_", "get_or_")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def wing_modules() -> dict[str, Path]:
    return {module_name(p): p for wing in (SERVICES, READS) for p in sorted(wing.rglob("*.py"))}


def imported_wing_modules(source: str, package: str, known: set[str]) -> set[str]:
    """The modules of ``known`` a module imports when it runs, annotations left out:
    ``from . import log`` names the package, ``from . import play`` the module only."""
    found = set()

    def nearest(name: str) -> str:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(nearest(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                found.add(submodule if submodule in known else nearest(module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return found - {""}


def reads_package(name: str) -> str:
    """The package of a reads/ module named by its path under reads/ (``tablet/state.py``)."""
    return ".".join(["tournaments", "core", "reads", *Path(name).parts[:-1]])


def services_used_by_reads(sources: dict[str, str]) -> dict[str, set[str]]:
    """For each reads/ module (file name → source), the services/ modules it imports, by
    file stem (``__init__`` for the package)."""
    known = set(wing_modules())
    used = {}
    for name, source in sources.items():
        stems = {
            "__init__" if m == "tournaments.core.services" else m.rpartition(".")[2]
            for m in imported_wing_modules(source, reads_package(name), known)
            if m.startswith("tournaments.core.services")
        }
        if stems:
            used[name] = stems
    return used


def read_wing_offences(sources: dict[str, str]) -> set[str]:
    offences = set()
    for name, source in sources.items():
        for imported in runtime_imports(source, reads_package(name)):
            if imported.startswith("tournaments.core.views"):
                offences.add(f"{name}: imports {imported}")
        for number, line in enumerate(source.splitlines(), 1):
            code = line.split("#", 1)[0]
            offences |= {f"{name}:{number}: {w}" for w in WRITES if w in code}
    return offences


def reads_sources() -> dict[str, str]:
    return {p.relative_to(READS).as_posix(): p.read_text() for p in sorted(READS.rglob("*.py"))}


def test_the_read_wing_imports_no_views_and_writes_nothing() -> None:
    assert not read_wing_offences(reads_sources())


def test_the_read_wing_imports_no_service() -> None:
    # The clock, the replay and the awards live in tournaments/core/replay.py, the tablet's
    # contact stamp in services.tablet: a reader takes nothing from the commands.
    assert services_used_by_reads(reads_sources()) == {}


def test_the_read_wing_checks_find_a_view_a_write_and_a_new_service() -> None:
    probe = (
        "from django.db import transaction\n"
        "from ..views.public import home\n"
        "from ..services import rounds\n"
        "from ..services.play import round_clock\n"
        "def touch(t):\n"
        "    with transaction.atomic():\n"
        "        t.save(update_fields=['name'])\n"
        "    Round.objects.filter(pk=1).update(status='x')\n"
        "    Match.objects.select_for_update().get(pk=1)\n"
    )
    offences = {o.split(": ", 1)[1] for o in read_wing_offences({"probe.py": probe})}
    assert offences == {
        "imports tournaments.core.views.public",
        "imports tournaments.core.views.public.home",
        "atomic",
        ".save(",
        ".update(",
        "select_for_update",
    }
    assert services_used_by_reads({"probe.py": probe}) == {"probe.py": {"rounds", "play"}}


# Imports inside functions, by "module: function"; empty since the read wing broke the cycles
# they dodged. A new one fails the test below: break the cycle instead.
IMPORTS_INSIDE_FUNCTIONS: set[str] = set()


def imports_inside_functions(source: str, name: str) -> set[str]:
    found = set()
    for fn in ast.walk(ast.parse(source)):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    found.add(f"{name}: {fn.name}")
    return found


def test_no_module_of_services_or_reads_imports_inside_a_function() -> None:
    found = set()
    for module, path in wing_modules().items():
        found |= imports_inside_functions(path.read_text(), module)
    assert found == IMPORTS_INSIDE_FUNCTIONS


def test_the_inside_import_check_finds_one() -> None:
    probe = "import os\ndef late():\n    from .people import recompute_ratings\n"
    assert imports_inside_functions(probe, "m") == {"m: late"}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def wing_graph() -> dict[str, set[str]]:
    modules = wing_modules()
    known = set(modules)
    graph = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        graph[module] = imported_wing_modules(path.read_text(), package, known) - {module}
    return graph


def test_services_and_reads_have_no_import_cycle() -> None:
    graph = wing_graph()
    assert "tournaments.core.reads.standings" in graph["tournaments.core.reads.queries"]
    assert import_cycles(graph) == []


def test_the_cycle_check_finds_the_cycle_issue_21_broke() -> None:
    # people → players (edit_player), players → people (link_players), people → standings,
    # standings → people (recompute_ratings): the rooms as they were.
    graph = {
        "people": {"players", "standings", "names"},
        "players": {"people", "names"},
        "standings": {"people", "play"},
        "names": set(),
        "play": set(),
    }
    assert import_cycles(graph) == [["people", "players", "standings"]]


# A workflow's steps are called by its service only: the views, the commands, the simulation
# and the benches call the workflow (finish_round, finish_event, import_event), so each
# sequence is written once (``backup=False`` where an event is made to test or measure).
WORKFLOW_STEPS = {
    "finalize_round": "finish_round",
    "finish_tournament": "finish_event",
    "import_results": "import_event",
}
CALLERS = [
    *sorted(VIEWS.rglob("*.py")),
    *sorted((ROOT / "tournaments").glob("*/*views.py")),
    *sorted((ROOT / "tournaments" / "management" / "commands").glob("*.py")),
    ROOT / "tournaments" / "core" / "simulate.py",
    *sorted((ROOT / "bench").glob("*.py")),
]


def workflow_steps_called(source: str, name: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if called in WORKFLOW_STEPS:
                found.add(f"{name}:{node.lineno}: {called} (call {WORKFLOW_STEPS[called]})")
    return found


def test_views_and_commands_call_the_workflows_not_their_steps() -> None:
    found = set()
    for path in CALLERS:
        found |= workflow_steps_called(path.read_text(), path.relative_to(ROOT).as_posix())
    assert not found


def test_the_workflow_check_finds_a_step_called_from_a_view() -> None:
    probe = "round_service.finalize_round(rnd, by=who(request))\nimport_results(data, by='d')\n"
    assert len(workflow_steps_called(probe, "views/x.py")) == 2


# One hand adapter: a hand's fields are spelled in tournaments/core/replay.py alone (the export,
# the import, the tablet's hand list and the director's correction form go through it), so
# a field one of them writes cannot be dropped by another (``defender_alone`` once was).
REPLAY = ROOT / "tournaments" / "core" / "replay.py"


def hand_spellings(source: str, name: str) -> set[str]:
    """A ``HandEntry(...)`` call or a dict literal with a hand's keys."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "HandEntry":
            found.add(f"{name}:{node.lineno}: HandEntry(...)")
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if {"maker_tricks", "renege_by"} <= keys:
                found.add(f"{name}:{node.lineno}: a hand's dict")
    return found


def test_only_replay_spells_a_hands_fields() -> None:
    found = set()
    for path in app_sources():
        if path != REPLAY and path.is_relative_to(ROOT / "tournaments"):
            found |= hand_spellings(path.read_text(), path.relative_to(ROOT).as_posix())
    assert not found


def test_the_hand_spelling_check_finds_an_entry_and_a_dict() -> None:
    probe = "e = HandEntry(number=1)\nj = {'outcome': o, 'maker_tricks': 3, 'renege_by': None}\n"
    assert hand_spellings(probe, "x.py") == {"x.py:1: HandEntry(...)", "x.py:2: a hand's dict"}
    assert hand_spellings(REPLAY.read_text(), "replay.py")


# The architecture doc's layout table names folders and files a newcomer can open: every
# path in its first column exists (a path that moved must move in the table too).
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def layout_paths(doc: str) -> list[str]:
    """The paths of the first column of the doc's first ``| path | what |`` table; a bare
    name after a path names a file beside the first (``forms.py`` after
    ``tournaments/core/forms.py``)."""
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.replace(" ", "") == "|path|what|")
    paths = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        names = [cell.strip("` ") for cell in line.split("|")[1].split(",")]
        folder = names[0].rstrip("/").rpartition("/")[0]
        for name in names:
            paths.append(name if "/" in name or not folder else f"{folder}/{name}")
    return paths


def test_the_architecture_docs_layout_names_paths_that_exist() -> None:
    paths = layout_paths(ARCHITECTURE.read_text())
    assert "tournaments/core/reads/" in paths and "tournaments/core/forms_tablet.py" in paths
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_the_layout_check_finds_a_path_that_is_gone() -> None:
    probe = (
        "# Map\n\n| path | what |\n|---|---|\n| `tournaments/gone.py`, `ids.py` | x |\n"
        "\n| `tournaments/after.py` | not in the table |\n"
    )
    paths = layout_paths(probe)
    assert paths == ["tournaments/gone.py", "tournaments/ids.py"]
    assert not (ROOT / paths[0]).exists()


# Lists the rules keep and the ORM repeats (it cannot import them into a choices class or a
# catalogue): each copy is held to the rules' own, as the rule defaults are above.
def test_the_prize_figures_and_builtin_names_are_the_rules_own() -> None:
    from tournaments.domain import prizes
    from tournaments.prizes.models import PrizeFigure
    from tournaments.prizes.reads import BUILTIN_NAMES

    assert list(PrizeFigure.values) == list(prizes.FIGURES)
    asked: list[str] = []
    prizes.builtin_rules(("A",), label=lambda text: asked.append(text) or text)
    assert tuple(dict.fromkeys(asked)) == BUILTIN_NAMES
