"""The rules' refusals of a hand in the reader's language (issue 24's gap, for the hand).

``domain/`` stays free of Django, so its ``InvalidHand`` messages are English sentences
(docs/rules.md's own words). A service that passes one on to a person reads it through
``read``: each fixed sentence is a msgid here, and "Hand 4: ..." (``domain.match``'s
prefix to one of them) is read whole. A message not listed is shown as the rules wrote it.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

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
_NUMBERED = re.compile(r"Hand (\d{1,4}): (.+)")


def read(error: Exception) -> str:
    """The refusal ``error`` carries, in the active language where it is a known one."""
    text = str(error)
    numbered = _NUMBERED.fullmatch(text)
    if numbered is not None and numbered[2] in HAND_REFUSALS:
        return gettext("Hand %(n)s: %(problem)s") % {
            "n": numbered[1],
            "problem": gettext(numbered[2]),
        }
    return gettext(text) if text in HAND_REFUSALS else text
