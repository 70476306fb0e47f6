"""The base of Snowman's management commands: what they say to the director (messages,
errors) reads in the director's language.

``--language fr`` chooses it for one run; else ``SNOWMAN_LANGUAGE`` in the environment
(``bin/serve`` passes the environment on); else the site's ``LANGUAGE_CODE``. The language
is active for the whole of ``handle``, so a ``CommandError`` is raised already in it.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation


def command_language(chosen: str | None = None) -> str:
    """The language a command speaks: the option, the environment's, else the site's."""
    known = {code for code, _name in settings.LANGUAGES}
    for language in (chosen, os.environ.get("SNOWMAN_LANGUAGE")):
        if language in known:
            return str(language)
    return str(settings.LANGUAGE_CODE)


class TranslatedCommand(BaseCommand):
    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            help="The language of the messages (default: SNOWMAN_LANGUAGE, else LANGUAGE_CODE).",
        )
        return parser

    def execute(self, *args: Any, **options: Any) -> Any:
        with translation.override(command_language(options.get("language"))):
            return super().execute(*args, **options)
