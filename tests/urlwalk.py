"""The URL conf walked by namespace, for the tests that visit every page of some URL
modules (tests/test_hidden.py: the public ones; tests/test_club_scoping.py: the staff
ones). Each names the namespaces it walks and the ones it leaves to other tests, so a new
URL module is never silently out of both."""

from __future__ import annotations

from collections.abc import Collection

from django.urls import URLPattern, URLResolver, get_resolver


def patterns_by_namespace(
    walked: Collection[str | None], elsewhere: Collection[str | None]
) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """(namespace:name, its kwargs) of every pattern in ``walked``, and the names of the
    patterns whose namespace is in neither ``walked`` nor ``elsewhere``."""
    found: list[tuple[str, list[str]]] = []
    unknown: list[str] = []

    def visit(patterns: list[object], namespace: str | None) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                visit(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern):
                if namespace in walked:
                    found.append((f"{namespace}:{p.name}", list(p.pattern.converters)))
                elif namespace not in elsewhere:
                    unknown.append(f"{namespace}:{p.name}")

    visit(get_resolver().url_patterns, None)
    return found, unknown
