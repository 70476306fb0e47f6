"""Director forms. They check shape only; the rules engine and services judge the rest."""

from __future__ import annotations

import uuid
from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils.html import format_html
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.common.ids import ID_MAX, parse_id
from tournaments.common.names import clean_name, name_refusal
from tournaments.core.models.event import (
    PAPER_CHOICES,
    Division,
    SeatPosition,
    TeamChoice,
    Tournament,
)
from tournaments.core.models.play import HandEntry
from tournaments.core.pdf.styles import DEFAULT_PAPER
from tournaments.core.services.tournaments import EDITABLE_AFTER_START, Occasion
from tournaments.domain.hands import Hand, Outcome, Seat, Team
from tournaments.domain.rules import TIEBREAK_KEYS, RuleSettings

RULE_LABELS = {
    "preliminary_rounds": _("Preliminary rounds"),
    "round_minutes": _("Round time limit (minutes)"),
    "target": _("Target score"),
    "points_make": _("Points: makers take 3–4 tricks"),
    "points_march": _("Points: march (5 tricks)"),
    "points_alone_march": _("Points: lone march"),
    "points_euchre": _("Points: euchre (to the defenders)"),
    "points_renege": _("Points: renege (to the other team)"),
    "alone_march_award": _("Lone-march individual award"),
    "renege_penalty": _("Renege individual penalty (zero or negative)"),
    "reach_bonus": _("Reach bonus"),
    "skunk_bonus": _("Skunk bonus"),
    "skunk_includes_reach": _("Skunk bonus includes the reach bonus"),
    "cap_at_target": _("Cap scores at the target"),
    "final_games_to_win": _("Final: games to win"),
    "final_target": _("Final: game target"),
    "defend_alone_allowed": _("Defending alone allowed"),
    "points_alone_euchre": _("Points: lone defender's euchre"),
    "late_sync_grace_minutes": _("Late-sync grace window after the call (minutes)"),
    "hide_standings_last_rounds": _(
        "Hide standings from players and projector for the last N rounds"
    ),
}


# One line each under "Advanced" on the set-up form: what the number changes.
RULE_HELP = {
    "preliminary_rounds": _("Rounds before the final; each is one match at a new table."),
    "round_minutes": _("The clock of each round; at zero, time is called."),
    "target": _("The score that ends a match."),
    "points_make": _("What the makers score for 3 or 4 tricks."),
    "points_march": _("What the makers score for all 5 tricks."),
    "points_alone_march": _("All 5 tricks by a player alone."),
    "points_euchre": _("What the defenders score when the makers take 2 tricks or fewer."),
    "points_renege": _("What the other team scores when a player reneges."),
    "alone_march_award": _("Added to the lone marcher's own total."),
    "renege_penalty": _("Taken from the reneging player's own total."),
    "reach_bonus": _("For the team that reaches the target in time."),
    "skunk_bonus": _("For a win with the opponents still on zero."),
    "skunk_includes_reach": _("The skunk bonus replaces the reach bonus instead of adding to it."),
    "cap_at_target": _("A team's score never passes the target."),
    "final_games_to_win": _("The final is best of twice this, less one."),
    "final_target": _("The score that ends a game of the final."),
    "defend_alone_allowed": _("A defender may play without a partner (a house rule)."),
    "points_alone_euchre": _("A lone defender's euchre, when allowed."),
    "late_sync_grace_minutes": _("How long after the call a hand entered before it may arrive."),
    "hide_standings_last_rounds": _("Keep the suspense: the last rounds' standings stay hidden."),
}

# The set-up form's presets: the rules as RULES.md §5 sets them, and a shorter club night.
PRESETS: dict[str, dict[str, object]] = {
    "standard": {
        **{f: getattr(RuleSettings, f) for f in RULE_LABELS},
        "tiebreaks": ", ".join(TIEBREAK_KEYS),
        "sit_out_score": "average",
    },
    "club": {
        **{f: getattr(RuleSettings, f) for f in RULE_LABELS},
        "preliminary_rounds": 3,
        "hide_standings_last_rounds": 0,
        "tiebreaks": ", ".join(TIEBREAK_KEYS),
        "sit_out_score": "average",
    },
}
PRESET_CHOICES = [
    ("standard", _("Standard Snowman: 5 rounds of 20 minutes, then the final")),
    ("club", _("Club night: 3 rounds of 20 minutes, standings always shown, then the final")),
    ("custom", _("Custom: set every rule under “Advanced”")),
]
TIEBREAK_LABELS = {
    "total": _("Total points"),
    "wins": _("Wins"),
    "margin": _("Margin"),
    "lot": _("Lot (drawn once)"),
}

# Settings added after the form's first version: a post without them (an old form, a
# script) keeps their defaults.
OPTIONAL_SETTINGS = ("points_alone_euchre", "late_sync_grace_minutes", "hide_standings_last_rounds")


class TournamentForm(forms.Form):
    """Name and every rule setting of docs/rules.md §5, validated by ``RuleSettings.errors``."""

    name = forms.CharField(max_length=120, label=_("Name"))
    event_date = forms.DateField(
        required=False, label=_("Date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    start_time = forms.TimeField(
        required=False, label=_("Start time"), widget=forms.TimeInput(attrs={"type": "time"})
    )
    venue = forms.CharField(max_length=120, required=False, label=_("Venue"))
    tiebreaks = forms.CharField(
        max_length=40,
        label=_("Tiebreak chain"),
    )

    sit_out_score = forms.CharField(
        max_length=8,
        required=False,
        label=_("Sit-out score"),
        initial="average",
    )
    # Not rules (they change nothing in the scoring, so never locked); a post
    # without them (an old form, a script) keeps what the event had.
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        required=False,
        label=_("Event language"),
        help_text=_(
            "What the public pages, the projector and the tablets show until a reader "
            "chooses; a bilingual sheet reads it first."
        ),
    )
    bilingual_sheets = forms.BooleanField(
        required=False,
        label=_("Bilingual sheets (English and French; each print can still choose one)"),
    )
    paper = forms.ChoiceField(
        required=False,  # a form without it (an old page, a script) keeps the event's
        choices=PAPER_CHOICES,
        initial=DEFAULT_PAPER,
        label=_("Paper"),
        help_text=_("What every sheet prints on; a print can still choose the other size."),
    )

    def __init__(
        self, *args: object, locked: bool = False, creating: bool = False, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # The keys are what the director types, the same in every language: shown as code.
        self.fields["tiebreaks"].help_text = format_html(
            str(_("In order, separated by commas: {keys}.")),
            keys=format_html("<code>{}</code>", ", ".join(TIEBREAK_KEYS)),
        )
        self.fields["sit_out_score"].help_text = format_html(
            str(_("For a player who sits out a round: {average}, {none}, or a number of points.")),
            average=format_html("<code>{}</code>", "average"),
            none=format_html("<code>{}</code>", "none"),
        )
        if creating:
            # Chosen at creation; afterwards the settings page's own action
            # changes it (services/rehearsal.py), under its rules.
            self.fields["rehearsal"] = forms.BooleanField(
                label=_("Rehearsal (a test run: listed nowhere public, counted nowhere)"),
                required=False,
            )
        for name in Tournament.RULE_FIELDS:
            label = RULE_LABELS[name]
            if isinstance(getattr(RuleSettings, name), bool):
                self.fields[name] = forms.BooleanField(
                    label=label, required=False, help_text=RULE_HELP.get(name, "")
                )
            else:
                # Settings added later may be left out of a post: they keep their default.
                self.fields[name] = forms.IntegerField(
                    label=label,
                    required=name not in OPTIONAL_SETTINGS,
                    help_text=RULE_HELP.get(name, ""),
                )
        if creating:
            # Filled in by the page's script; the rules posted are what counts.
            self.fields["preset"] = forms.ChoiceField(
                choices=PRESET_CHOICES,
                required=False,
                initial="standard",
                label=_("Format"),
                widget=forms.RadioSelect,
            )
        self.order_fields(["name", *Tournament.RULE_FIELDS, "tiebreaks", "sit_out_score"])
        # Disabled fields keep their initial values whatever is posted, so a locked
        # setting is shown but cannot be changed mid-event.
        self.locked = locked
        if locked:
            for name in (*Tournament.RULE_FIELDS, "tiebreaks", "sit_out_score"):
                if name not in EDITABLE_AFTER_START:
                    self.fields[name].disabled = True

    @classmethod
    def initial_for(cls, tournament: Tournament | None) -> dict[str, object]:
        rules = tournament.rules if tournament else RuleSettings()
        initial: dict[str, object] = {n: getattr(rules, n) for n in Tournament.RULE_FIELDS}
        initial["tiebreaks"] = ", ".join(rules.tiebreaks)
        initial["sit_out_score"] = rules.sit_out_score
        initial["name"] = tournament.name if tournament else ""
        initial["language"] = tournament.language if tournament else settings.LANGUAGE_CODE
        initial["bilingual_sheets"] = tournament.bilingual_sheets if tournament else False
        initial["paper"] = tournament.paper if tournament else DEFAULT_PAPER
        if tournament:
            initial["event_date"] = tournament.event_date
            initial["start_time"] = tournament.start_time
            initial["venue"] = tournament.venue
        return initial

    @property
    def occasion(self) -> Occasion:
        d = self.cleaned_data
        return Occasion(d.get("event_date"), d.get("start_time"), d.get("venue") or "")

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if any(name in self.errors for name in Tournament.RULE_FIELDS):
            return data
        chain = tuple(
            k.strip().lower() for k in str(data.get("tiebreaks", "")).split(",") if k.strip()
        )
        values = {n: data.get(n) for n in Tournament.RULE_FIELDS}
        for name in OPTIONAL_SETTINGS:
            if values[name] is None:
                values[name] = data[name] = getattr(RuleSettings, name)
        sit_out = str(data.get("sit_out_score") or "average").strip().lower()
        rules = RuleSettings(**values, tiebreaks=chain, sit_out_score=sit_out)  # type: ignore[arg-type]
        for field, message in rules.errors().items():
            self.add_error(field, message)
        self.rules = rules
        return data


def validate_player_name(value: str) -> None:
    """The import's rule (names.name_refusal), so the form refuses the same."""
    refusal = name_refusal(clean_name(value))
    if refusal:
        raise forms.ValidationError(refusal)


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=80, validators=[validate_player_name], label=_("Name"))
    division = forms.ChoiceField(choices=Division.choices, label=_("Division"))
    checked_in = forms.BooleanField(required=False, label=_("Checked in now"))


class StationaryForm(forms.Form):
    """A stationary seat (RULES.md §3.1): a reason, and before the draw the table."""

    reason = forms.CharField(max_length=200, label=_("Reason"))
    table = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_MAX,
        label=_("Table for round 1"),
        help_text=_("Empty: the lowest table no stationary player is named for yet."),
    )


class StationaryEndForm(forms.Form):
    reason = forms.CharField(max_length=200, label=_("Reason for ending it"))


class WalkInForm(forms.Form):
    """A walk-in at the desk: the name typed in the search box, a division; checked in."""

    name = forms.CharField(max_length=80, validators=[validate_player_name], label=_("Name"))
    division = forms.ChoiceField(choices=Division.choices, label=_("Division"))


class HouseForm(forms.Form):
    """A house player (§6): a stand-in who fills a seat and is never ranked."""

    name = forms.CharField(max_length=80, label=_("Name"))
    division = forms.ChoiceField(choices=Division.choices, label=_("Division"))


class ImportForm(forms.Form):
    """Either a file or pasted text; the preview carries the text to the confirm step."""

    file = forms.FileField(required=False, label=_("CSV file (name,division)"))
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        label=_("…or paste the lines here"),
    )
    checked_in = forms.BooleanField(required=False, label=_("Check them in on import"))

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload:
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    _("The file is not UTF-8 text; save it as CSV UTF-8.")
                ) from None
        if not str(data.get("text") or "").strip():
            raise forms.ValidationError(_("Choose a CSV file or paste the lines."))
        return data


class IdField(forms.CharField):
    """A row's number typed or chosen in a form, read by ``tournaments.ids.parse_id``
    (IntegerField takes "١٢" for 12 and overflows the column past 19 digits)."""

    def __init__(self, *, low: int = 1, high: int = ID_MAX, **kwargs: Any) -> None:
        self.low, self.high = low, high
        super().__init__(**kwargs)  # typed text, stripped; parse_id bounds its length

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        number = parse_id(text, low=self.low, high=self.high)
        if number is None:
            raise forms.ValidationError(_("Enter a number written in digits 0-9."), code="invalid")
        return number


class IdChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A row chosen from a list, its number read by ``parse_id`` before the lookup (the
    ModelChoiceField's own lookup takes "١٢" for 12)."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and parse_id(value) is None:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(coerce=parse_id, label=_("Swap"))
    second = forms.TypedChoiceField(coerce=parse_id, label=_("with"))
    reason = forms.CharField(required=False, max_length=200, label=_("Reason"))

    def __init__(self, *args: object, players: list[tuple[int, str]], **kwargs: object):
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        choices = [("", "—")] + players
        for name in ("first", "second"):
            cast(forms.ChoiceField, self.fields[name]).choices = choices


class ExtensionForm(forms.Form):
    minutes = forms.IntegerField(min_value=0, max_value=60, label=_("Extra minutes"))
    reason = forms.CharField(required=False, max_length=200, label=_("Reason"))


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))


class OverrideForm(ReasonForm):
    winner = forms.ChoiceField(choices=TeamChoice.choices, label=_("Winner"))

    @property
    def team(self) -> Team:
        return Team(self.cleaned_data["winner"])


SEAT_CHOICES = [("", "—"), *SeatPosition.choices]


class HandForm(forms.Form):
    """One hand as a director enters it. ``client_key`` is fixed when the form renders, so
    submitting the same form twice records the hand once."""

    client_key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    outcome = forms.ChoiceField(
        choices=HandEntry.Outcome.choices, initial="played", label=_("Outcome")
    )
    maker = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label=_("Maker"))
    alone = forms.BooleanField(required=False, label=_("Alone"))
    maker_tricks = forms.TypedChoiceField(
        coerce=lambda value: parse_id(value, low=0),
        empty_value=None,
        required=False,
        label=_("Makers' tricks"),
        choices=[("", "—")] + [(str(n), str(n)) for n in range(6)],
    )
    renege_by = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label=_("Renege by"))
    dealer_partner_ordered_up = forms.BooleanField(
        required=False, label=_("Dealer's partner ordered up (alone)")
    )
    defender_alone = forms.ChoiceField(
        choices=SEAT_CHOICES, required=False, label=_("Lone defender")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("client_key", f"director-{uuid.uuid4().hex}")
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    @property
    def hand(self) -> Hand:
        d = self.cleaned_data
        outcome = Outcome(d["outcome"])
        # Send only what the outcome uses; the rules engine refuses what is inconsistent.
        if outcome is Outcome.PLAYED:
            return Hand(
                outcome,
                maker=Seat(d["maker"]) if d["maker"] else None,
                alone=d["alone"],
                maker_tricks=d["maker_tricks"],
                dealer_partner_ordered_up=bool(d.get("dealer_partner_ordered_up")),
                defender_alone=Seat(d["defender_alone"]) if d.get("defender_alone") else None,
            )
        if outcome is Outcome.RENEGE:
            return Hand(outcome, renege_by=Seat(d["renege_by"]) if d["renege_by"] else None)
        return Hand(outcome)


SHEET_ROWS = 20
# One scoresheet row's first cell: the maker's seat, or what else the hand was.
SHEET_PLAYS = [
    ("", "—"),
    *SeatPosition.choices,
    ("misdeal", _("Misdeal")),
    *(
        (f"renege-{v}", format_lazy(_("Renege by {seat}"), seat=label))
        for v, label in SeatPosition.choices
    ),
]


class ScoresheetForm(forms.Form):
    """A paper scoresheet keyed in one grid: each row a maker (alone or not) and the
    makers' tricks, or a misdeal, or a renege; the first dealer once; one reason for the
    whole batch. ``version`` and ``client_key`` are fixed when the grid is shown."""

    client_key = forms.CharField(widget=forms.HiddenInput, max_length=60)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    first_dealer = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label=_("First dealer"))
    reason = forms.CharField(max_length=500, label=_("Reason"))
    confirm = forms.BooleanField(
        required=False, initial=True, label=_("Both teams signed the sheet: confirm the result")
    )

    def __init__(self, *args: Any, rows: int = SHEET_ROWS, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("client_key", f"sheet-{uuid.uuid4().hex}")
        kwargs["initial"].setdefault("reason", _("Keyed from the paper scoresheet"))
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.rows = rows
        self.hands: list[Hand] = []
        self.row_errors: dict[int, object] = {}

    def row_values(self) -> list[tuple[int, str, bool, str]]:
        """Each row as typed (number, play, alone, tricks), for the grid shown again."""
        data = self.data if self.is_bound else {}
        return [
            (
                i,
                str(data.get(f"r{i}-play", "")),
                data.get(f"r{i}-alone") in ("on", "1", "true"),
                str(data.get(f"r{i}-tricks", "")),
            )
            for i in range(1, self.rows + 1)
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        plays = dict(SHEET_PLAYS)
        for i, play, alone, tricks in self.row_values():
            if not play and not tricks.strip() and not alone:
                continue
            if play not in plays or not play:
                self.row_errors[i] = _("Choose the maker, a misdeal or a renege.")
                continue
            if play == "misdeal" or play.startswith("renege-"):
                if tricks.strip() or alone:
                    self.row_errors[i] = _("A misdeal or a renege has no tricks and no alone.")
                    continue
                self.hands.append(
                    Hand(Outcome.MISDEAL)
                    if play == "misdeal"
                    else Hand(Outcome.RENEGE, renege_by=Seat(play.removeprefix("renege-")))
                )
                continue
            count = parse_id(tricks.strip(), low=0)
            if count is None or count > 5:
                self.row_errors[i] = _("The makers take between 0 and 5 tricks.")
                continue
            self.hands.append(
                Hand(Outcome.PLAYED, maker=Seat(play), alone=alone, maker_tricks=count)
            )
        if self.row_errors:
            raise forms.ValidationError(
                _("Some rows need fixing: %(rows)s.")
                % {"rows": ", ".join(str(n) for n in sorted(self.row_errors))}
            )
        return cleaned

    @property
    def first(self) -> Seat | None:
        seat = self.cleaned_data.get("first_dealer")
        return Seat(seat) if seat else None


class CorrectionForm(HandForm):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))
    confirm = forms.BooleanField(
        required=False, label=_("Confirm the corrected result now (with this reason)")
    )


class FirstDealerForm(forms.Form):
    seat = forms.ChoiceField(choices=SeatPosition.choices, label=_("First dealer"))

    @property
    def first_dealer(self) -> Seat:
        return Seat(self.cleaned_data["seat"])


class CallTimeForm(forms.Form):
    including_extended = forms.BooleanField(
        required=False, label=_("Including extended tables (end their extensions now)")
    )


class DirectorFirstDealerForm(FirstDealerForm):
    """The first dealer from the director's table page: a reason only for a change of
    one already recorded (naming the first one changes nothing; the service says so)."""

    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"), required=False
    )

    def __init__(self, *args: Any, changing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = changing


class AnswerForm(forms.Form):
    """The director sets or changes the table's answer to "was a hand being played?"."""

    in_progress = forms.TypedChoiceField(
        coerce=lambda v: v == "yes",
        choices=[
            ("yes", _("Yes: a hand was being played")),
            ("no", _("No hand was being played")),
        ],
        widget=forms.RadioSelect,
        label=_("At the call"),
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))


class InsertHandForm(HandForm):
    position = forms.IntegerField(min_value=1, max_value=1000, label=_("Insert as hand number"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))


class LateSyncForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[
            ("accept", _("Accept: it was entered before the call")),
            ("reclassify", _("Reclassify: take it as entered at its arrival")),
        ],
        widget=forms.RadioSelect,
        label=_("Decision"),
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))


class ReopenForm(forms.Form):
    """Reopening a round undoes standings: the director types the round's name."""

    confirm = forms.CharField(max_length=40, label=_("Type the round's name to confirm"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))

    def __init__(self, *args: object, expected: str, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.expected = expected
        self.fields["confirm"].help_text = _("Type “%(name)s”.") % {"name": expected}

    def clean_confirm(self) -> str:
        value = " ".join(str(self.cleaned_data["confirm"]).split())
        if value.casefold() != self.expected.casefold():
            raise forms.ValidationError(
                _("Type “%(name)s” exactly to reopen it.") % {"name": self.expected}
            )
        return value


class TableCodeForm(forms.Form):
    """The table's code, typed at ``/t/`` (spaces and dashes allowed, any case)."""

    code = forms.CharField(
        label=_("Table code"),
        max_length=16,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "inputmode": "text",
                "autofocus": True,
            }
        ),
    )


# --- Registration before the day ---------------------------------------------
