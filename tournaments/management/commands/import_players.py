from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services.players import import_players


class Command(BaseCommand):
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
            raise CommandError(f"No tournament with slug {slug!r}.") from None
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from exc
        report = import_players(
            tournament, data, by="import_players command", checked_in=bool(options["checked_in"])
        )
        if not report.ok:
            raise CommandError("Nothing was imported:\n" + report.error_text())
        self.stdout.write(f"Imported {len(report.rows)} players into {tournament.name}.")
