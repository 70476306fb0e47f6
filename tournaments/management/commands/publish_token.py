"""On the club site: make the token a hall uses to publish one event's results."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Series
from tournaments.services.publish import grant


class Command(BaseCommand):
    help = (
        "Print a new token for publishing the event SLUG's results here (any earlier token "
        "of the event stops working); --series adds the event to that series."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The event's slug at the hall.")
        parser.add_argument("--series", default="", help="The slug of a series to add it to.")

    def handle(self, *args: object, **options: object) -> None:
        series = None
        if options["series"]:
            series = Series.objects.filter(slug=options["series"]).first()
            if series is None:
                raise CommandError(f"No series with slug {options['series']!r}.")
        self.stdout.write(grant(str(options["slug"]), series=series, by="publish_token"))
