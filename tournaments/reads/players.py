"""The players as the desk and the round read them: each one's attendance state (§6) and
the counts per division. Registering, checking in and withdrawing are ``services.players``."""

from __future__ import annotations

from django.db.models import Count, Q

from ..models import Division, Player, Round, Seating, SitOut, Tournament


def attendance(tournament: Tournament) -> dict[int, str]:
    """Each player's attendance state now (§6), in one pass over three small queries."""
    last = Round.objects.filter(tournament=tournament, kind=Round.Kind.PRELIMINARY).newest()
    seated: set[int] = set()
    sat_out: set[int] = set()
    if last is not None:
        seated = set(Seating.objects.filter(round=last).values_list("player_id", flat=True))
        sat_out = set(SitOut.objects.filter(round=last).values_list("player_id", flat=True))
    states = {}
    for pk, checked_in, withdrawn, house in Player.objects.filter(
        tournament=tournament
    ).values_list("pk", "checked_in", "withdrawn", "house"):
        states[pk] = attendance_state(
            checked_in=checked_in,
            withdrawn=withdrawn,
            house=house,
            seated=pk in seated,
            sat_out=pk in sat_out,
            drawn=last is not None,
        )
    return states


def attendance_state(
    *, checked_in: bool, withdrawn: bool, house: bool, seated: bool, sat_out: bool, drawn: bool
) -> str:
    if withdrawn:
        return "withdrawn"
    if seated:
        return "seated"
    if house:
        return "house"
    if sat_out:
        return "sat_out"
    if not checked_in:
        return "registered"
    return "waiting" if drawn else "checked_in"


def division_counts(tournament: Tournament) -> dict[str, dict[str, int]]:
    """Registered, checked-in (and not withdrawn) players per division."""
    rows = (
        Player.objects.filter(tournament=tournament, house=False)
        .values("division")
        .annotate(
            registered=Count("id", filter=Q(withdrawn=False)),
            checked_in=Count("id", filter=Q(checked_in=True, withdrawn=False)),
        )
    )
    counts = {d: {"registered": 0, "checked_in": 0} for d in Division.values}
    for row in rows:
        counts[row["division"]] = {"registered": row["registered"], "checked_in": row["checked_in"]}
    return counts
