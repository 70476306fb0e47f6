"""Send the results of every event that changed since the club site last took them."""

import time

from django.core.management.base import CommandParser
from django.utils.translation import gettext as _

from tournaments.management.base import TranslatedCommand
from tournaments.publishing.services import publish_pending


class Command(TranslatedCommand):
    help = (
        "Publish to the club site the results of every event not published yet (run it when "
        "the connection returns, or with --every to keep trying)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every", type=int, default=0, help="Keep trying every N seconds (0: once)."
        )

    def handle(self, *args: object, **options: object) -> None:
        every = int(options["every"])  # type: ignore[call-overload]
        while True:
            for publication in publish_pending(by="publish_results"):
                outcome = publication.last_error or _("published")
                self.stdout.write(f"{publication.tournament.slug}: {outcome}")
            if every <= 0:
                return
            time.sleep(every)
