"""Staff roles, per club (issue 25).

An account is staff of a club through a ``Membership``: ``owner`` (everything in the club,
its staff too), ``director`` (runs events: rounds, results, settings, players) or ``desk``
(check-in, find a seat, print seating and score sheets). A director or desk membership may
name events: it then works those only. A superuser is the owner of every club.

What a user may do to a tournament, series or club is answered by ``allows`` from the
role that ``reads.staff`` reads with the object itself (one query, no second look-up);
the views ask through ``views/access.py``. The two Django groups remain for the admin's
model permissions only: no page checks them.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from django.utils.translation import gettext

OWNER: Final = "owner"
DIRECTOR: Final = "director"
DESK: Final = "desk"
Need = Literal["owner", "director", "desk"]
RANK = {DESK: 1, DIRECTOR: 2, OWNER: 3}

# The permissions the admin's groups carry (tournaments.Tournament Meta).
RUN_PERM = "tournaments.run_event"
DESK_PERM = "tournaments.work_desk"
DIRECTOR_GROUP = "director"
DESK_GROUP = "desk"


def allows(role: str | None, need: Need) -> bool:
    """May a member with ``role`` (None: not staff here) do what ``need`` asks?"""
    return role is not None and RANK.get(role, 0) >= RANK[need]


def role_name(role: str | None) -> str:
    """A role as the reader reads it ("owner" is "Propriétaire" in French)."""
    names = {OWNER: gettext("Owner"), DIRECTOR: gettext("Director"), DESK: gettext("Desk")}
    return names.get(role or "", role or "")


def ensure_groups(group_model: Any, permission_model: Any) -> None:
    """Create or complete both groups; models are passed in so a migration can use its
    historical ones."""
    app_perms = permission_model.objects.filter(content_type__app_label="tournaments")
    director, _ = group_model.objects.get_or_create(name=DIRECTOR_GROUP)
    director.permissions.add(*app_perms)
    desk, _ = group_model.objects.get_or_create(name=DESK_GROUP)
    desk.permissions.add(*app_perms.filter(codename="work_desk"))
