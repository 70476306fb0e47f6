"""The money's commands: each locks, calls the rules, writes in one transaction and logs.

Every action that moves money carries the client's key (a hidden field of the form it
came from, unique in the ledger): the same key again is answered with the entry it made
the first time, so a double tap or a resent form never charges twice. Two desks taking
the same player's fee with different keys meet the ledger's unique constraint: the second
is refused with who took it (409). A form read before a change of the settings carries
their version and is refused too (409)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import said
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.rounds import Round
from tournaments.core.services import (
    Conflict,
    NotFound,
    ServiceError,
    given_reason,
    log,
    now_or,
    players,
)
from tournaments.domain import money
from tournaments.money import reads
from tournaments.money.models import EntryKind, MoneyEntry, MoneySettings, PayoutLine

SETTING_FIELDS = (
    "fee_cents",
    "reduced_fee_cents",
    "cash_unit",
    "house_share",
    "draw_waits_for_fees",
    "ties",
    "loner_cents",
    "loner_made_only",
    "euchre_cents",
    "renege_cents",
    "loner_to",
    "fines_to",
)


def _amount(cents: int) -> str:
    return money.money_text(cents)


def _locked_settings(tournament: Tournament) -> MoneySettings:
    MoneySettings.objects.get_or_create(tournament=tournament)
    return MoneySettings.objects.select_for_update().get(tournament=tournament)


def configure(
    tournament: Tournament, *, version: int, by: str, now: datetime | None = None, **values: Any
) -> MoneySettings:
    unknown = set(values) - set(SETTING_FIELDS)
    if unknown:
        raise ValueError(f"Not a money setting: {sorted(unknown)}")
    with transaction.atomic():
        settings = _locked_settings(tournament)
        if settings.version != version:
            raise Conflict(_("The money settings were changed meanwhile: here they are now."))
        if values.get("reduced_fee_cents", 0) > values.get("fee_cents", settings.fee_cents):
            raise ServiceError(_("The reduced fee cannot be more than the fee."))
        for name, value in values.items():
            setattr(settings, name, value)
        settings.version += 1
        settings.save()
        log(tournament, by, "money", said("money.settings"), at=now)
    return settings


def _first(tournament: Tournament, client_key: str) -> MoneyEntry | None:
    """The entry a key already made: the answer to a repeated request. A key of another
    event's entry is refused rather than answered with it."""
    found = MoneyEntry.objects.filter(client_key=client_key).first()
    if found is not None and found.tournament_id != tournament.pk:
        raise Conflict(_("This form was already used. Reload the page."))
    return found


def _write(entry: MoneyEntry, clash: Callable[[], str]) -> MoneyEntry:
    """Insert ``entry``; a unique constraint met (another desk, the same instant) is
    answered with ``clash()``, 409, and nothing written."""
    try:
        with transaction.atomic():
            entry.save(force_insert=True)
    except IntegrityError:
        again = MoneyEntry.objects.filter(client_key=entry.client_key).first()
        if again is not None:
            return again
        raise Conflict(clash()) from None
    return entry


def _key(client_key: str) -> str:
    key = client_key.strip()
    if not key or len(key) > 64:
        raise ServiceError(_("This form has no key: reload the page and try again."))
    return key


def _player(tournament: Tournament, player_id: int) -> Player:
    found = Player.objects.select_for_update().filter(tournament=tournament, pk=player_id).first()
    if found is None:
        raise NotFound(_("No such player."))
    return found


def _fee_clash(player: Player) -> Callable[[], str]:
    def text() -> str:
        taken = reads.standing(player.tournament).filter(
            player=player, kind__in=[EntryKind.FEE, EntryKind.WAIVER]
        )
        first = taken.first()
        if first is None:
            return _("%(name)s's fee was just changed: here it is now.") % {"name": player.name}
        return _("%(name)s's fee was already taken by %(by)s at %(at)s.") % {
            "name": player.name,
            "by": first.by,
            "at": f"{first.at:%H:%M}",
        }

    return text


def take_fee(
    tournament: Tournament,
    player_id: int,
    *,
    how: str,
    method: str = MoneyEntry.Method.CASH,
    client_key: str,
    by: str,
    check_in: bool = False,
    now: datetime | None = None,
) -> MoneyEntry:
    """``how``: ``full``, ``reduced`` or ``waived``. With ``check_in`` the player is
    checked in by the same action (the door: one tap takes the fee and checks in)."""
    key = _key(client_key)
    if how not in ("full", "reduced", "waived"):
        raise ServiceError(_("Choose full, reduced or waived."))
    if method not in MoneyEntry.Method.values:
        raise ServiceError(_("Choose cash or other."))
    with transaction.atomic():
        # The player's row first: a second desk (or the same form sent twice) waits here
        # until the first has written, then finds its entry.
        player = _player(tournament, player_id)
        if (first := _first(tournament, key)) is not None:
            return first
        if player.withdrawn:
            raise ServiceError(_("%(name)s has withdrawn.") % {"name": player.name})
        if (
            reads.standing(tournament)
            .filter(player=player, kind__in=[EntryKind.FEE, EntryKind.WAIVER])
            .exists()
        ):
            raise Conflict(_fee_clash(player)())
        settings = reads.settings_of(tournament)
        cents = {"full": settings.fee_cents, "reduced": settings.reduced_fee_cents}.get(how, 0)
        entry = MoneyEntry(
            tournament=tournament,
            kind=EntryKind.WAIVER if how == "waived" else EntryKind.FEE,
            player=player,
            cents=cents,
            method=method,
            client_key=key,
            by=by,
            at=now_or(now),
        )
        entry = _write(entry, _fee_clash(player))
        if how == "waived":
            line = said("money.waived", name=player.name)
        else:
            line = said("money.fee", name=player.name, amount=_amount(cents), method=method)
        log(tournament, by, "money", line, at=now)
        if check_in and not player.checked_in:
            players.set_checked_in(tournament, [player.pk], True, by=by)
    return entry


def _drawn(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament).exists()


def refund(
    tournament: Tournament,
    player_id: int,
    *,
    client_key: str,
    by: str,
    now: datetime | None = None,
) -> MoneyEntry:
    """Give back a withdrawn player's fee, by the means it was paid: only before the
    draw (once seated, the fee paid for a place another could have had)."""
    key = _key(client_key)
    with transaction.atomic():
        if (first := _first(tournament, key)) is not None:
            return first
        player = _player(tournament, player_id)
        if not player.withdrawn:
            raise ServiceError(
                _("Withdraw %(name)s first: a fee is refunded on withdrawal.")
                % {"name": player.name}
            )
        if _drawn(tournament):
            raise ServiceError(_("The draw is made: a fee is refunded only before it."))
        fee = reads.standing(tournament).filter(player=player, kind=EntryKind.FEE).first()
        if fee is None or fee.cents == 0:
            raise ServiceError(_("%(name)s paid no fee.") % {"name": player.name})
        entry = MoneyEntry(
            tournament=tournament,
            kind=EntryKind.REFUND,
            player=player,
            cents=fee.cents,
            method=fee.method,
            client_key=key,
            by=by,
            at=now_or(now),
        )
        entry = _write(entry, lambda: _("%(name)s was already refunded.") % {"name": player.name})
        line = said("money.refund", name=player.name, amount=_amount(fee.cents))
        log(tournament, by, "money", line, at=now)
    return entry


def _entry(
    tournament: Tournament,
    kind: str,
    cents: int,
    *,
    client_key: str,
    by: str,
    line: Any,
    now: datetime | None,
    **extra: Any,
) -> MoneyEntry:
    key = _key(client_key)
    if cents < 0:
        raise ServiceError(_("An amount is never negative."))
    with transaction.atomic():
        if (first := _first(tournament, key)) is not None:
            return first
        entry = MoneyEntry(
            tournament=tournament,
            kind=kind,
            cents=cents,
            client_key=key,
            by=by,
            at=now_or(now),
            **extra,
        )
        entry = _write(entry, lambda: _("This was already recorded."))
        log(tournament, by, "money", line, at=now)
    return entry


def add_sponsor(
    tournament: Tournament,
    name: str,
    cents: int,
    *,
    method: str,
    client_key: str,
    by: str,
    now: datetime | None = None,
) -> MoneyEntry:
    name = name.strip()
    if not name or not cents:
        raise ServiceError(_("A sponsor has a name and an amount."))
    line = said("money.sponsor", name=name, amount=_amount(cents))
    return _entry(
        tournament,
        EntryKind.SPONSOR,
        cents,
        client_key=client_key,
        by=by,
        line=line,
        now=now,
        label=name[:120],
        method=method,
    )


def pay_fines(
    tournament: Tournament,
    player_id: int,
    cents: int,
    *,
    client_key: str,
    by: str,
    now: datetime | None = None,
) -> MoneyEntry:
    with transaction.atomic():
        player = _player(tournament, player_id)
        if cents <= 0:
            raise ServiceError(_("Enter the amount paid."))
        line = said("money.fines", name=player.name, amount=_amount(cents))
        return _entry(
            tournament,
            EntryKind.FINES,
            cents,
            client_key=client_key,
            by=by,
            line=line,
            now=now,
            player=player,
        )


def count_drawer(
    tournament: Tournament, cents: int, *, client_key: str, by: str, now: datetime | None = None
) -> MoneyEntry:
    line = said("money.counted", amount=_amount(cents))
    return _entry(
        tournament, EntryKind.COUNT, cents, client_key=client_key, by=by, line=line, now=now
    )


def sell_fifty(
    tournament: Tournament,
    tickets: int,
    cents: int,
    *,
    client_key: str,
    by: str,
    now: datetime | None = None,
) -> MoneyEntry:
    if tickets < 1 or cents < 1:
        raise ServiceError(_("Enter the tickets sold and the money taken."))
    line = said("money.fifty_sold", tickets=tickets, amount=_amount(cents))
    return _entry(
        tournament,
        EntryKind.FIFTY,
        cents,
        client_key=client_key,
        by=by,
        line=line,
        now=now,
        tickets=tickets,
    )


def draw_fifty(
    tournament: Tournament,
    rng: random.Random,
    *,
    client_key: str,
    by: str,
    now: datetime | None = None,
) -> MoneyEntry:
    """Draw the 50/50's winning ticket from a seed taken from ``rng`` and kept: the
    sheet shows the seed, and anyone can draw the same ticket again from it."""
    key = _key(client_key)
    with transaction.atomic():
        if (first := _first(tournament, key)) is not None:
            return first
        _locked_settings(tournament)
        sold = list(reads.standing(tournament).filter(kind=EntryKind.FIFTY))
        if not sold:
            raise ServiceError(_("No 50/50 ticket was sold."))
        if reads.standing(tournament).filter(kind=EntryKind.FIFTY_PRIZE).exists():
            raise Conflict(_("The 50/50 is already drawn; undo it (with a reason) to draw again."))
        unit = reads.settings_of(tournament).cash_unit
        draw = money.FiftyFifty(
            sum(s.tickets or 0 for s in sold), sum(s.cents for s in sold), rng.getrandbits(48), unit
        )
        entry = MoneyEntry(
            tournament=tournament,
            kind=EntryKind.FIFTY_PRIZE,
            cents=draw.prize,
            label=str(draw.ticket),
            seed=draw.seed,
            tickets=draw.tickets,
            client_key=key,
            by=by,
            at=now_or(now),
        )
        entry = _write(entry, lambda: _("The 50/50 is already drawn."))
        line = said(
            "money.fifty_drawn",
            ticket=draw.ticket,
            tickets=draw.tickets,
            amount=_amount(draw.prize),
            seed=draw.seed,
        )
        log(tournament, by, "money", line, at=now)
    return entry


def undo(
    tournament: Tournament,
    entry_id: int,
    *,
    reason: str,
    by: str,
    now: datetime | None = None,
) -> MoneyEntry:
    """Undo one entry, with the reason: it stays in the ledger, struck through."""
    why = given_reason(reason, _("Say why this is undone."))
    with transaction.atomic():
        entry = (
            MoneyEntry.objects.select_for_update(of=("self",))
            .filter(tournament=tournament, pk=entry_id)
            .select_related("player")
            .first()
        )
        if entry is None:
            raise NotFound(_("No such money entry."))
        if entry.undone_at is not None:
            raise Conflict(
                _("This was already undone by %(by)s: %(reason)s")
                % {"by": entry.undone_by, "reason": entry.undo_reason}
            )
        if entry.kind in (EntryKind.FEE, EntryKind.WAIVER) and (
            reads.standing(tournament).filter(player=entry.player, kind=EntryKind.REFUND).exists()
        ):
            raise ServiceError(_("Undo the refund first."))
        entry.undone_at, entry.undone_by, entry.undo_reason = now_or(now), by, why
        entry.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        what = entry.player.name if entry.player else entry.label or entry.kind
        log(
            tournament,
            by,
            "money",
            said("money.undone", kind=entry.kind, what=what, amount=_amount(entry.cents)),
            reason=why,
            at=now,
        )
    return entry


# ---------------------------------------------------------------- the payout


def add_line(
    tournament: Tournament,
    *,
    kind: str,
    division: str = "",
    place: int | None = None,
    prize: str = "",
    percent: int | None = None,
    fixed_cents: int | None = None,
    by: str,
    now: datetime | None = None,
) -> PayoutLine:
    try:
        rule = money.PayoutLine(kind, division, place or 0, prize, percent, fixed_cents)
    except money.MoneyError:
        raise ServiceError(
            _("A line pays a place, a prize or the final: a percentage or a fixed amount.")
        ) from None
    with transaction.atomic():
        _locked_settings(tournament)
        if reads.standing(tournament).filter(kind=EntryKind.PAYOUT).exists():
            raise ServiceError(_("The payout is confirmed: undo it before changing the schedule."))
        if PayoutLine.objects.filter(
            tournament=tournament, kind=kind, division=division, place=place, prize=prize
        ).exists():
            raise ServiceError(_("The schedule already has this line: remove it first."))
        line = PayoutLine.objects.create(
            tournament=tournament,
            kind=rule.kind,
            division=rule.division,
            place=place,
            prize=rule.prize,
            percent=percent,
            fixed_cents=fixed_cents,
            created_by=by,
            created_at=now_or(now),
        )
        log(tournament, by, "money", said("money.line_added", line=str(line_text(line))), at=now)
    return line


def line_text(line: PayoutLine) -> str:
    amount = (
        f"{money.money_text(line.percent)}%"
        if line.percent is not None
        else _amount(line.fixed_cents or 0)
    )
    what = {
        "place": f"{line.division}{line.place}",
        "prize": line.prize,
        "final": "final",
    }[line.kind]
    return f"{what}: {amount}"


def remove_line(tournament: Tournament, pk: int, *, by: str, now: datetime | None = None) -> None:
    with transaction.atomic():
        _locked_settings(tournament)
        if reads.standing(tournament).filter(kind=EntryKind.PAYOUT).exists():
            raise ServiceError(_("The payout is confirmed: undo it before changing the schedule."))
        line = PayoutLine.objects.filter(tournament=tournament, pk=pk).first()
        if line is None:
            raise NotFound(_("No such payout line."))
        line.delete()
        log(tournament, by, "money", said("money.line_removed", line=line_text(line)), at=now)


def draw_pots(
    tournament: Tournament,
    rng: random.Random,
    *,
    version: int,
    by: str,
    now: datetime | None = None,
) -> MoneySettings:
    """Record the side pots' draw seed (once; a redraw is this action again, logged)."""
    with transaction.atomic():
        settings = _locked_settings(tournament)
        if settings.version != version:
            raise Conflict(_("The money settings were changed meanwhile: here they are now."))
        if reads.standing(tournament).filter(kind=EntryKind.PAYOUT).exists():
            raise ServiceError(_("The payout is confirmed: undo it before drawing again."))
        settings.pot_seed = rng.getrandbits(48)
        settings.version += 1
        settings.save(update_fields=["pot_seed", "version"])
        log(tournament, by, "money", said("money.pots_drawn", seed=settings.pot_seed), at=now)
    return settings


def confirm_payout(
    tournament: Tournament,
    *,
    digest: str,
    client_key: str,
    by: str,
    now: datetime | None = None,
) -> list[MoneyEntry]:
    """Pay out the preview the director saw (``digest``): a preview the standings, the
    schedule or the ledger have changed since is refused (409) with the new one shown."""
    key = _key(client_key)
    when = now_or(now)
    with transaction.atomic():
        repeat = list(
            MoneyEntry.objects.filter(client_key__startswith=f"{key}:", tournament=tournament)
        )
        if repeat:
            return repeat
        _locked_settings(tournament)
        if tournament.status != Tournament.Status.FINISHED:
            raise ServiceError(
                _("The payout is confirmed from the final standings: finish the event first.")
            )
        if reads.standing(tournament).filter(kind=EntryKind.PAYOUT).exists():
            raise Conflict(_("The payout is already confirmed."))
        seen = reads.preview(tournament, when)
        if seen.refusal:
            raise ServiceError(seen.refusal)
        if seen.digest != digest:
            raise Conflict(_("The payout changed since you saw it: check it again."))
        entries = [
            MoneyEntry(
                tournament=tournament,
                kind=EntryKind.PAYOUT,
                player_id=int(award.player),  # type: ignore[call-overload]
                cents=award.cents,
                label=reads.award_label(award),
                client_key=f"{key}:{i}",
                by=by,
                at=when,
            )
            for i, award in enumerate(seen.awards)
            if award.cents
        ]
        try:
            with transaction.atomic():
                MoneyEntry.objects.bulk_create(entries)
        except IntegrityError:
            raise Conflict(_("The payout is already confirmed.")) from None
        total = sum(e.cents for e in entries)
        line = said("money.paid_out", count=len(entries), amount=_amount(total))
        log(tournament, by, "money", line, at=now)
    return entries


def undo_payout(
    tournament: Tournament, *, reason: str, by: str, now: datetime | None = None
) -> int:
    why = given_reason(reason, _("Say why the payout is undone."))
    with transaction.atomic():
        _locked_settings(tournament)
        count = (
            reads.standing(tournament)
            .filter(kind=EntryKind.PAYOUT)
            .update(undone_at=now_or(now), undone_by=by, undo_reason=why)
        )
        if not count:
            raise Conflict(_("No payout is confirmed."))
        line = said("money.payout_undone", count=count)
        log(tournament, by, "money", line, reason=why, at=now)
    return count
