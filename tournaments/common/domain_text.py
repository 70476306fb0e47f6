"""The rules' refusals of a hand or a seating in the reader's language (issue 24's gap).

``domain/`` stays free of Django, so its ``InvalidHand`` messages are English sentences
(docs/rules.md's own words). A service that passes one on to a person reads it through
``read``: each fixed sentence is a msgid here, and "Hand 4: ..." (``domain.match``'s
prefix to one of them) is read whole. A message not listed is shown as the rules wrote it.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop, ngettext

HAND_REFUSALS = frozenset(
    {
        gettext_noop("Choose the player who made trump."),
        gettext_noop("The makers take between 0 and 5 tricks."),
        gettext_noop("A played hand has no renege; enter the renege instead."),
        gettext_noop("The lone defender must be a defender, not a maker."),
        gettext_noop("Only the dealer's partner can order the dealer up alone."),
        gettext_noop("The dealer's partner who orders up must go alone."),
        gettext_noop("Choose the player who reneged."),
        gettext_noop("A renege ends the hand: record only who reneged."),
        gettext_noop("A misdeal scores nothing: record no makers, tricks or renege."),
        gettext_noop("The match is over: no more hands can be entered."),
    }
)
# The seating rules' fixed refusals (domain/seating.py, domain/final.py), which the
# director reads on the console when a draw, a swap, a closure or the final is refused.
SEATING_REFUSALS = frozenset(
    {
        gettext_noop("The final needs two ranked players in each division."),
        gettext_noop("Choose two different players to swap."),
        gettext_noop("Only two players of the same division can be swapped."),
        gettext_noop("Both players must be seated in this round."),
        gettext_noop("Every table 1..T must have a result before rotating."),
        gettext_noop("Closing every table leaves nobody seated; keep at least one."),
        gettext_noop("Not enough house players for this remedy."),
        gettext_noop("The remedy no longer fits the checked-in players; reload the page."),
        gettext_noop("Only checked-in A and B players (not house players) can sit out."),
    }
)
_NUMBERED = re.compile(r"Hand (\d{1,4}): (.+)")
_NO_TABLE = re.compile(r"There is no table (\d{1,4}) to close\.")
_EMPTY = re.compile(
    r"(\d{1,4}) seats? would stay empty: close (more tables|a table) or add house players\."
)


def read(error: Exception) -> str:
    """The refusal ``error`` carries, in the active language where it is a known one."""
    text = str(error)
    numbered = _NUMBERED.fullmatch(text)
    if numbered is not None and numbered[2] in HAND_REFUSALS:
        return gettext("Hand %(n)s: %(problem)s") % {
            "n": numbered[1],
            "problem": gettext(numbered[2]),
        }
    if text in HAND_REFUSALS or text in SEATING_REFUSALS:
        return gettext(text)
    if (no_table := _NO_TABLE.fullmatch(text)) is not None:
        return gettext("There is no table %(n)s to close.") % {"n": no_table[1]}
    if (empty := _EMPTY.fullmatch(text)) is not None:
        n = int(empty[1])
        if empty[2] == "a table":
            return ngettext(
                "%(n)s seat would stay empty: close a table or add house players.",
                "%(n)s seats would stay empty: close a table or add house players.",
                n,
            ) % {"n": n}
        return ngettext(
            "%(n)s seat would stay empty: close more tables or add house players.",
            "%(n)s seats would stay empty: close more tables or add house players.",
            n,
        ) % {"n": n}
    return text
