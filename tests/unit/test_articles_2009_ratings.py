"""FIDE Title Regulations 2009 (``fide-2009``), 1.46–1.49: ratings, average, performance.

1.46a at most ⌊(n + 1)/5⌋ unrated opponents; 1.46c the rating floor 2200 / 2050 / 2000 /
1850, raising only the single lowest-rated opponent; 1.46d unrated opponents count at the
rating floor of the Rating Regulations, 1200; 1.46e unrated title-holders count at fixed
ratings; 1.47b the average is rounded to the nearest whole number, .5 up; 1.48 Rp = Ra + dp
with the score rounded to a whole percent; 1.48a minimum averages; 1.49 at least 35 %.

dp values are from table 10.1a (reference §1.1). Opponents are GMs from FRA, ESP, NED in
turn unless a case says otherwise, so the title and federation rules hold.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.support.builders import FIDE_2009, Opp, check, player, verdict
from tracker.norms.search import Verdict

FEDS = ("FRA", "ESP", "NED")
WOMAN = player(1, 2300, None, "GER", sex="w")


def field(results: str, ratings: int | Sequence[int | None] = 2500) -> list[Opp]:
    rs = [ratings] * len(results) if isinstance(ratings, int) else list(ratings)
    return [(r, "GM", FEDS[i % 3], res) for i, (r, res) in enumerate(zip(rs, results, strict=True))]


def judge(opponents: list[Opp], title: str = "GM") -> Verdict:
    candidate = WOMAN if title in ("WGM", "WIM") else None
    return verdict(opponents, title=title, rules=FIDE_2009, candidate=candidate)


def all_but(v: Verdict, name: str) -> bool:
    """Every check other than the one named holds."""
    return all(c.met for c in v.checks if name not in c.name)


# ----------------------------------------------------------------------------- 1.46a


@pytest.mark.parametrize(
    ("games", "unrated", "ok"),
    [
        (9, 2, True),  # ⌊10/5⌋ = 2 (seed: 9 rounds, minimum 7 rated)
        (9, 3, False),
        (10, 2, True),  # ⌊11/5⌋ = 2
        (10, 3, False),
        (13, 2, True),  # ⌊14/5⌋ = 2 (seed: 13 rounds, minimum 11 rated)
        (13, 3, False),
        (14, 3, True),  # ⌊15/5⌋ = 3
        (14, 4, False),
        (19, 4, True),  # ⌊20/5⌋ = 4 (seed: 19 rounds, minimum 15 rated)
        (19, 5, False),
    ],
)
def test_1_46a_at_most_a_fifth_of_n_plus_one_unrated(games: int, unrated: int, ok: bool) -> None:
    """1.46a: "20 % of the number of opponents + 1" read as ⌊(n + 1)/5⌋.

    The unrated opponents are GMs (2300 by 1.46e) met first; the rated ones are GMs at 2800.
    All draws, Rp = Ra ≥ 2633 (9 games, 3 unrated: (6·2800 + 3·2300)/9), so only the
    unrated count can fail."""
    ratings = [None] * unrated + [2800] * (games - unrated)
    v = judge(field("=" * games, ratings))
    assert v.achieved is ok
    assert check(v, "unrated opponents") is ok
    assert all_but(v, "unrated opponents")


def test_1_46a_unrated_opponent_raised_to_the_floor_still_counts_as_unrated() -> None:
    """1.46a (engine reading, ``raised_unrated_counts_as_rated=False``): 3 unrated untitled
    opponents, the lowest raised to 2200 by 1.46c, are still 3 unrated > 2."""
    opponents = [(None, None, "FRA", "="), (None, None, "ESP", "="), (None, None, "NED", "=")]
    v = judge([*opponents, *field("======", 2800)])
    assert not check(v, "unrated opponents")
    assert next(c.actual for c in v.checks if c.name == "unrated opponents") == "3"


# ----------------------------------------------------------------------------- 1.46c


@pytest.mark.parametrize(
    ("title", "others", "low", "average"),
    [
        # 7 opponents at `others`, then floor - 100 (round 8) and floor - 200 (round 9):
        # only the round-9 opponent is raised to the floor.
        ("GM", 2500, (2100, 2000), 2422),  # (7·2500 + 2100 + 2200)/9 = 2422.2
        ("IM", 2400, (1950, 1850), 2311),  # (7·2400 + 1950 + 2050)/9 = 2311.1
        ("WGM", 2350, (1900, 1800), 2261),  # (7·2350 + 1900 + 2000)/9 = 2261.1
        ("WIM", 2200, (1750, 1650), 2111),  # (7·2200 + 1750 + 1850)/9 = 2111.1
    ],
)
def test_1_46c_only_the_lowest_rated_opponent_is_raised_to_the_floor(
    title: str, others: int, low: tuple[int, int], average: int
) -> None:
    """1.46c: floor GM 2200, IM 2050, WGM 2000, WIM 1850; no more than one opponent, the
    lowest rated, is raised. (Both raised would give 2433 / 2322 / 2272 / 2122; none raised
    2400 / 2289 / 2239 / 2089.)"""
    opponents = [*field("=" * 7, others), (low[0], "GM", "FRA", "="), (low[1], "GM", "ESP", "=")]
    v = judge(opponents, title)
    assert v.games == 9
    assert v.average == average
    assert v.raised == (10,)  # start rank of the round-9 opponent


def test_1_46c_opponent_at_the_floor_is_not_raised() -> None:
    """1.46c: 2200 is not below the GM floor. (8·2500 + 2200)/9 = 2466.7 -> 2467."""
    v = judge([*field("=" * 8), (2200, "GM", "FRA", "=")])
    assert v.raised == ()
    assert v.average == 2467


@pytest.mark.parametrize(
    ("opponents", "achieved"),
    [
        # 8 at 2450 and one at 1800, raised: (8·2450 + 2200)/9 = 2422.2 -> 2422;
        # 7/9 = 78 % -> 220 -> 2642 (unraised the average would be 2378 < 2380)
        pytest.param([*field("111111==", 2450), (1800, "GM", "FRA", "0")], True, id="one-low"),
        # 7 at 2450 and two at 1800, one raised: (7·2450 + 2200 + 1800)/9 = 2350 < 2380
        # (both raised would give 2394 and 2614, a norm)
        pytest.param(
            [*field("111111=", 2450), (1800, "GM", "FRA", "="), (1800, "GM", "ESP", "0")],
            False,
            id="two-low",
        ),
    ],
)
def test_1_46c_single_raise_decides_the_norm(opponents: list[Opp], achieved: bool) -> None:
    v = judge(opponents)
    assert v.achieved is achieved
    assert check(v, "average rating") is achieved
    assert len(v.raised) == 1


# ----------------------------------------------------------------------------- 1.46d/e


def test_1_46d_unrated_opponent_counts_at_1200() -> None:
    """1.46d: untitled unrated opponents count at the floor of the Rating Regulations, 1200.
    Two of them with 7 at 2500: the lower one (either; both 1200) is raised to 2200 by
    1.46c, the other stays at 1200: (7·2500 + 2200 + 1200)/9 = 2322.2 -> 2322."""
    opponents = [(None, None, "FRA", "="), (None, None, "ESP", "="), *field("=" * 7)]
    v = judge(opponents)
    assert [g.rating for g in v.counted[:2]] == [1200, 1200]
    assert len(v.raised) == 1
    assert v.average == 2322


@pytest.mark.parametrize(
    ("title", "rating"),
    [
        ("GM", 2300),
        ("IM", 2200),
        ("WGM", 2100),
        ("FM", 2100),
        ("WIM", 2000),
        ("WFM", 1900),
        ("CM", 1200),  # not in 1.46e: the ordinary unrated value of 1.46d
        ("WCM", 1200),
        (None, 1200),
    ],
)
def test_1_46e_unrated_title_holders_count_at_fixed_ratings(title: str | None, rating: int) -> None:
    """1.46e (engine reading: the line is for unrated title-holders): GM 2300, WGM 2100,
    IM 2200, WIM 2000, FM 2100, WFM 1900."""
    v = judge([(None, title, "FRA", "="), *field("=" * 8)])
    assert v.counted[0].rating == rating


def test_1_46e_unrated_im_enters_the_average_at_2200() -> None:
    """1.46e: an unrated IM with 8 opponents at 2500: (8·2500 + 2200)/9 = 2466.7 -> 2467
    (2200 is not below the GM floor, so nobody is raised)."""
    v = judge([(None, "IM", "FRA", "="), *field("=" * 8)])
    assert v.average == 2467
    assert v.raised == ()


# ----------------------------------------------------------------------------- 1.47b


@pytest.mark.parametrize(
    ("ratings", "average", "achieved"),
    [
        # sum 24065 over 10: 2406.5 -> 2407 (up, not to the even 2406);
        # 7½/10 = 75 % -> 193; 2407 + 193 = 2600
        pytest.param([2400] * 5 + [2413] * 5, 2407, True, id="2406.5-up"),
        # sum 24064: 2406.4 -> 2406; 2406 + 193 = 2599
        pytest.param([2400] * 5 + [2413] * 4 + [2412], 2406, False, id="2406.4-down"),
    ],
)
def test_1_47b_average_rounded_half_up(ratings: list[int], average: int, achieved: bool) -> None:
    """1.47b: the average is rounded to the nearest whole number, 0.5 upwards. Losses come
    first so that neither a cut (1.42f) nor a dropped win (1.42e) helps."""
    v = judge(field("00=1111111", ratings))
    assert v.games == 10
    assert v.average == average
    assert v.achieved is achieved


def test_1_47b_half_up_reaches_the_minimum_average() -> None:
    """1.47b with 1.48a: sum 23795 over 10 = 2379.5 -> 2380 ≥ 2380. 8/10 = 80 % -> 240."""
    v = judge(field("0011111111", [2379] * 5 + [2380] * 5))
    assert v.achieved
    assert v.games == 10
    assert v.average == 2380


# ----------------------------------------------------------------------------- 1.48


@pytest.mark.parametrize(
    ("title", "ra", "threshold"),
    [
        ("GM", 2475, 2600),  # 9-round table: 6 points from 2475
        ("IM", 2325, 2450),
        ("WGM", 2275, 2400),
        ("WIM", 2125, 2250),
    ],
)
@pytest.mark.parametrize("below", [False, True], ids=["at", "one-below"])
def test_1_48_performance_boundary(title: str, ra: int, threshold: int, below: bool) -> None:
    """1.48: Rp = Ra + dp ≥ 2600 / 2450 / 2400 / 2250. 6/9 = 66.7 % -> 67 % -> dp 125:
    Ra + 125 is exactly the threshold, one point less is not enough."""
    v = judge(field("111111000", ra - below), title)
    assert v.percentage == 67
    assert v.performance == threshold - below
    assert v.achieved is not below
    assert check(v, "performance") is not below


@pytest.mark.parametrize(("ra", "achieved"), [(2505, True), (2504, False)])
def test_1_48_score_percentage_rounded_half_up(ra: int, achieved: bool) -> None:
    """1.48 with table 10.1a: 10/16 = 62.5 % -> 63 % -> dp 95 (62 % would give 87).
    Ra 2505 + 95 = 2600 (16-round table: 10 points from 2505); 2504 + 95 = 2599. Losses
    first, then draws, then wins, so no cut or dropped win helps."""
    v = judge(field("00" + "=" * 8 + "1" * 6, ra))
    assert v.games == 16
    assert v.percentage == 63
    assert v.performance == ra + 95
    assert v.achieved is achieved


# ----------------------------------------------------------------------------- 1.48a


@pytest.mark.parametrize(
    ("title", "minimum"), [("GM", 2380), ("IM", 2230), ("WGM", 2180), ("WIM", 2030)]
)
@pytest.mark.parametrize("below", [False, True], ids=["at", "one-below"])
def test_1_48a_minimum_average_of_the_opponents(title: str, minimum: int, below: bool) -> None:
    """1.48a: Ra ≥ 2380 / 2230 / 2180 / 2030 whatever the performance. 8/9 = 89 % -> 351,
    so Rp ≥ 2729 clears every threshold."""
    v = judge(field("111111110", minimum - below), title)
    assert v.average == minimum - below
    assert check(v, "performance")
    assert check(v, "average rating") is not below
    assert v.achieved is not below


# ----------------------------------------------------------------------------- 1.49


@pytest.mark.parametrize(
    ("results", "ra", "achieved", "performance"),
    [
        # 3½/9 = 38.9 % -> 39 % -> -80; 2680 - 80 = 2600 (9-round table: 3½ from 2680)
        pytest.param("0000===11", 2680, True, 2600, id="3.5-of-9"),
        # 3/9 = 33.3 % -> -125; 2800 - 125 = 2675 is a GM performance, but 33 % < 35 %
        pytest.param("000000111", 2800, False, 2675, id="3-of-9"),
        # 6/17 = 35.3 % -> 35 % -> -110; 2710 - 110 = 2600 (the row the seed leaves out)
        pytest.param("0" * 5 + "=" * 12, 2710, True, 2600, id="6-of-17"),
        # 5½/17 = 32.4 % -> 32 % -> -133; 2800 - 133 = 2667, but below 35 %
        pytest.param("0" * 6 + "=" * 11, 2800, False, 2667, id="5.5-of-17"),
        # 7/20 = exactly 35 % -> -110; 2710 - 110 = 2600
        pytest.param("0" * 6 + "=" * 14, 2710, True, 2600, id="7-of-20"),
        # 6½/20 = 32.5 % -> 33 % -> -125; 2800 - 125 = 2675, but below 35 %
        pytest.param("0" * 7 + "=" * 13, 2800, False, 2675, id="6.5-of-20"),
    ],
)
def test_1_49_minimum_score_35_percent(
    results: str, ra: int, achieved: bool, performance: int
) -> None:
    """1.49 (and 1.22): the minimum score is 35 % for every norm."""
    v = judge(field(results, ra))
    assert v.games == len(results)
    assert v.performance == performance
    assert check(v, "performance")
    assert check(v, "score") is achieved
    assert v.achieved is achieved
