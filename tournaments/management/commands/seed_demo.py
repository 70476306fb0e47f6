from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from tournaments.models import Tournament
from tournaments.services.simulate import demo_event

DEMO_NAME = "Snowman Demo Open"


class Command(BaseCommand):
    help = "Create a demo tournament part-way through (round 3 running) and a demo director."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=6)
        parser.add_argument("--username", default="director")
        parser.add_argument("--password", default="snowman-demo")

    def handle(self, *args: object, **options: object) -> None:
        username, password = str(options["username"]), str(options["password"])
        User = get_user_model()
        if not User.objects.filter(username=username).exists():
            User.objects.create_superuser(username, "", password)
            self.stdout.write(f"Director login: {username} / {password}")
        else:
            self.stdout.write(f"Director login: {username} (already exists)")
        existing = Tournament.objects.filter(name=DEMO_NAME).first()
        if existing is None:
            started = timezone.now() - timedelta(minutes=7)
            existing = demo_event(int(options["tables"]), DEMO_NAME, round_started=started)
            self.stdout.write(f"Created demo tournament {existing.slug}.")
        else:
            self.stdout.write(f"Demo tournament {existing.slug} already exists.")
