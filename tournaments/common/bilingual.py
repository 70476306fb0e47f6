"""Words for a printed sheet in one language or two (issue 24, "bilingual sheets").

A sheet is read in the director's language, or, when the director prints it bilingual,
in the event's language and the other one, side by side: "Ronde 3 / Round 3". The sheet
builders (and the reads that gather their rows) write every string as

    _("Round %(n)s", n=3)            # tr, imported as _ so makemessages finds it

inside ``with languages(("fr", "en")):``; the answer is a ``Said``: a ``str`` joined
from each language's words ("Ronde 3 / Round 3"; a word both languages spell alike once:
"Table"), which also keeps each language's own words in ``parts``. A ``Said`` given as
a value to another phrase gives that phrase each language's own words, so a phrase is
never nested in itself ("Ronde 3 · imprimé … / Round 3 · printed …"), and a long
paragraph can be set stacked, one language under the other, from its ``parts``.

Outside ``languages()`` a phrase is in the reader's language (the one the request
activated), exactly as gettext.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime

from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.translation import gettext, ngettext, pgettext

SEPARATOR = " / "
BOTH = "both"
CODES = tuple(code for code, _name in settings.LANGUAGES)

_LANGUAGES: ContextVar[tuple[str, ...]] = ContextVar("sheet_languages", default=())


class Said(str):
    """Words in one or more languages: the ``str`` is what prints, ``parts`` one per
    language, in the order the sheet reads them."""

    parts: tuple[str, ...]

    def __new__(cls, parts: Sequence[str], separator: str = SEPARATOR) -> Said:
        shown: list[str] = []
        for part in parts:
            if part not in shown:
                shown.append(part)
        said = super().__new__(cls, separator.join(shown))
        said.parts = tuple(parts)
        return said


def current() -> tuple[str, ...]:
    """The languages the words are being written in, first the one that leads."""
    return _LANGUAGES.get() or (translation.get_language() or settings.LANGUAGE_CODE,)


@contextmanager
def languages(codes: Sequence[str]) -> Iterator[None]:
    token = _LANGUAGES.set(tuple(codes))
    try:
        yield
    finally:
        _LANGUAGES.reset(token)


def sheet_languages(choice: str | None, event_language: str, bilingual: bool) -> tuple[str, ...]:
    """The languages a sheet prints in: the director's ``?lang=`` (en, fr or both) when
    given, else both when the event prints bilingual sheets, else the reader's. Both
    lead with the event's own language."""
    if choice is None:
        choice = BOTH if bilingual else (translation.get_language() or settings.LANGUAGE_CODE)
    if choice == BOTH:
        lead = event_language if event_language in CODES else settings.LANGUAGE_CODE
        return (lead, *(code for code in CODES if code != lead))
    return (choice,)


def _value(value: object, index: int) -> object:
    if isinstance(value, Said):
        return value.parts[index] if index < len(value.parts) else str(value)
    if callable(value):
        return value()
    return value


def each(make: Callable[[], str]) -> Said:
    """``make()`` written once in every current language (a time, a label from the model)."""
    parts = []
    for code in current():
        with translation.override(code):
            parts.append(make())
    return Said(parts)


def tr(message: str, /, **values: object) -> Said:
    """``gettext(message) % values`` in every current language; a value that is a ``Said``
    gives each language its own words, a callable is called in each language."""
    parts = []
    for index, code in enumerate(current()):
        with translation.override(code):
            text = gettext(message)
            if values:
                text = text % {k: _value(v, index) for k, v in values.items()}
        parts.append(text)
    return Said(parts)


def trn(singular: str, plural: str, number: int, /, **values: object) -> Said:
    """``ngettext`` in every current language; ``number`` is also the ``%(n)s`` value."""
    parts = []
    for index, code in enumerate(current()):
        with translation.override(code):
            text = ngettext(singular, plural, number)
            text = text % {"n": number, **{k: _value(v, index) for k, v in values.items()}}
        parts.append(text)
    return Said(parts)


# A clock in the reader's locale: Canadian French writes 24-hour times "14 h 05".
CLOCKS = {"fr": "Y-m-d G\xa0\\h\xa0i"}
DEFAULT_CLOCK = "Y-m-d H:i"


def printed(at: datetime) -> Said:
    """When a sheet was printed, in each current language's way of writing it."""
    local = timezone.localtime(at)
    return each(
        lambda: formats.date_format(
            local, CLOCKS.get(translation.get_language() or "", DEFAULT_CLOCK)
        )
    )


def each_short(make: Callable[[], str]) -> Said:
    """As ``each``, for a letter or two: "O/W" reads as one mark, "O / W" as two."""
    said = each(make)
    return Said(said.parts, separator="/")


def seat(position: str) -> Said:
    """A seat's letter: West is "O" (Ouest) in French; the same words as the pages'."""
    letters: dict[str, Callable[[], str]] = {
        "N": lambda: pgettext("seat North", "N"),
        "E": lambda: pgettext("seat East", "E"),
        "S": lambda: pgettext("seat South", "S"),
        "W": lambda: pgettext("seat West", "W"),
    }
    make = letters.get(position)
    return each_short(make) if make else Said([position])


def house() -> Said:
    """The one word that marks a house player (RULES.md §6: "house" everywhere): every
    sheet, the tablet's catalogue, the projector, the phone card and the director's
    pages say this msgid (tests/test_sheets.py looks for any other)."""
    return each(lambda: pgettext("house player", "house"))


def player_mark(division: str, house_player: bool) -> Said:
    """What stands beside a seated player's name: the division, or "house"."""
    return house() if house_player else Said([division])


def team(value: str) -> Said:
    """A team's letters: EW is "EO" in French."""
    if value == "NS":
        return each_short(lambda: gettext("NS"))
    if value == "EW":
        return each_short(lambda: gettext("EW"))
    return Said([value])


def seat_letter(position: str) -> str:
    # One msgid each with a context, so the seat's "W" is not the standings' "W" (wins).
    letters = {
        "N": pgettext("seat North", "N"),
        "E": pgettext("seat East", "E"),
        "S": pgettext("seat South", "S"),
        "W": pgettext("seat West", "W"),
    }
    return letters.get(position, position)
