"""The registration list from the club site to the hall (docs/series.md, "The
registration list travels to the hall").

The club site and the hall are different servers with different SECRET_KEYs, so the list
is signed with the event's own key (``RegistrationSettings.transfer_key``): the club site
shows it to the director, who types it at the hall. The file is the list as JSON with an
HMAC-SHA256 signature after it (``django.core.signing.Signer`` keyed with the event's key);
the hall refuses a file whose signature does not match, byte for byte, and stores nothing.
Importing is idempotent: an application already imported (its ``uid``) is left alone.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.core import signing
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from ..logtext import said
from ..models import (
    Division,
    Player,
    Registration,
    RegistrationPass,
    Tournament,
)
from ..reads.players import check_player
from ..reads.registration import TOKEN_RE, folded_name
from . import ServiceError, log, now_or
from .players import register_player
from .registration import (
    Status,
    lock_registrations,
    settings_for,
    take_queue,
)

FORMAT = "snowman.registrations/1"
SALT = FORMAT
# A list of 10,000 registrations is under 2 MB; anything far larger is not ours.
MAX_BYTES = 5_000_000


def _signer(key: str) -> signing.Signer:
    return signing.Signer(key=key.strip(), salt=SALT, algorithm="sha256")


def export_signed(tournament: Tournament, *, now: datetime | None = None) -> str:
    """The accepted list, signed with the event's key: no contact, no message."""
    accepted = Registration.objects.filter(
        tournament=tournament, status=Status.ACCEPTED
    ).prefetch_related("passes")
    payload = {
        "format": FORMAT,
        "event": {"name": tournament.name, "slug": tournament.slug},
        "exported_at": now_or(now).isoformat(),
        "players": [
            {
                "uid": str(r.uid),
                "name": r.name,
                "division": r.division,
                "consent": r.consent,
                # The pass the desk scans: as private as the player's link.
                "token": next((p.token for p in r.passes.all() if p.revoked_at is None), ""),
            }
            for r in accepted
        ],
    }
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return _signer(settings_for(tournament).transfer_key).sign(text) + "\n"


@dataclass(frozen=True)
class Imported:
    added: list[str]
    unchanged: int


def _verified(text: str, key: str) -> dict[str, object]:
    if not key.strip():
        raise ServiceError(_("Type the event's key, as the club site shows it."))
    if len(text) > MAX_BYTES:
        raise ServiceError(_("This file is far too large to be a registration list."))
    # An editor's final newline is not part of what was signed; nothing else is forgiven.
    body = text[:-1] if text.endswith("\n") else text
    try:
        data = json.loads(_signer(key).unsign(body))
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


def _rows(data: dict[str, object]) -> list[tuple[uuid.UUID, str, str, bool, str]]:
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


def import_signed(
    tournament: Tournament, text: str, key: str, *, by: str, now: datetime | None = None
) -> Imported:
    """The hall takes the club site's accepted list: each player registered (through
    the players service), with the same pass. All or nothing; twice changes nothing.

    A name the door already typed in (a player with no registration) is that player:
    the list's pass is given to them rather than a second player made."""
    at = now_or(now)
    rows = _rows(_verified(text, key))
    try:
        return _import_rows(tournament, rows, by=by, at=at)
    except IntegrityError:
        raise ServiceError(
            _("Some of these names already have an application here; nothing was imported.")
        ) from None


def _import_rows(
    tournament: Tournament,
    rows: list[tuple[uuid.UUID, str, str, bool, str]],
    *,
    by: str,
    at: datetime,
) -> Imported:
    added: list[str] = []
    with transaction.atomic():
        reg_settings = lock_registrations(tournament)
        known = set(
            Registration.objects.filter(tournament=tournament).values_list("uid", flat=True)
        )
        for uid, name, division, consent, token in rows:
            if uid in known:
                continue
            player = Player.objects.filter(
                tournament=tournament, name__iexact=name, registration__isnull=True
            ).first()
            if player is None:
                check_player(tournament, name, division)
                player = register_player(tournament, name, division, by=by, now=at)
            reg = Registration.objects.create(
                tournament=tournament,
                uid=uid,
                name=player.name,
                folded=folded_name(player.name),
                division=player.division,
                consent=consent,
                status=Status.ACCEPTED,
                queue=take_queue(reg_settings),
                player=player,
                created_at=at,
                decided_at=at,
                decided_by=by,
            )
            if token:
                if RegistrationPass.objects.filter(token=token).exists():
                    raise ServiceError(
                        _("%(name)s's pass is already another registration's.") % {"name": name}
                    )
                RegistrationPass.objects.create(registration=reg, token=token, created_at=at)
            added.append(player.name)
        if added:
            log(
                tournament,
                by,
                "import",
                said(
                    gettext_noop("Imported %(n)s registrations from the club site's signed list."),
                    n=len(added),
                ),
                at=at,
            )
    return Imported(added, len(rows) - len(added))
