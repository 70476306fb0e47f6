from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services import ServiceError
from tournaments.services.people import recompute_ratings
from tournaments.services.results_import import import_event


class Command(BaseCommand):
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
                    f"{path}: imported {outcome.tournament.name} ({outcome.tournament.slug}): "
                    f"{outcome.players} players, {outcome.matches} matches, "
                    f"{outcome.proposals} close name matches to review."
                )
            else:
                self.stdout.write(
                    f"{path}: already imported as {outcome.tournament.slug}; nothing changed."
                )
        if changed and not options["no_ratings"]:
            self.stdout.write(f"Ratings recomputed from {recompute_ratings()} matches.")
        if failed:
            raise CommandError("Not imported:\n" + "\n".join(failed))
