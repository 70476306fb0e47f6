import sqlite3

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.core.backup import backups, take_backup
from tournaments.core.services import ServiceError
from tournaments.management.base import TranslatedCommand


class Command(TranslatedCommand):
    help = "Back up the database now into BACKUP_DIR (var/backups), or --list the backups."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--list", action="store_true", help="List the backups, newest last.")

    def handle(self, *args: object, **options: object) -> None:
        if options["list"]:
            found = backups()
            for b in found:
                self.stdout.write(
                    _("%(path)s  %(size)s bytes  %(reason)s")
                    % {"path": b.path, "size": f"{b.size:>10,}", "reason": b.reason}
                )
            if not found:
                self.stdout.write(_("No backups in %(dir)s.") % {"dir": settings.BACKUP_DIR})
            return
        try:
            made = take_backup("manual")
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        except (OSError, sqlite3.Error) as exc:  # a folder that cannot be made or written
            raise CommandError(
                _("No backup was made in %(dir)s: %(error)s")
                % {"dir": settings.BACKUP_DIR, "error": getattr(exc, "strerror", None) or exc}
            ) from exc
        self.stdout.write(
            _("Backed up to %(path)s (%(size)s bytes).")
            % {"path": made.path, "size": f"{made.size:,}"}
        )
