import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandParser
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.clubs.services import assign
from tournaments.core.models.event import Tournament
from tournaments.core.simulate import demo_event
from tournaments.management.base import TranslatedCommand

DEMO_NAME = "Snowman Demo Open"


DEMO_PASSWORD = "snowman-demo"
RESET = ".venv/bin/python manage.py changepassword {}"


class Command(TranslatedCommand):
    help = (
        "Create a demo tournament part-way through (round 3 running) and a demo director. "
        "With --event the director gets a random password, printed once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=6)
        parser.add_argument("--username", default="director")
        parser.add_argument("--password", default=DEMO_PASSWORD)
        parser.add_argument(
            "--event",
            action="store_true",
            help="Event mode: no known password; a new or demo-password director gets a "
            "random one, printed once.",
        )

    def handle(self, *args: object, **options: Any) -> None:
        username, password = str(options["username"]), str(options["password"])
        event = bool(options["event"])
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if event and (user is None or user.check_password(password)):
            # Anyone who has read the README knows the demo password.
            password = secrets.token_urlsafe(12)
        if user is None:
            user = User.objects.create_superuser(username, "", password)
            assign(user, "owner")
            self.print_login(username, password, event)
        elif event and password != str(options["password"]):
            user.set_password(password)
            user.save(update_fields=["password"])
            assign(user, "owner")
            self.print_login(username, password, event)
        else:
            assign(user, "owner")
            self.stdout.write(
                _("Director login: %(username)s (already exists; a new password: %(reset)s)")
                % {"username": username, "reset": RESET.format(username)}
                if event
                else _("Director login: %(username)s (already exists)") % {"username": username}
            )
        existing = Tournament.objects.filter(name=DEMO_NAME).first()
        if existing is None:
            started = timezone.now() - timedelta(minutes=7)
            existing = demo_event(int(options["tables"]), DEMO_NAME, round_started=started)
            self.stdout.write(_("Created demo tournament %(slug)s.") % {"slug": existing.slug})
        else:
            self.stdout.write(
                _("Demo tournament %(slug)s already exists.") % {"slug": existing.slug}
            )

    def print_login(self, username: str, password: str, event: bool) -> None:
        if not event:
            self.stdout.write(
                _("Director login: %(username)s / %(password)s")
                % {"username": username, "password": password}
            )
            return
        line = "=" * 72
        login = _("Director login: %(username)s / %(password)s") % {
            "username": username,
            "password": password,
        }
        once = _("Write it down now: it is shown this once. A new one any time:")
        self.stdout.write(f"{line}\n{login}\n{once}\n    {RESET.format(username)}\n{line}")
