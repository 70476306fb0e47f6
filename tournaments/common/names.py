"""Names as people read them: one fold and one alphabetical order for every list.

The find-your-seat list on the screen and the printed one, the players' pages, the
console and the sheets all sort with ``sort_key``, so a name sits in the same place
wherever it is read. Matching a person across events is a different question with its
own key, ``name_key`` below.

``clean_name`` and ``name_problem`` are the one rule of writing a name: the register and
edit forms, the players' CSV and the results file refuse the same names.

``public_name`` is the one rule of showing a name to the public (pages, JSON answers,
CSV and PDF meant for players): a person's short form ("Marie T.") unless they chose
their full name on their private link; ``UNLISTED`` stands in the row of a person who
chose to be left off the public series standings and rating lists. The director's pages,
the desk and the sheets printed for the hall keep full names.

``fold`` is the one name rule of reading: the search on the phones, the standings filter
and ``sort_key`` all fold through it, so "lukasz" finds Łukasz, "soren" Søren and a
phone's curly "o’brien" O'Brien. tests/test_names.py fails when code elsewhere folds
names its own way.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Letters that Unicode does not decompose into a base letter and an accent.
UNDECOMPOSED = str.maketrans(
    {
        "Ł": "L",
        "ł": "l",
        "Ø": "O",
        "ø": "o",
        "Đ": "D",
        "đ": "d",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "ß": "ss",
        "Þ": "Th",
        "þ": "th",
        "ı": "i",
    }
)


# Apostrophes, straight or as a phone's keyboard curls them, vanish ("O’Brien" is
# "obrien"); hyphens and dashes part words ("Mary-Jo" is "mary jo").
APOSTROPHES = "'\u2018\u2019\u201b\u02bc\u02b9\u0060\u00b4\u2032"
HYPHENS = "-\u2010\u2011\u2012\u2013\u2014\u2212"
PUNCTUATION = str.maketrans({**dict.fromkeys(APOSTROPHES, ""), **dict.fromkeys(HYPHENS, " ")})


def fold(text: str) -> str:
    """Lower case without accents or apostrophes: 'Zoë' and 'ZOE', 'Łukasz' and 'lukasz',
    "O'Brien" and 'obrien' fold alike. Spaces are kept as typed (the search splits words)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(UNDECOMPOSED))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    # NFKD may decompose a letter into one the table knows (a compatibility form).
    return bare.translate(UNDECOMPOSED).translate(PUNCTUATION).casefold()


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical as people read it: accents and case do not move a name ('Łukasz'
    sorts with the L's, 'émile' with 'Emile'); the name itself breaks a tie."""
    return fold(name), name


# The longest name a player may have; the Player.name column takes its length from here.
NAME_MAX = 80


def clean_name(name: str) -> str:
    return " ".join(name.split())


def name_problem(name: str) -> str | None:
    """Why a player's name (after ``clean_name``) is refused, or None: one rule for the
    register and edit forms and the CSV import alike."""
    if not name:
        return _("the name is empty")
    if len(name) > NAME_MAX:
        return _("the name is longer than %(n)s characters") % {"n": NAME_MAX}
    if not name.isprintable():
        # Control characters and invisible format characters (a right-to-left override
        # would show a name reversed on every sheet and screen).
        return _("the name contains control or invisible formatting characters")
    return None


def name_refusal(name: str) -> str | None:
    """``name_problem`` as a sentence of its own, for a form or a refusal (a translation
    cannot be capitalised by slicing: each sentence is its own message)."""
    if not name:
        return _("The name is empty.")
    if len(name) > NAME_MAX:
        return _("The name is longer than %(n)s characters.") % {"n": NAME_MAX}
    if not name.isprintable():
        return _("The name contains control or invisible formatting characters.")
    return None


def name_key(name: str) -> str:
    """The name as matching a person across events sees it (``Person.name_key``): no
    accents, no case, no punctuation, single spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(c if c.isalnum() else " " for c in decomposed if not unicodedata.combining(c))
    return " ".join(letters.casefold().split())[:80]


# Where a public table needs a row for a person who chose to be left off it: never a gap
# that says who, never a name.
UNLISTED = gettext_lazy("a player")


def short_name(name: str) -> str:
    """The first word in full and each further word as its initial: "Marie Tremblay" is
    "Marie T.", "Jean-Luc Côté-Roy" "Jean-Luc C.", "Cher" stays "Cher"."""
    words = name.split()
    if len(words) < 2:
        return name
    # A word with a digit is a number, no surname ("House 2", "Player A001"): kept whole.
    rest = [w if any(c.isdigit() for c in w) else f"{w[0]}." for w in words[1:]]
    return " ".join([words[0], *rest])


def public_name(name: str, full: bool) -> str:
    """A person's name as public pages show it: in full only if they chose so."""
    return name if full else short_name(name)
