"""Per-tournament rule settings (docs/rules.md §5).

Vocabulary: *target* is the score that ends a match; *march* is all five tricks;
*lone march* is a march by a player going alone; *euchre* is the makers held to two
tricks or fewer; *renege* is failing to follow suit when able; the *reach bonus* goes to
a team that reached the target in time, the *skunk bonus* to a team that won with the
opponents on zero; the *tiebreak chain* orders players with equal totals.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace

TIEBREAK_KEYS = ("total", "wins", "margin", "lot")


class InvalidSettings(ValueError):
    """Raised with every problem found, one per line."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))


@dataclass(frozen=True)
class RuleSettings:
    preliminary_rounds: int = 5
    round_minutes: int = 20
    target: int = 10
    points_make: int = 1
    points_march: int = 2
    points_alone_march: int = 4
    points_euchre: int = 2
    points_renege: int = 2
    alone_march_award: int = 1
    renege_penalty: int = -2
    reach_bonus: int = 1
    skunk_bonus: int = 2
    skunk_includes_reach: bool = False
    cap_at_target: bool = False
    tiebreaks: tuple[str, ...] = field(default=TIEBREAK_KEYS)
    final_games_to_win: int = 2
    final_target: int = 10
    # A defender may play without a partner (house rule); a lone defender who euchres
    # the makers scores ``points_alone_euchre`` instead of ``points_euchre``.
    defend_alone_allowed: bool = False
    points_alone_euchre: int = 4
    # How long after the call a tablet may still send a hand it says it entered before
    # the call (docs/rules.md §7, "late sync").
    late_sync_grace_minutes: int = 15
    sit_out_score: str = "average"
    hide_standings_last_rounds: int = 0

    def errors(self) -> dict[str, str]:
        """Every setting that makes no sense, with a message a director understands."""
        errs: dict[str, str] = {}
        if not 1 <= self.preliminary_rounds <= 20:
            errs["preliminary_rounds"] = "Play between 1 and 20 preliminary rounds."
        if not 1 <= self.round_minutes <= 240:
            errs["round_minutes"] = "A round lasts between 1 and 240 minutes."
        if not 1 <= self.target <= 100:
            errs["target"] = "The target score must be between 1 and 100."
        if not 1 <= self.final_target <= 100:
            errs["final_target"] = "The final's game target must be between 1 and 100."
        if not 1 <= self.final_games_to_win <= 5:
            errs["final_games_to_win"] = "The final is won with 1 to 5 games."
        for name in (
            "points_make",
            "points_march",
            "points_alone_march",
            "points_euchre",
            "points_renege",
            "points_alone_euchre",
        ):
            if not 1 <= getattr(self, name) <= 20:
                errs[name] = "Hand points must be between 1 and 20."
        if not 0 <= self.alone_march_award <= 20:
            errs["alone_march_award"] = "The lone-march award cannot be negative."
        if not -20 <= self.renege_penalty <= 0:
            errs["renege_penalty"] = "The renege penalty must be zero or negative."
        for name in ("reach_bonus", "skunk_bonus"):
            if not 0 <= getattr(self, name) <= 20:
                errs[name] = "A bonus must be between 0 and 20."
        if not 0 <= self.late_sync_grace_minutes <= 120:
            errs["late_sync_grace_minutes"] = "The late-sync window is 0 to 120 minutes."
        if not 0 <= self.hide_standings_last_rounds <= self.preliminary_rounds:
            errs["hide_standings_last_rounds"] = (
                "Hide the standings for between 0 and all the preliminary rounds."
            )
        keys = list(self.tiebreaks)
        if len(set(keys)) != len(keys) or not set(keys) <= set(TIEBREAK_KEYS):
            errs["tiebreaks"] = "Use each of total, wins, margin, lot at most once."
        elif {"total", "wins", "margin"} - set(keys):
            # §4: the order of total, wins and margin is free; the lot may be left out.
            errs["tiebreaks"] = "Rank by total, wins and margin, in any order, then lot."
        elif "lot" in keys and keys[-1] != "lot":
            errs["tiebreaks"] = "The lot, when used, comes last in the chain."
        if sit_out_points_setting(self.sit_out_score) is None:
            errs["sit_out_score"] = "The sit-out score is average, none, or a number 0 to 20."
        return errs

    def validated(self) -> RuleSettings:
        errs = self.errors()
        if errs:
            raise InvalidSettings(errs)
        return self

    def for_final(self) -> RuleSettings:
        """The rules a game of the final is played by: to the final's target, with no
        individual awards or penalties and no team bonuses (docs/rules.md §4)."""
        return replace(
            self,
            target=self.final_target,
            alone_march_award=0,
            renege_penalty=0,
            reach_bonus=0,
            skunk_bonus=0,
        )

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["tiebreaks"] = list(self.tiebreaks)
        return data


# The settings that shape the event rather than score a hand: every other setting is read
# by the hand's scorer (score_hand here, static/tablet/rules.js on the tablet), so a new
# award or bonus reaches the tablet with no list to extend.
EVENT_SETTINGS = frozenset(
    {
        "preliminary_rounds",
        "round_minutes",
        "tiebreaks",
        "final_games_to_win",
        "final_target",
        "late_sync_grace_minutes",
        "sit_out_score",
        "hide_standings_last_rounds",
    }
)
SCORING_SETTINGS = tuple(f.name for f in fields(RuleSettings) if f.name not in EVENT_SETTINGS)
# Settings stored in a column of their own each, in the dataclass's order: all but the
# tiebreak chain (stored as one text) and the sit-out score (a number or a word).
COLUMN_SETTINGS = tuple(
    f.name for f in fields(RuleSettings) if f.name not in ("tiebreaks", "sit_out_score")
)


def sit_out_points_setting(value: str) -> str | int | None:
    """``average``, ``none`` or a number 0..20 as an int; None for anything else."""
    text = str(value).strip().lower()
    if text in ("average", "none"):
        return text
    if text.isdigit() and 0 <= int(text) <= 20:
        return int(text)
    return None
