"""The registration list from the club site to the hall (docs/series.md, "The
registration list travels to the hall").

The file itself (what it holds, its signature, its checks) is tournaments/registrations_file.py;
here the club site writes it and the hall imports it: a file refused there stores nothing.
Importing is idempotent: an application already imported (its ``uid``) is left alone but
for its pass, which follows the club's (a revoked one replaced).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import said
from tournaments.core.models.event import Player, Tournament
from tournaments.core.reads.players import check_player
from tournaments.core.services import ServiceError, log, now_or
from tournaments.core.services.players import register_player
from tournaments.registration import list_file
from tournaments.registration.models import Registration, RegistrationPass
from tournaments.registration.reads import folded_name
from tournaments.registration.services import Status, lock_registrations, settings_for, take_queue


def export_signed(tournament: Tournament, *, now: datetime | None = None) -> str:
    """The accepted list, signed with the event's key: no contact, no message."""
    accepted = Registration.objects.filter(
        tournament=tournament, status=Status.ACCEPTED
    ).prefetch_related("passes")
    payload = {
        "format": list_file.FORMAT,
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
    return list_file.signer(settings_for(tournament).transfer_key).sign(text) + "\n"


@dataclass(frozen=True)
class Imported:
    added: list[str]
    unchanged: int


def import_signed(
    tournament: Tournament, text: str, key: str, *, by: str, now: datetime | None = None
) -> Imported:
    """The hall takes the club site's accepted list: each player registered (through
    the players service), with the same pass. All or nothing; twice changes nothing.

    A name the door already typed in (a player with no registration) is that player:
    the list's pass is given to them rather than a second player made."""
    at = now_or(now)
    rows = list_file.rows(list_file.verified(text, key))
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
        known = {r.uid: r for r in Registration.objects.filter(tournament=tournament)}
        for uid, name, division, consent, token in rows:
            if uid in known:
                # A pass the club revoked and replaced (a lost phone): the new one here too.
                live = known[uid].passes.filter(revoked_at__isnull=True)
                if token and not live.filter(token=token).exists():
                    live.update(revoked_at=at)
                    _new_pass(known[uid], token, name, at)
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
                _new_pass(reg, token, name, at)
            added.append(player.name)
        if added:
            log(
                tournament,
                by,
                "import",
                said("transfer.imported_registrations_from_club", n=len(added)),
                at=at,
            )
    return Imported(added, len(rows) - len(added))


def _new_pass(reg: Registration, token: str, name: str, at: datetime) -> None:
    held = RegistrationPass.objects.filter(token=token)
    # The same application imported into another event here (a rehearsal): it moves.
    if held.filter(registration__uid=reg.uid).update(registration=reg):
        return
    if held.exists():
        raise ServiceError(_("%(name)s's pass is already another registration's.") % {"name": name})
    RegistrationPass.objects.create(registration=reg, token=token, created_at=at)
