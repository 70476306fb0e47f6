"""tournaments.devices.forms"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from tournaments.core.forms_tablet import TabletForm, Text
from tournaments.domain.health import HEALTH_EVERY as HEALTH_EVERY
from tournaments.domain.health import parse_health as parse_health


class HelpForm(TabletForm):
    """``POST /t/table/help``: call the director, with an optional reason."""

    reason = Text("The reason", limit=10)

    def clean_reason(self) -> str:
        from tournaments.devices.models import HelpReason

        reason = self.cleaned_data["reason"]
        if reason and reason not in HelpReason.values:
            raise ValidationError(
                "The reason must be one of " + ", ".join(HelpReason.values) + " (or none)."
            )
        return str(reason)
