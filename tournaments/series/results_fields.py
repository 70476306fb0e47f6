"""The fields of a results file, each read and checked against the column it is stored in
or the rule it is checked by; a wrong one is refused naming where it is
(``InvalidResults``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import reduce
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.common.errors import ServiceError
from tournaments.domain.rules import RuleSettings, sit_out_points_setting


class InvalidResults(ServiceError):
    """The file is refused; ``where`` names the line or field that is wrong."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        super().__init__(f"{where}: {problem}" if where else problem)


# Each number is bounded by the column it is stored in (or the rule it is checked
# against), so a hostile file is refused by name here, never by the database.
SMALL = 32767  # smallint and positive smallint columns

INT = 2**31 - 1  # integer columns

BIG = 2**63 - 1  # bigint columns (the lot seed)

MAX_DEPTH = 64  # the format nests 6 deep; deeper JSON is refused before it is read


def member(
    obj: Any, key: str, path: str, kind: type | tuple[type, ...], *, null: bool = False
) -> Any:
    if not isinstance(obj, dict):
        raise InvalidResults(path, _("expected an object"))
    here = f"{path}.{key}" if path else key
    if key not in obj:
        raise InvalidResults(here, _("missing"))
    value = obj[key]
    if value is None and null:
        return None
    # bool is an int in Python; a true/false where a number belongs is an error.
    if isinstance(value, bool) and kind is not bool and bool not in kinds(kind):
        raise InvalidResults(
            here,
            _("expected %(kind)s, found %(value)s")
            % {"kind": kind_name(kind), "value": json.dumps(value)},
        )
    if not isinstance(value, kind):
        raise InvalidResults(
            here,
            _("expected %(kind)s, found %(value)s")
            % {"kind": kind_name(kind), "value": shown(value)},
        )
    return value


def shown(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return _("a number of %(n)s digits") % {"n": len(str(abs(value)))}
    return json.dumps(value, ensure_ascii=False)[:40]


def whole(obj: Any, key: str, path: str, low: int, high: int, *, null: bool = False) -> Any:
    """A whole number from ``low`` to ``high`` (the column's range, or the rule's)."""
    value = member(obj, key, path, int, null=null)
    if value is not None and not low <= value <= high:
        here = f"{path}.{key}" if path else key
        raise InvalidResults(
            here,
            _("%(value)s is out of range (%(low)s to %(high)s)")
            % {"value": shown(value), "low": low, "high": high},
        )
    return value


def text(obj: Any, key: str, path: str, *, most: int, empty: bool = False) -> str:
    """Text the database keeps: printable (no NUL, control or invisible formatting
    characters), at most ``most`` characters."""
    value: str = member(obj, key, path, str)
    here = f"{path}.{key}" if path else key
    if not all(c.isprintable() or c in "\n\t" for c in value):
        raise InvalidResults(here, _("contains control or invisible formatting characters"))
    if not empty and not value.strip():
        raise InvalidResults(here, _("is empty"))
    if len(value) > most:
        raise InvalidResults(here, _("is longer than %(n)s characters") % {"n": most})
    return value


def listed(
    obj: Any, key: str, path: str, *, most: int = SMALL, optional: bool = False
) -> list[Any]:
    if optional and isinstance(obj, dict) and obj.get(key) is None:
        return []
    items: list[Any] = member(obj, key, path, list)
    if len(items) > most:
        raise InvalidResults(
            f"{path}.{key}" if path else key, _("more than %(n)s entries") % {"n": most}
        )
    return items


# Each numbered list's refusal, a sentence of its own (not the kind glued in).
NEW_NUMBER = {
    "round": gettext_noop("must be a new round number"),
    "table": gettext_noop("must be a new table number"),
    "game": gettext_noop("must be a new game number"),
}


def numbered(
    parent: Any, key: str, path: str, number: str, what: str, high: int
) -> Iterator[tuple[str, Any]]:
    """The objects of the list ``parent[key]``, each with its path, each checked (as it
    comes) to carry a new ``number``: a whole number from 1 to ``high``."""
    here = f"{path}.{key}" if path else key
    seen: set[int] = set()
    for i, item in enumerate(listed(parent, key, path)):
        item_path = f"{here}[{i}]"
        value = whole(item, number, item_path, 1, high)
        if value in seen:
            raise InvalidResults(f"{item_path}.{number}", _(NEW_NUMBER[what]))
        seen.add(value)
        yield item_path, item


def kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: _("a whole number"), str: _("text"), bool: _("true or false"), list: _("a list")}
    names[dict] = _("an object")
    return reduce(
        lambda first, second: _("%(first)s or %(second)s") % {"first": first, "second": second},
        (names.get(k, k.__name__) for k in kinds(kind)),
    )


def choice(obj: Any, key: str, path: str, choices: tuple[str, ...], *, null: bool = False) -> Any:
    value = member(obj, key, path, str, null=null)
    if value is not None and value not in choices:
        shown = json.dumps(value, ensure_ascii=False)[:20]
        raise InvalidResults(
            f"{path}.{key}",
            _("must be one of %(choices)s, not %(value)s")
            % {"choices": ", ".join(choices), "value": shown},
        )
    return value


def rule_settings(data: dict[str, Any]) -> RuleSettings:
    """The file's rule settings (a setting left out is the default); each one of its kind
    and range, named by its path when it is not."""
    known = {k: v for k, v in data.items() if k in RuleSettings.__dataclass_fields__}
    path = "tournament.rules"
    if "tiebreaks" in known:
        if not isinstance(known["tiebreaks"], list) or not all(
            isinstance(k, str) for k in known["tiebreaks"]
        ):
            raise InvalidResults(f"{path}.tiebreaks", _("expected a list of names"))
        known["tiebreaks"] = tuple(known["tiebreaks"])
    if "sit_out_score" in known:
        # §6: "average", "none" or a number of points; kept as the setting's text.
        setting = known["sit_out_score"]
        if (
            isinstance(setting, bool)
            or not isinstance(setting, (int, str))
            or (isinstance(setting, int) and not 0 <= setting <= 20)
            or sit_out_points_setting(str(setting)[:10]) is None
        ):
            raise InvalidResults(
                f"{path}.sit_out_score", _('must be "average", "none" or a number 0 to 20')
            )
        known["sit_out_score"] = str(setting)
    for key in known:
        if key in ("tiebreaks", "sit_out_score"):
            continue
        kind = bool if isinstance(RuleSettings.__dataclass_fields__[key].default, bool) else int
        member(known, key, path, kind)
        if kind is int:
            whole(known, key, path, -SMALL, SMALL)
    return RuleSettings(**known)


def json_depth(text: str) -> int:
    """How deep the JSON nests, counted outside strings, without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest
