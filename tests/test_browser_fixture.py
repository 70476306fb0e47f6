"""The browser tests' own fixture: no page outlives the test that opened it."""

import pytest

from tests.conftest import ClosingBrowser


@pytest.mark.browser
def test_every_page_a_test_opens_is_closed_when_the_test_ends(session_chromium) -> None:
    browser = ClosingBrowser(session_chromium)
    browser.new_page(viewport={"width": 390, "height": 844})
    browser.new_context().new_page()
    assert len(session_chromium.contexts) == 2
    browser.close_all()
    assert session_chromium.contexts == []
