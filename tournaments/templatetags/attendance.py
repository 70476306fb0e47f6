"""The substitution panel of a table page (§6), self-contained so that the table page
needs only one line to show it."""

from __future__ import annotations

from django import template

from ..models import Match, Round, Substitution, Tournament
from ..services.substitutions import substitutes_for

register = template.Library()


@register.inclusion_tag("director/rounds/_substitute.html")
def substitution_panel(tournament: Tournament, rnd: Round, match: Match) -> dict[str, object]:
    open_match = (
        rnd.kind == Round.Kind.PRELIMINARY
        and rnd.status == Round.Status.RUNNING
        and not match.is_over
    )
    subs = list(
        Substitution.objects.filter(match=match)
        .select_related("player_in", "player_out")
        .order_by("from_hand")
    )
    return {
        "tournament": tournament,
        "round": rnd,
        "match": match,
        "open": open_match,
        "subs": subs,
        "candidates": substitutes_for(match) if open_match else [],
        "next_hand": match.hands_played + 1,
    }
