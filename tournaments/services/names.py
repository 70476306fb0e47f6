"""Names as people read them: one fold and one alphabetical order for every list.

The find-your-seat list on the screen and the printed one, the players' pages, the
console and the sheets all sort with ``sort_key``, so a name sits in the same place
wherever it is read. Matching a person across events is a different question with its
own key (``services.people.name_key``).
"""

from __future__ import annotations

import unicodedata

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


def fold(text: str) -> str:
    """Lower case without accents: 'Zoë' and 'ZOE' fold alike."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical as people read it: accents and case do not move a name ('Łukasz'
    sorts with the L's, 'émile' with 'Emile'); the name itself breaks a tie."""
    return fold(name.translate(UNDECOMPOSED)), name
