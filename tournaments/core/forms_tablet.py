"""The tablet's JSON bodies, checked for shape at the view's edge (docs/tablet-api.md).

A JSON body carries types, so these fields take a value only in the type the tablet
sends (``"2"`` is not a hand number, ``"yes"`` not a boolean): a body of the wrong shape
is one our tablet never sends, and accepting it would hide the bug that sent it. The
rules (a played hand needs a maker, a 6-trick hand is impossible) are the rules layer's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournaments.common.ids import beyond_range, parse_id
from tournaments.domain.hands import Hand, Outcome, Seat

# The tablet's X-Snowman-Health header (issue 23) is read at the view's edge, as its
# bodies are; the reading itself is pure (domain.health).
from tournaments.domain.health import HEALTH_EVERY as HEALTH_EVERY
from tournaments.domain.health import parse_health as parse_health
from tournaments.domain.match import Answers, EntryDetails


class JSONField(forms.Field):
    """A field of a JSON body: ``None`` (or absent) is empty, any other value must have
    the field's type."""

    def __init__(self, what: str, *, required: bool = False, missing: str = "") -> None:
        self.what = what
        super().__init__(
            required=required, error_messages={"required": missing or f"{what} is required."}
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> JSONField:
        # Django deep-copies every field (widget, messages, validators) for each form it
        # builds, so that one form may change its own; these never change after their
        # class is built, and the copy was a tenth of a hand POST's CPU (issue 22).
        return self

    def to_python(self, value: Any) -> Any:
        return None if value is None else self.parse(value)

    def parse(self, value: Any) -> Any:
        return value

    def bad(self, message: str) -> ValidationError:
        return ValidationError(message, code="invalid")


class WholeNumber(JSONField):
    def __init__(self, what: str, *, low: int | None = None, high: int | None = None, **kw: Any):
        self.low, self.high = low, high
        super().__init__(what, **kw)

    def parse(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.bad(f"{self.what} must be a whole number.")
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise self.bad(f"{self.what} must be between {self.low} and {self.high}.")
        return value


class MatchId(JSONField):
    """A match's id: a number, or its digits (``state.json?match=12``)."""

    def __init__(self) -> None:
        super().__init__("The match")

    def to_python(self, value: Any) -> int | None:
        if value is None or value == "":
            return None
        match = parse_id(value)
        if match is None and beyond_range(value):
            return 0  # no row has it: not this table's match (403), as any other id
        if match is None:
            raise self.bad("The match must be a number.")
        return match


class Boolean(JSONField):
    def parse(self, value: Any) -> bool:
        if not isinstance(value, bool):
            required = str(self.error_messages["required"]) if self.required else ""
            raise self.bad(required or f"{self.what} must be true or false.")
        return value

    def clean(self, value: Any) -> bool | None:
        # False is a value here, not an empty field.
        return None if value is None and not self.required else super().clean(value)


class SeatField(JSONField):
    """A seat, named by the person it describes (``what``: "the first dealer")."""

    def __init__(self, what: str, *, required: bool = False) -> None:
        super().__init__(what, required=required, missing=f"Choose {what}.")

    def to_python(self, value: Any) -> Seat | None:
        if value is None or value == "":
            return None
        if not isinstance(value, str) or value not in Seat.__members__:
            raise self.bad(f"{self.what[0].upper()}{self.what[1:]} must be one of N, E, S, W.")
        return Seat(value)


class Text(JSONField):
    def __init__(self, what: str, *, limit: int) -> None:
        self.limit = limit
        super().__init__(what)

    def to_python(self, value: Any) -> str:
        if value is None:
            return ""
        if not isinstance(value, str):
            raise self.bad(f"{self.what} must be text.")
        if len(value) > self.limit:
            raise self.bad(f"{self.what} is longer than {self.limit} characters.")
        return value.strip()


class Moment(JSONField):
    def parse(self, value: Any) -> Any:
        message = "entered_at must be an ISO 8601 time with a time zone."
        if not isinstance(value, str):
            raise self.bad("entered_at must be an ISO 8601 time.")
        try:
            moment = parse_datetime(value)
        except ValueError:
            moment = None
        if moment is None or timezone.is_naive(moment):
            raise self.bad(message)
        return moment


class TabletForm(forms.Form):
    """A JSON body; ``match`` names the match the body is for (optional everywhere)."""

    match = MatchId()

    def __init__(self, data: Mapping[str, Any]) -> None:
        # A JSON object's keys are the fields; Django's widgets read them as given.
        super().__init__(data=dict(data))

    def _clean_fields(self) -> None:
        # Django's version goes through a bound field and its widget per field to read
        # ``data[name]``; a JSON body's value is the field's value as it is (a fifth of
        # the form's CPU in a hand POST, issue 22). Same order, same errors.
        for name, field in self.fields.items():
            try:
                self.cleaned_data[name] = field.clean(self.data.get(name))
                clean = getattr(self, f"clean_{name}", None)
                if clean is not None:
                    self.cleaned_data[name] = clean()
            except ValidationError as e:
                self.add_error(name, e)

    @property
    def first_error(self) -> str:
        for errors in self.errors.values():
            return str(errors[0])
        return "The request is not valid."


class Answering(TabletForm):
    """A body that answers a state (``hands`` and ``version``): both or neither."""

    hands = WholeNumber("The number of hands")
    version = WholeNumber("The version")

    def answers(self) -> Answers | None:
        hands, version = self.cleaned_data["hands"], self.cleaned_data["version"]
        return None if hands is None else Answers(hands, version)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("hands") is None) != (data.get("version") is None) and not self.errors:
            raise ValidationError(
                "Send both the number of hands and the version the answer is for."
            )
        return data


OUTCOMES = frozenset(o.value for o in Outcome)


class HandForm(TabletForm):
    client_key = Text("The client key", limit=64)
    number = WholeNumber("The hand number", low=1, high=1000)
    outcome = JSONField("The outcome")
    maker = SeatField("the player who made trump")
    alone = Boolean("Alone")
    maker_tricks = WholeNumber("The makers' tricks")
    renege_by = SeatField("the player who reneged")
    dealer_partner_ordered_up = Boolean("Dealer's partner ordered up")
    defender_alone = SeatField("the lone defender")
    first_dealer = SeatField("the first dealer")
    entered_at = Moment("entered_at")

    def clean_outcome(self) -> Outcome:
        value = self.cleaned_data["outcome"]
        if not isinstance(value, str) or value not in OUTCOMES:
            raise ValidationError("The outcome must be played, renege or misdeal.")
        return Outcome(value)

    def hand(self) -> Hand:
        d = self.cleaned_data
        return Hand(
            outcome=d["outcome"],
            maker=d["maker"],
            alone=bool(d["alone"]),
            maker_tricks=d["maker_tricks"],
            renege_by=d["renege_by"],
            dealer_partner_ordered_up=bool(d["dealer_partner_ordered_up"]),
            defender_alone=d["defender_alone"],
        )

    def details(self) -> EntryDetails:
        d = self.cleaned_data
        keys = ("client_key", "number", "first_dealer", "entered_at")
        return cast(EntryDetails, {k: d[k] for k in keys})


class FirstDealerForm(TabletForm):
    seat = SeatField("the first dealer", required=True)
    keeper = SeatField("the scorekeeper")


class UndoForm(TabletForm):
    number = WholeNumber(
        "The hand number", required=True, missing="Say which hand to undo (its number)."
    )
    # The hand's entry (its key in the state): optional in shape, so that an older
    # screen's undo without it is answered 409 with the current state (docs/tablet-api.md).
    client_key = Text("The client key", limit=64)


class AnswerCallForm(Answering):
    in_progress = Boolean(
        "Whether a hand was in progress",
        required=True,
        missing="Say whether a hand was in progress (true or false).",
    )


class ConfirmForm(Answering):
    agree = Boolean(
        "Whether you agree", required=True, missing="Say whether you agree (true or false)."
    )
    by = Text("Your name", limit=150)
    note = Text("The note", limit=2000)


class StateQuery(TabletForm):
    """``state.json?match=<id>``."""


class PinForm(TabletForm):
    """``POST /t/table/pin``: the director's PIN (issue 23)."""

    pin = Text("The PIN", limit=8)
