"""Whether an event's results are published to its club site (docs/series.md): the
``Publication``, what is sent, and whether it differs from what the club site last
acknowledged. ``services.publish`` configures, sends and receives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournaments.core.models.event import Club, Tournament
from tournaments.core.reads.visibility import of_event
from tournaments.publishing.models import Publication
from tournaments.series.export import export_results
from tournaments.series.results_file import digest_of


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


def token_refusal(slug: str, club: Club) -> str:
    """Why a token for the event ``slug`` could never publish into ``club`` (empty when
    it can): the slug is an event of this site that no hall published here, such as the
    event that took the registrations, which usually has the hall's name and so its slug."""
    here = Tournament.objects.filter(slug=slug)
    if not here.exclude(imported_from__isnull=False, club=club).exists():
        return ""
    return _(
        "%(slug)s is already an event of this site that no hall published here (the one "
        "taking registrations, perhaps): results cannot arrive under its slug. Create the "
        'hall\'s event under another name, such as "%(name)s at the hall", and make the '
        "token for its slug."
    ) % {"slug": slug, "name": here.values_list("name", flat=True)[0]}
