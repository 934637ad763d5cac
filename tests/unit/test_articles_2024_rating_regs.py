"""FIDE Rating Regulations applied from 1 March 2024 (``rating-2024``) and the amendment of
1 October 2025 (``rating-2025-10``), as live ratings use them (reference §1.3, §2.1):

8.3.1 D capped at 400 in every game (no once-per-event limit from 1 March 2024), and from
1 October 2025 not at all for players rated 2650 and above; 8.3.2 ΔR = score − PD from table
8.1.2; 8.3.3 K 40 (new players, under-18s below 2300) / 20 / 10 with K × n ≤ 700; 8.3.4 the
change rounded once, 0.5 away from zero; 5.1 unplayed games are never rated.

PD values (table 8.1.2): D 0 -> .50, ±26 -> .54/.46, ±35 -> .55/.45, ±400 -> .92/.08,
±500 -> .96/.04, −600 -> .02.
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.support.builders import player
from tracker.domain.results import Code
from tracker.norms.live_rating import RatedGame, interim_ratings, k_factor, rating_change
from tracker.rules.rating import RatingRules, rating_rules_in_force, rating_rules_named

R2022 = rating_rules_named("rating-2022")
R2024 = rating_rules_named("rating-2024")
R2025 = rating_rules_named("rating-2025-10")
ON = date(2024, 5, 1)
LATER = date(2025, 11, 1)


def change(rating: int, games: list[RatedGame], rules: RatingRules = R2024, **facts: object) -> int:
    p = player(1, rating, **facts)
    return rating_change(p, games, rules, LATER if rules is R2025 else ON)


def test_editions_by_start_date() -> None:
    """Applied from 1 March 2024; the amendment from 1 October 2025."""
    assert rating_rules_in_force(date(2024, 2, 29)) is R2022
    assert rating_rules_in_force(date(2024, 3, 1)) is R2024
    assert rating_rules_in_force(date(2025, 9, 30)) is R2024
    assert rating_rules_in_force(date(2025, 10, 1)) is R2025


# ----------------------------------------------------------------------------- 8.3.3


@pytest.mark.parametrize(
    ("rating", "facts", "k"),
    [
        (2100, {"rated_games": 50}, 20),  # under 2400
        (2450, {"rated_games": 50}, 10),  # 2400 reached
        (2100, {"rated_games": 10}, 40),  # new: fewer than 30 games
        (2250, {"birth_date": date(2008, 6, 1)}, 40),  # 18 in 2026, under 2300
        (2300, {"birth_date": date(2008, 6, 1)}, 20),  # not under 2300
    ],
)
def test_8_3_3_k_40_20_10(rating: int, facts: dict[str, object], k: int) -> None:
    """A win against an equal rating is ΔR = .5, so the change is K/2."""
    p = player(1, rating, **facts)
    assert k_factor(p, R2024, date(2026, 12, 31), 1) == k
    assert change(rating, [RatedGame(rating, Code.WIN)], **facts) == k // 2


def test_8_3_3_junior_until_the_end_of_the_year_of_the_18th_birthday() -> None:
    p = player(1, 2250, birth_date=date(2008, 6, 1))
    assert k_factor(p, R2024, date(2026, 12, 31), 1) == 40
    assert k_factor(p, R2024, date(2027, 1, 1), 1) == 20


def test_8_3_3_k_times_games_at_most_700() -> None:
    """18 wins against equal ratings, K 40: 40 × 18 = 720 > 700, so K = ⌊700/18⌋ = 38 and
    the change is 38 × 9 = 342 (not 360)."""
    games = [RatedGame(2000, Code.WIN)] * 18
    assert change(2000, games, rated_games=5) == 342


# ----------------------------------------------------------------------------- 8.3.1


def test_8_3_1_every_difference_over_400_is_capped_from_march_2024() -> None:
    """A 2000 player (K 20) draws with 2500 and 2600: both D count as −400 (PD .08):
    20 × 2 × .42 = 16.8 -> 17. Under 2022's one upgrade per event only the −600 game is
    capped, the −500 one keeps PD .04: 20 × (.46 + .42) = 17.6 -> 18."""
    games = [RatedGame(2500, Code.DRAW), RatedGame(2600, Code.DRAW)]
    assert change(2000, games, R2024) == 17
    assert change(2000, games, R2022) == 18


@pytest.mark.parametrize(
    ("rating", "code", "capped", "uncapped"),
    [
        # 2700 (K 10) against 2200: D 500. Capped: PD .92; uncapped: .96
        (2700, Code.WIN, 1, 0),  # 10 × .08 = .8 -> 1; 10 × .04 = .4 -> 0
        (2700, Code.LOSS, -9, -10),  # 10 × −.92 = −9.2; 10 × −.96 = −9.6
        (2650, Code.LOSS, -9, -10),  # 2650 is "2650 and above"
    ],
)
def test_8_3_1_no_cap_for_players_rated_2650_and_above_from_october_2025(
    rating: int, code: Code, capped: int, uncapped: int
) -> None:
    game = [RatedGame(rating - 500, code)]
    assert change(rating, game, R2024, rated_games=100) == capped
    assert change(rating, game, R2025, rated_games=100) == uncapped


def test_8_3_1_opponent_rated_below_2650_is_still_capped_from_october_2025() -> None:
    """The 2200 player's D against 2700 is −500, capped at −400 (PD .08): a win is
    20 × .92 = 18.4 -> 18."""
    assert change(2200, [RatedGame(2700, Code.WIN)], R2025, rated_games=100) == 18


# ----------------------------------------------------------------------------- 8.3.4


@pytest.mark.parametrize(("difference", "expected"), [(35, -1), (-35, 1)])
def test_8_3_4_half_rounded_away_from_zero(difference: int, expected: int) -> None:
    """K 10, a draw at D ±35 (PD .55 / .45): ±.05 × 10 = ±.5 -> ±1."""
    games = [RatedGame(2450 - difference, Code.DRAW)]
    assert change(2450, games, rated_games=100) == expected


def test_8_3_4_rounded_once_on_the_total() -> None:
    """K 10, two draws at D −26 (PD .46): +.4 each; rounded per game 0 + 0, once 0.8 -> 1.
    The live rating after round 2 is the same."""
    games = [RatedGame(2476, Code.DRAW), RatedGame(2476, Code.DRAW)]
    assert change(2450, games, rated_games=100) == 1
    p = player(1, 2450, rated_games=100)
    rounds = [(1, [games[0]]), (2, [games[1]])]
    assert [i.change for i in interim_ratings(p, rounds, R2024, ON)] == [0, 1]


# ----------------------------------------------------------------------------- 5.1


@pytest.mark.parametrize(
    "code",
    [Code.FORFEIT_WIN, Code.FORFEIT_LOSS, Code.WIN_NO_MOVE, Code.DRAW_NO_MOVE, Code.LOSS_NO_MOVE],
)
def test_5_1_unplayed_games_are_never_rated(code: Code) -> None:
    """A forfeit or a game without a move, against a much stronger player, changes
    nothing; beside it a draw and a win at D 0 give 20 × (0 + .5) = 10."""
    assert change(2000, [RatedGame(2400, code)], rated_games=100) == 0
    played = [RatedGame(2000, Code.DRAW), RatedGame(2000, Code.WIN), RatedGame(2400, code)]
    assert change(2000, played, rated_games=100) == 10
