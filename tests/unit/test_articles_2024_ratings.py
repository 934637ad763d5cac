"""FIDE Title Regulations 2024 (``fide-2024``), 1.4.6 to 1.4.9 with 1.1.4: the ratings.

1.4.6a the rating list at the start, except (1.1.4) in events longer than 30 days, where
the ratings of the day of each game are used; 1.4.6b the floors GM 2200, IM 2050, WGM 2000,
WIM 1850; 1.4.6c no more than one opponent, the lowest rated, raised to the floor; 1.4.6d
unrated opponents count as 1400; 1.4.7b the average rounded, 0.5 up; 1.4.8 Rp = Ra + dp ≥
2600 / 2450 / 2400 / 2250 with 1.4.8a Ra ≥ 2380 / 2230 / 2180 / 2030 and 1.4.8b at least
35 %; 1.4.9 percentages rounded to the nearest whole number, 0.5 up.
"""

from __future__ import annotations

from datetime import date

import pytest

from tests.support.builders import FIDE_2024, Opp, check, player, verdict
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.engine.evaluation import verdict_for
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply

FEDS = ("FRA", "ESP", "NED")
WOMAN = player(1, 2300, None, "GER", sex="w")


def field(results: str, ratings: int | list[int] = 2500) -> list[Opp]:
    rs = ratings if isinstance(ratings, list) else [ratings] * len(results)
    return [(r, "GM", FEDS[i % 3], x) for i, (r, x) in enumerate(zip(rs, results, strict=True))]


def judge(opponents: list[Opp], title: str = "GM"):  # type: ignore[no-untyped-def]
    candidate = WOMAN if title in ("WGM", "WIM") else None
    return verdict(opponents, title=title, rules=FIDE_2024, candidate=candidate)


# ----------------------------------------------------------------------------- 1.4.6a / 1.1.4


def run(
    end: date, start: date = date(2024, 5, 1), game_rating: int | None = 2500
) -> TournamentState:
    """A 9-round event: the candidate (rank 1, GER 2450) meets ranks 2–10, GMs rated 2450 on
    the list at the start, and scores 6 (67 % -> 125). ``game_rating`` is the opponents'
    rating on the day of each game, sent on the ``game_result`` events."""
    events: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id="long",
            start_date=start,
            end_date=end,
            planned_rounds=9,
            host_federation="GER",
        ),
        ev.PlayerRegistered(
            tournament_id="long", rank=1, name="Cand", federation="GER", rating=2450
        ),
    ]
    for rank in range(2, 11):
        events.append(
            ev.PlayerRegistered(
                tournament_id="long",
                rank=rank,
                name=f"Opp {rank}",
                federation=FEDS[rank % 3],
                title="GM",
                rating=2450,
            )
        )
    for r in range(1, 10):
        events.append(
            ev.GameResult(
                tournament_id="long",
                round=r,
                white=1,
                black=r + 1,
                result="1-0" if r <= 6 else "0-1",
                black_rating=game_rating,
            )
        )
        events.append(ev.RoundClosed(tournament_id="long", round=r))
    state = None
    for e in events:
        state, _ = apply(state, e)
    assert state is not None
    return state


@pytest.mark.parametrize(
    ("end", "average", "achieved"),
    [
        # 1 to 31 May: 31 days, longer than 30: the ratings of the day (2500): 2625
        pytest.param(date(2024, 5, 31), 2500, True, id="31-days"),
        # 1 to 30 May: 30 days: the list at the start (2450): 2575
        pytest.param(date(2024, 5, 30), 2450, False, id="30-days"),
    ],
)
def test_1_1_4_events_longer_than_30_days_use_the_ratings_at_the_game_date(
    end: date, average: int, achieved: bool
) -> None:
    state = run(end)
    assert state.title_rules is FIDE_2024
    v = verdict_for(state, 1, Title.GM, 9)
    assert v.average == average
    assert v.achieved is achieved


def test_1_4_6a_without_game_date_ratings_the_list_at_the_start_is_used() -> None:
    v = verdict_for(run(date(2024, 7, 1), game_rating=None), 1, Title.GM, 9)
    assert v.average == 2450


def test_1_4_6a_2009_always_uses_the_list_at_the_start() -> None:
    """The 2009 edition (1.46b) reads the list at the start, whatever the event's length."""
    state = run(date(2023, 7, 1), start=date(2023, 5, 1))
    assert state.title_rules.name == "fide-2009r2022"  # the 2009 text with its revisions
    assert verdict_for(state, 1, Title.GM, 9).average == 2450


# ----------------------------------------------------------------------------- 1.4.6b/c


@pytest.mark.parametrize(
    ("title", "average"),
    [
        ("GM", 2644),  # (8·2700 + 2200)/9 = 2644.4
        ("IM", 2628),  # (21600 + 2050)/9 = 2627.8
        ("WGM", 2622),  # (21600 + 2000)/9 = 2622.2
        ("WIM", 2606),  # (21600 + 1850)/9 = 2605.6
    ],
)
def test_1_4_6b_floors(title: str, average: int) -> None:
    """8 draws against 2700 and one against 1500, raised to the floor of the norm."""
    v = judge([*field("=" * 8, 2700), (1500, "GM", "FRA", "=")], title)
    assert v.average == average
    assert len(v.raised) == 1


def test_1_4_6c_only_the_lowest_rated_opponent_is_raised() -> None:
    """Seven GMs at 2450 and two at 1800 and 1900, 7/9 -> 220: only 1800 is raised, to
    2200: (7·2450 + 2200 + 1900)/9 = 2361.1 -> 2361 < 2380."""
    v = judge([*field("111111=", 2450), (1900, "GM", "FRA", "="), (1800, "GM", "ESP", "0")])
    assert v.average == 2361
    assert v.raised == (10,)
    assert not v.achieved


# ----------------------------------------------------------------------------- 1.4.6d


@pytest.mark.parametrize("title", [None, "GM", "WFM"])
def test_1_4_6d_unrated_opponents_count_as_1400_whatever_their_title(title: str | None) -> None:
    """Eight GMs at 2500 (not below the floor) and an unrated opponent: 1400 (2009's 1.46e
    gave titled ones 2300 / 1900); as the lowest rated it is raised to the GM floor 2200."""
    v = judge([(None, title, "FRA", "="), *field("=" * 8)])
    assert v.counted[0].rating == 1400
    assert v.raised == (2,)
    assert v.average == 2467  # (8·2500 + 2200)/9 = 2466.7


def test_1_4_6_no_maximum_of_unrated_opponents() -> None:
    """Three unrated opponents and six GMs at 2600, 7/9 -> 220: one raised to 2200, two at
    1400: (15600 + 2200 + 2800)/9 = 2288.9 -> 2289; no norm, but no check of 2009's 1.46a
    either."""
    unrated: list[Opp] = [(None, None, f, "=") for f in FEDS]
    v = judge([*unrated, *field("111111", 2600)])
    assert v.average == 2289
    assert not any("unrated" in c.name for c in v.checks)


# ----------------------------------------------------------------------------- 1.4.7b


@pytest.mark.parametrize(
    ("ratings", "average", "achieved"),
    [
        pytest.param([2400] * 5 + [2413] * 5, 2407, True, id="2406.5-up"),
        pytest.param([2400] * 5 + [2413] * 4 + [2412], 2406, False, id="2406.4-down"),
    ],
)
def test_1_4_7b_average_rounded_half_up(ratings: list[int], average: int, achieved: bool) -> None:
    """7½/10 = 75 % -> 193: 2407 + 193 = 2600; 2406 + 193 = 2599. Losses first."""
    v = judge(field("00=1111111", ratings))
    assert v.average == average
    assert v.achieved is achieved
    assert next(c.article for c in v.checks if "average" in c.name) == "1.4.8a"


# ----------------------------------------------------------------------------- 1.4.8


@pytest.mark.parametrize(
    ("title", "ra", "threshold"),
    [("GM", 2475, 2600), ("IM", 2325, 2450), ("WGM", 2275, 2400), ("WIM", 2125, 2250)],
)
@pytest.mark.parametrize("below", [False, True], ids=["at", "one-below"])
def test_1_4_8_performance(title: str, ra: int, threshold: int, below: bool) -> None:
    """6/9 = 67 % -> 125: Ra + 125 is the threshold exactly (2599.5 before rounding)."""
    v = judge(field("111111000", ra - below), title)
    assert v.performance == threshold - below
    assert v.achieved is not below
    assert next(c.article for c in v.checks if "performance" in c.name) == "1.4.8"


@pytest.mark.parametrize(
    ("title", "minimum"), [("GM", 2380), ("IM", 2230), ("WGM", 2180), ("WIM", 2030)]
)
@pytest.mark.parametrize("below", [False, True], ids=["at", "one-below"])
def test_1_4_8a_minimum_average(title: str, minimum: int, below: bool) -> None:
    """8/9 = 89 % -> 351 clears every performance level."""
    v = judge(field("111111110", minimum - below), title)
    assert check(v, "average rating") is not below
    assert v.achieved is not below


@pytest.mark.parametrize(
    ("results", "ra", "achieved"),
    [
        pytest.param("0000===11", 2680, True, id="3.5-of-9"),  # 39 % -> -80: 2600
        pytest.param("000000111", 2800, False, id="3-of-9"),  # 33 %: 2675 but below 35 %
    ],
)
def test_1_4_8b_minimum_score_35_percent(results: str, ra: int, achieved: bool) -> None:
    v = judge(field(results, ra))
    assert check(v, "score") is achieved
    assert v.achieved is achieved
    assert next(c.article for c in v.checks if c.name == "score") == "1.4.8b"


# ----------------------------------------------------------------------------- 1.4.9


@pytest.mark.parametrize(("ra", "achieved"), [(2505, True), (2504, False)])
def test_1_4_9_percentage_rounded_half_up(ra: int, achieved: bool) -> None:
    """10/16 = 62.5 % -> 63 % -> 95 (62 % would be 87): 2505 + 95 = 2600."""
    v = judge(field("00" + "=" * 8 + "1" * 6, ra))
    assert v.percentage == 63
    assert v.achieved is achieved
