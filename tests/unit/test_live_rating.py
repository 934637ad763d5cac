"""Live ratings under B.02 8.3 and its earlier editions (8.54, 8.56, B.02.10).

Every expected number below was worked out by hand from table 8.1.2 (8.1(b)): the
comment beside a case gives D, PD and K × Σ(score − PD) before rounding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.builders import FIDE_2009
from tracker.domain.players import Player, Sex
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.norms.live_rating import (
    InterimRating,
    RatedGame,
    first_reached,
    interim_ratings,
    k_factor,
    rated_games,
    rating_change,
)
from tracker.rules.rating import (
    RATING_EDITIONS,
    RatingRules,
    rating_rules_in_force,
    rating_rules_named,
)

R2006 = rating_rules_named("rating-2006")
R2009 = rating_rules_named("rating-2009")
R2011 = rating_rules_named("rating-2011")
R2014 = rating_rules_named("rating-2014")
R2022 = rating_rules_named("rating-2022")
R2024 = rating_rules_named("rating-2024")
R2025 = rating_rules_named("rating-2025-10")
ON = date(2024, 5, 1)


def player(rating: int | None, **facts: object) -> Player:
    base = Player(rank=1, name="Player", federation="ENG", rating=rating)
    return dataclasses.replace(base, **facts)  # type: ignore[arg-type]


def games(*pairs: tuple[int | None, Code]) -> list[RatedGame]:
    return [RatedGame(opponent, code) for opponent, code in pairs]


# --- the change itself: 8.3.1, 8.3.2, 8.3.4 ---------------------------------------------


def test_brief_example_1500_k40_beats_1900() -> None:
    """D = -400 -> PD .08 (8.1.2); 40 x .92 = 36.8 -> 37 (8.3.2d, 8.3.4)."""
    p = player(1500, k_factor=40)
    assert rating_change(p, games((1900, Code.WIN)), R2024, ON) == 37


@pytest.mark.parametrize(
    ("on", "win", "loss"),
    [
        # D = 500 counted as 350: PD .89 (345-357); K 15: win 1.65 -> 2, loss -13.35 -> -13
        (date(2009, 6, 30), 2, -13),
        # D = 500 counted as 400: PD .92 (392-411); K 15: win 1.2 -> 1, loss -13.8 -> -14
        (date(2009, 7, 1), 1, -14),
    ],
)
def test_350_point_rule_until_30_june_2009_then_400(on: date, win: int, loss: int) -> None:
    rules = rating_rules_in_force(on)
    p = player(2000)  # established (games unknown), under 2400: K 15 in 2006/2009
    assert k_factor(p, rules, on, 1) == 15
    assert rating_change(p, games((1500, Code.WIN)), rules, on) == win
    assert rating_change(p, games((1500, Code.LOSS)), rules, on) == loss


@pytest.mark.parametrize(
    ("rules", "win", "loss"),
    [
        # 2700 v 2200, D = 500 -> PD .96 (485-517) uncapped; K 10: .4 -> 0, -9.6 -> -10
        (R2025, 0, -10),
        # the same game capped at 400 -> PD .92: .8 -> 1, -9.2 -> -9
        (R2024, 1, -9),
    ],
)
def test_no_400_point_rule_for_2650_and_above_from_october_2025_8_3_1(
    rules: RatingRules, win: int, loss: int
) -> None:
    p = player(2700)
    assert rating_change(p, games((2200, Code.WIN)), rules, ON) == win
    assert rating_change(p, games((2200, Code.LOSS)), rules, ON) == loss


def test_opponent_below_2650_is_still_capped_from_october_2025_8_3_1() -> None:
    """2200 beats 2700: D = -500 counted as -400, PD .08; K 20: 18.4 -> 18 (uncapped,
    PD .04 would give 19.2 -> 19)."""
    assert rating_change(player(2200), games((2700, Code.WIN)), R2025, ON) == 18


def test_2649_is_capped_2650_is_not_8_3_1_2025() -> None:
    # D = 500: capped PD .92 -> K 10 x -.92 = -9.2 -> -9; real PD .96 -> -9.6 -> -10
    assert rating_change(player(2649), games((2149, Code.LOSS)), R2025, ON) == -9
    assert rating_change(player(2650), games((2150, Code.LOSS)), R2025, ON) == -10


@pytest.mark.parametrize(
    ("rules", "rating", "opponents", "code", "expected"),
    [
        # 2022: D 600 (greatest) capped -> .92, D 500 real -> .96; K 20 x (.08 + .04) = 2.4
        (R2022, 2000, (1500, 1400), Code.WIN, 2),
        # 2024: both capped -> .92 each; 20 x .16 = 3.2
        (R2024, 2000, (1500, 1400), Code.WIN, 3),
        # 2014 (before the one-upgrade sentence): both capped too
        (R2014, 2000, (1500, 1400), Code.WIN, 3),
        # 2022 losses: 20 x (-.92 - .96) = -37.6 -> -38; 2024: 20 x -1.84 = -36.8 -> -37
        (R2022, 2000, (1500, 1400), Code.LOSS, -38),
        (R2024, 2000, (1500, 1400), Code.LOSS, -37),
        # the lower-rated side, 2022: D -600 capped -> .08, D -500 real -> .04; 20 x -.12
        (R2022, 1500, (2000, 2100), Code.LOSS, -2),
        (R2024, 1500, (2000, 2100), Code.LOSS, -3),
    ],
)
def test_one_upgrade_per_tournament_in_2022_8_3_1(
    rules: RatingRules, rating: int, opponents: tuple[int, int], code: Code, expected: int
) -> None:
    played = [RatedGame(opponent, code) for opponent in opponents]
    assert rating_change(player(rating), played, rules, date(2023, 1, 1)) == expected


@pytest.mark.parametrize(
    ("k", "opponent", "code", "expected"),
    [
        (10, 2415, Code.DRAW, -1),  # D 35 -> .55; 10 x -.05 = -0.5 -> -1
        (25, 2436, Code.DRAW, -1),  # D 14 -> .52; 25 x -.02 = -0.5 -> -1
        (25, 2380, Code.DRAW, -3),  # D 70 -> .60; 25 x -.1 = -2.5 -> -3
        (25, 2441, Code.DRAW, 0),  # D 9 -> .51; 25 x -.01 = -0.25 -> 0
        (30, 2415, Code.DRAW, -2),  # 30 x -.05 = -1.5 -> -2
        (10, 2485, Code.DRAW, 1),  # D -35 -> .45; 10 x .05 = 0.5 -> 1
        (30, 2485, Code.DRAW, 2),  # 1.5 -> 2
    ],
)
def test_rounding_half_away_from_zero_8_3_4(
    k: int, opponent: int, code: Code, expected: int
) -> None:
    assert rating_change(player(2450, k_factor=k), games((opponent, code)), R2024, ON) == expected


def test_rounded_once_on_the_total_8_3_4() -> None:
    """Two draws at -0.5 each: -1.0 -> -1, not -1 + -1."""
    p = player(2450, k_factor=10)
    played = games((2415, Code.DRAW), (2415, Code.DRAW))
    assert rating_change(p, played, R2024, ON) == -1


@pytest.mark.parametrize(
    "code",
    [
        Code.FORFEIT_WIN,
        Code.FORFEIT_LOSS,
        Code.WIN_NO_MOVE,
        Code.DRAW_NO_MOVE,
        Code.LOSS_NO_MOVE,
        Code.HALF_BYE,
        Code.FULL_BYE,
        Code.PAIRING_BYE,
        Code.ZERO_BYE,
    ],
)
def test_unplayed_games_are_not_rated_b02_5_1(code: Code) -> None:
    p = player(1800, k_factor=20)
    assert rating_change(p, games((1800, code)), R2024, ON) == 0
    assert rated_games(games((1800, code))) == []
    # and they do not count as games for the K x n <= 700 rule
    many = games(*[(1800, code)] * 30, (1800, Code.WIN))
    assert rating_change(player(1800, k_factor=40), many, R2024, ON) == 20


@pytest.mark.parametrize("code", [Code.WIN, Code.DRAW, Code.LOSS])
def test_games_against_unrated_opponents_are_ignored_8_3_1(code: Code) -> None:
    p = player(1800, k_factor=20)
    assert rating_change(p, games((None, code)), R2024, ON) == 0
    mixed = games((None, code), (1800, Code.WIN), (None, Code.LOSS))
    assert rating_change(p, mixed, R2024, ON) == 10  # D 0 -> .5; 20 x .5


def test_unrated_player_has_no_change_and_no_interim_rating() -> None:
    p = player(None, k_factor=40)
    assert rating_change(p, games((1800, Code.WIN)), R2024, ON) == 0
    assert interim_ratings(p, [(1, games((1800, Code.WIN)))], R2024, ON) == []


def test_no_rated_games_no_change() -> None:
    assert rating_change(player(1800), [], R2024, ON) == 0


# --- K: 8.3.3 (2022, 2024), 8.56 (2011, 2014), B.02.10 (2006, 2009) ----------------------


@pytest.mark.parametrize(
    ("rules", "new", "below_2400", "established"),
    [
        (R2006, 25, 15, 10),
        (R2009, 25, 15, 10),
        (R2011, 30, 15, 10),
        (R2014, 40, 20, 10),
        (R2022, 40, 20, 10),
        (R2024, 40, 20, 10),
        (R2025, 40, 20, 10),
    ],
)
def test_k_by_edition(rules: RatingRules, new: int, below_2400: int, established: int) -> None:
    on = rules.in_force_from
    assert k_factor(player(1800, rated_games=10), rules, on, 5) == new
    assert k_factor(player(1800, rated_games=29), rules, on, 5) == new
    assert k_factor(player(1800, rated_games=30), rules, on, 5) == below_2400
    assert k_factor(player(2399), rules, on, 5) == below_2400
    assert k_factor(player(2400), rules, on, 5) == established
    assert k_factor(player(2600, rated_games=500), rules, on, 5) == established


def test_unknown_rated_games_means_an_established_player_8_3_3() -> None:
    assert k_factor(player(1800, rated_games=None), R2024, ON, 5) == 20


def test_new_player_k_comes_first_8_3_3() -> None:
    assert k_factor(player(2450, rated_games=5), R2024, ON, 5) == 40


def test_k_from_the_rating_list_wins_over_the_edition() -> None:
    # a former 2400 player now below: K 10 on the list although the start rating is 2350
    assert k_factor(player(2350, k_factor=10), R2024, ON, 5) == 10
    assert k_factor(player(2350), R2024, ON, 5) == 20


@pytest.mark.parametrize(
    ("rules", "born", "on", "rating", "expected"),
    [
        # 8.56 (2014): "until their 18th birthday, as long as their rating remains under 2300"
        (R2014, date(2000, 8, 15), date(2018, 8, 14), 2000, 40),
        (R2014, date(2000, 8, 15), date(2018, 8, 15), 2000, 20),
        (R2014, date(2000, 8, 15), date(2018, 1, 1), 2299, 40),
        (R2014, date(2000, 8, 15), date(2018, 1, 1), 2300, 20),
        # 8.3.3 (2022, 2024): "until the end of the year of their 18th birthday"
        (R2022, date(2004, 8, 15), date(2022, 12, 31), 2000, 40),
        (R2022, date(2004, 8, 15), date(2023, 1, 1), 2000, 20),
        (R2024, date(2006, 8, 15), date(2024, 12, 31), 2299, 40),
        (R2024, date(2006, 8, 15), date(2024, 12, 31), 2300, 20),
        (R2024, date(2012, 1, 1), date(2024, 5, 1), 1700, 40),
        # no junior rule before July 2014
        (R2011, date(2000, 8, 15), date(2012, 1, 1), 1700, 15),
    ],
)
def test_junior_k(rules: RatingRules, born: date, on: date, rating: int, expected: int) -> None:
    assert k_factor(player(rating, birth_date=born), rules, on, 5) == expected


def test_unknown_birth_date_means_not_a_junior_8_3_3() -> None:
    assert k_factor(player(1700, birth_date=None), R2024, ON, 5) == 20


@pytest.mark.parametrize(
    ("rules", "facts", "n", "expected"),
    [
        (R2024, {"k_factor": 40}, 20, 35),  # from the list, still capped: 700 / 20
        (R2024, {"rated_games": 3}, 20, 35),  # derived new player
        (R2024, {"k_factor": 40}, 17, 40),
        (R2022, {"k_factor": 40}, 20, 35),
        (R2014, {"k_factor": 40}, 20, 40),  # no 700 rule in this edition
    ],
)
def test_k_times_n_at_most_700(
    rules: RatingRules, facts: dict[str, object], n: int, expected: int
) -> None:
    assert k_factor(player(1600, **facts), rules, ON, n) == expected


def test_700_rule_uses_games_in_period_8_3_3() -> None:
    """K 40, n = 20 -> K 35; a win at D 0 (.5): 17.5 -> 18, not 20."""
    p = player(1600, k_factor=40)
    played = games((1600, Code.WIN))
    assert rating_change(p, played, R2024, ON) == 20
    assert rating_change(p, played, R2024, ON, games_in_period=20) == 18
    # by default n counts the rated games given: 20 wins at D 0 -> 35 x 10 = 350
    assert rating_change(p, games(*[(1600, Code.WIN)] * 20), R2024, ON) == 350


# --- interim ratings -------------------------------------------------------------------


def test_interim_ratings_recomputed_from_all_games_not_accumulated() -> None:
    """Two draws at -0.5: -1 after round 1, and still -1 (not -2) after round 2."""
    p = player(2450, k_factor=10, rated_games=200)
    rounds = [(1, games((2415, Code.DRAW))), (2, games((2415, Code.DRAW)))]
    assert interim_ratings(p, rounds, R2024, ON) == [
        InterimRating(1, 2449, -1, 201),
        InterimRating(2, 2449, -1, 202),
    ]


def test_interim_ratings_sorted_by_round_and_rounds_without_rated_games_kept() -> None:
    p = player(1500, k_factor=40)
    rounds = {
        3: games((1600, Code.DRAW)),
        1: games((1900, Code.WIN)),
        2: games((None, Code.WIN), (1700, Code.FORFEIT_WIN)),
    }
    # r1: 40 x .92 = 36.8 -> 37; r3: + (.5 - .36) -> 40 x 1.06 = 42.4 -> 42
    assert interim_ratings(p, rounds.items(), R2024, ON) == [
        InterimRating(1, 1537, 37, None),
        InterimRating(2, 1537, 37, None),
        InterimRating(3, 1542, 42, None),
    ]


def test_interim_ratings_with_a_fixed_period_size() -> None:
    """n = 20 for every round: K 35. r1: 35 x .5 = 17.5 -> 18; r2: 35 x 1.0 = 35."""
    p = player(1600, k_factor=40)
    rounds = [(1, games((1600, Code.WIN))), (2, games((1600, Code.WIN)))]
    ratings = interim_ratings(p, rounds, R2024, ON, games_in_period=20)
    assert [i.rating for i in ratings] == [1618, 1635]


def test_first_reached_titles_the_player_lacks() -> None:
    p = player(2280, sex=Sex.WOMAN, rated_games=40)
    interims = [
        InterimRating(1, 2295, 15, 41),
        InterimRating(2, 2305, 25, 42),
        InterimRating(3, 2290, 10, 43),
        InterimRating(4, 2301, 21, 44),
    ]
    reached = first_reached(p, interims, FIDE_2009.rating_level_titles(p))
    assert {title: i.round for title, i in reached.items()} == {Title.WGM: 2, Title.FM: 2}
    assert reached[Title.FM].rated_games == 42


def test_first_reached_only_the_titles_given() -> None:
    """The edition says which levels are news (tests/unit/test_articles_eligibility.py); the
    search looks at those only."""
    interims = [InterimRating(1, 2410, 30)]
    fm = player(2380, title=Title.FM)
    assert first_reached(fm, interims, FIDE_2009.rating_level_titles(fm)) == {Title.IM: interims[0]}
    im = player(2380, title=Title.IM)
    assert first_reached(im, interims, FIDE_2009.rating_level_titles(im)) == {}
    man = player(2180, sex=Sex.MAN)
    assert set(
        first_reached(man, [InterimRating(1, 2310, 130)], FIDE_2009.rating_level_titles(man))
    ) == {Title.FM, Title.CM}
    assert first_reached(man, [InterimRating(1, 2310, 130)], [Title.CM]) == {
        Title.CM: InterimRating(1, 2310, 130)
    }


# --- properties --------------------------------------------------------------------------

PLAYED = st.sampled_from([Code.WIN, Code.DRAW, Code.LOSS])
EDITIONS = st.sampled_from(list(RATING_EDITIONS.values()))
KS = st.sampled_from([10, 15, 20, 25, 30, 40])


@given(
    st.integers(1000, 2649),
    st.integers(1000, 2649),
    PLAYED,
    KS,
    EDITIONS,
)
def test_one_game_between_equal_k_players_is_antisymmetric(
    a: int, b: int, code: Code, k: int, rules: RatingRules
) -> None:
    """H + L = 1 in 8.1.2 and both sides are capped alike below 2650 (8.3.1), and rounding
    half away from zero is odd (8.3.4): what one gains the other loses."""
    gain = rating_change(player(a, k_factor=k), games((b, code)), rules, ON)
    loss = rating_change(player(b, k_factor=k), games((a, code.opposite())), rules, ON)
    assert gain == -loss


@given(st.integers(2650, 2900), st.integers(2650, 2900), PLAYED, KS)
def test_antisymmetric_between_two_uncapped_players_from_october_2025(
    a: int, b: int, code: Code, k: int
) -> None:
    gain = rating_change(player(a, k_factor=k), games((b, code)), R2025, ON)
    loss = rating_change(player(b, k_factor=k), games((a, code.opposite())), R2025, ON)
    assert gain == -loss


_BETTER = {Code.LOSS: Code.DRAW, Code.DRAW: Code.WIN}


@given(
    st.integers(1000, 2900),
    st.lists(st.tuples(st.integers(1000, 2900), PLAYED), min_size=1, max_size=12),
    st.data(),
    EDITIONS,
    st.one_of(st.none(), KS),
)
def test_change_is_monotone_in_score(
    rating: int,
    pairs: list[tuple[int, Code]],
    data: st.DataObject,
    rules: RatingRules,
    k: int | None,
) -> None:
    played = games(*pairs)
    improvable = [i for i, game in enumerate(played) if game.code in _BETTER]
    if not improvable:
        return
    i = data.draw(st.sampled_from(improvable))
    better = list(played)
    better[i] = RatedGame(played[i].opponent_rating, _BETTER[played[i].code])
    p = player(rating, k_factor=k)
    assert rating_change(p, better, rules, ON) >= rating_change(p, played, rules, ON)


@given(
    st.integers(1000, 2900),
    st.lists(st.tuples(st.integers(1000, 2900), PLAYED), max_size=12),
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(1000, 2900)),
            st.sampled_from([c for c in Code if not c.over_the_board]),
        ),
        max_size=5,
    ),
    EDITIONS,
)
def test_unrated_games_never_change_the_result(
    rating: int,
    pairs: list[tuple[int, Code]],
    unrated: list[tuple[int | None, Code]],
    rules: RatingRules,
) -> None:
    p = player(rating, rated_games=100)
    played: Sequence[RatedGame] = games(*pairs)
    padded = [*played, *games(*unrated), *games(*[(None, c) for _, c in pairs])]
    assert rating_change(p, padded, rules, ON) == rating_change(p, played, rules, ON)


@given(
    st.integers(1000, 2900),
    st.lists(st.tuples(st.integers(1000, 2900), PLAYED), min_size=1, max_size=12),
    EDITIONS,
)
def test_change_is_bounded_by_k_times_games(
    rating: int, pairs: list[tuple[int, Code]], rules: RatingRules
) -> None:
    p = player(rating, rated_games=100)
    k = k_factor(p, rules, ON, len(pairs))
    assert abs(rating_change(p, games(*pairs), rules, ON)) <= k * len(pairs)
