"""A player's own record: checked against numbers worked by hand on the
simulated series of four nights in tests/record_series.py."""

from __future__ import annotations

import math
from datetime import date

import pytest

from tests.record_series import person, series_of_four
from tournaments.core.models.event import Tournament
from tournaments.core.reads.people import rating_history
from tournaments.domain.expectation import Expected, replay, versus_expectation
from tournaments.domain.rating import MatchResult, RatingSettings
from tournaments.records.reads import Filter, record

# --- the pure figure -------------------------------------------------------------------------


def test_a_first_match_between_four_new_players_is_an_even_chance_and_moves_each_by_the_same_step():
    history = [MatchResult(("ann", "cat"), ("bob", "dan"), True, "night 1", 1)]
    figures, steps = replay(history)
    assert figures["night 1"]["ann"] == Expected(1, 1, 0.5)
    assert figures["night 1"]["dan"] == Expected(1, 0, 0.5)
    # By hand: c² = β² + 4·(σ0² + τ²)/4 = 17.3611 + 25.0069 = 42.3681, c = 6.50907;
    # v(0) = φ(0)/Φ(0) = 0.398942/0.5 = 0.797885; the step is (σ0² + τ²)/2 / c · v(0)
    # = 12.50347 / 6.50907 · 0.797885 = 1.53268.
    s = RatingSettings()
    assert math.isclose(s.beta**2 + s.sigma0**2 + s.tau**2, 42.36806, abs_tol=1e-4)
    (ann,) = steps["ann"]
    assert ann.chance == 0.5 and ann.won and ann.partner == "cat"
    assert ann.moved == pytest.approx(1.53268, abs=1e-4)
    assert steps["dan"][0].moved == pytest.approx(-1.53268, abs=1e-4)


def test_three_rounds_of_every_partnership_are_even_chances_so_expectation_is_half_a_win_each():
    # After any result of round 1 the pairs of round 2 (and of round 3) are of equal
    # strength: each pair holds one player who moved up and one who moved down by the
    # same step, so each chance is one half.
    history = [
        MatchResult(("ann", "cat"), ("bob", "dan"), True, 1, 1),
        MatchResult(("ann", "bob"), ("cat", "dan"), True, 1, 2),
        MatchResult(("ann", "dan"), ("bob", "cat"), False, 1, 3),
    ]
    night = versus_expectation(history, 1)
    assert night["ann"].expected == pytest.approx(1.5)
    assert night["ann"].surplus == pytest.approx(0.5)
    assert night["dan"].surplus == pytest.approx(-1.5)
    assert sum(f.surplus for f in night.values()) == pytest.approx(0)


# --- the series of four nights ---------------------------------------------------------------


@pytest.fixture
def four_nights(db):
    return series_of_four()


def test_the_record_lists_every_night_with_place_points_and_each_round_worked_by_hand(four_nights):
    nights, _winter, _spring = four_nights
    ann = record(person("Ann Archer"))
    assert [e.line.tournament.name for e in ann.events] == [t.name for t in nights]
    # Ann wins rounds 1 and 2 of night 1 (11 + 11) and loses round 3 (4): 26; night 2
    # 4 + 11 + 11 = 26; night 3 11 + 4 + 4 = 19; night 4 4 + 4 + 11 = 19.
    assert [e.line.total for e in ann.events] == [26, 26, 19, 19]
    assert [e.points for e in ann.events] == [(11, 11, 4), (4, 11, 11), (11, 4, 4), (4, 4, 11)]
    assert ann.events[0].per_round == pytest.approx(26 / 3)
    # Over the four nights: the sum of each night's wins above expectation.
    assert ann.surplus == pytest.approx(sum(e.expected.surplus for e in ann.events))
    assert ann.surplus_text.startswith(("+", "−"))
    assert (ann.won, ann.played) == (6, 12)
    first = ann.events[0].line.matches
    # Other people by their public names: the short form nobody opted out of.
    assert [(m.partner, m.opponents, m.score, m.won) for m in first] == [
        ("Cat C.", "Bob B. & Dan D.", "10–4", True),
        ("Bob B.", "Cat C. & Dan D.", "10–4", True),
        ("Dan D.", "Bob B. & Cat C.", "4–10", False),
    ]
    assert all(e.line.rank is not None for e in ann.events)


def test_a_night_still_running_is_not_in_the_record(four_nights):
    nights, _w, _s = four_nights
    Tournament.objects.filter(pk=nights[3].pk).update(status=Tournament.Status.PRELIMINARY)
    ann = record(person("Ann Archer"))
    assert [e.line.tournament.name for e in ann.events] == ["Night 1", "Night 2", "Night 3"]
    assert {s.event for s in ann.steps} == {"Night 1", "Night 2", "Night 3"}


def test_lone_hands_euchres_and_reneges_count_for_whoever_held_the_seat(four_nights):
    ann = record(person("Ann Archer"))
    # Night 1 round 1: a lone march (5 tricks), a lone hand euchred (2), Bob's making
    # euchred by Ann's team, a renege; night 3 round 2: a lone hand made with 4 tricks.
    assert dict(ann.hands) == {
        "lone_tried": 3,
        "lone_made": 2,
        "lone_marches": 1,
        "euchres": 1,
        "reneges": 1,
    }
    assert ann.events[0].hands["lone_tried"] == 2 and ann.events[2].hands["lone_made"] == 1
    bob = record(person("Bob Baker"))
    # Bob's side euchred Ann's lone hand in night 1 round 1.
    assert bob.hands["euchres"] == 1 and bob.hands["lone_tried"] == 0


def test_head_to_head_counts_the_matches_together_and_against_worked_by_hand(four_nights):
    ann, bob = person("Ann Archer"), person("Bob Baker")
    h = record(ann, with_person=bob.pk).head_to_head
    assert h is not None and h.name == "Bob B."
    # Partners in round 2 of each night: won nights 1 and 2, lost 3 and 4.
    assert (len(h.together), h.together_won) == (4, 2)
    # Opponents in rounds 1 and 3: Ann won one of the two each night.
    assert (len(h.against), h.against_won) == (8, 4)
    assert [e.tournament.name for e, _m in h.together] == [
        "Night 1",
        "Night 2",
        "Night 3",
        "Night 4",
    ]


def test_head_to_head_with_someone_never_met_is_no_comparison(four_nights):
    ann = person("Ann Archer")
    assert record(ann, with_person=ann.pk).head_to_head is None
    assert record(ann, with_person=10**9).head_to_head is None


def test_a_season_or_a_span_of_days_keeps_only_its_nights(four_nights):
    _nights, winter, spring = four_nights
    ann = person("Ann Archer")
    assert [e.line.total for e in record(ann, Filter(season=spring)).events] == [19, 19]
    assert record(ann, Filter(season=winter)).won == 4
    span = record(ann, Filter(since=date(2026, 2, 1), until=date(2026, 3, 31)))
    assert [e.line.tournament.name for e in span.events] == ["Night 2", "Night 3"]
    # The rating steps follow the same choice.
    assert {s.event for s in span.steps} == {"Night 2", "Night 3"}


def test_the_first_night_is_half_a_win_expected_each_round_and_every_night_sums_to_zero(
    four_nights,
):
    nights, _w, _s = four_nights
    ann = record(person("Ann Archer"))
    first = ann.events[0].expected
    assert first is not None
    assert (first.played, first.won) == (3, 2)
    assert first.expected == pytest.approx(1.5) and first.surplus == pytest.approx(0.5)
    figures, _steps = replay(rating_history())
    for t in nights:
        # Two winners a match, and each match's two chances sum to one.
        assert sum(f.won for f in figures[t.pk].values()) == 6
        assert sum(f.expected for f in figures[t.pk].values()) == pytest.approx(6)
        assert sum(f.surplus for f in figures[t.pk].values()) == pytest.approx(0)
    # Ann's first step is the first match of the series: the hand-worked step above.
    assert ann.steps[0].before == pytest.approx(25.0) and ann.steps[0].percent == 50
    assert ann.steps[0].moved == pytest.approx(1.53268, abs=1e-4)
    assert len(ann.steps) == 12


# --- the prize figure ------------------------------------------------------------------------


def test_best_night_against_expectation_is_a_prize_the_director_can_define(four_nights):
    from django.utils import timezone

    from tournaments.prizes.reads import event_prizes
    from tournaments.prizes.services import define_prize

    nights, _w, _s = four_nights
    first = nights[0]
    define_prize(
        first,
        name="Best night against expectation",
        figure="expectation",
        highest=True,
        division="",
        by="test",
        now=timezone.now(),
    )
    sheet = event_prizes(first, timezone.now())
    prize = next(p for p in sheet.prizes if p.rule.figure == "expectation")
    # Night 1, worked by hand: every chance one half, so Ann, Bob and Cat won 2 of an
    # expected 1.5 (+0.5 each) and Dan 0 (-1.5); the prize is shared three ways.
    assert prize.value == 0.5
    assert sorted(w.names[0] for w in prize.winners) == ["Ann Archer", "Bob Baker", "Cat Carter"]
