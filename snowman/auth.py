"""Django's ModelBackend, with "is this account staff of any club?" read in the same
query that loads the user on every request: the console's sign-in check costs no query
of its own (the pages' query counts are pinned in tests/test_director_queries.py). The
role on the event itself comes with the event (tournaments/reads/staff.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from tournaments.core.reads.staff import user_flags


class RoleBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        User = get_user_model()
        try:
            user = User._default_manager.annotate(**user_flags()).get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
