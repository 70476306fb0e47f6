"""axe-core in a Playwright page: the one way the browser tests audit a screen.

axe-core (MPL-2.0, from the npm registry) is kept in tests/vendor/ so the audit runs
offline and every run uses the same rules; a new axe-core is a new file there and a new
name here."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1.min.js"
# The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA (docs/accessibility.md).
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_violations(page: Page) -> list[dict]:
    """Each rule the page breaks: its id, what it asks, and up to three of its nodes (a
    selector and the first line of axe-core's account of what is wrong)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    return page.evaluate(
        """async (tags) => (await axe.run(document, {
            runOnly: {type: 'tag', values: tags},
            resultTypes: ['violations'],
        })).violations.map(v => ({id: v.id, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: '
                + (n.failureSummary || '').split('\\n').slice(1, 2).join('').trim())}))""",
        WCAG_22_AA,
    )
