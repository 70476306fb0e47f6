"""axe-core in a Playwright page: the one way the browser tests audit a screen.

axe-core (MPL-2.0, from the npm registry) is kept in tests/vendor/ so the audit runs
offline and every run uses the same rules; a new axe-core is a new file there and a new
name here."""

from __future__ import annotations

import time
import weakref
from pathlib import Path

from playwright.sync_api import Page, Request, Response

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


# The requests each page has in flight, as Playwright saw them start and end.
_IN_FLIGHT: weakref.WeakKeyDictionary[Page, set[Request]] = weakref.WeakKeyDictionary()
# One turn of the page's event loop after a frame is drawn: an answer that just came in
# has been swapped into the page by then.
_ONE_TURN = "() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))"


def _in_flight(page: Page) -> set[Request]:
    if page not in _IN_FLIGHT:
        pending: set[Request] = set()
        page.on("request", lambda request: pending.add(request))
        page.on("requestfinished", lambda request: pending.discard(request))
        page.on("requestfailed", lambda request: pending.discard(request))
        _IN_FLIGHT[page] = pending
    return _IN_FLIGHT[page]


def open_settled(page: Page, address: str, timeout: float = 30.0) -> Response | None:
    """``address`` opened, and every request the page made on the way (its live parts'
    first answers, htmx's loads) answered and drawn: what Playwright's "networkidle"
    waits for, without the half second of silence it waits out on every page."""
    pending = _in_flight(page)
    response = page.goto(address)
    deadline = time.monotonic() + timeout
    quiet_turns = 0
    while quiet_turns < 2:  # a request an answer's drawing started is waited for too
        page.evaluate(_ONE_TURN)
        quiet_turns = 0 if pending else quiet_turns + 1
        assert time.monotonic() < deadline, (
            f"{address} still loading {sorted(r.url for r in pending)}"
        )
    return response
