"""Creating tournaments and changing their rule settings."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import date, datetime, time
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import Joined, said
from tournaments.core.models.event import Club, Tournament
from tournaments.core.pdf.styles import DEFAULT_PAPER, PAPERS
from tournaments.core.reads import free_slug
from tournaments.core.reads.rounds import limit_moved_into_the_past, limit_passed
from tournaments.core.replay import rule_values
from tournaments.core.services import ServiceError, log, now_or
from tournaments.domain.rules import InvalidSettings, RuleSettings

# Once play has started only these settings may change: scores already recorded were
# counted under the others.
EDITABLE_AFTER_START = (
    "round_minutes",
    "preliminary_rounds",
    "late_sync_grace_minutes",
    "hide_standings_last_rounds",
)


def scoring_locked(tournament: Tournament) -> bool:
    return tournament.rounds.filter(kind="preliminary").exists()


@dataclass(frozen=True)
class Occasion:
    """When and where the event is held, as the set-up form gives it."""

    event_date: date | None = None
    start_time: time | None = None
    venue: str = ""

    def values(self) -> dict[str, object]:
        venue = self.venue.strip()
        if len(venue) > 120 or "\x00" in venue:
            raise ServiceError(_("Give the venue in at most 120 characters."))
        return {"event_date": self.event_date, "start_time": self.start_time, "venue": venue}


def create_tournament(
    name: str,
    *,
    rules: RuleSettings | None = None,
    by: str = "system",
    lot_seed: int | None = None,
    now: datetime | None = None,
    club: Club | None = None,
    rehearsal: bool = False,
    language: str = "",
    bilingual_sheets: bool = False,
    occasion: Occasion | None = None,
    paper: str = "",
) -> Tournament:
    """A new event of ``club`` (the site's one club when None: the hall laptop)."""
    name = name.strip()
    if not name or len(name) > 120:  # the column's length (PostgreSQL refuses more)
        raise ServiceError(_("Give the tournament a name of at most 120 characters."))
    rules = rules or RuleSettings()
    try:
        rules.validated()
    except InvalidSettings as exc:
        raise ServiceError(str(exc)) from exc
    with transaction.atomic():
        tournament = Tournament.objects.create(
            club=club or site_club(),
            name=name,
            slug=free_slug(name, Tournament.objects.all(), "tournament"),
            lot_seed=lot_seed if lot_seed is not None else secrets.randbits(48),
            # The tablets' director PIN, shown on the console, changeable.
            director_pin=f"{secrets.randbelow(10_000):04d}",
            rehearsal=rehearsal,
            language=_language(language),
            bilingual_sheets=bilingual_sheets,
            paper=_paper(paper),
            **(occasion or Occasion()).values(),
            **rule_values(rules),
        )
        line = "tournaments.created_rehearsal" if rehearsal else "tournaments.created_tournament"
        log(tournament, by, "create", said(line, name=name), at=now)
    return tournament


def _paper(paper: str) -> str:
    """A paper size the sheets know; none given: the default."""
    if not paper:
        return DEFAULT_PAPER
    if paper not in PAPERS:
        raise ServiceError(_("Choose letter or A4 paper."))
    return paper


def _language(code: str) -> str:
    """The event's language: one the site is translated into, else the site's."""
    return code if code in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def update_tournament(
    tournament: Tournament,
    *,
    name: str,
    rules: RuleSettings,
    by: str,
    language: str | None = None,
    bilingual_sheets: bool | None = None,
    occasion: Occasion | None = None,
    paper: str = "",
) -> Tournament:
    try:
        rules.validated()
    except InvalidSettings as exc:
        raise ServiceError(str(exc)) from exc
    with transaction.atomic():
        # Lock and re-read: the caller's instance may be stale (a draw may have started
        # play meanwhile), and a plain save() would write its old status back.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        old = tournament.rules
        played = tournament.rounds.filter(kind="preliminary").count()
        if played and _scoring_changed(old, rules):
            raise ServiceError(
                _(
                    "Scoring rules cannot change once play has started; only the round time "
                    "and the number of rounds can."
                )
            )
        if rules.round_minutes != old.round_minutes:
            passed = limit_passed(tournament)
            if passed is not None:
                raise ServiceError(
                    _(
                        "Time has run out in %(round)s: its minutes cannot change any more "
                        "(they would un-call or move the call). Give a table an extension "
                        "before its time runs out instead."
                    )
                    % {"round": passed.label()}
                )
            moved = limit_moved_into_the_past(tournament, rules.round_minutes)
            if moved is not None:
                rnd, run = moved
                raise ServiceError(
                    _(
                        "%(round)s has run %(minutes_run)s minutes: a limit of "
                        "%(round_minutes)s minutes would call its time in the past. To end "
                        "it now, call time from the round's console instead."
                    )
                    % {
                        "round": rnd.label(),
                        "minutes_run": int(run.total_seconds() // 60),
                        "round_minutes": rules.round_minutes,
                    }
                )
        if played > rules.preliminary_rounds:
            raise ServiceError(
                _("%(played)s preliminary rounds are already seated.") % {"played": played}
            )
        tournament.name = name.strip() or tournament.name
        values = rule_values(rules)
        # The event's two language settings, when the caller gives them.
        if language:
            values["language"] = _language(language)
        if bilingual_sheets is not None:
            values["bilingual_sheets"] = bilingual_sheets
        if paper:
            values["paper"] = _paper(paper)
        if occasion is not None:
            values.update(occasion.values())
        for field, value in values.items():
            setattr(tournament, field, value)
        tournament.save(update_fields=["name", *values])
        changed = [
            f"{k} {getattr(old, k)} → {getattr(rules, k)}"
            for k in Tournament.RULE_FIELDS + ("tiebreaks", "sit_out_score")
            if getattr(old, k) != getattr(rules, k)
        ]
        # The settings are named by their field (the names the rules and exports use).
        line = (
            said("tournaments.settings_changed", changes=Joined(changed))
            if changed
            else said("tournaments.settings_changed_name")
        )
        log(tournament, by, "settings", line)
    return tournament


def _scoring_changed(old: RuleSettings, new: RuleSettings) -> bool:
    free: dict[str, Any] = dict.fromkeys(EDITABLE_AFTER_START, 0)
    return replace(old, **free) != replace(new, **free)


SITE_CLUB_NAME = "Snowman club"
SITE_CLUB_SLUG = "club"


def site_club() -> Club:
    """The club of a one-club site: the one there is, else the site club (made once)."""
    clubs = list(Club.objects.order_by("id")[:2])
    if len(clubs) == 1:
        return clubs[0]
    found = Club.objects.filter(slug=SITE_CLUB_SLUG).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Club.objects.create(
                name=SITE_CLUB_NAME, slug=SITE_CLUB_SLUG, created_at=now_or(None)
            )
    except IntegrityError:  # made meanwhile by another request
        return Club.objects.get(slug=SITE_CLUB_SLUG)
