"""The signed registration list, as a file (docs/series.md, "The registration list travels
to the hall"): what it holds and how it is checked, with no database, as results_file.py is
for the results file. services/transfer.py writes and imports it.

The club site and the hall are different servers with different SECRET_KEYs, so the list
is signed with the event's own key (``RegistrationSettings.transfer_key``): the club site
shows it to the director, who types it at the hall. The file is the list as JSON with an
HMAC-SHA256 signature after it (``django.core.signing.Signer`` keyed with the event's key);
the hall refuses a file whose signature does not match, byte for byte.
"""

from __future__ import annotations

import json
import uuid

from django.core import signing
from django.utils.translation import gettext as _

from tournaments.common.errors import ServiceError
from tournaments.core.models.event import Division
from tournaments.registration.reads import TOKEN_RE

FORMAT = "snowman.registrations/1"
SALT = FORMAT
# A list of 10,000 registrations is under 2 MB; anything far larger is not ours.
MAX_BYTES = 5_000_000


def signer(key: str) -> signing.Signer:
    return signing.Signer(key=key.strip(), salt=SALT, algorithm="sha256")


def verified(text: str, key: str) -> dict[str, object]:
    if not key.strip():
        raise ServiceError(_("Type the event's key, as the club site shows it."))
    if len(text) > MAX_BYTES:
        raise ServiceError(_("This file is far too large to be a registration list."))
    # An editor's final newline is not part of what was signed; nothing else is forgiven.
    body = text[:-1] if text.endswith("\n") else text
    try:
        data = json.loads(signer(key).unsign(body))
    except signing.BadSignature:
        raise ServiceError(
            _(
                "The file's signature does not match this key: the file was changed, or it is "
                "another event's, or the key is mistyped. Nothing was imported."
            )
        ) from None
    except ValueError:
        raise ServiceError(_("The signed text is not a registration list.")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ServiceError(_("This is not a %(format)s file.") % {"format": FORMAT})
    return data


def rows(data: dict[str, object]) -> list[tuple[uuid.UUID, str, str, bool, str]]:
    players = data.get("players")
    if not isinstance(players, list):
        raise ServiceError(_("The list has no players."))
    rows = []
    for n, entry in enumerate(players, start=1):
        try:
            assert isinstance(entry, dict)
            uid = uuid.UUID(str(entry["uid"]))
            name, division = str(entry["name"]), str(entry["division"])
            token, consent = str(entry.get("token", "")), bool(entry.get("consent", False))
            assert division in Division.values and (not token or TOKEN_RE.fullmatch(token))
        except (AssertionError, KeyError, ValueError):
            raise ServiceError(_("Player %(n)s of the list is malformed.") % {"n": n}) from None
        rows.append((uid, name, division, consent, token))
    return rows
