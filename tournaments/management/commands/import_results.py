from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.core.services import ServiceError
from tournaments.core.services.people import recompute_ratings
from tournaments.management.base import TranslatedCommand
from tournaments.series.results_import import import_event


class Command(TranslatedCommand):
    help = (
        "Import past events from snowman.results/1 files. Each file is imported whole or not "
        "at all; a file imported before changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="snowman.results/1 JSON files.")
        parser.add_argument(
            "--no-ratings", action="store_true", help="Do not recompute the ratings afterwards."
        )

    def handle(self, *args: object, **options: Any) -> None:
        failed = []
        changed = False
        for name in options["files"]:
            path = Path(str(name))
            try:
                # One rating replay after the last file, not one per file.
                outcome = import_event(
                    path.read_bytes(), by="import_results", filename=path.name, ratings=False
                )
            except OSError as exc:
                failed.append(f"{path}: {exc.strerror}")
                continue
            except ServiceError as exc:
                failed.append(f"{path}: {exc.message}")
                continue
            if outcome.created:
                changed = True
                self.stdout.write(
                    _(
                        "%(path)s: imported %(name)s (%(slug)s): %(players)s players, "
                        "%(matches)s matches, %(proposals)s close name matches to review."
                    )
                    % {
                        "path": path,
                        "name": outcome.tournament.name,
                        "slug": outcome.tournament.slug,
                        "players": outcome.players,
                        "matches": outcome.matches,
                        "proposals": outcome.proposals,
                    }
                )
            else:
                self.stdout.write(
                    _("%(path)s: already imported as %(slug)s; nothing changed.")
                    % {"path": path, "slug": outcome.tournament.slug}
                )
        if changed and not options["no_ratings"]:
            self.stdout.write(
                _("Ratings recomputed from %(n)s matches.") % {"n": recompute_ratings()}
            )
        if failed:
            raise CommandError(_("Not imported:") + "\n" + "\n".join(failed))
