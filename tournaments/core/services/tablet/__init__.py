"""The scorekeeper's tablet: what a table does is ``actions`` (record, undo, first dealer,
answer, confirm, and the note of its contact, with the state it then reads); what it reads
is ``reads.tablet`` (the link and session, which match a request acts on, the state as JSON
and whether it changed).

The requests' shape is checked at the view's edge by ``tournaments.forms_tablet``; every
change goes through ``services.play``. The names the tablet's views use are importable
from here, the tablet's face.
"""

from tournaments.core.reads.tablet.link import (
    COOKIE,
    COOKIE_SALT,
    REPLACED,
    REVOKED,
    SESSION_SECONDS,
    Forbidden,
    TableScope,
    live_link,
    open_link,
    refusal,
    scope_of,
    session_value,
    taken_over,
)
from tournaments.core.reads.tablet.lookup import TableRounds, match_for, named_match, table_rounds
from tournaments.core.reads.tablet.state import entry_json
from tournaments.core.reads.tablet.version import TableVersion, table_version
from tournaments.core.services.tablet.actions import (
    answer_call,
    confirm,
    first_dealer,
    note_contact,
    record,
    state_after_hand,
    table_state,
    undo,
)

__all__ = [
    "COOKIE",
    "COOKIE_SALT",
    "REPLACED",
    "REVOKED",
    "SESSION_SECONDS",
    "Forbidden",
    "TableRounds",
    "TableScope",
    "TableVersion",
    "answer_call",
    "confirm",
    "entry_json",
    "first_dealer",
    "live_link",
    "match_for",
    "named_match",
    "note_contact",
    "open_link",
    "record",
    "refusal",
    "scope_of",
    "session_value",
    "state_after_hand",
    "table_rounds",
    "table_state",
    "table_version",
    "taken_over",
    "undo",
]
