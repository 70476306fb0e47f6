from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services import ServiceError
from tournaments.services.simulate import simulate


class Command(BaseCommand):
    help = "Play a whole simulated event through the service layer; print its slug."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--name", default=None)

    def handle(self, *args: object, **options: object) -> None:
        tables = options["tables"]
        assert isinstance(tables, int)
        if not 1 <= tables <= 2000:
            raise CommandError("--tables must be between 1 and 2000.")
        try:
            tournament = simulate(tables, int(options["seed"]), options["name"])  # type: ignore[arg-type]
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(tournament.slug)
