"""Whether an event's results are published to its club site (docs/series.md): the
``Publication`` and whether the results as they stand differ from what the club site
last acknowledged. ``services.publish`` configures, sends and receives."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Publication, Tournament
from ..results_file import digest_of
from .export import export_results


@dataclass(frozen=True)
class PublishState:
    publication: Publication | None
    # The results as they stand differ from what the club site last acknowledged.
    pending: bool

    @property
    def configured(self) -> bool:
        return self.publication is not None


def state(tournament: Tournament) -> PublishState:
    publication = Publication.objects.filter(tournament=tournament).first()
    if publication is None:
        return PublishState(None, False)
    current = digest_of(export_results(tournament))
    return PublishState(publication, publication.published_digest != current)
