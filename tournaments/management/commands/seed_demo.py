import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from tournaments.models import Tournament
from tournaments.services.clubs import assign
from tournaments.simulate import demo_event

DEMO_NAME = "Snowman Demo Open"


DEMO_PASSWORD = "snowman-demo"
RESET = ".venv/bin/python manage.py changepassword {}"


class Command(BaseCommand):
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
            how = "" if not event else f"; a new password: {RESET.format(username)}"
            self.stdout.write(f"Director login: {username} (already exists{how})")
        existing = Tournament.objects.filter(name=DEMO_NAME).first()
        if existing is None:
            started = timezone.now() - timedelta(minutes=7)
            existing = demo_event(int(options["tables"]), DEMO_NAME, round_started=started)
            self.stdout.write(f"Created demo tournament {existing.slug}.")
        else:
            self.stdout.write(f"Demo tournament {existing.slug} already exists.")

    def print_login(self, username: str, password: str, event: bool) -> None:
        if not event:
            self.stdout.write(f"Director login: {username} / {password}")
            return
        line = "=" * 72
        self.stdout.write(
            f"{line}\nDirector login: {username} / {password}\n"
            "Write it down now: it is shown this once. A new one any time:\n"
            f"    {RESET.format(username)}\n{line}"
        )
