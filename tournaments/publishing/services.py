"""Results from the hall to the club site (issue 26, item 5; docs/series.md).

Two ends of one exchange, both in this app (a hall laptop and a club site run the same
code):

- the club site grants a per-event token (``grant``); a bearer of it may publish that
  event's ``snowman.results/1`` file to ``/results/publish/`` (``receive``), which imports
  it with ``update=True``: publishing again replaces the event in place, never doubles it;
- the hall keeps the club site's address and the token (``configure``) and sends what
  players may see now (``publish``, RULES.md §5), outside any transaction; a failure is
  recorded on the ``Publication``, never raised at the director: the hall works with no
  internet, shows "not published yet" and sends again later (``publish_pending``,
  ``manage.py publish_results``).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import secrets
import urllib.error
import urllib.request
from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.core.logtext import said
from tournaments.core.models.event import Club, Tournament
from tournaments.core.models.series import Series
from tournaments.core.reads import outbound
from tournaments.core.services import ServiceError, log, now_or
from tournaments.core.services.tournaments import site_club
from tournaments.publishing.models import Publication, PublishGrant
from tournaments.publishing.reads import document, state, token_refusal
from tournaments.series.results_import import ImportOutcome, digest_of, import_event

PUBLISH_PATH = "/results/publish/"
# A 500-table event's file is a few megabytes; this bounds what one request may send.
MAX_BODY = 64 * 1024 * 1024
TIMEOUT_SECONDS = 15


class Refused(ServiceError):
    """The token grants nothing here: nothing was read or stored."""

    status = 403


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- The club site's end -------------------------------------------------------------


def grant(
    slug: str,
    *,
    series: Series | None = None,
    club: Club | None = None,
    by: str,
    now: datetime | None = None,
) -> str:
    """A new token for the event ``slug`` (its id at the hall) of ``club`` (the series'
    club; the site's one club when neither is given); any earlier token of it in that
    club stops working. Returns the token, shown once: only its digest is kept. Refused
    for a slug no results can arrive under (``reads.publish.token_refusal``)."""
    token = secrets.token_urlsafe(32)
    club = series.club if series is not None else club or site_club()
    if refusal := token_refusal(slug, club):
        raise ServiceError(refusal)
    with transaction.atomic():
        PublishGrant.objects.update_or_create(
            club=club,
            slug=slug,
            defaults={
                "token_digest": token_digest(token),
                "series": series,
                "created_at": now_or(now),
                "created_by": by,
            },
        )
    return token


def receive(token: str, data: bytes, *, now: datetime | None = None) -> ImportOutcome:
    """The hall's file, from a bearer of the event's token: checked whole, then imported
    or, when published before, replaced in place (``import_event(update=True)``)."""
    found = (
        PublishGrant.objects.filter(token_digest=token_digest(token)).select_related("club").first()
        if token
        else None
    )
    if found is None:
        raise Refused(_("Unknown or withdrawn token: nothing was stored."))
    outcome = import_event(
        data,
        by=f"published ({found.slug})",
        filename=f"published {found.slug}",
        series=found.series,
        club=found.club,
        update=True,
        only_slug=found.slug,
    )
    PublishGrant.objects.filter(pk=found.pk).update(last_published_at=now_or(now))
    return outcome


# --- The hall's end --------------------------------------------------------------------


def configure(tournament: Tournament, *, club_url: str, token: str, by: str) -> Publication:
    club_url, token = club_url.strip().rstrip("/"), token.strip()
    try:
        URLValidator(schemes=["http", "https"])(club_url)
    except ValidationError:
        raise ServiceError(_("Give the club site's address, starting https://.")) from None
    if not token or len(token) > 100 or not token.isprintable():
        raise ServiceError(_("Paste the event's token from the club site."))
    with transaction.atomic():
        publication, _created = Publication.objects.update_or_create(
            tournament=tournament, defaults={"club_url": club_url, "token": token}
        )
        log(tournament, by, "publish", said("publish.results_go", url=club_url))
    return publication


def publish(
    tournament: Tournament,
    *,
    by: str,
    now: datetime | None = None,
    timeout: float = TIMEOUT_SECONDS,
) -> Publication:
    """Send the players' view of the event (``reads.publish.document``) to the club site.
    A failure (no network, the site down, a refusal) is recorded and returned, not raised."""
    if tournament.rehearsal:
        raise ServiceError(_("A rehearsal is never published: make it a real event first."))
    publication = Publication.objects.filter(tournament=tournament).first()
    if publication is None:
        raise ServiceError(_("Set the club site's address and the event's token first."))
    sent = document(tournament)
    body = json.dumps(sent, ensure_ascii=False).encode()
    at = now_or(now)
    request = urllib.request.Request(
        publication.club_url + PUBLISH_PATH,
        data=body,
        method="POST",
        headers={
            "Authorization": f"Bearer {publication.token}",
            "Content-Type": "application/json",
        },
    )
    error = ""
    try:
        with outbound.urlopen(request, timeout=timeout) as response:
            response.read()
    except urllib.error.HTTPError as exc:
        error = _("The club site refused the results (%(status)s): %(reason)s") % {
            "status": exc.code,
            "reason": _answer(exc),
        }
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", exc)
        error = _("The club site could not be reached (%(reason)s).") % {"reason": reason}
    fields: dict[str, object] = {"attempted_at": at, "last_error": error}
    if not error:
        fields |= {"published_digest": digest_of(sent), "published_at": at}
    Publication.objects.filter(pk=publication.pk).update(**fields)
    # A retry loop offline for hours logs the failure once, not once a minute.
    if not error or error != publication.last_error:
        log(
            tournament,
            by,
            "publish",
            said("publish.results_published", url=publication.club_url)
            if not error
            else said("publish.publishing_failed", error=error),
            at=at,
        )
    publication.refresh_from_db()
    return publication


def _answer(exc: urllib.error.HTTPError) -> str:
    try:
        text = exc.read(4000).decode("utf-8", "replace")
        return str(json.loads(text).get("error", ""))[:300] or exc.reason
    except (ValueError, AttributeError, OSError, http.client.HTTPException):
        return str(exc.reason)


def publish_pending(*, by: str, now: datetime | None = None) -> list[Publication]:
    """Send every real event whose results changed since the club site last took them
    (the retry after the connection returns). Returns the attempts made."""
    done = []
    for publication in Publication.objects.filter(tournament__in=Tournament.objects.counted()):
        if state(publication.tournament).pending:
            done.append(publish(publication.tournament, by=by, now=now))
    return done
