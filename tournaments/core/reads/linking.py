"""The close-name search of an import or a registration, read apart from the writing
(``services.linking.write_links``) so the write transaction never waits for rapidfuzz;
the director's registrations page shows the same close names before anyone is linked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from tournaments.common.names import name_key
from tournaments.core.models.people import Person

# A close name: rapidfuzz token-sort ratio at least this, proposed to the director.
CLOSE = 85.0


@dataclass(frozen=True)
class LinkPlan:
    """Per name key, the people whose keys are close (best first), as read before the
    write; ``write_links`` drops any merged or taken meanwhile."""

    close: dict[str, list[tuple[int, float]]]


def plan_links(names: Sequence[str], club: int) -> LinkPlan:
    """The close-name search of every name against every person of the club: read only."""
    keys = {name_key(n) for n in names}
    pool = dict(
        Person.objects.filter(merged_into__isnull=True, club=club).values_list("pk", "name_key")
    )
    close: dict[str, list[tuple[int, float]]] = {}
    for key in keys:
        # Every candidate over the cut, not only the best few: some may be taken by an
        # exact match of this same import and are dropped when writing.
        close[key] = [
            (candidate, score)
            for _, score, candidate in process.extract(
                key, pool, scorer=fuzz.token_sort_ratio, score_cutoff=CLOSE, limit=None
            )
        ]
    return LinkPlan(close)
