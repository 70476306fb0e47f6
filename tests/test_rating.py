"""The partner-aware rating: hand-worked updates, and it beats both baselines on a series."""

from __future__ import annotations

import math

import pytest

from bench.rating import Coin, PointsSoFar, Snowman, evaluate, simulate_series
from tournaments.domain.rating import MatchResult, Rating, Ratings, RatingSettings, split_divisions

pytestmark = pytest.mark.db_independent  # pure arithmetic, no database

SETTINGS = RatingSettings(mu0=25.0, sigma0=5.0, beta=25 / 6, tau=25 / 300)


def test_four_new_players_the_winners_gain_what_the_losers_lose_by_hand():
    # Worked by hand: each variance 5^2 + tau^2 = 25.006944; c^2 = beta^2 + 4 * var / 4
    # = 17.361111 + 25.006944 = 42.368056, c = 6.509075. Equal pairs: t = 0,
    # v = pdf(0) / cdf(0) = 0.797885, w = v^2 = 0.636620.
    # mu change = (var / 2) / c * v = 12.503472 / 6.509075 * 0.797885 = 1.532680.
    # sigma^2 = var * (1 - (var / 4) / c^2 * w) = 25.006944 * (1 - 0.147558 * 0.636620)
    #         = 22.657837, sigma = 4.760025.
    ratings = Ratings(SETTINGS)
    ratings.update(MatchResult(("n", "s"), ("e", "w"), pair_won=True))
    for p in ("n", "s"):
        assert ratings.get(p).mu == pytest.approx(25 + 1.532680, abs=1e-5)
    for p in ("e", "w"):
        assert ratings.get(p).mu == pytest.approx(25 - 1.532680, abs=1e-5)
    for p in "nsew":
        assert ratings.get(p).sigma == pytest.approx(4.760025, abs=1e-5)
        assert ratings.get(p).matches == 1


def test_an_upset_moves_ratings_more_than_an_expected_win():
    def after(winner_is_strong: bool) -> float:
        ratings = Ratings(SETTINGS)
        ratings.table.update({p: Rating(30.0, 3.0, 20) for p in ("a", "b")})
        ratings.table.update({p: Rating(20.0, 3.0, 20) for p in ("c", "d")})
        ratings.update(MatchResult(("a", "b"), ("c", "d"), pair_won=winner_is_strong))
        return abs(ratings.get("a").mu - 30.0)

    assert after(winner_is_strong=False) > 3 * after(winner_is_strong=True)


def test_the_uncertain_partner_moves_more_than_the_well_known_one():
    ratings = Ratings(SETTINGS)
    ratings.table["veteran"] = Rating(25.0, 1.0, 200)
    ratings.update(MatchResult(("veteran", "newcomer"), ("x", "y"), pair_won=True))
    assert ratings.get("newcomer").mu - 25 > 10 * (ratings.get("veteran").mu - 25)


def test_win_probability_is_even_for_equal_pairs_and_uses_the_pairs_mean():
    ratings = Ratings(SETTINGS)
    assert ratings.win_probability(("a", "b"), ("c", "d")) == pytest.approx(0.5)
    ratings.table.update({"a": Rating(35, 2), "b": Rating(15, 2), "c": Rating(25, 2)})
    ratings.table["d"] = Rating(25, 2)
    # (35 + 15) / 2 == (25 + 25) / 2: a strong player with a weak partner is an even match.
    assert ratings.win_probability(("a", "b"), ("c", "d")) == pytest.approx(0.5)
    ratings.table["b"] = Rating(25, 2)
    c = math.sqrt(SETTINGS.beta**2 + 4 * 4 / 4)
    expected = 0.5 * math.erfc(-(5 / c) / math.sqrt(2))
    assert ratings.win_probability(("a", "b"), ("c", "d")) == pytest.approx(expected)


def test_a_match_needs_four_different_players():
    with pytest.raises(ValueError):
        Ratings().update(MatchResult(("a", "b"), ("a", "c"), pair_won=True))


def test_the_stronger_half_is_suggested_for_division_a_at_the_directors_split():
    ratings = {p: Rating(mu, 2) for p, mu in zip("abcdef", (30, 10, 25, 20, 15, 5), strict=True)}
    assert split_divisions(ratings) == dict(zip("abcdef", "ABAABB", strict=True))
    assert split_divisions(ratings, share_a=1 / 3) == dict(zip("abcdef", "ABABBB", strict=True))


def test_the_rating_beats_both_baselines_on_a_simulated_series():
    # 300 people, 60 events of 10-20 tables; the last 12 events are held out.
    _, events = simulate_series(300, 60, seed=7, tables=(10, 20))
    coin, points, rating = (evaluate(m(), events) for m in (Coin, PointsSoFar, Snowman))
    assert coin.log_loss == pytest.approx(math.log(2))
    # Seed 7: coin 0.6931 / 50.0 %, points 0.6458 / 63.6 %, rating 0.6109 / 66.0 %.
    assert rating.log_loss < points.log_loss - 0.02
    assert rating.log_loss < coin.log_loss - 0.05
    assert rating.accuracy > points.accuracy + 0.01
    assert rating.accuracy > coin.accuracy + 0.1
