"""The words for newcomers stay short and true: the README read in two minutes, the
performance reference the current figures only, and every doc, section and link that the
code and the docs cite exists (a doc that moved, or a section renumbered, fails here)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PERFORMANCE = ROOT / "docs" / "performance.md"
# Where a citation of a doc may stand: the code, its tests, pages, scripts and the docs
# (this file aside: its probes cite what does not exist).
CITING = ("tournaments", "snowman", "bench", "tests", "templates", "static", "bin", "docs")
CITING_FILES = ("README.md", "CONTRIBUTING.md", "pyproject.toml", ".ci/run", "bin/serve")
SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".toml", ""}

DOC_PATH = re.compile(r"\bdocs/(?:[\w-]+/)*[\w-]+\.md\b")
# "docs/performance.md §9.10", "docs/history/performance.md 9.11", "…, section 8".
SECTION = re.compile(
    r"\b(docs/(?:[\w-]+/)*[\w-]+\.md)(?:`)?,?\s+(?:§\s?|section\s+)?(\d+(?:\.\d+)?)\b"
)
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[\w-]+)?\)")
# A file or folder of the house a doc names in backticks: `tournaments/replay.py`,
# `tests/test_tablet.py::test_x`, `static/tablet/`.
HOUSE_PATH = re.compile(
    r"`((?:tournaments|snowman|bench|tests|templates|static|bin|locale|docs)/[\w./-]*)(?:::\w+)?`"
)


def citing_files() -> list[Path]:
    found = [ROOT / name for name in CITING_FILES if (ROOT / name).is_file()]
    for folder in CITING:
        for path in (ROOT / folder).rglob("*"):
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and "vendor" not in path.parts
                and "__pycache__" not in path.parts
                and path != Path(__file__)
            ):
                found.append(path)
    return found


def words(text: str) -> int:
    return len(text.split())


def cited_docs(text: str) -> set[str]:
    return set(DOC_PATH.findall(text))


def cited_sections(text: str) -> set[tuple[str, str]]:
    return set(SECTION.findall(text))


def numbered_sections(doc: str) -> set[str]:
    """The numbers of a doc's headings: "## 9. The write path" gives 9, "### 9.10 A
    fifth pass" gives 9.10, "## 4. Faults, 5. Bad input" gives 4 and 5."""
    numbers: set[str] = set()
    for line in doc.splitlines():
        if line.startswith("#"):
            numbers.update(re.findall(r"(?:^#+\s+|,\s+)(\d+(?:\.\d+)?)\.?\s", line))
    return numbers


def test_the_readme_is_read_in_two_minutes_and_gives_both_commands() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= 80 and words(text) <= 600
    assert "\nbin/serve\n" in text and "\nbash .ci/run\n" in text


def test_the_performance_reference_holds_current_figures_only() -> None:
    assert len(PERFORMANCE.read_text().splitlines()) <= 300


def test_every_doc_the_code_and_the_docs_cite_exists() -> None:
    missing = {
        f"{path.relative_to(ROOT)}: {doc}"
        for path in citing_files()
        for doc in cited_docs(path.read_text(errors="replace"))
        if not (ROOT / doc).is_file()
    }
    assert missing == set()


def test_every_numbered_section_cited_exists_in_its_doc() -> None:
    missing = set()
    for path in citing_files():
        for doc, number in cited_sections(path.read_text(errors="replace")):
            target = ROOT / doc
            if target.is_file() and number not in numbered_sections(target.read_text()):
                missing.add(f"{path.relative_to(ROOT)}: {doc} §{number}")
    assert missing == set()


def test_every_link_between_the_docs_resolves() -> None:
    pages = [README, ROOT / "CONTRIBUTING.md", *(ROOT / "docs").rglob("*.md")]
    broken = {
        f"{page.relative_to(ROOT)}: {link}"
        for page in pages
        for link in LINK.findall(page.read_text())
        if not link.startswith("http") and not (page.parent / link).resolve().is_file()
    }
    assert broken == set()


def test_every_path_the_docs_name_exists() -> None:
    """A file that moved must move in the docs too (the history keeps the old names)."""
    pages = [README, ROOT / "CONTRIBUTING.md", *(ROOT / "docs").rglob("*.md")]
    gone = {
        f"{page.relative_to(ROOT)}: {path}"
        for page in pages
        if "history" not in page.relative_to(ROOT).parts
        for path in HOUSE_PATH.findall(page.read_text())
        if not (ROOT / path).exists()
    }
    assert gone == set()


# The code says why in words; when a change was made, and for which request, is git log's.
ISSUE_CITATION = re.compile(r"\b[Ii]ssues? #?\d+")
CODE = ("tournaments", "snowman", "bench", "tests", "templates", "static", "bin", ".ci")


def issue_citations(text: str) -> list[str]:
    return ISSUE_CITATION.findall(text)


def test_no_comment_in_the_code_cites_an_issue_number() -> None:
    files = [ROOT / "pyproject.toml"] + [
        path
        for folder in CODE
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix in SUFFIXES
        and "vendor" not in path.parts
        and "__pycache__" not in path.parts
        and path != Path(__file__)
    ]
    cited = {
        f"{path.relative_to(ROOT)}: {found}"
        for path in files
        for found in issue_citations(path.read_text(errors="replace"))
    }
    assert cited == set()


def test_the_checks_find_a_gone_doc_a_gone_section_and_a_broken_link() -> None:
    probe = (
        "see docs/gone.md, and docs/performance.md §9.10 or docs/performance.md, section 8;"
        " docs/history/performance.md 9.12 and [a link](gone.md#part)"
    )
    assert "docs/gone.md" in cited_docs(probe)
    assert not (ROOT / "docs" / "gone.md").exists()
    assert cited_sections(probe) == {
        ("docs/performance.md", "9.10"),
        ("docs/performance.md", "8"),
        ("docs/history/performance.md", "9.12"),
    }
    headings = "## 9. The write path\n### 9.1 The guard\n## 4. Faults, 5. Bad input\n"
    assert numbered_sections(headings) == {"9", "9.1", "4", "5"}
    assert "9.10" not in numbered_sections(headings)
    assert LINK.findall(probe) == ["gone.md"]
    assert issue_citations("# the seat first (issue 22, item 3); Issues 23 and #24") == [
        "issue 22",
        "Issues 23",
    ]
    named = "`tournaments/gone.py`, `tests/test_x.py::test_y` and `static/tablet/`"
    assert HOUSE_PATH.findall(named) == ["tournaments/gone.py", "tests/test_x.py", "static/tablet/"]
