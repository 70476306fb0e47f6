"""Table codes (issue 23, part 4): the short code printed beside a table card's QR and
typed at ``/t/`` on any device to take the table over.

Six characters from an alphabet without look-alikes (no 0/O, 1/I/L): about 887 million
codes, and wrong guesses are throttled per address (``views.tablet.take_over``). A code
is unique among every code ever issued, so a re-issued one never opens anything again.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.core.logtext import said
from tournaments.core.models.event import Tournament
from tournaments.core.models.play import Match, TableLink
from tournaments.core.services import NotFound, log, now_or

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 6


def normalise(typed: str) -> str:
    """What a person typed, as stored: capitals, without spaces or dashes."""
    return "".join(ch for ch in typed.upper() if ch not in " -\t")


def new_codes(count: int) -> list[str]:
    """``count`` codes no link holds yet (one query; a clash is drawn again)."""
    codes: set[str] = set()
    while len(codes) < count:
        draw = {
            "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
            for _ in range(count - len(codes))
        }
        taken = set(TableLink.objects.filter(code__in=draw).values_list("code", flat=True))
        codes |= draw - taken
    return sorted(codes, key=lambda _: secrets.randbelow(1 << 30))


def reissue_code(
    tournament: Tournament, table: int, *, by: str, now: datetime | None = None
) -> str:
    """A new code for the table's live link: the old one opens nothing any more, on any
    device. The device holding the table keeps it (a takeover is what replaces a device)."""
    now = now_or(now)
    with transaction.atomic():
        link = (
            TableLink.objects.live()
            .select_for_update()
            .filter(tournament=tournament, table=table)
            .first()
        )
        if link is None:
            raise NotFound(_("Table %(table)s has no live tablet link.") % {"table": table})
        link.code = new_codes(1)[0]
        link.save(update_fields=["code"])
        line = said("table_codes.table_table_code_re", table=table)
        log(tournament, by, "code", line, at=now)
    return link.code


def take_over(typed: str, *, now: datetime | None = None) -> TableLink:
    """The live link a code opens, its device raised: every session opened before on any
    device is told it was replaced. NotFound for a code no live link holds."""
    code = normalise(typed)
    now = now_or(now)
    if not code or len(code) > 16:
        raise NotFound(_("Unknown table code."))
    with transaction.atomic():
        link = (
            TableLink.objects.live()
            .select_for_update()
            .select_related("tournament")
            .filter(code=code)
            .first()
        )
        if link is None:
            raise NotFound(_("Unknown table code. Check it with the director."))
        TableLink.objects.filter(pk=link.pk).update(device=F("device") + 1)
        link.refresh_from_db(fields=["device"])
        log(
            link.tournament,
            f"Table {link.table} device {link.device}",
            "takeover",
            said("table_codes.table_new_device_took", table=link.table),
            # About the table's match: only this table's tablets read their state again.
            match=Match.objects.filter(round__tournament_id=link.tournament_id, table=link.table)
            .order_by("-round__number", "-game")
            .first(),
            at=now,
        )
    return link
