"""HTML asserts that read markup as HTML (attribute order, whitespace and quoting do not
matter), not as raw text."""

from __future__ import annotations

from django.test import SimpleTestCase

_case = SimpleTestCase()


def assert_in_html(needle: str, haystack: str, count: int | None = None) -> None:
    _case.assertInHTML(needle, haystack, count=count)


def text_by_id(html: str, ident: str) -> str:
    """The text a reader sees in the element with id ``ident`` (tags dropped, white space
    folded)."""
    from django.test.html import Element, parse_html

    def find(node: Element) -> Element | None:
        if dict(node.attributes).get("id") == ident:
            return node
        for child in node.children:
            if isinstance(child, Element) and (hit := find(child)) is not None:
                return hit
        return None

    def text(node: Element | str) -> str:
        return node if isinstance(node, str) else " ".join(text(c) for c in node.children)

    found = find(parse_html(html))
    assert found is not None, f"no element with id {ident!r}"
    return " ".join(text(found).split())
