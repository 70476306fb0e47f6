"""Whether an event's results are published to its club site (docs/series.md): the
``Publication``, what is sent, and whether it differs from what the club site last
acknowledged. ``services.publish`` configures, sends and receives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import Publication, Tournament
from ..results_file import digest_of
from .export import export_results
from .visibility import of_event


def document(tournament: Tournament) -> dict[str, Any]:
    """What the hall sends: the players' view of the event (RULES.md §5). While the
    standings are hidden, the club site gets the figures of the rounds players may see and
    the seating of the later ones, never a figure of those; it gets the rest once the
    director reveals the standings or seeds the final. A hidden score that changes changes
    nothing sent, so nothing is sent again and the club site cannot tell when it did."""
    return export_results(tournament, for_players=True)


@dataclass(frozen=True)
class PublishState:
    publication: Publication | None
    # What would be sent differs from what the club site last acknowledged.
    pending: bool
    # While the standings are hidden: the last round whose figures are sent (0: none).
    hidden_through: int | None = None

    @property
    def configured(self) -> bool:
        return self.publication is not None


def state(tournament: Tournament) -> PublishState:
    publication = Publication.objects.filter(tournament=tournament).first()
    if publication is None:
        return PublishState(None, False)
    current = digest_of(document(tournament))
    return PublishState(
        publication, publication.published_digest != current, of_event(tournament).through
    )
