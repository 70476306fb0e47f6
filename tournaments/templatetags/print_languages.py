"""The language choices beside a sheet's print link ("bilingual sheets").

For an event that prints bilingual sheets, each print link is followed by English,
Français and Bilingual: the director chooses per sheet. The plain link prints both
languages (the event's default); for any other event nothing is added, the sheet is in
the reader's language and ``?lang=`` still works by hand.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments.core.models.event import Tournament
from tournaments.core.pdf.styles import PAPERS

register = template.Library()


@register.simple_tag
def print_languages(url: str, tournament: Tournament) -> SafeString:
    if not tournament.bilingual_sheets:
        return SafeString("")
    glue = "&" if "?" in url else "?"
    choices = [
        ("en", "English", "en"),
        ("fr", "Français", "fr"),
        ("both", _("Bilingual"), ""),
    ]
    links = format_html_join(
        " · ",
        '<a href="{}{}lang={}"{}>{}</a>',
        (
            (url, glue, code, format_html(' lang="{}"', lang) if lang else "", label)
            for code, label, lang in choices
        ),
    )
    return format_html('<span class="print-languages">({})</span>', links)


@register.simple_tag
def other_paper(url: str, tournament: Tournament) -> SafeString:
    """Beside a print link on the event's paper, a small link to the same sheet on the
    other size: the event's paper is set once, a print can still take the other."""
    from tournaments.core.views.director.common import paper_name

    links = format_html_join(
        " · ",
        '<a href="{}">{}</a>',
        (
            (re.sub(r"paper=[^&]*", f"paper={paper}", url), paper_name(paper))
            for paper in PAPERS
            if paper != tournament.paper
        ),
    )
    return format_html(' <small class="other-paper">({} {})</small>', _("other size:"), links)
