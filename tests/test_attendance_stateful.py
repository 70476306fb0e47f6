"""§6 round actions as a hypothesis state machine over the services: withdrawals at any
moment (mid-match with a substitute, between rounds), late arrivals, house players,
and seating each next round. After every step the room stays sound."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tournaments.core.models.event import Player
from tournaments.core.models.rounds import Round, Seating, SitOut, Substitution
from tournaments.core.reads.substitutions import substitutes_for
from tournaments.core.services import ServiceError, closing, play, rounds
from tournaments.core.services.players import add_house_player, register_player, set_withdrawn
from tournaments.core.services.substitutions import Signed, substitute
from tournaments.core.services.tournaments import create_tournament
from tournaments.domain.hands import Hand, Outcome, Seat
from tournaments.domain.rules import RuleSettings
from tournaments.domain.seating import SEAT_DIVISION

pytestmark = pytest.mark.django_db
COUNTER = itertools.count()


class MessyRoom(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        n = next(COUNTER)
        self.t = create_tournament(
            f"Stateful {n}", by="t", lot_seed=n, rules=RuleSettings(target=2, preliminary_rounds=6)
        )
        for i in range(12):
            register_player(self.t, f"P{n}-{i}", "AB"[i % 2], by="t", checked_in=True)
        self.rnd = rounds.start_round(rounds.draw_first_round(self.t, by="t", seed=n), by="t")
        self.keys = itertools.count()
        self.names = itertools.count()

    def running(self) -> bool:
        self.rnd.refresh_from_db()
        return self.rnd.status == Round.Status.RUNNING

    @rule(data=st.data())
    def withdraw_someone(self, data: st.DataObject) -> None:
        people = list(
            Player.objects.filter(tournament=self.t, withdrawn=False, house=False).order_by("pk")
        )
        if len(people) <= 6:
            return
        p = data.draw(st.sampled_from(people))
        set_withdrawn(p, True, by="t")
        with pytest.raises(ServiceError, match="already withdrawn"):
            set_withdrawn(Player.objects.get(pk=p.pk), True, by="t")

    @rule(division=st.sampled_from("AB"))
    def someone_arrives_late(self, division: str) -> None:
        register_player(
            self.t, f"Late {self.t.pk}-{next(self.names)}", division, by="t", checked_in=True
        )

    @rule(division=st.sampled_from("AB"))
    def a_house_player_comes(self, division: str) -> None:
        add_house_player(self.t, f"House {self.t.pk}-{next(self.names)}", division, by="t")

    @precondition(lambda self: self.running())
    @rule(data=st.data())
    def substitute_mid_match(self, data: st.DataObject) -> None:
        open_matches = [
            m for m in self.rnd.matches.select_related("round__tournament") if not m.is_over
        ]
        if not open_matches:
            return
        m = data.draw(st.sampled_from(open_matches))
        position = data.draw(st.sampled_from("NESW"))
        division = SEAT_DIVISION[Seat(position)]
        fits = [p for p in substitutes_for(m) if p.house or p.division == division]
        if not fits:
            return
        hand = m.hands_played + 1
        if Substitution.objects.filter(match=m, position=position, from_hand__gte=hand).exists():
            # The seat already changed hands from this hand: refused, nothing changes.
            with pytest.raises(ServiceError, match="already changed hands"):
                substitute(m, position, hand, fits[0], Signed("t"))
            return
        substitute(m, position, hand, fits[0], Signed("t"))

    @precondition(lambda self: self.running())
    @rule()
    def finish_and_seat_next(self) -> None:
        for m in self.rnd.matches.select_related("round__tournament"):
            if not m.first_dealer:
                play.set_first_dealer(m, Seat.W, by="t")
            m.refresh_from_db()
            while not m.is_over:
                play.record_hand(
                    m,
                    Hand(Outcome.PLAYED, maker=Seat.N, maker_tricks=5),
                    client_key=f"s{m.pk}-{next(self.keys)}",
                    by="t",
                )
                m.refresh_from_db()
            closing.confirm_match(m, agree=True, by="t")
        rounds.finalize_round(self.rnd, by="t")
        if self.rnd.number >= self.t.preliminary_rounds:
            return
        try:
            nxt = rounds.seat_next_round(self.t, by="t")
        except ServiceError as exc:
            assert "Closing every table" in exc.message or "stay empty" in exc.message
            return
        self.rnd = rounds.start_round(nxt, by="t")

    @invariant()
    def the_room_is_sound(self) -> None:
        for rnd in self.t.rounds.all():
            seats = list(Seating.objects.filter(round=rnd).select_related("player"))
            players = [s.player_id for s in seats]
            assert len(players) == len(set(players)), "nobody seated twice in a round"
            tables: dict[int, int] = {}
            for s in seats:
                tables[s.table] = tables.get(s.table, 0) + 1
                assert s.player.house or s.player.division == SEAT_DIVISION[Seat(s.position)]
                after = s.player.withdrawn_after_round
                assert not s.player.withdrawn or after is None or rnd.number <= after
            assert set(tables.values()) <= {4}
            assert sorted(tables) == list(range(1, len(tables) + 1))
            outs = set(SitOut.objects.filter(round=rnd).values_list("player_id", flat=True))
            assert not outs & set(players)
            assert not Player.objects.filter(pk__in=outs, house=True).exists()


@pytest.mark.slow  # fuzzing: hypothesis plays many messy rooms
def test_a_messy_room_stays_sound(db):
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(
        MessyRoom,
        settings=settings(
            max_examples=8,
            stateful_step_count=10,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
