"""On the club site: make the token a hall uses to publish one event's results."""

from django.core.management.base import CommandError, CommandParser
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.common.errors import ServiceError
from tournaments.core.models.event import Club
from tournaments.core.models.series import Series
from tournaments.management.base import TranslatedCommand
from tournaments.publishing.services import grant


class Command(TranslatedCommand):
    help = (
        "Print a new token for publishing the event SLUG's results here (any earlier token "
        "of the event stops working); --series adds the event to that series."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The event's slug at the hall.")
        parser.add_argument("--series", default="", help="The slug of a series to add it to.")
        parser.add_argument(
            "--club", default="", help="The club's slug (a site of several clubs; else its one)."
        )

    def handle(self, *args: object, **options: object) -> None:
        slug = str(options["slug"]).strip()
        # As the series page checks it: a hall's slug (a longer one was a PostgreSQL traceback).
        if not slug or len(slug) > 140 or slugify(slug) != slug:
            raise CommandError(
                _("Give the event's slug as the hall shows it (letters, digits and dashes).")
            )
        club = None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(_("No club with slug %(slug)r.") % {"slug": options["club"]})
        series = None
        if options["series"]:
            in_club = Series.objects.filter(club=club) if club else Series.objects.all()
            series = in_club.filter(slug=options["series"]).first()
            if series is None:
                raise CommandError(_("No series with slug %(slug)r.") % {"slug": options["series"]})
        try:
            token = grant(slug, series=series, club=club, by="publish_token")
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(token)
