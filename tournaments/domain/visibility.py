"""What players may see of an event's figures (RULES.md §5, "Hidden standings").

Vocabulary: a *figure* is anything that tells a result: a match's score, its winner, its
bonuses, a player's points, a total, a rank, a series place or series points. While the
standings are *hidden* (from the moment round ``P - N + 1`` is seated until the director
reveals them or the final is seeded), players see figures of the rounds up to ``P - N``
only, the *last visible round*:
every total and rank a player may read is the one it was at that round, and nothing of a
later preliminary round is shown. The final, once seeded, is shown live.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Visibility:
    """The answer to "may players see this?" for one event at one moment."""

    hide_last: int = 0
    # The last preliminary round whose figures players may see, while hidden; None when
    # every round's figures may be seen.
    through: int | None = None

    @property
    def hidden(self) -> bool:
        return self.through is not None

    def shows_round(self, number: int, *, final: bool = False) -> bool:
        """May players see the figures of this round?"""
        return final or self.through is None or number <= self.through


EVERYTHING = Visibility()


def visibility(
    *,
    preliminary_rounds: int,
    hide_last: int,
    latest_number: int | None,
    latest_is_final: bool,
    final_seeded: bool,
    revealed: bool = False,
) -> Visibility:
    """The event's visibility from its settings and its newest round (None: none drawn);
    ``revealed``: the director has revealed the standings."""
    if hide_last <= 0 or latest_number is None or latest_is_final or final_seeded or revealed:
        return EVERYTHING
    last_visible = preliminary_rounds - hide_last
    if latest_number <= last_visible:
        return EVERYTHING
    return Visibility(hide_last, max(last_visible, 0))
