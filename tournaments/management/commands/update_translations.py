from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand

# What is not Snowman's own text: the tests, collected static files, the var directory,
# the benchmarks. Dot-directories (.venv) makemessages skips itself.
IGNORE = ["tests", "staticfiles", "var", "bench", "screenshots"]


class Command(BaseCommand):
    help = (
        "Refresh locale/fr from the source (makemessages; needs GNU gettext's xgettext), "
        "then compile it. docs/translations.md."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        # No file:line comments (they change with every edit elsewhere and make merges
        # conflict); no obsolete entries (a string gone from the source leaves the .po).
        # The tablet's JavaScript has its own catalogue (djangojs), served by /jsi18n/<lang>/.
        for domain in ("django", "djangojs"):
            call_command(
                "makemessages",
                locale=["fr"],
                domain=domain,
                no_location=True,
                no_obsolete=True,
                ignore_patterns=IGNORE,
                verbosity=options["verbosity"],
            )
        call_command("compile_translations", verbosity=options["verbosity"])
