import json

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.core.models.event import Tournament
from tournaments.management.base import TranslatedCommand
from tournaments.series.export import export_results


class Command(TranslatedCommand):
    help = "Print a tournament's results as snowman.results/1 JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="The tournament's slug.")
        parser.add_argument(
            "--published",
            action="store_true",
            help=(
                "What publishing sends: only what players may see now (nothing of a round "
                "whose standings are hidden), for the club site by file during the event."
            ),
        )

    def handle(self, *args: object, **options: object) -> None:
        slug = options["tournament"]
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist:
            raise CommandError(_("No tournament with slug %(slug)r.") % {"slug": slug}) from None
        if tournament.rehearsal:
            # Issue 25: a rehearsal's results go to no series, by file or otherwise.
            raise CommandError(
                _("%(slug)s is a rehearsal: make it a real event to export it.") % {"slug": slug}
            )
        document = export_results(tournament, for_players=bool(options["published"]))
        self.stdout.write(json.dumps(document, indent=1, ensure_ascii=False))
