from pathlib import Path

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.core.models.event import Tournament
from tournaments.core.services.players import import_players
from tournaments.management.base import TranslatedCommand


class Command(TranslatedCommand):
    help = "Import players from a CSV file with columns name,division (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="The tournament's slug.")
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--checked-in", action="store_true", help="Mark the imported players as checked in."
        )

    def handle(self, *args: object, **options: object) -> None:
        slug, path = options["tournament"], options["file"]
        assert isinstance(path, Path)
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist:
            raise CommandError(_("No tournament with slug %(slug)r.") % {"slug": slug}) from None
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(path)s: %(error)s.") % {"path": path, "error": exc.strerror}
            ) from exc
        report = import_players(
            tournament, data, by="import_players command", checked_in=bool(options["checked_in"])
        )
        if not report.ok:
            raise CommandError(_("Nothing was imported:") + "\n" + report.error_text())
        n = len(report.rows)
        self.stdout.write(
            ngettext(
                "Imported %(n)s player into %(name)s.", "Imported %(n)s players into %(name)s.", n
            )
            % {"n": n, "name": tournament.name}
        )
