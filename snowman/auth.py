"""Django's ModelBackend, with the user's two roles read in the same query that loads
the user on every request: the console's role check costs no query of its own (the
pages' query counts are pinned in tests/test_director_queries.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Permission
from django.db.models import Exists, OuterRef, Q

from tournaments.roles import DESK, RUN

ROLES = {RUN: "snowman_run_event", DESK: "snowman_work_desk"}


def _granted(codename: str) -> Exists:
    return Exists(
        Permission.objects.filter(
            Q(user=OuterRef("pk")) | Q(group__user=OuterRef("pk")),
            content_type__app_label="tournaments",
            codename=codename,
        )
    )


class RoleBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        User = get_user_model()
        try:
            user = User._default_manager.annotate(
                **{attr: _granted(perm.split(".")[1]) for perm, attr in ROLES.items()}
            ).get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None

    def has_perm(self, user_obj: Any, perm: str, obj: Any = None) -> bool:
        attr = ROLES.get(perm)
        if obj is None and attr is not None and hasattr(user_obj, attr):
            return bool(user_obj.is_active and getattr(user_obj, attr))
        return super().has_perm(user_obj, perm, obj)
