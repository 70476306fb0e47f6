"""The substitution panel of a table page (§6), self-contained so that the table page
needs only one line to show it."""

from __future__ import annotations

from django import template

from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.play import Match
from tournaments.core.models.rounds import Round, Seating, SitOut
from tournaments.core.reads.substitutions import substitutes_for, substitution_lines

register = template.Library()


@register.inclusion_tag("director/rounds/_substitute.html")
def substitution_panel(tournament: Tournament, rnd: Round, match: Match) -> dict[str, object]:
    running = rnd.kind == Round.Kind.PRELIMINARY and rnd.status == Round.Status.RUNNING
    open_match = running and not match.is_over
    # Each seat's latest change can be corrected until the round is finalized (§6).
    subs = substitution_lines(match, running)
    return {
        "tournament": tournament,
        "round": rnd,
        "match": match,
        "open": open_match,
        "subs": subs,
        "candidates": substitutes_for(match) if running else [],
        "next_hand": match.hands_played + 1,
    }


@register.inclusion_tag("director/_attendance_badges.html")
def attendance_badges(tournament: Tournament) -> dict[str, object]:
    """Console badges (§6): players waiting, holes for the next round, free house
    players and this round's sit-outs, each a link to where it is dealt with."""
    last = Round.objects.filter(tournament=tournament, kind=Round.Kind.PRELIMINARY).newest()
    seated = Seating.objects.filter(round=last).values_list("player_id", flat=True) if last else []
    people = Player.objects.filter(tournament=tournament)
    waiting = (
        people.filter(checked_in=True, withdrawn=False, house=False).exclude(pk__in=seated).count()
        if last
        else 0
    )
    holes = people.filter(withdrawn=True, pk__in=seated).count() if last else 0
    house = people.filter(house=True, withdrawn=False).exclude(pk__in=seated).count() if last else 0
    sit_outs = SitOut.objects.filter(round=last).count() if last else 0
    return {
        "tournament": tournament,
        "waiting": waiting,
        "holes": holes,
        "house": house,
        "sit_outs": sit_outs,
        "round": last,
    }
