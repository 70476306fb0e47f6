from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournaments.core.services import ServiceError
from tournaments.core.simulate import simulate
from tournaments.management.base import TranslatedCommand


class Command(TranslatedCommand):
    help = "Play a whole simulated event through the service layer; print its slug."
    # The system checks import every address and view (the PDFs' reportlab too): nearly a
    # second of a 100-table event's ten on the hall's laptop, for a command that serves
    # no request. ``manage.py check``, the tests and the server's start run them.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--name", default=None)
        parser.add_argument("--withdraw", type=int, default=0, help="players who withdraw")
        parser.add_argument("--late", type=int, default=0, help="players who arrive late")
        parser.add_argument("--house", type=int, default=0, help="house players available")
        parser.add_argument(
            "--uneven", action="store_true", help="division counts off by up to 3 each"
        )

    def handle(self, *args: object, **options: object) -> None:
        tables = options["tables"]
        assert isinstance(tables, int)
        if not 1 <= tables <= 2000:
            raise CommandError(_("--tables must be between 1 and 2000."))
        mess = {k: options[k] for k in ("withdraw", "late", "house")}
        for key, value in mess.items():
            if not 0 <= int(value) <= 4 * tables:  # type: ignore[call-overload]
                raise CommandError(
                    _("--%(option)s must be between 0 and %(most)s.")
                    % {"option": key, "most": 4 * tables}
                )
        # Nobody reads the statements a simulation runs, and with DEBUG on (development's
        # default) Django formats and keeps each one: a sixth of a 100-table event's time
        # (issue 22). The setting is this process's alone.
        debug, settings.DEBUG = settings.DEBUG, False
        try:
            tournament = simulate(
                tables,
                int(options["seed"]),  # type: ignore[call-overload]
                options["name"],  # type: ignore[arg-type]
                uneven=bool(options["uneven"]),
                **mess,
            )
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        finally:
            settings.DEBUG = debug
        self.stdout.write(tournament.slug)
