import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.db.models import Field
from django.utils.translation import gettext as _

from tournaments.clubs.services import assign
from tournaments.core.roles import DESK_GROUP, DIRECTOR_GROUP, OWNER
from tournaments.management.base import TranslatedCommand


class Command(TranslatedCommand):
    help = "Create a sign-in for a role (director: everything; desk: check-in, seats, sheets)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--role", choices=[OWNER, DIRECTOR_GROUP, DESK_GROUP], default=DESK_GROUP
        )

    def handle(self, *args: object, **options: object) -> None:
        username, role = str(options["username"]).strip(), str(options["role"])
        User = get_user_model()
        if not username or User.objects.filter(username=username).exists():
            raise CommandError(
                _("%(username)r is empty or already taken.") % {"username": username}
            )
        try:
            # The sign-up form's rules: 150 characters at most (PostgreSQL refuses more
            # with a traceback), letters, digits and @ . + - _ only.
            field = User._meta.get_field(User.USERNAME_FIELD)
            assert isinstance(field, Field)
            field.clean(username, None)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        password = secrets.token_urlsafe(12)
        # Directors also use the admin, which wants the staff flag; the desk does not.
        user = User.objects.create_user(username, password=password, is_staff=role != DESK_GROUP)
        assign(user, role)
        self.stdout.write(
            _(
                "%(role)s login: %(username)s / %(password)s\n"
                "Shown once; a new one: .venv/bin/python manage.py changepassword %(username)s"
            )
            % {"role": role, "username": username, "password": password}
        )
