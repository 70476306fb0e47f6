"""The two roles, as Django groups with permissions.

- ``director``: everything (the console, results, settings, the admin).
- ``desk``: check players in, find a seat, print seating and score sheets; no results,
  no settings, no table links.

Views check the permissions (``views/director/common.py``), not the group names, so a
superuser or a hand-made group with the same permissions works too.
"""

from __future__ import annotations

from typing import Any

RUN = "tournaments.run_event"
DESK = "tournaments.work_desk"
DIRECTOR_GROUP = "director"
DESK_GROUP = "desk"


def ensure_groups(group_model: Any, permission_model: Any) -> None:
    """Create or complete both groups; models are passed in so a migration can use its
    historical ones."""
    app_perms = permission_model.objects.filter(content_type__app_label="tournaments")
    director, _ = group_model.objects.get_or_create(name=DIRECTOR_GROUP)
    director.permissions.add(*app_perms)
    desk, _ = group_model.objects.get_or_create(name=DESK_GROUP)
    desk.permissions.add(*app_perms.filter(codename="work_desk"))


def assign(user: object, role: str) -> None:
    """Put ``user`` in the ``director`` or ``desk`` group (made if missing)."""
    from django.contrib.auth.models import Group, Permission

    if role not in (DIRECTOR_GROUP, DESK_GROUP):
        raise ValueError(f"role must be {DIRECTOR_GROUP!r} or {DESK_GROUP!r}, not {role!r}")
    ensure_groups(Group, Permission)
    user.groups.add(Group.objects.get(name=role))  # type: ignore[attr-defined]
