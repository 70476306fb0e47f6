from typing import Any

from django.core.management.base import BaseCommand

from tournaments.common.translations import compile_catalogues


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo (pure Python; no GNU gettext needed)."

    def handle(self, *args: Any, **options: Any) -> None:
        for path in compile_catalogues():
            if options["verbosity"] >= 1:
                self.stdout.write(f"compiled {path}")
