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


def ensure_groups(group_model: Any, permission_model: Any) -> None:
    """Create or complete both groups; models are passed in so a migration can use its
    historical ones."""
    app_perms = permission_model.objects.filter(content_type__app_label="tournaments")
    director, _ = group_model.objects.get_or_create(name=DIRECTOR_GROUP)
    director.permissions.add(*app_perms)
    desk, _ = group_model.objects.get_or_create(name=DESK_GROUP)
    desk.permissions.add(*app_perms.filter(codename="work_desk"))


def assign(user: Any, role: str, club: Any = None, events: Any = ()) -> Any:
    """Make ``user`` ``role`` of ``club`` (the site's club when None: the hall laptop's
    one club), limited to ``events`` when given; returns the membership. The admin's
    group of the same name comes with it (model permissions for the admin)."""
    from django.contrib.auth.models import Group, Permission

    from .services.clubs import set_membership, site_club

    if role not in RANK:
        raise ValueError(f"role must be one of {', '.join(RANK)}, not {role!r}")
    ensure_groups(Group, Permission)
    group = DESK_GROUP if role == DESK else DIRECTOR_GROUP
    user.groups.add(Group.objects.get(name=group))
    return set_membership(user, club or site_club(), role, events)
