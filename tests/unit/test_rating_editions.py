"""The rating-regulation editions (B.02) as values: registry, dates and fields."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from tracker.rules.rating import (
    RATING_EDITIONS,
    DifferenceCap,
    JuniorRule,
    JuniorUntil,
    Rounding,
    UnknownRatingEditionError,
    rating_rules_in_force,
    rating_rules_named,
)

NAMES = [
    "rating-2006",
    "rating-2009",
    "rating-2011",
    "rating-2014",
    "rating-2022",
    "rating-2024",
    "rating-2025-10",
]


def test_registry_lists_every_edition_oldest_first() -> None:
    assert list(RATING_EDITIONS) == NAMES
    starts = [rules.in_force_from for rules in RATING_EDITIONS.values()]
    assert starts == sorted(starts)
    assert all(RATING_EDITIONS[name].name == name for name in NAMES)


@pytest.mark.parametrize(
    ("on", "name"),
    [
        (date(1990, 1, 1), "rating-2006"),  # anything before 1 April 2006 too
        (date(2006, 3, 31), "rating-2006"),
        (date(2006, 4, 1), "rating-2006"),
        (date(2009, 6, 30), "rating-2006"),  # last day of the 350-point rule
        (date(2009, 7, 1), "rating-2009"),  # first day of the 400-point rule
        (date(2011, 6, 30), "rating-2009"),
        (date(2011, 7, 1), "rating-2011"),
        (date(2014, 6, 30), "rating-2011"),
        (date(2014, 7, 1), "rating-2014"),
        (date(2021, 12, 31), "rating-2014"),
        (date(2022, 1, 1), "rating-2022"),
        (date(2024, 2, 29), "rating-2022"),
        (date(2024, 3, 1), "rating-2024"),
        (date(2025, 9, 30), "rating-2024"),
        (date(2025, 10, 1), "rating-2025-10"),
        (date(2030, 1, 1), "rating-2025-10"),
    ],
)
def test_edition_in_force_on_each_side_of_every_start_date(on: date, name: str) -> None:
    assert rating_rules_in_force(on).name == name


def test_rating_2006_covers_earlier_dates_and_says_so() -> None:
    rules = rating_rules_named("rating-2006")
    assert rules.in_force_from == date(2006, 4, 1)
    assert "before 1 April 2006" in rules.notes


def test_unknown_edition_is_a_value_error_and_a_key_error_listing_names() -> None:
    with pytest.raises(ValueError, match="rating-2006, rating-2009") as info:
        rating_rules_named("rating-1999")
    assert isinstance(info.value, KeyError)
    assert isinstance(info.value, UnknownRatingEditionError)
    assert str(info.value).startswith("unknown rating edition 'rating-1999'")
    for name in NAMES:
        assert name in str(info.value)


@pytest.mark.parametrize(
    ("name", "points", "once", "exempt"),
    [
        ("rating-2006", 350, False, None),  # the rule of 350 points, 1 Apr 2006 - 30 Jun 2009
        ("rating-2009", 400, False, None),  # the rule of 400 points from 1 Jul 2009
        ("rating-2011", 400, False, None),
        ("rating-2014", 400, False, None),  # 8.54
        ("rating-2022", 400, True, None),  # 8.3.1 (2022): only one upgrade per tournament
        ("rating-2024", 400, False, None),  # 8.3.1 (2024): the one-upgrade limit abolished
        ("rating-2025-10", 400, False, 2650),  # 8.3.1 amended 1 Oct 2025
    ],
)
def test_difference_cap_by_edition_8_3_1(
    name: str, points: int, once: bool, exempt: int | None
) -> None:
    assert rating_rules_named(name).difference_cap == DifferenceCap(points, once, exempt)


@pytest.mark.parametrize(
    ("name", "new", "below_2400", "established", "junior", "k_times_n"),
    [
        ("rating-2006", 25, 15, 10, None, None),
        ("rating-2009", 25, 15, 10, None, None),
        ("rating-2011", 30, 15, 10, None, None),  # 8.56 before July 2014
        ("rating-2014", 40, 20, 10, JuniorRule(40, 2300, JuniorUntil.EIGHTEENTH_BIRTHDAY), None),
        (
            "rating-2022",
            40,
            20,
            10,
            JuniorRule(40, 2300, JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY),
            700,
        ),
        (
            "rating-2024",
            40,
            20,
            10,
            JuniorRule(40, 2300, JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY),
            700,
        ),
        (
            "rating-2025-10",
            40,
            20,
            10,
            JuniorRule(40, 2300, JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY),
            700,
        ),
    ],
)
def test_k_factor_fields_by_edition_8_56_and_8_3_3(
    name: str,
    new: int,
    below_2400: int,
    established: int,
    junior: JuniorRule | None,
    k_times_n: int | None,
) -> None:
    rules = rating_rules_named(name)
    assert (rules.k_new_player, rules.k_below_established, rules.k_established) == (
        new,
        below_2400,
        established,
    )
    assert rules.new_player_games == 30
    assert rules.established_from == 2400
    assert rules.junior == junior
    assert rules.k_times_games_max == k_times_n


@pytest.mark.parametrize("name", NAMES)
def test_every_edition_rounds_half_away_from_zero_8_3_4(name: str) -> None:
    rules = rating_rules_named(name)
    assert rules.rounding is Rounding.HALF_AWAY_FROM_ZERO


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (Fraction(5, 2), 3),
        (Fraction(-5, 2), -3),
        (Fraction(-1, 2), -1),
        (Fraction(1, 2), 1),
        (Fraction(-12, 10), -1),
        (Fraction(-18, 10), -2),
        (Fraction(368, 10), 37),
        (Fraction(0), 0),
    ],
)
def test_rounding_8_3_4_half_away_from_zero(value: Fraction, rounded: int) -> None:
    assert Rounding.HALF_AWAY_FROM_ZERO.apply(value) == rounded


@pytest.mark.parametrize(
    ("name", "cap", "k", "rounding"),
    [
        ("rating-2014", "8.54", "8.56", "not recorded"),
        ("rating-2022", "8.3.1", "8.3.3 (number as in 2024)", "8.3.4 (number as in 2024)"),
        ("rating-2024", "8.3.1", "8.3.3", "8.3.4"),
        ("rating-2025-10", "8.3.1 (amended 1 October 2025)", "8.3.3", "8.3.4"),
    ],
)
def test_article_numbers_per_edition(name: str, cap: str, k: str, rounding: str) -> None:
    rules = rating_rules_named(name)
    assert (rules.cap_article, rules.k_article, rules.rounding_article) == (cap, k, rounding)


@pytest.mark.parametrize(
    ("k", "n", "limited"),
    [
        (40, 20, 35),  # 800 > 700: largest K with K x 20 <= 700
        (40, 17, 40),  # 680
        (40, 18, 38),  # 720 > 700; 38 x 18 = 684
        (20, 35, 20),  # exactly 700 is allowed
        (20, 36, 19),
        (10, 70, 10),
        (10, 71, 9),
        (40, 0, 40),
    ],
)
def test_k_times_n_at_most_700_8_3_3(k: int, n: int, limited: int) -> None:
    assert rating_rules_named("rating-2024").k_limited(k, n) == limited


@pytest.mark.parametrize("name", ["rating-2006", "rating-2009", "rating-2011", "rating-2014"])
def test_no_700_rule_before_2022(name: str) -> None:
    assert rating_rules_named(name).k_limited(40, 20) == 40


@pytest.mark.parametrize(
    ("difference", "limited"),
    [(401, 400), (-401, -400), (400, 400), (-400, -400), (0, 0), (399, 399), (-2000, -400)],
)
def test_400_point_rule_limit_keeps_the_sign_8_3_1(difference: int, limited: int) -> None:
    assert DifferenceCap(400).limit(difference) == limited


def test_one_upgrade_per_tournament_caps_only_the_greatest_difference_8_3_1_2022() -> None:
    cap = DifferenceCap(400, once_per_tournament=True)
    assert cap.effective_differences(2000, [450, 600, -500, 10]) == [450, 400, -500, 10]
    assert cap.effective_differences(2000, [100, -200]) == [100, -200]
    # a tie on the greatest difference: only the first game gets the upgrade
    assert cap.effective_differences(2000, [500, -500]) == [400, -500]


def test_2650_and_above_use_the_real_difference_8_3_1_2025() -> None:
    cap = rating_rules_named("rating-2025-10").difference_cap
    assert cap is not None
    assert cap.effective_differences(2650, [500, -700]) == [500, -700]
    assert cap.effective_differences(2649, [500, -700]) == [400, -400]


@pytest.mark.parametrize(
    ("until", "born", "on", "junior"),
    [
        (JuniorUntil.EIGHTEENTH_BIRTHDAY, date(2000, 8, 15), date(2018, 8, 14), True),
        (JuniorUntil.EIGHTEENTH_BIRTHDAY, date(2000, 8, 15), date(2018, 8, 15), False),
        (JuniorUntil.EIGHTEENTH_BIRTHDAY, date(2004, 2, 29), date(2022, 2, 28), True),
        (JuniorUntil.EIGHTEENTH_BIRTHDAY, date(2004, 2, 29), date(2022, 3, 1), False),
        (
            JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY,
            date(2000, 8, 15),
            date(2018, 12, 31),
            True,
        ),
        (
            JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY,
            date(2000, 8, 15),
            date(2019, 1, 1),
            False,
        ),
    ],
)
def test_junior_until_8_56_2014_and_8_3_3_2022(
    until: JuniorUntil, born: date, on: date, junior: bool
) -> None:
    assert until.is_junior(born, on) is junior


def test_editions_are_frozen_values() -> None:
    rules = rating_rules_named("rating-2024")
    with pytest.raises(AttributeError):
        rules.k_new_player = 30  # type: ignore[misc]
    assert rules == rating_rules_in_force(date(2024, 3, 1))
    assert hash(rules) == hash(rating_rules_in_force(date(2025, 1, 1)))
