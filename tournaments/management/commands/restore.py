from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.core.backup import backups, restore
from tournaments.core.services import ServiceError
from tournaments.management.base import TranslatedCommand


class Command(TranslatedCommand):
    help = (
        "Put a backup in place of the database (stop the server first). Without a file, "
        "the newest backup in BACKUP_DIR (var/backups) or in --from DIR."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", type=Path, help="A backup file.")
        parser.add_argument("--from", dest="directory", type=Path, help="A backups folder.")
        parser.add_argument(
            "--force", action="store_true", help="Replace a database that holds an event."
        )

    def handle(self, *args: object, **options: Any) -> None:
        source = options["file"]
        if source is None:
            directory = options["directory"] or Path(settings.BACKUP_DIR)
            found = backups(directory)
            if not found:
                raise CommandError(_("No backups in %(dir)s.") % {"dir": directory})
            source = found[-1].path
        try:
            restore(source, force=bool(options["force"]))
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            _("Restored %(name)s. Start the server (bin/serve); tablets resend what they hold.")
            % {"name": source.name}
        )
