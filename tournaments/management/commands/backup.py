from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.backup import backups, take_backup
from tournaments.services import ServiceError


class Command(BaseCommand):
    help = "Back up the database now into BACKUP_DIR (var/backups), or --list the backups."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--list", action="store_true", help="List the backups, newest last.")

    def handle(self, *args: object, **options: object) -> None:
        if options["list"]:
            found = backups()
            for b in found:
                self.stdout.write(f"{b.path}  {b.size:>10,} bytes  {b.reason}")
            if not found:
                self.stdout.write(f"No backups in {settings.BACKUP_DIR}.")
            return
        try:
            made = take_backup("manual")
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Backed up to {made.path} ({made.size:,} bytes).")
